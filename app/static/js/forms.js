// Filters that apply on change (a <select data-autosubmit> submits its form). A file rather
// than onchange="..." attributes: the Content-Security-Policy allows no inline script.
for (const el of document.querySelectorAll("select[data-autosubmit]")) {
  el.addEventListener("change", () => el.form.submit());
}

// A search box that filters as one types (<input data-live-filter="SELECTOR">): the form's
// page is fetched with the new query and the part SELECTOR names is swapped in, so the
// server's filtering applies (with the other filters) and the box keeps its focus. The
// address follows, so that a reload or a shared link shows the same list.
for (const input of document.querySelectorAll("input[data-live-filter]")) {
  let timer = null;
  let inflight = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const params = new URLSearchParams(new FormData(input.form));
      for (const [k, v] of [...params]) if (!v) params.delete(k);
      const url = `${input.form.action}${params.size ? `?${params}` : ""}`;
      inflight?.abort();
      inflight = new AbortController();
      try {
        const r = await fetch(url, { signal: inflight.signal, headers: { Accept: "text/html" } });
        if (!r.ok) return;
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        const fresh = doc.querySelector(input.dataset.liveFilter);
        const old = document.querySelector(input.dataset.liveFilter);
        if (fresh && old) old.replaceWith(fresh);
        history.replaceState(null, "", url);
      } catch (e) {
        if (e.name !== "AbortError") input.form.submit(); // fall back to a plain search
      }
    }, 250);
  });
}
