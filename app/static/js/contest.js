// A contest's page (app/templates/contest.html): the countdown, and the board redrawn from the
// live stream (GET /api/v1/contests/{id}/events, SSE). Every value goes in as text, never as
// markup. When the phase changes (start, freeze, end, reveal) the page reloads: the server draws
// what each phase shows (the problems' links, the join button, the note under the board).
(() => {
  const data = JSON.parse(document.getElementById("contest-data").textContent);
  const phasePill = document.getElementById("contest-phase");
  const box = document.getElementById("countdown");
  const out = document.getElementById("countdown-time");

  const pad = (n) => String(n).padStart(2, "0");
  function tick() {
    const now = Date.now();
    const start = Date.parse(box.dataset.start);
    const end = Date.parse(box.dataset.end);
    const target = now < start ? start : end;
    let s = Math.max(0, Math.round((target - now) / 1000));
    const d = Math.floor(s / 86400);
    s -= d * 86400;
    const text = `${d ? d + "d " : ""}${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
    out.textContent = now >= end ? "00:00:00" : text;
  }
  tick();
  setInterval(tick, 1000);

  function cell(c) {
    const td = document.createElement("td");
    td.className = "num cell" + (c.solved ? " ok" : c.tries || (c.rerun && c.rerun !== "pending") ? " bad" : "");
    td.title = c.problem;
    if (c.solved) {
      td.append(`+${c.tries || ""}`, document.createElement("br"));
      const sm = document.createElement("span");
      sm.className = "small mono";
      sm.textContent = `${Math.round(c.minutes || 0)}′` + (c.score_ms != null ? ` · ${c.score_ms.toFixed(3)} ms` : "");
      td.append(sm);
    } else if (c.tries) {
      td.append(`−${c.tries}`);
    }
    if (c.rerun) {
      const r = document.createElement("span");
      r.className = "small rerun";
      r.textContent = `re-run: ${c.rerun}`;
      td.append(document.createElement("br"), r);
    }
    return td;
  }

  function draw(board) {
    const table = document.getElementById("board");
    if (!table) return;
    const body = document.createElement("tbody");
    for (const line of board.lines) {
      const tr = document.createElement("tr");
      if (line.username === data.me) tr.className = "me";
      const td = (text, cls) => {
        const el = document.createElement("td");
        el.className = cls;
        el.textContent = text;
        return el;
      };
      const who = document.createElement("td");
      const a = document.createElement("a");
      a.href = `/users/${encodeURIComponent(line.username)}`;
      a.textContent = line.username;
      who.append(a);
      tr.append(td(line.rank, "num"), who, td(line.points.toFixed(1), "num mono"), td(line.solved, "num"), td(line.minutes.toFixed(1), "num mono"));
      for (const c of line.cells) tr.append(cell(c));
      body.append(tr);
    }
    if (!board.lines.length) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = 5 + board.problems.length;
      td.className = "empty";
      td.textContent = "Nobody yet.";
      tr.append(td);
      body.append(tr);
    }
    table.tBodies[0].replaceWith(body);
  }

  if (!window.EventSource) return;
  const es = new EventSource(`/api/v1/contests/${data.id}/events`);
  es.addEventListener("standings", (ev) => {
    const board = JSON.parse(ev.data);
    if (phasePill && board.phase !== phasePill.textContent.trim()) {
      es.close();
      window.location.reload();
      return;
    }
    draw(board);
  });
  es.addEventListener("timeout", () => es.close());
})();
