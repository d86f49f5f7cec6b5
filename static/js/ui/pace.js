/* The turn timer (docs/API.md "Pace and presence"): counts down the acting player's time
   from the view's deadline, in the turn line itself (no line of its own, so nothing moves
   when it shows). Another player's time is always shown; your own only in its last 10 s,
   marked urgent, and the phone vibrates once if it can. A sheet open on your turn covers
   the turn line: its head shows your time left, always ([data-sheet-pace]). */
import { say } from "./dom.js";

const URGENT = 10;
let buzzed = null;

function secondsTo(deadline) {
  return Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
}

function tick() {
  let mine = null;
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const left = secondsTo(el.getAttribute("data-deadline"));
    el.textContent = `${left}s`;
    const own = el.classList.contains("mine");
    el.classList.toggle("urgent", left <= URGENT);
    el.hidden = own ? left > URGENT : false;
    const key = el.getAttribute("data-deadline");
    if (own) mine = left;
    if (own && left <= URGENT && left > 0 && buzzed !== key) {
      buzzed = key;
      if (navigator.vibrate) navigator.vibrate(200);
    }
  }
  for (const el of document.querySelectorAll("dialog[open] [data-sheet-pace]")) {
    el.hidden = mine === null;
    if (mine === null) continue;
    el.textContent = say("yourTime", { n: mine });
    el.classList.toggle("urgent", mine <= URGENT);
  }
}
setInterval(tick, 1000);
document.addEventListener("htmx:afterSwap", tick);
// A sheet just opened shows the time at once, not a second later.
document.addEventListener("baraha-opened", tick);
tick();
