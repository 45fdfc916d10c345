// Error marks in the editor's gutter: the line numbers that a verdict's message or compile log
// names (a Python syntax error "line 4: ...", a traceback's "line 5, in solve", nvcc's
// "solution.cu(5): error: ...", the static checks' "line 3: ..."), as CodeMirror diagnostics:
// a mark in the gutter, the line underlined, the message on hover.
import { lintGutter, setDiagnostics } from "@codemirror/lint";

export const gutter = lintGutter();

const NVCC = /^[^\s(]*\.cu\((\d+)\): (error|warning)[^:]*: (.*)$/gm;
const AT_LINE = /^line (\d+): ?/; // a syntax error, or a static check's refusal
const FRAME = /^\s*line (\d+), in /gm; // a traceback's frames in the learner's file

// [{line, severity, message}] from a finished submission's verdict, message and compile log.
export function errorLines(verdict, message, compileLog) {
  const out = [];
  for (const m of (compileLog || "").matchAll(NVCC)) {
    out.push({ line: Number(m[1]), severity: m[2], message: m[3] });
  }
  if (out.length || !message || verdict === "accepted") return out;
  const text = message.trim();
  const at = text.match(AT_LINE);
  if (at) return [{ line: Number(at[1]), severity: "error", message: text.replace(AT_LINE, "") }];
  const frames = [...text.matchAll(FRAME)];
  if (frames.length) {
    // A traceback lists the outermost call first: the last frame is where it failed, and its
    // last line says what failed.
    const what = text.split("\n").pop();
    out.push({ line: Number(frames[frames.length - 1][1]), severity: "error", message: what });
  }
  return out;
}

// Marks the lines on the editor (an empty list clears them); returns how many were marked.
export function markLines(view, marks) {
  const doc = view.state.doc;
  const diagnostics = marks
    .filter((m) => m.line >= 1 && m.line <= doc.lines)
    .map((m) => {
      const line = doc.line(m.line);
      return { from: line.from, to: line.to, severity: m.severity === "warning" ? "warning" : "error", message: m.message, source: "judge" };
    });
  view.dispatch(setDiagnostics(view.state, diagnostics));
  return diagnostics.length;
}
