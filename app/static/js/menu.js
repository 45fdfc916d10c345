// The site menu on a narrow screen (a phone): the top bar's links fold behind a "Menu" button
// that shows and hides them (aria-expanded says which); Escape closes it and gives the focus
// back to the button. On a wide screen the button is hidden by CSS and the links show inline.
{ // a block: this classic script's names stay out of the global scope
  const toggle = document.querySelector(".menu-toggle");
  const bar = toggle?.closest(".topbar");
  if (toggle && bar) {
    const setOpen = (open) => {
      bar.classList.toggle("menu-open", open);
      toggle.setAttribute("aria-expanded", String(open));
    };
    toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && bar.classList.contains("menu-open")) {
        setOpen(false);
        toggle.focus();
      }
    });
  }
}
