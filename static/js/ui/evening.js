/* The Hands panel: a replay's Play button steps forward on its own (each step is the
   server's, fetched as Forward would), and "Play again" closes the panel. During a match
   the bar's Hands button says which hand this is ("Hand 2 of 3"), as the table moves on. */
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

// The bar is not redrawn with the table: after each view, its Hands button takes the
// match's hand from #view (data-match-no, data-match-of), in the page's own words.
function handOfMatch() {
  const btn = document.querySelector(".bar .hands-btn[data-hands]");
  const v = document.getElementById("view");
  if (!btn || !v) return;
  const no = v.getAttribute("data-match-no"), of = v.getAttribute("data-match-of");
  const text = !no ? btn.getAttribute("data-hands")
    : (of ? btn.getAttribute("data-hand-of") : btn.getAttribute("data-hand-no")).split("{num}").join(no).split("{total}").join(of);
  if (btn.textContent !== text) btn.textContent = text;
}
document.body.addEventListener("htmx:afterSwap", (e) => {
  if (e.detail.target && e.detail.target.id === "table") handOfMatch();
});
