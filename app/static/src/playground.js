// The playground page: the learner's draft (drafts.js, the editor's own store), their sizes, a
// seed and optional literal inputs; POST /api/v1/problems/{slug}/playground, then poll
// GET /api/v1/playground/{id} until done; the outputs beside the reference's, mismatches marked.
import { draftStore } from "./drafts.js";

const cfg = JSON.parse(document.getElementById("playground-data").textContent);
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const drafts = draftStore(cfg, csrf);
const $ = (id) => document.getElementById(id);
const POLL_MS = 400;
const GIVE_UP_MS = 10 * 60 * 1000;

const langSel = $("pg-language");
const source = $("pg-source");
for (const l of cfg.languages) langSel.append(new Option(l.label, l.name));
let lang = localStorage.getItem(`kerneldojo:lang:${cfg.slug}`) || cfg.languages[0].name;
if (!cfg.languages.some((l) => l.name === lang)) lang = cfg.languages[0].name;

function load(l) {
  lang = l;
  langSel.value = l;
  source.value = drafts.load(l) ?? cfg.starters[l] ?? "";
}
load(lang);
langSel.addEventListener("change", () => load(langSel.value));
source.addEventListener("input", () => drafts.save(lang, source.value));
source.addEventListener("keydown", (e) => {
  if (e.key === "Tab" && !e.shiftKey) {  // indent, as the editor does (Esc leaves: no Tab trap)
    e.preventDefault();
    source.setRangeText("    ", source.selectionStart, source.selectionEnd, "end");
    drafts.save(lang, source.value);
  }
});
window.addEventListener("pagehide", () => drafts.flush());

const params = $("pg-params");
const gpuSel = $("pg-gpu");
const kind = () => (gpuSel ? gpuSel.value : cfg.gpuKind);
function fields() {
  const old = Object.fromEntries([...params.querySelectorAll("input")].map((i) => [i.dataset.param, i.value]));
  params.replaceChildren();
  for (const [name, max] of Object.entries(cfg.limits[kind()])) {
    const label = document.createElement("label");
    label.textContent = `${name} (1–${max})`;
    const input = document.createElement("input");
    Object.assign(input, { type: "number", min: 1, max, step: 1, name, value: old[name] ?? cfg.defaults[name] ?? 1 });
    input.dataset.param = name;
    label.append(input);
    params.append(label);
  }
}
fields();
gpuSel?.addEventListener("change", fields);

const status = $("pg-status");
const result = $("pg-result");
const say = (text, cls = "") => { status.textContent = text; status.className = `pg-status ${cls}`; };
const el = (tag, attrs = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), attrs);
  e.append(...kids);
  return e;
};
const fmt = (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toPrecision(7) : String(v));

$("pg-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = { language: lang, source: source.value, params: {}, seed: Number($("pg-seed").value || 0), gpu_kind: kind() };
  for (const i of params.querySelectorAll("input")) body.params[i.dataset.param] = Number(i.value);
  const lit = $("pg-literals").value.trim();
  if (lit) {
    try { body.literals = JSON.parse(lit); } catch (err) { say(`The typed inputs are not JSON: ${err.message}`, "bad"); return; }
  }
  drafts.save(lang, source.value);
  $("pg-run").disabled = true;
  say("Queued…");
  try {
    const r = await fetch(`/api/v1/problems/${encodeURIComponent(cfg.slug)}/playground`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    const run = await r.json();
    if (!r.ok) { say(typeof run.detail === "string" ? run.detail : "The case was refused.", "bad"); return; }
    await follow(run.id);
  } catch (err) {
    say(`The server could not be reached: ${err.message}`, "bad");
  } finally {
    $("pg-run").disabled = false;
  }
});

async function follow(id) {
  const t0 = Date.now();
  while (Date.now() - t0 < GIVE_UP_MS) {
    const r = await fetch(`/api/v1/playground/${id}`);
    const run = await r.json();
    if (run.status === "done") { say(""); show(run); return; }
    say(run.status === "queued" ? "Queued…" : `Running${run.stage ? ` (${run.stage})` : ""}…`);
    await new Promise((ok) => setTimeout(ok, POLL_MS));
  }
  say("No result after ten minutes: the workers may be busy or down.", "bad");
}

function table(name, out, bad) {
  const got = out.got?.values ?? [];
  const exp = out.expected?.values ?? [];
  const rows = [];
  for (let i = 0; i < Math.max(got.length, exp.length); i++) {
    rows.push(el("tr", { className: bad.has(i) ? "pg-bad" : "" },
      el("td", { textContent: String(i) }), el("td", { textContent: i < got.length ? fmt(got[i]) : "" }),
      el("td", { textContent: i < exp.length ? fmt(exp[i]) : "" })));
  }
  const shape = (out.expected ?? out.got)?.shape ?? [];
  const total = shape.reduce((a, b) => a * b, 1);
  return el("div", { className: "pg-output" },
    el("h3", { textContent: `${name} ${JSON.stringify(shape)}` }),
    el("p", { className: "muted small", textContent: `${bad.size ? `${bad.size} of the values shown differ` : "the values shown match"}${total > rows.length ? ` (first ${rows.length} of ${total})` : ""}` }),
    el("div", { className: "pg-scroll" }, el("table", { className: "pg-table" },
      el("thead", {}, el("tr", {}, el("th", { textContent: "index" }), el("th", { textContent: "yours" }), el("th", { textContent: "reference" }))),
      el("tbody", {}, ...rows))));
}

function show(run) {
  const res = run.result || {};
  const play = res.playground || {};
  const ok = res.verdict === "accepted";
  const labels = JSON.parse(document.getElementById("kd-verdict-labels")?.textContent || "{}");
  result.replaceChildren();
  result.hidden = false;
  const head = el("p", {}, el("span", { className: `pg-verdict ${ok ? "ok" : "bad"}`, textContent: ok ? "Matches the reference" : (labels[res.verdict] || res.verdict) }));
  if (play.params) head.append(` on ${Object.entries(play.params).map(([k, v]) => `${k} = ${v}`).join(", ")}, seed ${play.seed}`);
  if (play.call_ms != null) head.append(` · one call: ${play.call_ms} ms (${res.device})`);
  result.append(el("h2", { textContent: "Result" }), head);
  const c = (res.cases || [])[0];
  if (c && c.message) result.append(el("p", { className: "bad", textContent: c.message }));
  else if (res.message) result.append(el("p", { className: ok ? "muted" : "bad", textContent: res.message }));
  if (res.compile && res.compile.log) result.append(el("pre", { className: "pg-stdout", textContent: res.compile.log }));
  const outs = el("div", { className: "pg-outputs" });
  for (const [name, out] of Object.entries(play.outputs || {})) outs.append(table(name, out, new Set((play.mismatches || {})[name] || [])));
  if (outs.childElementCount) result.append(outs);
  result.append(el("h3", { textContent: "Printed output" }),
    el("pre", { className: "pg-stdout", id: "pg-stdout", textContent: res.stdout || "(nothing printed)" }));
  const inputs = Object.entries(play.inputs || {});
  if (inputs.length) {
    const d = el("details", {}, el("summary", { textContent: "Inputs" }));
    for (const [name, t] of inputs) {
      d.append(el("p", { className: "mono small", textContent: `${name} ${JSON.stringify(t.shape)}: ${t.values.map(fmt).join(", ")}${t.values.length < t.shape.reduce((a, b) => a * b, 1) ? ", …" : ""}` }));
    }
    result.append(d);
  }
  for (const w of res.warnings || []) result.append(el("p", { className: "muted small", textContent: w }));
}
