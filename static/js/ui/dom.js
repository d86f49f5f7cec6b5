/* Small shared helpers: selectors, the toast, an announcement, the page's words (filled by
   the template). */
export const $ = (sel, el) => (el || document).querySelector(sel);
export const $$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));

// Every word this code shows comes from #js-words (base.html), so it can be translated
// with the templates. A missing word shows its key, which a test would notice.
const wordsEl = document.getElementById("js-words");
export const S = wordsEl ? Object.assign({}, wordsEl.dataset) : {};
export function say(key, vars) {
  let text = S[key] || key;
  Object.keys(vars || {}).forEach((k) => { text = text.split("{" + k + "}").join(vars[k]); });
  return text;
}

let toastTimer = null;
// With `at` (an element shown, e.g. your moves' box) the toast lies at its top, as wide as
// it, growing downwards: so it covers no card of the hand. Text only (names are untrusted).
export function toast(msg, at) {
  const t = $("#toast");
  if (!t || !msg) return;
  t.textContent = msg;
  const r = at && visible(at) ? at.getBoundingClientRect() : null;
  t.classList.toggle("at", !!r);
  Object.assign(t.style, r ? { left: r.left + "px", top: r.top + "px", width: r.width + "px" }
    : { left: "", top: "", width: "" });
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4500);
}
window.barahaToast = toast;

// An announcement of the people running the server (`baraha announce`, Socket.IO's
// `announce` {text, fil?} to every page of every process): over the bar in #notice until
// tapped away (panels.js), in the page's language when it came in two. Words, never markup.
export function notice(m) {
  const box = $("#notice");
  const fil = document.documentElement.lang === "fil" && m && typeof m.fil === "string";
  const text = fil ? m.fil : m && m.text;
  if (!box || typeof text !== "string" || !text.trim()) return;
  $("[data-notice-text]", box).textContent = text.slice(0, 280);
  box.hidden = false;
}

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
export function motion() { return !(reduced && reduced.matches) && !!Element.prototype.animate; }

export function view() { return $("#view"); }
export function version() {
  const v = view();
  return v ? +v.getAttribute("data-version") || 0 : 0;
}
export function myTurn() { const v = view(); return !!v && v.getAttribute("data-mine") === "1"; }
export function picks() { return $$("#hand .pick"); }
export function visible(el) { return !!el && !el.closest("[hidden]") && el.getClientRects().length > 0; }
export function submit(form) {
  if (form.requestSubmit) form.requestSubmit(); else window.htmx.trigger(form, "submit");
}
