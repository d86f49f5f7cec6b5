/* The bridge: told "version N exists" over Socket.IO, the page fetches its own view and
   morphs #table into it; a move's answer alike (docs/UI.md). */
import { $, $$, S, say, toast, notice, view, version, picks, motion } from "./dom.js";
import { turnCue } from "./prefs.js";
import { afterView } from "./cues.js";
import { snapshot, animate } from "./motion.js";
import { update, rove, restoreOrder, noteFresh, clearFresh, dragging } from "./hand.js";
import { afterSwapMoves } from "./moves.js";

const root = $("#table");
// A live table fetches its own partial; a lesson's answers take htmx's own swap (they also
// push the step's URL and redraw the lesson's words out of band).
const live = !!root && root.hasAttribute("data-partial");

document.body.addEventListener("htmx:beforeRequest", (e) => {
  const elt = e.detail.elt;
  if (elt && elt.matches && elt.matches("form.act")) {
    const d = elt.getAttribute("data-do");
    if (d !== "draw" && d !== "take") clearFresh();
    $$("form.act button").forEach((b) => { b.disabled = true; });   // no double tap
    posting = true;
    // Heard on the form itself: a redraw may take the form out of the page while its post
    // is out, and htmx tells a post that got no answer only to its form.
    elt.addEventListener("htmx:afterRequest", posted, { once: true });
  }
});
// The version our own tap's answer showed: its `changed` (which usually waits for the
// answer) is not fetched again, once; a change beside the moves keeps the version.
let ownVersion = null, posting = false, pending = null;
function versionOf(text) {
  const m = /data-version="(\d+)"/.exec(text || "");
  return m ? +m[1] : null;
}
document.body.addEventListener("htmx:beforeSwap", (e) => {
  if (e.detail.target !== root || !live || !e.detail.shouldSwap) return;
  e.detail.shouldSwap = false;
  const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
  // A move's answer: the table after it, or as it is now (409, stale): your picks were
  // for that move and go.
  const own = !!(elt && elt.matches && elt.matches("form.act"));
  if (own && e.detail.xhr.status < 300) ownVersion = versionOf(e.detail.serverResponse);
  redraw(e.detail.serverResponse, own);
});

/* ---- the redraw: a morph, not a replacement ---------------------------------------------- */
// What the server does not know and the morph keeps: picks (aria-pressed), an open sheet
// or <details>, the card being dragged, the regions the phone fills (data-kept).
const KEEP = {
  beforeNodeMorphed(from) {
    return !(from === dragging() || (from.hasAttribute && from.hasAttribute("data-kept") && from.childElementCount));
  },
  beforeAttributeUpdated(name, node) {
    if (name === "open") return false;
    return !(name === "aria-pressed" && node.matches("#hand .pick"));
  },
};
const REQUESTS = "[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete]";
function redraw(html, own) {
  const v = versionOf(html);
  if (v !== null && v < version()) return false;      // an older answer arrived late
  const before = snapshot();
  const focused = root.contains(document.activeElement) && document.activeElement !== root;
  window.Idiomorph.morph(root, html, { morphStyle: "innerHTML", callbacks: KEEP });
  // htmx wires each element that makes a request (the partial's forms and buttons; none
  // uses hx-on, hx-boost or hx-ext); one it has seen already is left as it is.
  $$(REQUESTS, root).forEach((el) => window.htmx.process(el));
  if (own) picks().forEach((b) => b.setAttribute("aria-pressed", "false"));
  afterRedraw(before, focused);
  window.htmx.trigger(root, "htmx:afterSwap", { target: root, elt: root });
  return true;
}
function afterRedraw(b, focused) {
  hear(version());
  const v = view();
  if (v && v.getAttribute("data-hand-no") === b.hand && v.getAttribute("data-mine") === "1" &&
      v.getAttribute("data-phase") === "play") {
    const gained = picks().map((p) => p.getAttribute("data-card")).filter((c) => !b.cards[c]);
    if (gained.length) noteFresh(gained);
  }
  restoreOrder();
  afterSwapMoves();
  update();
  const active = document.activeElement;
  if (focused && (!root.contains(active) || active === root)) {
    const target = fallbackFocus(b);
    if (target) target.focus({ preventScroll: true });
  }
  const cur = root.contains(document.activeElement) && document.activeElement.matches("#hand .pick")
    ? document.activeElement : $("#hand .pick[tabindex='0']");
  rove(cur, false);
  try { animate(b); } catch (err) { /* motion is decoration only */ }
  const res = $("#result");
  if (res && !b.result) res.scrollIntoView({ block: "start", behavior: motion() ? "smooth" : "auto" });
  afterView(true);
  behind();
}
// What had focus left the table (a move made from it): the next thing to do gets it.
const firstMove = () => $$(".btns form.act:not([hidden]) button, .btns [data-more]:not([hidden])")[0];
function fallbackFocus(before) {
  const v = view();
  if (!v) return null;
  const res = $("#result");
  if (res && !before.result) return res;
  if (v.getAttribute("data-mine") === "1") {
    const fresh = v.getAttribute("data-phase") === "play" ?
      picks().filter((b) => !before.cards[b.getAttribute("data-card")])[0] : null;
    const first = fresh || firstMove();
    if (first) return first;
    if (v.getAttribute("data-phase") === "play") return $("#hand .pick[tabindex='0']");
  }
  return $("#turn-line");
}
if (!live) {
  // A lesson's step, swapped by htmx: the same work after it.
  let before = null;
  document.body.addEventListener("htmx:beforeSwap", (e) => { if (e.detail.target === root) before = snapshot(); });
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target === root && before) { const b = before; before = null; afterRedraw(b, false); }
  });
}

