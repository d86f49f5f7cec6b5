/* The Hands panel: a replay's Play button steps forward on its own (each step is the
   server's, fetched as Forward would), and "Play again" closes the panel. */
const STEP_MS = 1100;
let playing = false, timer = null;

function button(name) {
  return document.querySelector(`#replay [data-replay="${name}"]`);
}
function show() {
  const b = button("play");
  if (!b) return;
  b.setAttribute("aria-pressed", String(playing));
  b.textContent = b.getAttribute(playing ? "data-pause-words" : "data-play-words");
}
function stop() {
  playing = false;
  clearTimeout(timer);
  show();
}
function later() {
  clearTimeout(timer);
  timer = setTimeout(() => {
    const next = button("forward");
    const panel = document.getElementById("hands");
    if (!playing || !next || next.disabled || !panel || !panel.open) { stop(); return; }
    next.click();
  }, STEP_MS);
}
document.addEventListener("click", (e) => {
  const play = e.target.closest("#replay [data-replay='play']");
  if (play) {
    playing = !playing;
    show();
    if (playing) later(); else clearTimeout(timer);
    return;
  }
  // A step chosen by hand, or leaving the replay, stops the play.
  if (e.isTrusted && e.target.closest("#hands-body [hx-get]")) stop();
});
document.body.addEventListener("htmx:afterSwap", (e) => {
  if (!e.detail.target || e.detail.target.id !== "hands-body") return;
  if (playing && button("forward")) { show(); later(); } else stop();
});
document.addEventListener("submit", (e) => {
  if (e.target.closest("#hands .ev-again")) document.getElementById("hands").close();
});
document.addEventListener("close", (e) => { if (e.target.id === "hands") stop(); }, true);
