// The problem page: CodeMirror 6 editor; a language menu built from the registry's languages
// that the page embeds (cfg.languages: name, menu_label, editor_mode...), the switch loading
// the starter; drafts in the browser and, logged in, on the server (drafts.js); what this
// server does with the chosen language, said beside Run and Submit; a past submission opened
// (?from=ID) or compared with (diffview.js); "Your submissions" kept current (recent.js); error
// lines marked in the gutter (diagnostics.js); Ctrl/Cmd+Enter to run, Run and Submit. Tab and
// Shift+Tab indent and dedent (CodeMirror's indentWithTab); Esc then Tab leaves the editor, for
// keyboard users (the shortcut list says so).
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { indentUnit } from "@codemirror/language";
import { oneDark } from "@codemirror/theme-one-dark";
import { editorMode } from "./modes.js";
import { followSubmission, renderCases, stageText } from "./progress.js";
import { draftStore } from "./drafts.js";
import { errorLines, gutter, markLines } from "./diagnostics.js";
import { compareWith, diffSlot, stopComparing } from "./diffview.js";
import * as recent from "./recent.js";

const page = document.getElementById("problem-page");
const cfg = JSON.parse(document.getElementById("problem-data").textContent);
const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
const langSelect = document.getElementById("language");
const gpuSelect = document.getElementById("gpu-kind");
const output = document.getElementById("run-output");
const runNote = document.getElementById("run-note");
const langNote = document.getElementById("lang-note");
const language = new Compartment();
const drafts = draftStore(cfg, csrf);
const langs = Object.fromEntries(cfg.languages.map((l) => [l.name, l]));
const gpuKind = () => (gpuSelect ? gpuSelect.value : Object.keys(cfg.support)[0]);
const support = (lang) => cfg.support[gpuKind()]?.[lang] || { support: "gpu", note: "" };
for (const l of cfg.languages) langSelect.add(new Option(l.menu_label, l.name));
const fallback = cfg.languages[0].name; // the registry's first is the default
const opened = cfg.opened && cfg.opened.source !== undefined && langs[cfg.opened.language] ? cfg.opened : null;
let current = opened ? opened.language : localStorage.getItem(`kerneldojo:lang:${cfg.slug}`) || fallback;
if (!langs[current] || !cfg.starters[current]) current = fallback;
langSelect.value = current;

const langExt = (lang) => editorMode(langs[lang].editor_mode);
let saveTimer = null;
let suppressSave = false; // while the editor shows a submission it opened, until the first edit

const view = new EditorView({
  parent: document.getElementById("editor"),
  state: EditorState.create({
    doc: drafts.load(current) ?? cfg.starters[current],
    extensions: [
      basicSetup,
      oneDark,
      EditorView.lineWrapping, // long starter comments and signatures wrap instead of hiding
      gutter,
      diffSlot.of([]),
      indentUnit.of("    "),
      language.of(langExt(current)),
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { send("run"); return true; } }])),
      keymap.of([indentWithTab]),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        if (suppressSave && !u.transactions.some((t) => t.isUserEvent("input") || t.isUserEvent("delete") || t.isUserEvent("undo"))) return;
        suppressSave = false;
        clearTimeout(saveTimer);
        saveTimer = setTimeout(() => drafts.save(current, view.state.doc.toString()), 300);
      }),
    ],
  }),
});
window.kerneldojoEditor = view; // for scripted use (tests, extensions)
window.kerneldojoDrafts = drafts;
// Save on leaving too, so that a draft typed just before a reload is not lost to the debounce.
window.addEventListener("pagehide", () => {
  if (!suppressSave) drafts.save(current, view.state.doc.toString());
  drafts.flush();
});

// A language the chosen GPU kind's workers cannot grade right now (their self-test failed:
// app/workers.py) is disabled in the menu, its reason in the option's title and in a note that
// stays visible; if it is the current one, Run and Submit still send (the server answers "not
// available", which counts for nothing).
function showRunNote() {
  const s = support(current);
  const off = s.available === false;
  runNote.textContent = off ? s.reason : s.note;
  runNote.className = `run-note run-note-${off ? "unavailable" : s.support}`;
  runNote.hidden = off ? !s.reason : !s.note || s.support === "gpu";
  const reasons = [];
  for (const opt of langSelect.options) {
    const o = support(opt.value);
    const unavailable = o.available === false;
    opt.disabled = unavailable;
    opt.title = unavailable ? o.reason : "";
    const suffix = unavailable ? " — not available now" : o.support === "compile_only" ? " — compile only here" : "";
    opt.textContent = langs[opt.value].menu_label + suffix;
    if (unavailable && opt.value !== current) reasons.push(o.reason);
  }
  langNote.textContent = reasons.join(" · ");
  langNote.hidden = reasons.length === 0;
}
showRunNote();
gpuSelect?.addEventListener("change", showRunNote);

function setLanguage(lang, text) {
  current = lang;
  langSelect.value = lang;
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    effects: language.reconfigure(langExt(lang)),
  });
  markLines(view, []);
  showRunNote();
}