// The newest version this page has heard of: it never stays on an older one.
let newest = 0;
function hear(v) {
  if (typeof v === "number" && v > newest) newest = v;
}
function behind() {
  if (newest > version() && window.barahaResync) window.barahaResync();
}
function posted(e) {
  posting = false;
  const v = pending;
  pending = null;
  if (v !== null) ownVersion = null;        // our move's signal came during the post
  // Newer than what our answer showed (or the answer failed): fetch; else it was ours.
  // No answer at all (the connection dropped, or the server failed): the move may have
  // been made, so fetch too.
  const xhr = e.detail.xhr;
  const lost = !e.detail.successful && (!xhr || xhr.status === 0 || xhr.status >= 500);
  if ((lost || (v !== null && (v > version() || !e.detail.successful))) && window.barahaResync) {
    window.barahaResync();
  }
}
document.body.addEventListener("htmx:afterRequest", () => {
  if (!settled) $$("form.act button").forEach((b) => { b.disabled = false; });
});
document.body.addEventListener("htmx:responseError", (e) => {
  const xhr = e.detail.xhr;
  if (live && settleOn(xhr.status)) return;
  const text = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0 ? xhr.responseText : "";
  toast(text || say("serverNo", { status: xhr.status }));
});
document.body.addEventListener("htmx:sendError", () => toast(S.noConnection));
document.body.addEventListener("baraha-toast", (e) => toast(e.detail && e.detail.value));

/* ---- the end of the page's table: said once, then nothing more is asked -------------- */
let settled = false, socket = null, retry = null;
const OVER = { 401: "seatGone", 403: "seatGone", 404: "tableOver", 410: "tableOver" };
function settleOn(status) {
  // A watcher's page held no seat: its token ended with the table or by the host.
  const key = OVER[status] === "seatGone" && root.hasAttribute("data-watch") ? "watchGone" : OVER[status];
  if (!key || settled) return !!key;
  settled = true;
  if (socket) socket.disconnect();          // no reconnecting to a table that is over
  clearInterval(retry);
  const banner = $("#offline");
  if (banner) banner.hidden = true;
  const box = $("#settled");
  if (box) {
    $("[data-settled-words]", box).textContent = S[key];
    box.hidden = false;
  }
  const v = view();
  if (v) v.setAttribute("data-settled", key);
  $$("form.act button", root).forEach((b) => { b.disabled = true; });
  return true;
}

