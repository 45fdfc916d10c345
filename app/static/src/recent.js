// The problem page's "Your submissions" (problem.html's #your-subs-slot), kept current: the
// server draws it, so refreshing it is fetching the page again and swapping that part in
// (the same list, verdict badges and links as on a first load). The editor calls refresh()
// when a Run is queued and when it is graded; a page shown again by Back (after a Submit)
// refreshes itself. Its buttons are handled by delegation, so that the
// swapped-in ones work too.
const SLOT = "#your-subs-slot";

export async function refresh() {
  const slot = document.querySelector(SLOT);
  if (!slot) return;
  try {
    const r = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!r.ok) return;
    const fresh = new DOMParser().parseFromString(await r.text(), "text/html").querySelector(SLOT);
    if (!fresh) return;
    const open = slot.querySelector("details")?.open ?? true; // keep the learner's fold
    slot.replaceChildren(...fresh.childNodes);
    const details = slot.querySelector("details");
    if (details) details.open = open;
  } catch {
    /* offline for a moment: the list stays as it was, the next refresh catches up */
  }
}

export function onDiff(handler) {
  document.querySelector(SLOT)?.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-diff]");
    if (btn) handler(btn.dataset.diff);
  });
}

// Back after a Submit: the page comes from the back-forward cache (persisted) or from the HTTP
// cache as it was first drawn; either way its list is older than the Submit.
window.addEventListener("pageshow", (e) => {
  const nav = performance.getEntriesByType("navigation")[0];
  if (e.persisted || nav?.type === "back_forward") refresh();
});
