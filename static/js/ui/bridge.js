/* The bridge: the server pushes this seat's new partial over Socket.IO (or says "version N
   exists", and htmx fetches it); either way htmx swaps #table, and around each swap the
   state the server does not know is kept (picked cards, open <details>, focus, your order
   of the cards), and cards fly. Then the turn cues and what a screen reader hears.
   The page heals itself: whenever it has heard of a version newer than the one it shows
   (a push, a signal, a move's answer), it fetches its view at once. */
import { $, $$, S, say, toast, view, version, picks, visible, motion } from "./dom.js";
import { turnCue } from "./prefs.js";
import { snapshot, animate } from "./motion.js";
import { focusKey, findKey, fallbackFocus } from "./focus.js";
import { saved, keepSelection, selected, update, rove, restoreOrder, noteFresh, clearFresh } from "./hand.js";
import { afterSwapMoves } from "./moves.js";
import { openDialog } from "./panels.js";

const root = $("#table");
const baseTitle = document.title.replace(/^● .*? · /, "");

let openDetails = {}, openSheets = [], before = null, focusBefore = null, focusWasIn = false;
document.body.addEventListener("htmx:beforeRequest", (e) => {
  const elt = e.detail.elt;
  if (elt && elt.matches && elt.matches("form.act")) {
    keepSelection([]);
    const d = elt.getAttribute("data-do");
    if (d !== "draw" && d !== "take") clearFresh();
    $$("form.act button").forEach((b) => { b.disabled = true; });   // no double tap
    posting = true;
    // Heard on the form itself: a push may take the form out of the page while its post
    // is out, and htmx tells a post that got no answer only to its form.
    elt.addEventListener("htmx:afterRequest", posted, { once: true });
  }
});
// The version our own tap's answer swapped in: its `changed` is not fetched again. The
// `changed` usually arrives while the tap's POST is still out: it waits for the answer.
let ownVersion = null, posting = false, pending = null;
function versionOf(text) {
  const m = /data-version="(\d+)"/.exec(text || "");
  return m ? +m[1] : null;
}
function beforeSwap(text) {
  const v = versionOf(text);
  if (v !== null && v < version()) return false;   // an older answer arrived late
  $$("details[id]", root).forEach((d) => { openDetails[d.id] = d.open; });
  // A sheet open under the player's finger (the take choice, More moves, the host's
  // requests) stays open when a push redraws the table, if the new view still has it (a
  // move made from it closed it before its request went out).
  openSheets = $$("dialog[open][id]", root).map((d) => d.id);
  before = snapshot();
  focusWasIn = root.contains(document.activeElement) && document.activeElement !== root;
  focusBefore = focusWasIn ? focusKey(document.activeElement) : null;
  return true;
}
document.body.addEventListener("htmx:beforeSwap", (e) => {
  if (e.detail.target !== root) return;
  if (!beforeSwap(e.detail.serverResponse)) { e.detail.shouldSwap = false; return; }
  const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
  if (elt && elt.matches && elt.matches("form.act") && e.detail.xhr && e.detail.xhr.status < 300) {
    ownVersion = versionOf(e.detail.serverResponse);
  }
  if (live && e.detail.shouldSwap) { e.detail.shouldSwap = false; redraw(e.detail.serverResponse); }
});
// A live table (it fetches its own partial) is redrawn here: the new table replaces the
// old, then htmx.process wires each element that makes a request (the partial's forms and
// buttons; none uses hx-on, hx-boost or hx-ext), not the whole table: htmx.process scans
// every element it is given, which on a slow phone took three times as long. Not htmx's
// swap: it dispatches two events for each element it removes (about 300 here), which on a
// slow phone took longer than the rest of the redraw. Heard as htmx:afterSwap all the same.
// A lesson's answers take htmx's swap: they also push the step's URL and redraw the
// lesson's words out of band.
const live = root && root.hasAttribute("data-partial");
const REQUESTS = "[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete]";
function redraw(html) {
  root.innerHTML = html;
  $$(REQUESTS, root).forEach((el) => window.htmx.process(el));
  window.htmx.trigger(root, "htmx:afterSwap", { target: root, elt: root });
}
document.body.addEventListener("htmx:afterSwap", (e) => {
  if (e.detail.target === root) afterSwap();
});
// The newest version this page has heard of: it never stays on an older one.
let newest = 0;
function hear(v) {
  if (typeof v === "number" && v > newest) newest = v;
}
function behind() {
  if (newest > version() && window.barahaResync) window.barahaResync();
}
function afterSwap() {
  hear(version());
  $$("details[id]", root).forEach((d) => { if (openDetails[d.id]) d.open = true; });
  const keep = saved;
  picks().forEach((b) => {
    if (keep.indexOf(b.getAttribute("data-card")) >= 0) b.setAttribute("aria-pressed", "true");
  });
  const b = before;
  before = null;
  const v = view();
  if (b && v && v.getAttribute("data-hand-no") === b.hand && v.getAttribute("data-mine") === "1" &&
      v.getAttribute("data-phase") === "play") {
    const gained = picks().map((p) => p.getAttribute("data-card")).filter((c) => !b.cards[c]);
    if (gained.length) noteFresh(gained);
  }
  restoreOrder();
  afterSwapMoves();
  update();
  // Only now: "More moves" holds its moves once update() has laid out the row.
  openSheets.forEach((id) => {
    const d = document.getElementById(id);
    if (d && root.contains(d) && ($("form.act", d) || d.hasAttribute("data-stays"))) openDialog(d);
  });
  openSheets = [];
  if (focusWasIn) {
    let target = findKey(focusBefore);
    if (!visible(target) || target.disabled) target = b ? fallbackFocus(b) : null;
    if (target) {
      if (target.matches("#hand .pick")) rove(target, false);
      target.focus({ preventScroll: true });
    }
  } else {
    const cur = $("#hand .pick[tabindex='0']");
    if (cur) rove(cur, false);
  }
  try { animate(b); } catch (err) { /* motion is decoration only */ }
  const res = $("#result");
  if (res && b && !b.result) res.scrollIntoView({ block: "start", behavior: motion() ? "smooth" : "auto" });
  afterView(true);
  behind();
}
function posted(e) {
  posting = false;
  const v = pending;
  pending = null;
  // Newer than what our answer showed (or the answer failed): fetch; else it was ours.
  // No answer at all (the connection dropped, or the server failed): the move may have
  // been made, and no push will bring it (the post named our socket), so fetch too.
  const xhr = e.detail.xhr;
  const lost = !e.detail.successful && (!xhr || xhr.status === 0 || xhr.status >= 500);
  if ((lost || (v !== null && (v > version() || !e.detail.successful))) && window.barahaResync) {
    window.barahaResync();
  }
}
document.body.addEventListener("htmx:afterRequest", () => {
  $$("form.act button").forEach((b) => { b.disabled = false; });
  keepSelection(selected());     // refused (nothing swapped): the selection stays for the next push
});
document.body.addEventListener("htmx:responseError", (e) => {
  const xhr = e.detail.xhr;
  const text = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0 ? xhr.responseText : "";
  toast(text || say("serverNo", { status: xhr.status }));
});
document.body.addEventListener("htmx:sendError", () => toast(S.noConnection));
document.body.addEventListener("baraha-toast", (e) => toast(e.detail && e.detail.value));