langSelect.addEventListener("change", () => {
  if (!suppressSave) drafts.save(current, view.state.doc.toString());
  suppressSave = false;
  const lang = langSelect.value;
  localStorage.setItem(`kerneldojo:lang:${cfg.slug}`, lang);
  setLanguage(lang, drafts.load(lang) ?? cfg.starters[lang]);
});

document.getElementById("reset-starter").addEventListener("click", () => {
  if (!confirm("Replace your code with the starter?")) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: cfg.starters[current] } });
});

// A past submission opened from its page: loaded over the draft in one undoable change (Undo
// brings the draft back), its error lines marked; the draft is kept until the learner edits.
if (opened) {
  suppressSave = true;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: opened.source }, userEvent: "open" });
  const label = { accepted: "Accepted" }[opened.verdict] || (opened.verdict || "pending").replaceAll("_", " ");
  output.hidden = false;
  output.innerHTML = `<div class="alert alert-info" role="status"></div>`;
  output.firstChild.textContent = `Submission #${opened.id} (${label}) is open in the editor. Your draft is kept: Undo (Ctrl+Z) brings it back.`;
  if (opened.message) {
    const p = document.createElement("pre");
    p.className = "log";
    p.textContent = opened.message + (opened.compileLog ? `\n\n${opened.compileLog}` : "");
    output.appendChild(p);
  }
  markLines(view, errorLines(opened.verdict, opened.message, opened.compileLog));
} else if (cfg.opened?.error) {
  output.hidden = false;
  output.innerHTML = `<div class="alert alert-error" role="alert"></div>`;
  output.firstChild.textContent = cfg.opened.error;
}

// Compare with a past submission (its code is fetched when asked for).
const diffBar = document.getElementById("diff-bar");
recent.onDiff(async (id) => {
  const r = await fetch(`/api/v1/submissions/${id}`);
  const sub = r.ok ? await r.json() : null;
  if (!sub || typeof sub.source !== "string") return;
  compareWith(view, sub.source);
  diffBar.hidden = false;
  diffBar.querySelector(".diff-label").textContent =
    `Comparing with #${sub.id} (${(sub.verdict || sub.status).replaceAll("_", " ")}, ${langs[sub.language]?.label || sub.language}): its lines that differ are shown in red above your changed lines, in green.`;
});
document.getElementById("diff-stop").addEventListener("click", () => {
  stopComparing(view);
  diffBar.hidden = true;
});

document.getElementById("run-btn").addEventListener("click", () => send("run"));
document.getElementById("submit-btn").addEventListener("click", () => send("submit"));
document.getElementById("profile-btn")?.addEventListener("click", () => send("profile"));

async function send(mode) {
  if (!cfg.loggedIn) {
    window.location = `/login?next=${encodeURIComponent(location.pathname)}`;
    return;
  }
  const source = view.state.doc.toString();
  drafts.save(current, source);
  suppressSave = false;
  markLines(view, []);
  setBusy(true);
  output.hidden = false;
  output.innerHTML = `<div class="progress-line"><span class="spinner"></span><span class="stage">Sending…</span></div>`;
  let res;
  try {
    res = await fetch("/api/v1/submissions", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ problem: cfg.slug, language: current, mode, source,
                             gpu_kind: gpuSelect ? gpuSelect.value : null }),
    });
  } catch (e) {
    showError(`Network error: ${e}`);
    return;
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = body.detail;
    showError(typeof d === "string" ? d : Array.isArray(d) ? d.map((e) => `${(e.loc || []).slice(-1)[0]}: ${e.msg}`).join("; ")
      : `The server answered ${res.status}.`);
    return;
  }
  if (mode === "submit" || mode === "profile") {  // both have a page of their own
    await drafts.sync();
    window.location = `/submissions/${body.id}`;
    return;
  }
  recent.refresh(); // the queued Run joins "Your submissions" at once
  const line = output.querySelector(".stage");
  followSubmission(body.id, (ev) => { line.textContent = stageText(ev); }, async () => {
    recent.refresh(); // with its verdict
    const r = await fetch(`/api/v1/submissions/${body.id}`);
    const sub = await r.json();
    // The cases a CPU grading skips depend on the language (Numba's simulator and Pallas'
    // interpreter take fewer than Triton's interpreter): the submission's own list.
    const gpuOnly = sub.gpu_kind === "cpu" ? cfg.gpuOnlyByLanguage?.[sub.language] ?? cfg.gpuOnly : [];
    output.innerHTML = renderCases(sub, { gpuOnly, total: cfg.testCount });
    // Marks only on the code that was run: after an edit its line numbers may not match.
    if (view.state.doc.toString() === source) {
      const res = sub.result || {};
      markLines(view, errorLines(sub.verdict, res.message, res.compile?.log));
    }
    setBusy(false);
  });
}

function showError(msg) {
  output.innerHTML = `<div class="alert alert-error" role="alert"></div>`;
  output.firstChild.textContent = msg;
  setBusy(false);
}

function setBusy(b) {
  page.classList.toggle("busy", b);
  for (const id of ["run-btn", "profile-btn", "submit-btn"]) {
    const btn = document.getElementById(id);
    if (btn) btn.disabled = b;
  }
}
