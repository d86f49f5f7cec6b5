/* Your hand: picking cards, the moves that fit the picked cards, the three orders
   (Arrange, rank, suit), reordering by drag or Shift+arrows, and the card just drawn. */
import { $, $$, S, say, view, picks, motion, myTurn } from "./dom.js";
import { flyFrom, rects } from "./motion.js";
import { layoutMoves } from "./moves.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "CDHS";

export function selected() {
  return $$("#hand .pick[aria-pressed=true]").map((b) => b.getAttribute("data-card")).sort();
}
function same(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
// On a short phone the hand is one row whose cards overlap (app.css): a picked card is shown
// whole, so the row counts the picked cards that have a card after them.
function spread() {
  const hand = $("#hand .hand");
  if (hand) hand.style.setProperty("--p", String($$("#hand .pick[aria-pressed=true] + .pick").length));
}

// Show exactly the moves that use the selected cards; light up melds that take the card.
export function update() {
  const sel = selected();
  spread();
  let shown = 0, layoffs = 0;
  $$(".meld").forEach((m) => { m.classList.remove("accepts"); m.disabled = true; m.removeAttribute("aria-description"); });
  $$("form.act.needs").forEach((f) => {
    const needs = f.getAttribute("data-needs").split(" ").sort();
    const on = sel.length > 0 && same(needs, sel);
    f.hidden = !on;
    if (!on) return;
    shown++;
    if (f.getAttribute("data-do") === "layoff") {
      layoffs++;
      const m = $('.meld[data-onto="' + f.getAttribute("data-onto") + '"]');
      if (m) { m.classList.add("accepts"); m.disabled = false; m.setAttribute("aria-description", S.layHere || ""); }
    }
  });
  // House rule no_dump: a picked card that fits a meld says where, instead of Discard.
  $$(".fits[data-needs]").forEach((p) => {
    const on = sel.length === 1 && p.getAttribute("data-needs") === sel[0];
    p.hidden = !on;
    if (on) shown++;
  });
  const idle = $("[data-idle]");
  if (idle) idle.hidden = shown > 0;
  const hint = $("[data-hint]");
  if (hint) {
    const v = view();
    const playing = myTurn() && v.getAttribute("data-phase") === "play";
    const g = v && v.getAttribute("data-game") === "tonk" ? "Tonk" : "";
    hint.textContent = !playing || !sel.length ? hint.getAttribute("data-default")
      : !shown ? say(sel.length === 1 ? "noMove1" + g : "noMoveN" + g, { n: sel.length })
      : layoffs ? say("tapMeld" + g)
      : sel.length === 1 ? say("discardOrMore" + g) : "";
  }
  layoutMoves();
}

/* The hand is a toolbar: one card in the Tab order, arrows move, Enter/Space picks,
   Shift+arrows move the card itself. */
export function rove(to, focus) {
  const all = picks();
  if (!to || all.indexOf(to) < 0) to = all[0];
  all.forEach((b) => { b.tabIndex = b === to ? 0 : -1; });
  if (to && focus) to.focus();
}

// ---- orders ------------------------------------------------------------------------------
const KEYS = {
  rank: (t) => RANKS.indexOf(t.slice(0, -1)) * 4 + SUITS.indexOf(t.slice(-1)),
  suit: (t) => SUITS.indexOf(t.slice(-1)) * 13 + RANKS.indexOf(t.slice(0, -1)),
};
function orderKey() {
  const v = view();
  return v ? "baraha-order-" + (($("#table") || {}).dataset || {}).code + "-" + v.getAttribute("data-hand-no") : "";
}
function savedOrder() {
  try { return JSON.parse(sessionStorage.getItem(orderKey()) || "null"); } catch (e) { return null; }
}
function saveOrder(cards) {
  try { if (cards) sessionStorage.setItem(orderKey(), JSON.stringify(cards)); else sessionStorage.removeItem(orderKey()); } catch (e) { /* not kept */ }
}
// Put the cards in `order` (a list of card texts; others after, as they were), before the
// empty slots: the slots stay at the end whatever the order.
function place(order, animate) {
  const hand = $("#hand .hand");
  if (!hand) return;
  const before = animate && motion() ? rects(picks()) : null;
  const pos = (b) => { const i = order.indexOf(b.getAttribute("data-card")); return i < 0 ? 1e3 : i; };
  const slot = $(".slot", hand);
  picks().map((b, i) => [pos(b), i, b]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .forEach((x) => hand.insertBefore(x[2], slot));
  spread();
  if (before) picks().forEach((b) => flyFrom(b, before[b.getAttribute("data-card")], 220));
}
export function sortHand(by, animate) {
  const cards = picks().map((b) => b.getAttribute("data-card"));
  if (by === "arrange") {
    const at = {};
    picks().forEach((b) => { at[b.getAttribute("data-card")] = +b.getAttribute("data-arr"); });
    cards.sort((a, b) => at[a] - at[b]);
  } else cards.sort((a, b) => KEYS[by](a) - KEYS[by](b));
  place(cards, animate);
  const hand = $("#hand .hand");
  ["arrange", "rank", "suit"].forEach((k) => hand.classList.toggle("by-" + k, k === by));
  $$("[data-sort-by]").forEach((b) => b.setAttribute("aria-pressed", String(b.getAttribute("data-sort-by") === by)));
}
// The order last tapped, on this phone. A pushed view is rendered with the cookies its
// socket connected with, and a fetch may have left before the tap: the cookie is newer.
function sortTapped() {
  const m = document.cookie.match(/(?:^|;\s*)baraha-sort=(arrange|rank|suit)(?:;|$)/);
  return m ? m[1] : null;
}
// After each view: your own order (dragged) wins over the sort, for this hand; the sort
// you tapped wins over the one the view was rendered with.
export function restoreOrder() {
  const order = savedOrder();
  const by = sortTapped();
  if (order) place(order, false);
  else if (by && !$('[data-sort-by="' + by + '"][aria-pressed="true"]')) sortHand(by, false);
  markFresh();
}

// ---- the card just drawn or taken: marked until your next move ----------------------------
function freshKey() { return orderKey().replace("order", "fresh"); }
export function noteFresh(cards) {
  try { sessionStorage.setItem(freshKey(), JSON.stringify(cards)); } catch (e) { /* no */ }
  markFresh();
}
export function clearFresh() {
  try { sessionStorage.removeItem(freshKey()); } catch (e) { /* no */ }
  markFresh();
}
function markFresh() {
  let cards = [];
  try { cards = JSON.parse(sessionStorage.getItem(freshKey()) || "[]"); } catch (e) { /* none */ }
  picks().forEach((b) => {
    const on = cards.indexOf(b.getAttribute("data-card")) >= 0;
    b.classList.toggle("fresh", on);
    const label = b.getAttribute("data-name");
    b.setAttribute("aria-label", on && S.justDrawn ? label + ", " + S.justDrawn : label);
  });
}

// ---- taps and keys ------------------------------------------------------------------------
let dragged = false;
document.addEventListener("click", (e) => {
  const pick = e.target.closest("#hand .pick");
  if (pick && !pick.disabled) {
    if (dragged) { dragged = false; return; }
    pick.setAttribute("aria-pressed", pick.getAttribute("aria-pressed") === "true" ? "false" : "true");
    update();
    return;
  }
  const sort = e.target.closest("[data-sort-by]");
  if (sort) {
    const by = sort.getAttribute("data-sort-by");
    saveOrder(null);
    sortHand(by, true);
    document.cookie = "baraha-sort=" + by + "; path=/; max-age=31536000; samesite=lax";
  }
});
document.addEventListener("focusin", (e) => {
  if (e.target.matches && e.target.matches("#hand .pick")) rove(e.target, false);
});
document.addEventListener("keydown", (e) => {
  const pick = e.target.closest && e.target.closest("#hand .pick");
  if (!pick) return;
  const all = picks().filter((b) => !b.disabled);
  const i = all.indexOf(pick);
  let to = null;
  if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    const j = e.key === "ArrowLeft" ? i - 1 : i + 1;
    if (j >= 0 && j < all.length) moveCard(pick, all[j], e.key === "ArrowRight");
    e.preventDefault();
    pick.focus();
    return;
  }
  switch (e.key) {
    case "ArrowRight": case "ArrowDown": to = all[Math.min(all.length - 1, i + 1)]; break;
    case "ArrowLeft": case "ArrowUp": to = all[Math.max(0, i - 1)]; break;
    case "Home": to = all[0]; break;
    case "End": to = all[all.length - 1]; break;
    case "Escape":
      all.forEach((b) => b.setAttribute("aria-pressed", "false"));
      update();
      e.preventDefault();
      return;
    default: return;
  }
  e.preventDefault();
  if (to) rove(to, true);
});

// ---- drag to reorder (mouse, touch, pen: pointer events) ----------------------------------
function moveCard(card, target, after) {
  const before = motion() ? rects(picks()) : null;
  target.parentNode.insertBefore(card, after ? target.nextSibling : target);
  saveOrder(picks().map((b) => b.getAttribute("data-card")));
  spread();
  $$("[data-sort-by]").forEach((b) => b.setAttribute("aria-pressed", "false"));
  if (before) picks().forEach((b) => { if (b !== card) flyFrom(b, before[b.getAttribute("data-card")], 180); });
}
let drag = null;
// The card under a finger that is dragging it, if any: a redraw leaves it as it is.
export function dragging() { return drag && drag.on ? drag.card : null; }
document.addEventListener("pointerdown", (e) => {
  const pick = e.target.closest && e.target.closest("#hand .pick");
  if (!pick || pick.disabled || e.button > 0) return;
  drag = { card: pick, x: e.clientX, y: e.clientY, on: false, id: e.pointerId };
});
document.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (!drag.on && Math.hypot(dx, dy) < 12) return;
  drag.on = true;
  drag.card.classList.add("dragging");
  drag.card.style.transform = "translate(" + dx + "px," + dy + "px)";
});
function endDrag(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.on) return;
  d.card.classList.remove("dragging");
  d.card.style.transform = "";
  dragged = true;                      // the click that follows is not a pick
  setTimeout(() => { dragged = false; }, 0);
  // A redraw keeps the card dragged (bridge.js); a card no longer in the hand is gone.
  const card = d.card.isConnected ? d.card : null;
  if (!card) return;
  let best = null, dist = 1e9;
  picks().forEach((b) => {
    if (b === card) return;
    const r = b.getBoundingClientRect();
    const dd = Math.hypot(r.left + r.width / 2 - e.clientX, r.top + r.height / 2 - e.clientY);
    if (dd < dist) { dist = dd; best = b; }
  });
  if (best) {
    const r = best.getBoundingClientRect();
    moveCard(card, best, e.clientX > r.left + r.width / 2);
  }
}
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", (e) => {
  if (drag && drag.card) { drag.card.classList.remove("dragging"); drag.card.style.transform = ""; }
  drag = null;
});
