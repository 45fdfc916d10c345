// Renders the math that the server's markdown-it dollarmath plugin marked up, with KaTeX.
import katex from "katex";

export function renderMath(root = document) {
  for (const el of root.querySelectorAll(".math.inline, .math.block, eq, eqn")) {
    const display = el.classList.contains("block") || el.tagName === "EQN";
    try {
      katex.render(el.textContent, el, { displayMode: display, throwOnError: false });
    } catch (e) {
      console.warn("KaTeX:", e);
    }
  }
}

renderMath();
