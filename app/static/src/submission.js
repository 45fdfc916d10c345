// The submission page: follow live progress; reload for the full server-rendered result.
import { followSubmission, stageText } from "./progress.js";

const box = document.getElementById("live-progress");
const ORDER = ["queued", "compiling", "testing", "profiling", "benchmarking", "sanitizing", "done"];

function percent(ev, ranked) {
  const frac = ev.total ? ev.index / ev.total : 0;
  switch (ev.stage) {
    case "queued": case "requeued": return 2;
    case "starting": return 5;
    case "compiling": return 10;
    case "testing": return 10 + (ranked ? 55 : 88) * frac;
    case "benchmarking": return 65 + 33 * frac;
    case "profiling": return 50;
    case "sanitizing": return 90;
    case "done": return 100;
    default: return 5;
  }
}

if (box) {
  const ranked = box.dataset.mode === "submit";
  const stage = box.querySelector(".stage");
  const bar = box.querySelector(".bar-fill");
  const steps = [...box.querySelectorAll(".stages li")];
  followSubmission(box.dataset.id, (ev) => {
    stage.textContent = stageText(ev);
    bar.style.width = `${percent(ev, ranked)}%`;
    const at = ORDER.indexOf(ev.stage === "starting" ? "compiling" : ev.stage);
    steps.forEach((li) => {
      const i = ORDER.indexOf(li.dataset.stage);
      li.classList.toggle("done", at > i);
      li.classList.toggle("active", at === i);
    });
  }, () => setTimeout(() => window.location.reload(), 300));
}
