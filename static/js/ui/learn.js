/* Learning at the table: the Hint button asks the server for the strongest bot's move
   (GET /api/tables/CODE/hint), marks it on your cards, the piles and the move buttons,
   and shows why over your own hand's head (private: nothing of the others' is covered).
   The marks go when the table is redrawn (the next view).
   A guided hand (/learn/GAME) marks its step's move the same way, in its own colour:
   the move is in #lesson-say's data-move, drawn again with every step. */
import { $, $$, toast } from "./dom.js";

const why = () => $("#hint-why");
let hintedAt = null;        // the version of the view the marks were made on

function clear() {
  $$(".hinted").forEach((el) => el.classList.remove("hinted"));
  const box = why();
  if (box) { box.hidden = true; box.textContent = ""; }
}

// Over the top of your hand box: as wide as it, no taller than it.
function place(box) {
  const hand = $("#hand");
  if (!hand || box.hidden) return;
  const r = hand.getBoundingClientRect();
  Object.assign(box.style, { left: `${r.left}px`, right: "auto", width: `${r.width}px`,
    top: `${Math.max(0, r.top)}px`, bottom: "auto", maxHeight: `${r.height}px` });
}
window.addEventListener("resize", () => { const box = why(); if (box) place(box); });

function same(a, b) {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}

function mark(action, cls = "hinted") {
  const cards = [].concat(action.cards || [], action.with || [], action.card ? [action.card] : []);
  cards.forEach((c) => $$(`#hand [data-card="${c}"]`).forEach((el) => el.classList.add(cls)));
  if (action.do === "draw") $$("[data-pile=stock]").forEach((el) => el.classList.add(cls));
  if (action.do === "take") $$("[data-pile=discard]").forEach((el) => el.classList.add(cls));
  if (action.onto) {     // a lay-off: the meld it goes on
    $$(`.meld[data-onto="${action.onto.seat}:${action.onto.meld}"]`).forEach((el) => el.classList.add(cls));
  }
  $$(`form.act[data-do="${action.do}"]`).forEach((form) => {
    const input = form.querySelector("input[name=action]");
    let a = null;
    try { a = JSON.parse(input ? input.value : "null"); } catch (e) { a = null; }
    if (a && same(a, action)) form.classList.add(cls);
  });
}

function lesson() {
  const say = $("#lesson-say");
  const move = say && say.getAttribute("data-move");
  $$(".lesson-mark").forEach((el) => el.classList.remove("lesson-mark"));
  if (move) mark(JSON.parse(move), "lesson-mark");
}
if ($("#lesson-say")) {
  lesson();
  document.body.addEventListener("htmx:afterSettle", lesson);
}

document.addEventListener("click", async (e) => {
  const btn = e.target.closest("[data-hint-ask]");
  if (!btn) {
    if (e.target.closest("#hint-why")) clear();
    return;
  }
  btn.disabled = true;
  try {
    const r = await fetch(btn.getAttribute("data-hint-ask"), {
      credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = await r.json();
    if (!r.ok) { toast(body.error || String(r.status)); return; }
    clear();
    const v = $("#view");
    hintedAt = v ? v.getAttribute("data-version") : null;
    mark(body.action);
    const box = why();
    if (box) { box.textContent = body.why; box.hidden = false; place(box); }
  } catch (err) {
    toast(String(err));
  } finally {
    btn.disabled = false;
  }
});
// A new view (a move's answer, or the view fetched after a signal): the hint was for the
// one before, so it goes.
document.body.addEventListener("htmx:afterSwap", (e) => {
  if (!e.detail || !e.detail.target || e.detail.target.id !== "table") return;
  const v = $("#view");
  if (hintedAt !== null && (!v || v.getAttribute("data-version") !== hintedAt)) {
    hintedAt = null;
    clear();
  }
});
