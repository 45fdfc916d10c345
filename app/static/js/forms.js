// Filters that apply on change (a <select data-autosubmit> submits its form). A file rather
// than onchange="..." attributes: the Content-Security-Policy allows no inline script.
for (const el of document.querySelectorAll("select[data-autosubmit]")) {
  el.addEventListener("change", () => el.form.submit());
}
