// The CodeMirror languages that a registry language's `editor_mode` names
// (judge/languages/, embedded in each page's data): one entry per mode. A language
// whose mode is already here needs nothing in the browser code; an unknown mode falls back to
// Python highlighting.
import { python, pythonLanguage } from "@codemirror/lang-python";
import { cpp, cppLanguage } from "@codemirror/lang-cpp";

const editors = { python, cpp };
const parsers = { python: pythonLanguage, cpp: cppLanguage };

// The editor extension for a mode (editor.js).
export const editorMode = (mode) => (editors[mode] || python)();

// The Lezer language for read-only highlighting (code.js).
export const parserFor = (mode) => parsers[mode] || pythonLanguage;
