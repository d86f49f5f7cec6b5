/* Your moves: one row of buttons, the rest in a sheet ("More moves"); a confirmation
   before a move that ends the hand (Call Draw, Drop); taps on the stock and the discard
   pile; the nudge. The buttons themselves are forms the server made (form.act). */
import { $, $$, say, submit } from "./dom.js";
import { openDialog } from "./panels.js";

// How many buttons fit in one row: about 100px each (a phone's row has room for 3 or 4).
function capacity(width) { return Math.max(1, Math.min(4, Math.floor(width / 100))); }
// The row's width as last laid out. A redraw brings a new row, as wide as the old one; the
// row is measured only when no width is known yet, so a redraw lays the page out once
// (when the cards' flights read their places), not once more here. A ResizeObserver hears
// every row's width after layout, before paint: a new width (a turned phone, a row laid out
// otherwise) lays the moves out again in the same frame.
let rowWidth = 0, watched = null;
const watcher = window.ResizeObserver ? new ResizeObserver(() => {
  if (!watched || !watched.isConnected) return;
  const w = watched.clientWidth;
  if (capacity(w) === capacity(rowWidth)) { rowWidth = w; return; }
  rowWidth = w;
  layoutMoves();
}) : null;
function watch(row) {
  if (!watcher || row === watched) return;
  watcher.disconnect();
  watched = row;
  watcher.observe(row);
}

const MOVES = ":scope > form.act, :scope > [data-open=take-sheet]";
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
export function layoutMoves() {
  const row = $("#actions .btns"), sheet = $("#more-moves"), more = $("[data-more]");
  if (!row || !sheet || !more) return;
  const body = $(".more-body", sheet);
  // In the server's order, what does not fit goes to the sheet, the rest stays in the row.
  // A form already where it belongs is not moved: a button moved under a finger loses its
  // tap.
  const all = $$(MOVES, row).concat($$(MOVES, body)).sort((a, b) => +a.dataset.i - +b.dataset.i);
  const shown = all.filter((f) => !f.hidden);
  if (!watcher || !rowWidth) rowWidth = row.clientWidth;
  watch(row);
  const cap = capacity(rowWidth);
  const over = shown.length > cap ? shown.slice(cap - 1) : [];
  const inRow = all.filter((f) => over.indexOf(f) < 0);
  if (!same($$(MOVES, row), inRow)) inRow.forEach((f) => row.insertBefore(f, more));
  if (!same($$(MOVES, body), over)) over.forEach((f) => body.appendChild(f));
  if (over.length) {
    more.textContent = say("moreMoves", { n: over.length });
    more.hidden = false;
  } else {
    more.hidden = true;
    if (sheet.open) sheet.close();
  }
}
// Number the moves once per view, so that they can go back to the server's order.
export function numberMoves() {
  $$(MOVES, $("#actions .btns") || document.body).forEach((f, i) => { f.dataset.i = String(i); });
}

// ---- moves that end the hand ask first: "Drop with 12? The hand ends now." -----------------
let asking = null;
document.body.addEventListener("htmx:confirm", (e) => {
  const f = e.detail.elt;
  if (!f || !f.matches || !f.matches("form.act[data-confirm]")) return;
  if (f.dataset.confirmed === "1") return;
  e.preventDefault();
  const d = $("#confirm");
  if (!d) { e.detail.issueRequest(true); return; }
  const parent = f.closest("dialog");       // asked from the "More moves" sheet
  if (parent && parent.open) parent.close();
  asking = f.getAttribute("data-do");
  $("#confirm-text").textContent = f.getAttribute("data-confirm");
  $("[data-confirm-yes]", d).textContent = f.getAttribute("data-confirm-yes");
  openDialog(d);
  $("[data-confirm-no]", d).focus();
});
document.addEventListener("click", (e) => {
  const yes = e.target.closest("[data-confirm-yes]"), no = e.target.closest("[data-confirm-no]");
  if (yes || no) {
    $("#confirm").close();
    // The current form of that move: a push may have redrawn the table meanwhile.
    const f = yes && asking ? $('form.act[data-do="' + asking + '"]') : null;
    asking = null;
    if (f) { f.dataset.confirmed = "1"; submit(f); }
    return;
  }
  const meld = e.target.closest(".meld.accepts");      // lay off by tapping the glowing meld
  if (meld) {
    const f = $('form.act[data-do=layoff][data-onto="' + meld.getAttribute("data-onto") + '"]:not([hidden])');
    if (f) submit(f);
    return;
  }
  const tap = e.target.closest("[data-tap]");
  if (tap) {
    const forms = $$('form.act[data-do="' + tap.getAttribute("data-tap") + '"]');
    // Tonk's take_from top_two: the card beneath the top is taken by tapping it.
    const under = e.target.closest("[data-beneath]");
    const named = forms.filter((f) => f.getAttribute("data-card") === (under ? under.getAttribute("data-beneath") : null));
    const plain = forms.filter((f) => !f.hasAttribute("data-card"));
    if (forms.length === 1) submit(forms[0]);
    else if (forms.length > 1 && $("#take-sheet")) openDialog($("#take-sheet"));
    else if (named.length === 1) submit(named[0]);
    else if (plain.length === 1) submit(plain[0]);
  }
});
// A move chosen in a sheet closes the sheet; a view that no longer has the move closes
// the question about it.
document.body.addEventListener("htmx:beforeRequest", (e) => {
  const elt = e.detail.elt;
  const d = elt && elt.closest && elt.closest("dialog");
  if (d && d.open && !d.hasAttribute("data-stays")) d.close();    // a panel that browses stays
});
export function afterSwapMoves() {
  const d = $("#confirm");
  if (d && d.open && !(asking && $('form.act[data-do="' + asking + '"]'))) { d.close(); asking = null; }
  numberMoves();
}
if (!watcher) window.addEventListener("resize", () => layoutMoves());
