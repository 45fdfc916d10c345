// The leaderboard's problem picker (<details data-picker>): without script it opens and its
// links work; with it, a filter box (name, slug, tag or difficulty), arrow keys between the
// links that match, Enter on the box opening the first match, Escape or a click elsewhere
// closing it (Escape gives the focus back to its summary).
{ // a block: this classic script's names stay out of the global scope
  for (const picker of document.querySelectorAll("details[data-picker]")) {
    const summary = picker.querySelector("summary");
    const search = picker.querySelector(".picker-search");
    const empty = picker.querySelector(".picker-empty");
    const links = [...picker.querySelectorAll(".picker-panel a")];
    const visible = () => links.filter((a) => !a.closest("li").hidden);
    search.hidden = false;

    const filter = () => {
      const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      for (const a of links) a.closest("li").hidden = !words.every((w) => a.dataset.search.includes(w));
      for (const g of picker.querySelectorAll(".picker-group")) {
        g.hidden = !g.querySelector("li:not([hidden])");
      }
      empty.hidden = visible().length > 0;
    };
    const close = () => {
      picker.open = false;
      summary.focus();
    };

    search.addEventListener("input", filter);
    picker.addEventListener("toggle", () => {
      if (picker.open) {
        search.focus();
        search.select(); // what one types next replaces the last filter
      }
    });
    search.addEventListener("keydown", (e) => {
      const shown = visible();
      if (e.key === "ArrowDown" && shown.length) {
        e.preventDefault();
        shown[0].focus();
      } else if (e.key === "Enter" && shown.length) {
        e.preventDefault();
        shown[0].click();
      }
    });
    picker.querySelector(".picker-panel").addEventListener("keydown", (e) => {
      const shown = visible();
      const i = shown.indexOf(e.target); // -1 in the filter box, whose own handler ran first
      if (e.key === "Escape") {
        e.preventDefault();
        close();
      } else if (i >= 0 && ["ArrowDown", "ArrowUp", "Home", "End"].includes(e.key)) {
        e.preventDefault();
        const next = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: shown.length - 1 }[e.key];
        (next < 0 ? search : shown[Math.min(next, shown.length - 1)]).focus();
      }
    });
    document.addEventListener("click", (e) => {
      if (picker.open && !picker.contains(e.target)) picker.open = false;
    });
    filter();
  }
}
