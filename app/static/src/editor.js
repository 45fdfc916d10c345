// The problem page: CodeMirror 6 editor; a language menu built from the registry's languages
// that the page embeds (cfg.languages: name, menu_label, editor_mode...), the switch loading
// the starter; drafts in localStorage, Ctrl/Cmd+Enter to run, Run and Submit.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { indentUnit } from "@codemirror/language";
import { oneDark } from "@codemirror/theme-one-dark";
import { editorMode } from "./modes.js";
import { followSubmission, renderCases, stageText } from "./progress.js";

const page = document.getElementById("problem-page");
const cfg = JSON.parse(document.getElementById("problem-data").textContent);
const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
const langSelect = document.getElementById("language");
const gpuSelect = document.getElementById("gpu-kind");
const output = document.getElementById("run-output");
const language = new Compartment();
const draftKey = (lang) => `kerneldojo:draft:${cfg.slug}:${lang}`;
const langs = Object.fromEntries(cfg.languages.map((l) => [l.name, l]));
for (const l of cfg.languages) langSelect.add(new Option(l.menu_label, l.name));
const fallback = cfg.languages[0].name; // the registry's first is the default
let current = localStorage.getItem(`kerneldojo:lang:${cfg.slug}`) || fallback;
if (!langs[current] || !cfg.starters[current]) current = fallback;
langSelect.value = current;

const langExt = (lang) => editorMode(langs[lang].editor_mode);
const initial = localStorage.getItem(draftKey(current)) ?? cfg.starters[current];
let saveTimer = null;

const view = new EditorView({
  parent: document.getElementById("editor"),
  state: EditorState.create({
    doc: initial,
    extensions: [
      basicSetup,
      oneDark,
      indentUnit.of("    "),
      language.of(langExt(current)),
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { send("run"); return true; } }])),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        clearTimeout(saveTimer);
        saveTimer = setTimeout(() => localStorage.setItem(draftKey(current), view.state.doc.toString()), 300);
      }),
    ],
  }),
});
window.kerneldojoEditor = view;
// Save on leaving too, so that a draft typed just before a reload is not lost to the debounce.
window.addEventListener("pagehide", () => localStorage.setItem(draftKey(current), view.state.doc.toString())); // for scripted use (tests, extensions)

langSelect.addEventListener("change", () => {
  localStorage.setItem(draftKey(current), view.state.doc.toString());
  current = langSelect.value;
  localStorage.setItem(`kerneldojo:lang:${cfg.slug}`, current);
  const text = localStorage.getItem(draftKey(current)) ?? cfg.starters[current];
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    effects: language.reconfigure(langExt(current)),
  });
});

document.getElementById("reset-starter").addEventListener("click", () => {
  if (!confirm("Replace your code with the starter?")) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: cfg.starters[current] } });
});

document.getElementById("run-btn").addEventListener("click", () => send("run"));
document.getElementById("submit-btn").addEventListener("click", () => send("submit"));

async function send(mode) {
  if (!cfg.loggedIn) {
    window.location = `/login?next=${encodeURIComponent(location.pathname)}`;
    return;
  }
  localStorage.setItem(draftKey(current), view.state.doc.toString());
  setBusy(true);
  output.hidden = false;
  output.innerHTML = `<div class="progress-line"><span class="spinner"></span><span class="stage">Sending…</span></div>`;
  let res;
  try {
    res = await fetch("/api/v1/submissions", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ problem: cfg.slug, language: current, mode, source: view.state.doc.toString(),
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
  if (mode === "submit") {
    window.location = `/submissions/${body.id}`;
    return;
  }
  const line = output.querySelector(".stage");
  followSubmission(body.id, (ev) => { line.textContent = stageText(ev); }, async () => {
    const r = await fetch(`/api/v1/submissions/${body.id}`);
    const sub = await r.json();
    output.innerHTML = renderCases(sub);
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
  for (const id of ["run-btn", "submit-btn"]) document.getElementById(id).disabled = b;
}
