// Live progress of a submission over server-sent events, and the small renderers around it.

export function followSubmission(id, onProgress, onDone) {
  // Live over SSE; when the server refuses a stream (its caps) or ends one (its time limit),
  // poll the submission instead until it is done.
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    for (;;) {
      try {
        const r = await fetch(`/api/v1/submissions/${id}`);
        if (r.ok) {
          const sub = await r.json();
          const ev = { ...(sub.progress || {}), status: sub.status, verdict: sub.verdict,
                       queue_position: sub.queue_position, message: sub.message };
          if (sub.status === "queued") ev.stage = "queued";
          if (sub.status === "done") { ev.stage = "done"; onProgress(ev); onDone(ev); return; }
          onProgress(ev);
        }
      } catch (e) { /* offline for a moment: try again */ }
      await new Promise((res) => setTimeout(res, 3000));
    }
  };
  const es = new EventSource(`/api/v1/submissions/${id}/events`);
  es.addEventListener("progress", (m) => onProgress(JSON.parse(m.data)));
  es.addEventListener("done", (m) => {
    es.close();
    onProgress(JSON.parse(m.data));
    onDone(JSON.parse(m.data));
  });
  es.addEventListener("timeout", () => { es.close(); poll(); });
  es.onerror = () => {
    // A refused stream (429) closes for good: poll. Otherwise the browser reconnects by itself.
    if (es.readyState === EventSource.CLOSED) poll();
  };
  return es;
}

export function stageText(ev) {
  switch (ev.stage) {
    case "queued":
      return ev.queue_position ? `Queued — position ${ev.queue_position}` : "Queued";
    case "starting":
      return "Starting the grader…";
    case "requeued":
      return "Worker lost — re-queued";
    case "compiling":
      return ev.detail ? `Compiling — ${ev.detail}` : "Compiling…";
    case "testing":
      return `Test ${ev.index} of ${ev.total}${ev.name ? ` — ${ev.name}` : ""}${ev.detail ? ` (${ev.detail})` : ""}`;
    case "benchmarking":
      return `Benchmark ${ev.index} of ${ev.total}${ev.name ? ` — ${ev.name}` : ""}${ev.detail ? ` (${ev.detail})` : ""}`;
    case "profiling":
      return ev.detail ? `Profiling — ${ev.detail}` : "Profiling…";
    case "sanitizing":
      return ev.detail ? `Sanitizer — ${ev.detail}` : "Running the sanitizer…";
    case "done":
      return (ev.verdict || "done").replaceAll("_", " ");
    default:
      return ev.stage || ev.status || "…";
  }
}

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
// Verdict labels as the server defines them (judge/verdicts.py, embedded by base.html).
const LABELS = JSON.parse(document.getElementById("kd-verdict-labels")?.textContent || "{}");

// A finished run's result; ``coverage.gpuOnly`` names the test cases that run only on a GPU
// (skipped on the CPU interpreter), ``coverage.total`` counts them all.
export function renderCases(sub, coverage = { gpuOnly: [], total: 0 }) {
  const r = sub.result || {};
  const v = sub.verdict || "internal_error";
  const cases = r.cases || [];
  const passed = cases.filter((c) => c.passed).length;
  const gpuOnly = cases.length ? coverage.gpuOnly || [] : [];
  let html = `<div class="verdict-banner verdict-${esc(v)}"><span class="verdict-label">${esc(LABELS[v] || v)}</span>`;
  if (cases.length) html += `<span class="run-summary"><b>${passed}</b>/${cases.length} tests passed</span>`;
  if (gpuOnly.length) {
    const run = coverage.total - gpuOnly.length;
    html += `<span class="coverage-fact">${run} of ${coverage.total} tests run on the CPU interpreter; ${gpuOnly.length} run only on a GPU</span>`;
  }
  html += `<a class="muted" href="/submissions/${sub.id}">run #${sub.id} · details →</a></div>`;
  // A message of several lines (a traceback, a compiler's note) keeps them, in monospace.
  if (r.message) html += r.message.includes("\n") ? `<pre class="log verdict-message verdict-trace">${esc(r.message)}</pre>`
    : `<p class="verdict-message">${esc(r.message)}</p>`;
  if (r.compile && !r.compile.ok && r.compile.log) html += `<pre class="log">${esc(r.compile.log)}</pre>`;
  if ((r.cases || []).length) {
    html += `<ul class="cases">`;
    for (const c of r.cases) {
      html += `<li class="case ${c.passed ? "pass" : "fail"}"><span class="dot"></span><span class="case-name">${esc(c.name)}</span>`;
      if (!c.passed && c.message) html += `<span class="case-msg">${esc(c.message)}</span>`;
      html += `</li>`;
    }
    for (const name of gpuOnly) {
      html += `<li class="case skipped"><span class="dot"></span><span class="case-name">${esc(name)}</span><span class="muted small">GPU only</span></li>`;
    }
    html += `</ul>`;
  }
  if (r.stdout) html += `<details><summary>stdout</summary><pre class="log">${esc(r.stdout)}</pre></details>`;
  return html;
}