/* ---- after every view: the invite, the turn cues, what a screen reader hears -------- */
let wasMine = null, heard = null, heardHand = null, lastTurn = "";
function afterView(swapped) {
  const v = view();
  if (!v) return;
  const invite = $("#invite[data-auto]");
  if (invite && v.getAttribute("data-phase") !== "waiting") {
    // Opened for the seating only: the deal closes it (the code chip opens it again).
    invite.removeAttribute("data-auto");
    invite.hidden = true;
    const chip = $("[data-toggle=invite]");
    if (chip) chip.setAttribute("aria-expanded", "false");
  }
  const mine = v.getAttribute("data-mine") === "1";
  if (mine && wasMine === false && swapped) turnCue();
  wasMine = mine;
  document.title = (mine ? S.titleTurn + " · " : "") + baseTitle;
  // The phone's own toolbar turns yellow too (where the browser colours it).
  $$("meta[name=theme-color]").forEach((m) => {
    if (!m.hasAttribute("data-base")) m.setAttribute("data-base", m.getAttribute("content"));
    m.setAttribute("content", mine ? "#f3b600" : m.getAttribute("data-base"));
  });
  // The live region: the moves that are new since the last view, then whose turn it is.
  const sayEl = $("#say"), region = $("#announce");
  const count = +v.getAttribute("data-log") || 0, hand = v.getAttribute("data-hand-no");
  if (sayEl && region) {
    const lines = $$("p:not([data-turn-words])", sayEl).map((p) => p.textContent.trim());
    const turnP = $("[data-turn-words]", sayEl);
    const turn = turnP ? turnP.textContent.trim() : "";
    let fresh = [];
    if (heard !== null) {
      const n = hand !== heardHand ? count : Math.max(0, count - heard);
      fresh = lines.slice(Math.max(0, lines.length - n));
    }
    const text = fresh.map((l) => l.replace(/[.!]?$/, ".")).concat(turn ? [turn] : []).join(" ");
    // Only news: new moves, or a turn that moved on (a redraw with neither says nothing).
    if (heard !== null && text && (fresh.length || turn !== lastTurn)) region.textContent = text;
    lastTurn = turn;
    heard = count;
    heardHand = hand;
  }
}

