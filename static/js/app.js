/* Baraha in the browser: the entry module. No framework and no build step: each module
   has one job (see docs/UI.md). The server decides everything; these only ask it for the
   view and keep what the server does not know (picked cards, focus, your card order). */
import "./ui/prefs.js";
import "./ui/panels.js";
import "./ui/lobby.js";
import "./ui/bridge.js";
import "./ui/evening.js";
import "./ui/pace.js";
import "./ui/learn.js";
