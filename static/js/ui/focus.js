/* Keeping focus on "the same thing" when a view replaces the elements of the table. */
import { $, $$, view, picks } from "./dom.js";

const root = () => $("#table");
function formKey(f) {
  return ["do", "needs", "with", "onto", "face-down"].map((k) => f.getAttribute("data-" + k) || "").join("|");
}
const NAMED = ["data-hint-ask", "data-tap", "data-open", "data-more", "data-toggle"];
export function focusKey(el) {
  if (!el || el === document.body || !root().contains(el)) return null;
  if (el.matches("#hand .pick")) return { card: el.getAttribute("data-card") };
  const f = el.closest("form.act");
  if (f) return { form: formKey(f) };
  if (el.matches(".meld")) return { sel: '.meld[data-onto="' + el.getAttribute("data-onto") + '"]' };
  if (el.matches("[data-sort-by]")) return { sel: '[data-sort-by="' + el.getAttribute("data-sort-by") + '"]' };
  const h = el.closest("form.host-form");
  if (h) return { sel: 'form.host-form[action="' + h.getAttribute("action") + '"] ' + el.tagName.toLowerCase() };
  // Hint, a pile, a sheet's opener, Nudge, I'm back: named by what they do.
  const mark = NAMED.find((a) => el.hasAttribute(a));
  if (mark) return { sel: el.tagName.toLowerCase() + "[" + mark + '="' + CSS.escape(el.getAttribute(mark)) + '"]' };
  const form = el.closest("form[action]");
  if (form && form.querySelectorAll("button").length === 1) return { sel: 'form[action="' + CSS.escape(form.getAttribute("action")) + '"] button' };
  const d = el.closest("details[id]");
  if (d && el.matches("summary")) return { sel: "#" + d.id + " > summary" };
  if (el.id) return { sel: "#" + el.id };
  return { lost: true };
}
export function findKey(k) {
  if (!k) return null;
  if (k.card) return $('#hand .pick[data-card="' + k.card + '"]');
  if (k.form) {
    const hit = $$("form.act").filter((f) => formKey(f) === k.form)[0];
    return hit ? $("button", hit) : null;
  }
  return k.sel ? $(k.sel, root()) : null;
}
const firstMove = () => $$(".btns form.act:not([hidden]) button, .btns [data-more]:not([hidden])")[0];
export function fallbackFocus(before) {
  const v = view();
  if (!v) return null;
  const res = $("#result");
  if (res && !before.result) return res;
  if (v.getAttribute("data-mine") === "1") {
    if (v.getAttribute("data-phase") === "play") {
      const fresh = picks().filter((b) => !before.cards[b.getAttribute("data-card")])[0];
      return fresh || firstMove() || $("#hand .pick[tabindex='0']");
    }
    const first = firstMove();
    if (first) return first;
  }
  return $("#turn-line");
}
