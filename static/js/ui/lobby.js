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
