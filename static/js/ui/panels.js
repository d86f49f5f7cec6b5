/* The Settings and Rules panels (<dialog>), the toast's tap, and show/hide toggles. */
import { $ } from "./dom.js";
import { chime } from "./prefs.js";

export function openDialog(d) {
  if (d.open) return;
  if (d.showModal) d.showModal(); else d.setAttribute("open", "");
  d.dispatchEvent(new CustomEvent("baraha-opened", { bubbles: true }));   // ui/pace.js
  const body = $(".sheet-body", d);
  if (body) body.scrollTop = 0;
}
document.addEventListener("click", (e) => {
  const t = e.target;
  if (t.id === "toast") { t.hidden = true; return; }
  const opener = t.closest("[data-open]");
  if (opener) {
    const d = document.getElementById(opener.getAttribute("data-open"));
    if (d) { e.preventDefault(); openDialog(d); }
    return;
  }
  if (t.matches("dialog.sheet")) {        // a tap on the dimmed backdrop closes the panel
    const r = t.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) t.close();
    return;
  }
  if (t.closest("[data-try-sound]")) { chime(); return; }
  const tog = t.closest("[data-toggle]");
  if (tog) {
    const panel = document.getElementById(tog.getAttribute("data-toggle"));
    panel.hidden = !panel.hidden;
    tog.setAttribute("aria-expanded", String(!panel.hidden));
  }
});
