// Drafts of the editor's code, per problem and language: in the browser's storage at once, and
// on the server (PUT /api/v1/drafts/...) a moment later for a logged-in learner, so that a
// draft follows them to another browser. On load the newer of the two copies wins.
const SERVER_DELAY_MS = 1500;

export function draftStore(cfg, csrf) {
  const key = (lang) => `kerneldojo:draft:${cfg.slug}:${lang}`;
  const timeKey = (lang) => `kerneldojo:draft-t:${cfg.slug}:${lang}`;
  const server = cfg.drafts || {};
  const pending = new Map(); // language -> text not yet on the server
  // language -> the text last loaded or saved: saving it again is no change, so a tab left
  // open and then closed does not overwrite, with its old text, a draft saved since elsewhere.
  const last = new Map();
  let timer = null;

  const url = (lang) => `/api/v1/drafts/${encodeURIComponent(cfg.slug)}/${encodeURIComponent(lang)}`;
  const put = (lang, text, keepalive = false) =>
    fetch(url(lang), {
      method: "PUT",
      keepalive,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ source: text }),
    });

  async function pushPending() {
    timer = null;
    for (const [lang, text] of [...pending]) {
      try {
        const r = await put(lang, text);
        if (r.ok && pending.get(lang) === text) pending.delete(lang);
      } catch (e) {
        /* offline: the browser's copy stays, the next change retries */
      }
    }
  }

  return {
    // The draft to start from, or null for the starter.
    load(lang) {
      const local = localStorage.getItem(key(lang));
      const localTime = Number(localStorage.getItem(timeKey(lang)) || 0);
      const remote = server[lang];
      const text = remote && (local === null || remote.updated >= localTime) ? remote.source : local;
      if (text !== null) last.set(lang, text);
      return text;
    },
    save(lang, text) {
      if (last.get(lang) === text) return;
      last.set(lang, text);
      localStorage.setItem(key(lang), text);
      localStorage.setItem(timeKey(lang), String(Date.now()));
      if (!cfg.loggedIn) return;
      pending.set(lang, text);
      clearTimeout(timer);
      timer = setTimeout(pushPending, SERVER_DELAY_MS);
    },
    // Leaving the page: what is still pending goes with a request that outlives the page.
    flush() {
      clearTimeout(timer);
      for (const [lang, text] of pending) put(lang, text, true).catch(() => {});
      pending.clear();
    },
    // Send now (tests, and before a submission): resolves when the server has every draft.
    sync: () => (clearTimeout(timer), pushPending()),
  };
}
