/* Motion: cards fly from where they were to where they are (transform only; none when
   the phone asks for reduced motion). Decoration only: nothing depends on it. */
import { $, $$, view, picks, motion } from "./dom.js";

export function rects(els) {
  const out = {};
  els.forEach((el) => { out[el.getAttribute("data-card")] = el.getBoundingClientRect(); });
  return out;
}
function box(sel) { const el = $(sel); return el ? el.getBoundingClientRect() : null; }
export function flyFrom(el, from, ms, delay, fade, at) {
  const to = at || el.getBoundingClientRect();
  if (!from || !to.width) return;
  const dx = (from.left + from.width / 2) - (to.left + to.width / 2);
  const dy = (from.top + from.height / 2) - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  const s = Math.max(0.4, Math.min(1.6, from.width / to.width || 1));
  el.animate([
    { transform: "translate(" + dx + "px," + dy + "px) scale(" + s + ")", opacity: fade ? 0.4 : 1 },
    { transform: "none", opacity: 1 },
  ], { duration: ms || 260, delay: delay || 0, easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" });
}
function pop(el, delay) {
  el.animate([{ transform: "scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }],
    { duration: 220, delay: delay || 0, easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" });
}
// A card back travelling between two places (someone else's draw): a fixed ghost, so
// nothing on the page moves.
function ghost(from, to) {
  if (!from || !to) return;
  const g = document.createElement("span");
  g.className = "card back ghost";
  g.setAttribute("aria-hidden", "true");
  Object.assign(g.style, { left: from.left + "px", top: from.top + "px", width: from.width + "px", height: from.height + "px" });
  document.body.appendChild(g);
  const dx = (to.left + to.width / 2) - (from.left + from.width / 2), dy = (to.top + to.height / 2) - (from.top + from.height / 2);
  const a = g.animate([{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px," + dy + "px) scale(.45)", opacity: 0.2 }],
    { duration: 380, easing: "cubic-bezier(.3,.6,.3,1)" });
  a.onfinish = a.oncancel = () => g.remove();
}

export function snapshot() {
  const v = view();
  const s = { cards: rects(picks()), stock: box(".pile.stock .pile-cards"), discard: box(".pile.discard .pile-cards"),
    discardTop: v ? v.getAttribute("data-discard") : "", turn: v ? v.getAttribute("data-turn") : "",
    hand: v ? v.getAttribute("data-hand-no") : "", stockN: v ? +v.getAttribute("data-stock") : 0,
    pile: v ? +v.getAttribute("data-pile-n") : 0, mine: v ? v.getAttribute("data-mine") === "1" : false,
    opps: {}, counts: {}, melds: {}, result: !!$("#result") };
  $$(".opp[data-seat]").forEach((o) => {
    s.opps[o.getAttribute("data-seat")] = o.getBoundingClientRect();
    const c = $(".count", o);
    s.counts[o.getAttribute("data-seat")] = c ? parseInt(c.textContent, 10) : 0;
  });
  $$(".meld[data-onto]").forEach((m) => { s.melds[m.getAttribute("data-onto")] = (m.getAttribute("data-cards") || "").split(" "); });
  return s;
}

// Every box is read before any card starts to move (an animation makes the next read lay
// the page out again): the flights are listed, measured together, then started.
export function animate(b) {
  const v = view();
  if (!v || !b || !motion()) return;
  const flights = [], then = [];
  plan(v, b, (...args) => { flights.push(args); }, then);
  const at = flights.map((f) => f[0].getBoundingClientRect());
  flights.forEach((f, i) => flyFrom(f[0], f[1], f[2], f[3], f[4], at[i]));
  then.forEach((f) => f());
}
function plan(v, b, fly, then) {
  const newHand = v.getAttribute("data-hand-no") !== b.hand;
  const top = v.getAttribute("data-discard");
  const stockNow = box(".pile.stock .pile-cards"), discardNow = box(".pile.discard .pile-cards");
  // Your hand: cards that stay slide to their new places; new ones come from a pile.
  let n = 0;
  picks().forEach((el) => {
    const c = el.getAttribute("data-card"), was = b.cards[c];
    if (was && !newHand) { fly(el, was, 220); return; }
    const from = (!newHand && b.discardTop === c) ? b.discard : (b.stock || stockNow);
    fly(el, from, newHand ? 320 : 300, newHand ? 35 * n++ : 0, true);
  });
  if (newHand) return;
  // The discard pile: the new top card comes from your hand or from its player.
  const pileNow = +v.getAttribute("data-pile-n") || 0, stockN = +v.getAttribute("data-stock") || 0;
  if (top && pileNow > b.pile) {
    const t = $(".pile.discard .card.top");
    if (t) { if (b.cards[top]) fly(t, b.cards[top], 280); else if (b.opps[b.turn]) fly(t, b.opps[b.turn], 320, 0, true); else then.push(() => pop(t)); }
  }
  // Melds: new cards on the table come from your hand, or from the player who played them.
  $$(".meld[data-onto]").forEach((m) => {
    const had = b.melds[m.getAttribute("data-onto")] || [];
    $$(".card[data-card]", m).forEach((el, i) => {
      const c = el.getAttribute("data-card");
      if (had.indexOf(c) >= 0) return;
      if (b.cards[c]) fly(el, b.cards[c], 300, i * 30);
      else if (b.opps[b.turn]) fly(el, b.opps[b.turn], 320, i * 30, true);
      else then.push(() => pop(el, i * 30));
    });
  });
  // Someone else drew: a card back goes from the pile to their box.
  $$(".opp[data-seat]").forEach((o) => {
    const s = o.getAttribute("data-seat"), c = $(".count", o), now = c ? parseInt(c.textContent, 10) : 0;
    if (now > (b.counts[s] || 0)) {
      const took = stockN === b.stockN && pileNow < b.pile;
      const from = took ? (discardNow || b.discard) : (stockNow || b.stock), to = o.getBoundingClientRect();
      then.push(() => ghost(from, to));
    }
  });
}
