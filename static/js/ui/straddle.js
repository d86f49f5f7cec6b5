/* A tap that straddles a redraw of the table (a push or a fetched view). */
import { toast, S, visible } from "./dom.js";
import { focusKey, findKey } from "./focus.js";

/* The finger goes down on a card or a button, a push replaces the table, the finger comes
   up on the new copy: Chromium then sends no click at all (others send it to an element
   both share, the table), so no handler would see the tap. It is replayed on the copy (the
   same card, the same move); if what was tapped is gone or no longer offered, the phone
   says so. A drag (the finger moved) is no tap. */
let downOn = null, straddled = null;
document.addEventListener("pointerdown", (e) => {
  const el = e.target.closest && e.target.closest("#table button");
  downOn = el ? { el, key: focusKey(el), x: e.clientX, y: e.clientY } : null;
}, true);
function replay(d) {
  const copy = d.key && !d.key.lost ? findKey(d.key) : null;
  if (copy && !copy.disabled && visible(copy)) copy.click();
  else toast(S.tapAgain);
}
document.addEventListener("pointerup", (e) => {
  const d = downOn;
  downOn = null;
  if (!d || d.el.isConnected || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 12) return;
  straddled = d;
  setTimeout(() => { if (straddled === d) { straddled = null; replay(d); } }, 0);
}, true);
document.addEventListener("click", (e) => {
  const d = straddled;
  if (!d) return;
  straddled = null;
  if (e.target.closest("button")) return;      // the click found a button: it counts as it is
  e.stopPropagation();
  replay(d);
}, true);
