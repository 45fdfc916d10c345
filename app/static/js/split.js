// The problem page's resizable split (problem.html): the divider between the statement and the
// editor is dragged with a pointer, or focused and moved with the arrow keys (Shift for bigger
// steps, Home and End for the ends, Enter or a double-click for the default). The statement's
// share of the width, in percent, is the grid's --split (split.css) and is remembered in
// localStorage, so the next problem opens with the same split.
{ // a block: this classic script's names stay out of the global scope
  const KEY = "kd.split";
  const MIN = 20;
  const MAX = 80;
  const DEFAULT = 44;
  const root = document.querySelector("#problem-page.split");
  const divider = root?.querySelector(".split-divider");
  if (root && divider) {
    const clamp = (v) => Math.min(MAX, Math.max(MIN, Math.round(v * 10) / 10));
    const set = (pct, remember) => {
      const v = clamp(pct);
      root.style.setProperty("--split", `${v}%`);
      divider.setAttribute("aria-valuenow", String(Math.round(v)));
      divider.setAttribute("aria-valuetext", `statement ${Math.round(v)}% of the width`);
      if (remember) {
        try {
          localStorage.setItem(KEY, String(v));
        } catch { /* storage refused (private mode): the split still works for this page */ }
      }
      return v;
    };
    let current = DEFAULT;
    try {
      const saved = parseFloat(localStorage.getItem(KEY) ?? "");
      if (Number.isFinite(saved)) current = saved;
    } catch { /* no storage: the default */ }
    current = set(current, false);

    const fromPointer = (e) => {
      const box = root.getBoundingClientRect();
      return ((e.clientX - box.left) / box.width) * 100;
    };
    divider.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      divider.setPointerCapture(e.pointerId);
      root.classList.add("resizing");
      divider.focus();
    });
    divider.addEventListener("pointermove", (e) => {
      if (divider.hasPointerCapture(e.pointerId)) current = set(fromPointer(e), false);
    });
    const end = (e) => {
      if (!divider.hasPointerCapture(e.pointerId)) return;
      divider.releasePointerCapture(e.pointerId);
      root.classList.remove("resizing");
      current = set(current, true);
    };
    divider.addEventListener("pointerup", end);
    divider.addEventListener("pointercancel", end);
    divider.addEventListener("dblclick", () => {
      current = set(DEFAULT, true);
    });
    divider.addEventListener("keydown", (e) => {
      const step = e.shiftKey ? 10 : 2;
      const to = {
        ArrowLeft: current - step,
        ArrowRight: current + step,
        Home: MIN,
        End: MAX,
        Enter: DEFAULT,
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      current = set(to, true);
    });
  }
}
