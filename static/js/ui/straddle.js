/* A tap that straddles a redraw: the finger goes down on a button, the table is redrawn,
   the finger comes up. The redraw keeps the button (idiomorph), but one it had to move in
   the page (a move going back to its row) loses the tap in Chromium: no click comes. So a
   tap across a redraw whose click did not come is made again on the same button, if it is
   still there and offered. A drag (the finger moved) is no tap. */
import { visible } from "./dom.js";

let down = null, redraws = 0;
document.body.addEventListener("htmx:afterSwap", (e) => {
  if (e.detail && e.detail.target && e.detail.target.id === "table") redraws++;
});
document.addEventListener("pointerdown", (e) => {
  const el = e.target.closest && e.target.closest("#table button");
  down = el ? { el, at: redraws, x: e.clientX, y: e.clientY } : null;
}, true);
document.addEventListener("pointerup", (e) => {
  const d = down;
  down = null;
  if (!d || d.at === redraws || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 12) return;
  let clicked = false;
  const heard = () => { clicked = true; };
  document.addEventListener("click", heard, true);
  setTimeout(() => {
    document.removeEventListener("click", heard, true);
    if (!clicked && d.el.isConnected && !d.el.disabled && visible(d.el)) d.el.click();
  }, 0);
}, true);
