// The submission page: follow live progress; reload for the full server-rendered result.
import { followSubmission, stageText } from "./progress.js";

const box = document.getElementById("live-progress");
if (box) {
  const id = box.dataset.id;
  const stage = box.querySelector(".stage");
  const bar = box.querySelector(".bar-fill");
  followSubmission(id, (ev) => {
    stage.textContent = stageText(ev);
    box.dataset.stage = ev.stage || "";
    if (ev.total) {
      const base = ev.stage === "benchmarking" ? 50 : 0;
      const span = box.dataset.mode === "run" || ev.stage === "benchmarking" ? 50 : 50;
      bar.style.width = `${Math.min(100, base + (span * ev.index) / ev.total)}%`;
    } else if (ev.stage === "compiling") {
      bar.style.width = "5%";
    }
  }, () => {
    bar.style.width = "100%";
    setTimeout(() => window.location.reload(), 300);
  });
}
