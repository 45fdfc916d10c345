// Read-only syntax highlighting of submitted code (pre.code[data-lang]) with the same Lezer
// parsers as the editor (the mode, data-mode, is the registry language's editor_mode); tokens get tok-* classes styled in app.css.
import { classHighlighter, highlightCode } from "@lezer/highlight";
import { parserFor } from "./modes.js";

for (const pre of document.querySelectorAll("pre.code[data-lang]")) {
  const text = pre.textContent;
  const lang = parserFor(pre.dataset.mode);
  const code = document.createElement("code");
  highlightCode(
    text,
    lang.parser.parse(text),
    classHighlighter,
    (chunk, classes) => {
      const node = document.createTextNode(chunk);
      if (!classes) return code.appendChild(node);
      const span = document.createElement("span");
      span.className = classes;
      span.appendChild(node);
      code.appendChild(span);
    },
    () => code.appendChild(document.createTextNode("\n")),
  );
  pre.replaceChildren(code);
}
