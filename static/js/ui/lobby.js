/* The lobby's form: show the chosen game's options and seats only. */
import { $, $$ } from "./dom.js";

const create = $("#create");
if (create) {
  const sync = () => {
    const g = $("[name=game]:checked", create);
    const game = g ? g.value : "tongits";
    $$("[data-game]", create).forEach((el) => {
      const on = el.getAttribute("data-game") === game;
      el.hidden = !on;
      el.disabled = !on;
    });
    const menu = $(`[data-game=${game}] [name=players]`, create);
    const n = menu ? +menu.value : 3;
    $$("[data-seat-row]", create).forEach((row) => {
      const on = +row.getAttribute("data-seat-row") < n;
      row.hidden = !on;
      $$("select", row).forEach((s) => { s.disabled = !on; });
    });
  };
  create.addEventListener("change", sync);
  sync();
}

/* A name is cut at its limit counted in characters people see (grapheme clusters), as the
   server counts it: maxlength would count UTF-16 units (an emoji is two, a family five). */
const seg = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
// On the document: also the name fields of sheets that htmx brings in later (Sit behind me).
document.addEventListener("input", (e) => {
  const input = e.target;
  if (!seg || !input.matches || !input.matches("input[data-seen-max]")) return;
  const max = +input.getAttribute("data-seen-max");
  const parts = Array.from(seg.segment(input.value), (p) => p.segment);
  if (parts.length > max) input.value = parts.slice(0, max).join("");
});
