/* Baraha in the browser: the Socket.IO -> htmx bridge, card selection, small page helpers.
   No framework. The server decides everything; this file only asks it for the view. */
(function () {
  "use strict";
  var $ = function (sel, el) { return (el || document).querySelector(sel); };
  var $$ = function (sel, el) { return Array.prototype.slice.call((el || document).querySelectorAll(sel)); };

  /* ---- toast: plain words, never loses what is on screen ---------------------------- */
  var toastTimer = null;
  function toast(msg) {
    var t = $("#toast");
    if (!t || !msg) return;
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { t.hidden = true; }, 4500);
  }
  window.barahaToast = toast;
  document.addEventListener("click", function (e) { if (e.target.id === "toast") e.target.hidden = true; });

  /* ---- four-colour deck, sort order ------------------------------------------------- */
  var FOUR = "baraha-four-colour";
  function applyFour() {
    var on = false;
    try { on = localStorage.getItem(FOUR) === "1"; } catch (e) { /* private mode */ }
    document.documentElement.classList.toggle("four-colour", on);
    $$("[data-four-colour]").forEach(function (b) { b.checked = on; });
  }
  applyFour();
  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-four-colour]")) {
      try { localStorage.setItem(FOUR, e.target.checked ? "1" : "0"); } catch (err) { /* ignore */ }
      applyFour();
    }
  });

  /* ---- lobby: show the chosen game's options and seats ------------------------------ */
  var create = $("#create");
  if (create) {
    var syncCreate = function () {
      var g = $("[name=game]:checked", create);
      var game = g ? g.value : "tongits";
      $$("[data-game]", create).forEach(function (el) {
        var on = el.getAttribute("data-game") === game;
        el.hidden = !on;
        el.disabled = !on;
      });
      var n = game === "tongits" ? 3 : +($("[name=players]", create) || { value: 4 }).value;
      $$("[data-seat-row]", create).forEach(function (row) {
        var on = +row.getAttribute("data-seat-row") < n;
        row.hidden = !on;
        $$("select", row).forEach(function (s) { s.disabled = !on; });
      });
    };
    create.addEventListener("change", syncCreate);
    syncCreate();
  }

  /* ---- the table --------------------------------------------------------------------- */
  var root = $("#table");
  if (!root) return;
  var saved = [];          // cards selected, kept across pushes (cleared by your own move)
  var wasMine = false;

  function version() {
    var v = $("#view");
    return v ? +v.getAttribute("data-version") || 0 : 0;
  }
  function selected() {
    return $$(".hand .pick[aria-pressed=true]").map(function (b) { return b.getAttribute("data-card"); }).sort();
  }
  function same(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // Show exactly the moves that use the selected cards; light up melds that take the card.
  function update() {
    var sel = selected();
    saved = sel;
    var shown = 0, layoffs = 0;
    $$(".meld").forEach(function (m) { m.classList.remove("accepts"); m.disabled = true; m.removeAttribute("aria-description"); });
    $$("form.act.needs").forEach(function (f) {
      var needs = f.getAttribute("data-needs").split(" ").sort();
      var on = sel.length > 0 && same(needs, sel);
      f.hidden = !on;
      if (!on) return;
      shown++;
      if (f.getAttribute("data-do") === "layoff") {
        layoffs++;
        var m = $('.meld[data-onto="' + f.getAttribute("data-onto") + '"]');
        if (m) { m.classList.add("accepts"); m.disabled = false; m.setAttribute("aria-description", "tap to lay off here"); }
      }
    });
    var hint = $("[data-hint]");
    if (hint) {
      var w = ($("#view") || root).getAttribute("data-game") === "tonk"
        ? { meld: "spread", lay: "hit" } : { meld: "meld", lay: "lay off" };
      hint.textContent = !sel.length ? "Tap cards to select them."
        : !shown ? "No " + w.meld + ", " + w.lay + " or discard with " + (sel.length === 1 ? "this card." : "these " + sel.length + " cards.")
        : layoffs ? "Tap a glowing " + (w.meld === "spread" ? "spread" : "meld") + " to " + w.lay + ", or use a button."
        : "";
    }
  }

  document.addEventListener("click", function (e) {
    var pick = e.target.closest(".hand .pick");
    if (pick && !pick.disabled) {
      pick.setAttribute("aria-pressed", pick.getAttribute("aria-pressed") === "true" ? "false" : "true");
      update();
      return;
    }
    var meld = e.target.closest(".meld.accepts");
    if (meld) {
      var f = $('form.act[data-do=layoff][data-onto="' + meld.getAttribute("data-onto") + '"]:not([hidden])');
      if (f) { if (f.requestSubmit) f.requestSubmit(); else htmx.trigger(f, "submit"); }
      return;
    }
    if (e.target.closest("[data-sort-toggle]")) {
      var hand = $(".hand");
      var byRank = !hand.classList.contains("by-rank");
      hand.classList.toggle("by-rank", byRank);
      hand.classList.toggle("by-suit", !byRank);
      var b = e.target.closest("[data-sort-toggle]");
      b.textContent = "Sort: " + (byRank ? "rank" : "suit");
      b.setAttribute("aria-label", "Sort cards by " + (byRank ? "suit" : "rank"));
      document.cookie = "baraha-sort=" + (byRank ? "rank" : "suit") + "; path=/; max-age=31536000; samesite=lax";
      return;
    }
    var tog = e.target.closest("[data-toggle]");
    if (tog) {
      var panel = document.getElementById(tog.getAttribute("data-toggle"));
      panel.hidden = !panel.hidden;
      tog.setAttribute("aria-expanded", String(!panel.hidden));
    }
  });

  /* ---- htmx: keep state across swaps, show errors in plain words -------------------- */
  var openDetails = {};
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    if (e.detail.elt && e.detail.elt.matches && e.detail.elt.matches("form.act")) {
      saved = [];
      $$("form.act button").forEach(function (b) { b.disabled = true; });   // no double tap
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target !== root) return;
    var m = /data-version="(\d+)"/.exec(e.detail.serverResponse || "");
    if (m && +m[1] < version()) e.detail.shouldSwap = false;   // an older answer arrived late
    $$("details[id]", root).forEach(function (d) { openDetails[d.id] = d.open; });
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target !== root) return;
    $$("details[id]", root).forEach(function (d) { if (openDetails[d.id]) d.open = true; });
    var keep = saved;
    $$(".hand .pick").forEach(function (b) {
      if (keep.indexOf(b.getAttribute("data-card")) >= 0) b.setAttribute("aria-pressed", "true");
    });
    update();
    afterView();
  });
  document.body.addEventListener("htmx:afterRequest", function () {
    $$("form.act button").forEach(function (b) { b.disabled = false; });
    saved = selected();     // refused (nothing swapped): the selection stays for the next push
  });
  document.body.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr;
    var text = (xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0 ? xhr.responseText : "";
    toast(text || ("The server said no (" + xhr.status + "). Reload the page if this keeps happening."));
  });
  document.body.addEventListener("htmx:sendError", function () {
    toast("No connection to the table. Check the Wi-Fi; your cards are safe.");
  });
  document.body.addEventListener("baraha-toast", function (e) { toast(e.detail && e.detail.value); });

  function afterView() {
    var v = $("#view");
    var invite = $("#invite[data-auto]");
    if (invite && v && v.getAttribute("data-phase") !== "waiting") {
      // Opened for the seating only: the deal closes it (the code chip opens it again).
      invite.removeAttribute("data-auto");
      invite.hidden = true;
      var chip = $("[data-toggle=invite]");
      if (chip) chip.setAttribute("aria-expanded", "false");
    }
    var mine = !!v && v.getAttribute("data-mine") === "1";
    if (mine && !wasMine && navigator.vibrate) { try { navigator.vibrate(120); } catch (err) { /* ignore */ } }
    wasMine = mine;
    // The regions are replaced on every swap, so screen readers hear the turn from here.
    var say = $("#announce"), line = $("#turn-line");
    var words = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
    if (say && words && say.textContent !== words) say.textContent = words;
  }
  afterView();
  update();

  /* ---- Socket.IO: a signal that version N exists; each phone fetches its own view ---- */
  var busy = false, again = false;
  function resync() {
    if (busy) { again = true; return; }
    busy = true;
    htmx.ajax("GET", root.getAttribute("data-partial"), { target: "#table", swap: "innerHTML" })
      .catch(function () { /* the banner already says it */ })
      .then(function () { busy = false; if (again) { again = false; resync(); } });
  }
  window.barahaResync = resync;
  if (!window.io) return;
  var banner = $("#offline");
  function offline(on, words) {
    if (!banner) return;
    if (words) banner.textContent = words;
    banner.hidden = !on;
  }
  var socket = window.io({
    transports: ["websocket", "polling"], tryAllTransports: true,
    auth: { code: root.getAttribute("data-code") }
  });
  window.socket = socket;
  socket.on("connect", function () {
    offline(false);
    resync();       // something may have happened before or while we were connected
  });
  socket.on("disconnect", function () { offline(true, "Reconnecting…"); });
  socket.on("connect_error", function () {
    if (socket.active) offline(true, "Reconnecting…");
    else offline(true, "The table did not let this phone in. Reload the page to sit down again.");
  });
  socket.on("changed", function (msg) {
    // Equal versions too: a player's connection came or went (shown as "away").
    if (!msg || typeof msg.version !== "number" || msg.version >= version()) resync();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    if (!socket.connected) socket.connect();
    resync();
  });
  setInterval(function () { if (!socket.connected && !document.hidden) resync(); }, 15000);
})();
