/* After every view of the table: the invite closes at the deal, your turn is cued (a
   chime or buzz, the title, the phone's toolbar), and the live region says the moves that
   are new since the last view, then whose turn it is. */
import { $, $$, S, view } from "./dom.js";
import { turnCue } from "./prefs.js";

const baseTitle = document.title.replace(/^● .*? · /, "");
let wasMine = null, heard = null, heardHand = null, lastTurn = "";
export function afterView(swapped) {
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