if (root) {
  restoreOrder();
  afterSwapMoves();
  afterView(false);
  update();
  rove($("#hand .pick[tabindex='0']"), false);
  // The watch link in a wide window joins as a table screen first (ui/screen.js).
  if (root.hasAttribute("data-join-screen")) import("./screen.js").then((m) => m.joinScreen(root, connect));
  else connect();
}

/* ---- Socket.IO: a signal that version N exists; each phone fetches its own view ---- */
function connect() {
  let busy = false, again = false;
  // While the view is fetched the table says it is busy (screen readers wait for it).
  function resync() {
    if (busy) { again = true; return; }
    busy = true;
    root.setAttribute("aria-busy", "true");
    window.htmx.ajax("GET", root.getAttribute("data-partial"), { target: "#table", swap: "innerHTML" })
      .catch(() => { /* the banner already says it */ })
      .then(() => {
        busy = false;
        if (again) { again = false; resync(); } else root.removeAttribute("aria-busy");
      });
  }
  window.barahaResync = resync;
  if (!window.io) return;
  const banner = $("#offline");
  function offline(on, words) {
    if (!banner) return;
    if (words) banner.textContent = words;
    banner.hidden = !on;
  }
  // want: "partial" (docs/API.md): the server pushes this seat's new partial as `view`
  // over this connection, in this phone's language, instead of "changed, then GET".
  // Websocket first (one round trip less). No tryAllTransports: Engine.IO drops a transport
  // that failed from that connection's list, so a phone that fell back to polling in the
  // same attempt would never upgrade. After a failed attempt the next ones start on
  // polling and upgrade, as Socket.IO's own docs advise (client options, `transports`).
  // `changed: false`: the `view` is the signal too, so the server sends no `changed`.
  const socket = window.io({
    transports: ["websocket", "polling"],
    auth: { code: root.getAttribute("data-code"), want: "partial", changed: false },
  });
  window.socket = socket;
  // A move's answer is our new partial: naming our socket spares the server its push.
  document.body.addEventListener("htmx:configRequest", (e) => {
    const elt = e.detail.elt;
    if (socket.connected && socket.id && elt && elt.matches && elt.matches("form.act")) {
      e.detail.headers["X-Baraha-Socket"] = socket.id;
    }
  });
  socket.on("connect", () => {
    offline(false);
    resync();       // something may have happened before or while we were connected
  });
  socket.on("disconnect", () => offline(true, S.reconnecting));
  socket.on("connect_error", () => {
    socket.io.opts.transports = ["polling", "websocket"];
    if (socket.active) offline(true, S.reconnecting);
    else offline(true, S.refused);
  });
  let pushed = false, lastHtml = null;
  socket.on("view", (msg) => {
    pushed = true;
    if (!msg || typeof msg.html !== "string") { resync(); return; }
    hear(msg.version);
    if (msg.html === lastHtml) return;
    lastHtml = msg.html;
    if (msg.version === ownVersion && msg.version === version()) { ownVersion = null; return; }
    if (!beforeSwap(msg.html)) { behind(); return; }
    redraw(msg.html);         // the same redraw as a fetched view's, now
  });
  socket.on("changed", (msg) => {
    // A page that is pushed its view hears `changed` only when the server could not draw
    // that push: it fetches the view itself.
    if (pushed) { resync(); return; }
    if (!msg || typeof msg.version !== "number") { resync(); return; }
    hear(msg.version);
    if (posting) { pending = Math.max(pending === null ? -1 : pending, msg.version); return; }
    // Our own tap's answer already showed this version: do not fetch it again (once).
    if (msg.version === ownVersion && msg.version === version()) { ownVersion = null; return; }
    // Equal versions too: a player's connection came or went (shown as "away").
    if (msg.version >= version()) resync();
  });
  // Someone tapped "Nudge" on this player's box: only this seat's phones get it, with
  // who nudged; said at the top of your moves (the turn line), covering none of the hand.
  socket.on("nudge", (m) => {
    turnCue();
    const name = m && typeof m.name === "string" && m.name.trim();
    toast(name ? say("nudgedBy", { name }) : S.nudged, $("#actions"));
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    if (!socket.connected) socket.connect();
    resync();
  });
  setInterval(() => { if (!socket.connected && !document.hidden) resync(); }, 15000);
}