if (root) {
  restoreOrder();
  afterSwapMoves();
  afterView(false);
  update();
  rove($("#hand .pick[tabindex='0']"), false);
  // The watch link in a wide window joins as a table screen first (ui/screen.js).
  if (live && root.hasAttribute("data-join-screen")) import("./screen.js").then((m) => m.joinScreen(root, connect));
  else if (live) connect();
}

/* ---- Socket.IO: a signal that version N exists; each phone fetches its own view ---- */
function connect() {
  let busy = false, again = false, wait = 0, later = null;
  // While the view is fetched the table says it is busy (screen readers wait for it).
  async function fetchView() {
    const r = await fetch(root.getAttribute("data-partial"), {
      headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store",
    });
    if (settleOn(r.status)) return;
    if (!r.ok) throw new Error(String(r.status));
    redraw(await r.text());
  }
  function resync() {
    if (settled) return;
    if (busy) { again = true; return; }
    clearTimeout(later);
    busy = true;
    root.setAttribute("aria-busy", "true");
    // Not given (429, 5xx, offline): asked again, later each time (no other signal may
    // come while the table waits for this phone).
    fetchView().then(() => { wait = 0; }, () => { wait = Math.min(15000, 2 * wait || 1000); later = setTimeout(resync, wait); })
      .then(() => {
        busy = false;
        if (again) { again = false; resync(); } else root.removeAttribute("aria-busy");
      });
  }
  window.barahaResync = resync;
  if (!window.io) return;
  const banner = $("#offline");
  function offline(on, words) {
    if (!banner || settled) return;
    if (words) banner.textContent = words;
    banner.hidden = !on;
  }
  // Websocket first, no tryAllTransports; after a failed attempt, polling first and then
  // upgrade (docs/UI.md). `?code=` routes the socket behind a proxy (docs/API.md).
  const code = root.getAttribute("data-code");
  // `told`: the signal this view is as new as; the server says `changed` only if behind.
  const told = () => { const v = view(); return v ? v.getAttribute("data-told") || "" : ""; };
  socket = window.io({ transports: ["websocket", "polling"], query: { code },
                       auth: (cb) => cb({ code, told: told() }) });
  window.socket = socket;
  socket.on("connect", () => offline(false));
  socket.on("disconnect", (reason) => {
    // The server ended this connection (its seat was handed on, the table left): ask why.
    if (reason === "io server disconnect") resync();
    else offline(true, S.reconnecting);
  });
  socket.on("connect_error", () => {
    socket.io.opts.transports = ["polling", "websocket"];
    if (socket.active) offline(true, S.reconnecting);
    else { offline(true, S.refused); resync(); }     // refused: the view says why
  });
  socket.on("changed", (msg) => {
    if (!msg || typeof msg.version !== "number") { resync(); return; }
    hear(msg.version);
    if (posting) { pending = Math.max(pending === null ? -1 : pending, msg.version); return; }
    // Our own tap's answer already showed this version: do not fetch it again (once;
    // only the first signal after the answer can be the move's own).
    const ours = msg.version === ownVersion && msg.version === version();
    ownVersion = null;
    if (ours) return;
    // Equal versions too: what the table shows beside its moves changed (away, watchers).
    if (msg.version >= version()) resync();
  });
  // Someone tapped "Nudge" on this player's box: only this seat's phones get it, with
  // who nudged; said at the top of your moves (the turn line), covering none of the hand.
  socket.on("nudge", (m) => {
    turnCue();
    const name = m && typeof m.name === "string" && m.name.trim();
    toast(name ? say("nudgedBy", { name }) : S.nudged, $("#actions"));
  });
  socket.on("announce", notice);     // `baraha announce`, to every page of every process
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || settled) return;
    if (!socket.connected) socket.connect();     // it is told whether it is behind
  });
  retry = setInterval(() => { if (!socket.connected && !document.hidden) resync(); }, 15000);
}
