/* The table screen (docs/API.md "The table screen"): the watch link opened in a window at
   least 960px wide and wider than tall asks no name. The page already shows the table as
   any watcher sees it (static/css/screen.css); here it joins as a table screen (the answer
   sets its watcher cookie), and only then does it follow the table like any watcher's page.
   A narrow window asks a name instead (the form), and joins if it is turned wide. */
import { S, toast } from "./dom.js";

const WIDE = "(min-width: 960px) and (orientation: landscape)";

export function joinScreen(root, then) {
  const wide = window.matchMedia(WIDE);
  let asked = false;
  function join() {
    if (asked || !wide.matches) return;
    asked = true;
    const token = document.querySelector("meta[name=csrf-token]");
    fetch(root.getAttribute("data-join-screen"), {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRF-Token": token ? token.content : "" },
    }).then((r) => {
      if (r.ok) {
        wide.removeEventListener("change", join);
        root.removeAttribute("data-join-screen");
        document.body.classList.add("screen-joined");
        then();
      } else {
        r.text().then((words) => toast(words || S.refused));
      }
    }).catch(() => {       // no answer (the server restarting): ask again shortly
      asked = false;
      toast(S.noConnection);
      setTimeout(join, 5000);
    });
  }
  wide.addEventListener("change", join);
  join();
}
