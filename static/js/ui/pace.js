/* The turn timer (docs/API.md "Pace and presence"): counts down the acting player's time
   from the view's deadline, in the turn line itself (no line of its own, so nothing moves
   when it shows). Another player's time is always shown; your own only in its last 10 s,
   marked urgent, and the phone vibrates once if it can. */
const URGENT = 10;
let buzzed = null;

function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-deadline")) - Date.now()) / 1000));
    el.textContent = `${left}s`;
    const mine = el.classList.contains("mine");
    el.classList.toggle("urgent", left <= URGENT);
    el.hidden = mine ? left > URGENT : false;
    const key = el.getAttribute("data-deadline");
    if (mine && left <= URGENT && left > 0 && buzzed !== key) {
      buzzed = key;
      if (navigator.vibrate) navigator.vibrate(200);
    }
  }
}
setInterval(tick, 1000);
document.addEventListener("htmx:afterSwap", tick);
tick();
