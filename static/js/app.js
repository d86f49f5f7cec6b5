/* Baraha in the browser: the Socket.IO -> htmx bridge, card selection, this phone's
   settings, the Rules and Settings panels, keys, turn cues and small animations.
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

  /* ---- this phone's settings (localStorage; applied before paint by base.html) ------- */
  var PREFS = {
    "four-colour": { key: "baraha-four-colour", def: "0" },
    vibrate: { key: "baraha-vibrate", def: "1" },
    sound: { key: "baraha-sound", def: "1" },
    theme: { key: "baraha-theme", def: "system" }
  };
  function pref(name) {
    var p = PREFS[name], v = null;
    try { v = localStorage.getItem(p.key); } catch (e) { /* private mode: defaults */ }
    return v === null ? p.def : v;
  }
  function setPref(name, value) {
    try { localStorage.setItem(PREFS[name].key, value); } catch (e) { /* not kept */ }
    applyPrefs();
  }
  function applyPrefs() {
    var html = document.documentElement;
    html.classList.toggle("four-colour", pref("four-colour") === "1");
    var theme = pref("theme");
    if (theme === "light" || theme === "dark") html.setAttribute("data-theme", theme);
    else html.removeAttribute("data-theme");
    $$("[data-pref]").forEach(function (input) {
      var name = input.getAttribute("data-pref");
      if (input.type === "radio") input.checked = input.value === pref(name);
      else input.checked = pref(name) === "1";
    });
  }
  applyPrefs();
  window.addEventListener("storage", applyPrefs);        // another tab changed them
  document.addEventListener("change", function (e) {
    var input = e.target.closest && e.target.closest("[data-pref]");
    if (!input) return;
    var name = input.getAttribute("data-pref");
    if (input.type === "radio") { if (input.checked) setPref(name, input.value); }
    else setPref(name, input.checked ? "1" : "0");
    if (name === "sound" && input.checked) chime();
  });

  /* ---- your turn: a buzz and a chime (made with WebAudio: no sound files) ----------- */
  var audio = null;
  function audioContext() {
    if (!audio) {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      try { audio = new AC(); } catch (e) { return null; }
    }
    if (audio.state === "suspended" && audio.resume) audio.resume().catch(function () {});
    return audio;
  }
  // Browsers let a page make sound only after a tap or a key (a touch counts when it ends):
  // make the audio ready on each one, and wake it if the phone put it to sleep meanwhile.
  function wakeAudio() { if (pref("sound") === "1") audioContext(); }
  ["click", "touchend", "keydown"].forEach(function (type) {
    document.addEventListener(type, wakeAudio, { capture: true, passive: true });
  });
  function chime() {
    var ctx = audioContext();
    if (!ctx) return;
    var t = ctx.currentTime + 0.02;
    [[659.25, 0], [987.77, 0.13]].forEach(function (n) {       // E5 then B5, soft bell
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(n[0], t + n[1]);
      gain.gain.setValueAtTime(0.0001, t + n[1]);
      gain.gain.exponentialRampToValueAtTime(0.22, t + n[1] + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + n[1] + 0.38);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t + n[1]);
      osc.stop(t + n[1] + 0.4);
    });
  }
  window.barahaChime = chime;
  function turnCue() {
    // Chromium refuses (and logs) vibrate() before the first tap on the page.
    var tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (pref("vibrate") === "1" && navigator.vibrate && tapped) { try { navigator.vibrate([90, 60, 90]); } catch (e) { /* no */ } }
    if (pref("sound") === "1") chime();
  }

  /* ---- the Settings and Rules panels -------------------------------------------------- */
  function openDialog(d) {
    if (d.open) return;
    if (d.showModal) d.showModal(); else d.setAttribute("open", "");
    var body = $(".sheet-body", d);
    if (body) body.scrollTop = 0;
  }
  document.addEventListener("click", function (e) {
    var t = e.target;
    if (t.id === "toast") { t.hidden = true; return; }
    var opener = t.closest("[data-open]");
    if (opener) {
      var d = document.getElementById(opener.getAttribute("data-open"));
      if (d) { e.preventDefault(); openDialog(d); }
      return;
    }
    if (t.matches("dialog.sheet")) {        // a tap on the dimmed backdrop closes the panel
      var r = t.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) t.close();
      return;
    }
    if (t.closest("[data-try-sound]")) { chime(); }
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
  var baseTitle = document.title.replace(/^● Your turn · /, "");
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = "CDHS";
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function motion() { return !(reduced && reduced.matches) && !!Element.prototype.animate; }

  function view() { return $("#view"); }
  function version() {
    var v = view();
    return v ? +v.getAttribute("data-version") || 0 : 0;
  }
  function picks() { return $$(".hand .pick"); }
  function selected() {
    return $$(".hand .pick[aria-pressed=true]").map(function (b) { return b.getAttribute("data-card"); }).sort();
  }
  function same(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function visible(el) { return !!el && !el.closest("[hidden]") && el.getClientRects().length > 0; }

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
        if (m) { m.classList.add("accepts"); m.disabled = false; m.setAttribute("aria-description", "press to lay off here"); }
      }
    });
    var idle = $("[data-idle]");
    if (idle) idle.hidden = shown > 0;
    var hint = $("[data-hint]");
    if (hint) {
      var v = view();
      var playing = v && v.getAttribute("data-mine") === "1" && v.getAttribute("data-phase") === "play";
      var w = v && v.getAttribute("data-game") === "tonk"
        ? { meld: "spread", lay: "hit", melds: "spread" } : { meld: "meld", lay: "lay off", melds: "meld" };
      hint.textContent = !playing || !sel.length ? hint.getAttribute("data-default")
        : !shown ? "No " + w.meld + ", " + w.lay + " or discard with " + (sel.length === 1 ? "this card." : "these " + sel.length + " cards.")
        : layoffs ? "Tap a glowing " + w.melds + " to " + w.lay + ", or use a button."
        : sel.length === 1 ? "Discard it, or pick more cards for a " + w.meld + "." : "";
    }
  }

  /* The hand is a toolbar: one card in the Tab order, arrows move, Enter/Space picks. */
  function rove(to, focus) {
    var all = picks();
    if (!to || all.indexOf(to) < 0) to = all[0];
    all.forEach(function (b) { b.tabIndex = b === to ? 0 : -1; });
    if (to && focus) to.focus();
  }
  root.addEventListener("focusin", function (e) {
    if (e.target.matches(".hand .pick")) rove(e.target, false);
  });
  root.addEventListener("keydown", function (e) {
    var pick = e.target.closest && e.target.closest(".hand .pick");
    if (!pick) return;
    var all = picks().filter(function (b) { return !b.disabled; });
    var i = all.indexOf(pick), to = null;
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": to = all[Math.min(all.length - 1, i + 1)]; break;
      case "ArrowLeft": case "ArrowUp": to = all[Math.max(0, i - 1)]; break;
      case "Home": to = all[0]; break;
      case "End": to = all[all.length - 1]; break;
      case "Escape":
        all.forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
        update();
        e.preventDefault();
        return;
      default: return;
    }
    e.preventDefault();
    if (to) rove(to, true);
  });

  function sortHand(byRank) {
    var hand = $(".hand");
    if (!hand) return;
    var before = rects(picks());
    var key = function (b) {
      var t = b.getAttribute("data-card"), r = RANKS.indexOf(t.slice(0, -1)), s = SUITS.indexOf(t.slice(-1));
      return byRank ? r * 4 + s : s * 13 + r;
    };
    picks().sort(function (a, b) { return key(a) - key(b); }).forEach(function (b) { hand.appendChild(b); });
    hand.classList.toggle("by-rank", byRank);
    hand.classList.toggle("by-suit", !byRank);
    if (motion()) picks().forEach(function (b) { var r = before[b.getAttribute("data-card")]; if (r) fly(b, r, 220); });
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
    var sort = e.target.closest("[data-sort-toggle]");
    if (sort) {
      var byRank = sort.getAttribute("data-sort") !== "rank";
      sortHand(byRank);
      sort.setAttribute("data-sort", byRank ? "rank" : "suit");
      sort.textContent = "Sort by " + (byRank ? "suit" : "rank");
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

  /* ---- keeping focus on "the same thing" when a view replaces the elements ------------ */
  function formKey(f) {
    return ["do", "needs", "with", "onto", "face-down"].map(function (k) { return f.getAttribute("data-" + k) || ""; }).join("|");
  }
  function focusKey(el) {
    if (!el || el === document.body || !root.contains(el)) return null;
    if (el.matches(".hand .pick")) return { card: el.getAttribute("data-card") };
    var f = el.closest("form.act");
    if (f) return { form: formKey(f) };
    if (el.matches(".meld")) return { sel: '.meld[data-onto="' + el.getAttribute("data-onto") + '"]' };
    if (el.matches("[data-sort-toggle]")) return { sel: "[data-sort-toggle]" };
    var h = el.closest("form.host-form");
    if (h) return { sel: 'form.host-form[action="' + h.getAttribute("action") + '"] ' + el.tagName.toLowerCase() };
    var d = el.closest("details[id]");
    if (d && el.matches("summary")) return { sel: "#" + d.id + " > summary" };
    if (el.id) return { sel: "#" + el.id };
    return { lost: true };
  }
  function findKey(k) {
    if (!k) return null;
    if (k.card) return $('.hand .pick[data-card="' + k.card + '"]');
    if (k.form) {
      var hit = $$("form.act").filter(function (f) { return formKey(f) === k.form; })[0];
      return hit ? $("button", hit) : null;
    }
    return k.sel ? $(k.sel, root) : null;
  }
  function fallbackFocus(before) {
    var v = view();
    if (!v) return null;
    var res = $("#result");
    if (res && !before.result) return res;
    if (v.getAttribute("data-mine") === "1") {
      if (v.getAttribute("data-phase") === "play") {
        var fresh = picks().filter(function (b) { return !before.cards[b.getAttribute("data-card")]; })[0];
        var btn = $$(".btns form.act:not([hidden]) button")[0];
        return fresh || btn || $(".hand .pick[tabindex='0']");
      }
      var first = $$(".btns form.act:not([hidden]) button")[0];
      if (first) return first;
    }
    return $("#turn-line");
  }

  /* ---- motion: cards fly from where they were to where they are (transform only) ----- */
  function rects(els) {
    var out = {};
    els.forEach(function (el) { out[el.getAttribute("data-card")] = el.getBoundingClientRect(); });
    return out;
  }
  function box(sel) { var el = $(sel); return el ? el.getBoundingClientRect() : null; }
  function fly(el, from, ms, delay, fade) {
    var to = el.getBoundingClientRect();
    if (!from || !to.width) return;
    var dx = (from.left + from.width / 2) - (to.left + to.width / 2);
    var dy = (from.top + from.height / 2) - (to.top + to.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    var s = Math.max(0.4, Math.min(1.6, from.width / to.width || 1));
    el.animate([
      { transform: "translate(" + dx + "px," + dy + "px) scale(" + s + ")", opacity: fade ? 0.4 : 1 },
      { transform: "none", opacity: 1 }
    ], { duration: ms || 260, delay: delay || 0, easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" });
  }
  function pop(el, delay) {
    el.animate([{ transform: "scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 220, delay: delay || 0, easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" });
  }
  // A card back travelling between two places (someone else's draw): a fixed ghost, so
  // nothing on the page moves.
  function ghost(from, to) {
    if (!from || !to) return;
    var g = document.createElement("span");
    g.className = "card back";
    g.setAttribute("aria-hidden", "true");
    g.style.cssText = "position:fixed;z-index:40;pointer-events:none;margin:0;left:" + from.left + "px;top:" + from.top +
      "px;width:" + from.width + "px;height:" + from.height + "px";
    document.body.appendChild(g);
    var dx = (to.left + to.width / 2) - (from.left + from.width / 2), dy = (to.top + to.height / 2) - (from.top + from.height / 2);
    var a = g.animate([{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px," + dy + "px) scale(.45)", opacity: 0.2 }],
      { duration: 380, easing: "cubic-bezier(.3,.6,.3,1)" });
    a.onfinish = a.oncancel = function () { g.remove(); };
  }
  function snapshot() {
    var v = view();
    var s = { cards: rects(picks()), stock: box(".pile.stock .pile-cards"), discard: box(".pile.discard .pile-cards"),
      discardTop: v ? v.getAttribute("data-discard") : "", turn: v ? v.getAttribute("data-turn") : "",
      hand: v ? v.getAttribute("data-hand-no") : "", stockN: v ? +v.getAttribute("data-stock") : 0,
      pile: v ? +v.getAttribute("data-pile") : 0,
      opps: {}, counts: {}, melds: {}, result: !!$("#result") };
    $$(".opp[data-seat]").forEach(function (o) {
      s.opps[o.getAttribute("data-seat")] = o.getBoundingClientRect();
      var c = $(".count", o);
      s.counts[o.getAttribute("data-seat")] = c ? parseInt(c.textContent, 10) : 0;
    });
    $$(".meld[data-onto]").forEach(function (m) { s.melds[m.getAttribute("data-onto")] = (m.getAttribute("data-cards") || "").split(" "); });
    return s;
  }
  function animate(b) {
    var v = view();
    if (!v || !b || !motion()) return;
    var newHand = v.getAttribute("data-hand-no") !== b.hand;
    var top = v.getAttribute("data-discard");
    var stockNow = box(".pile.stock .pile-cards"), discardNow = box(".pile.discard .pile-cards");
    // Your hand: cards that stay slide to their new places; new ones come from a pile.
    var n = 0;
    picks().forEach(function (el) {
      var c = el.getAttribute("data-card"), was = b.cards[c];
      if (was && !newHand) { fly(el, was, 220); return; }
      var from = (!newHand && b.discardTop === c) ? b.discard : (b.stock || stockNow);
      fly(el, from, newHand ? 320 : 300, newHand ? 35 * n++ : 0, true);
    });
    if (newHand) return;
    // The discard pile: the new top card comes from your hand or from its player.
    var pileNow = +v.getAttribute("data-pile") || 0, stockN = +v.getAttribute("data-stock") || 0;
    if (top && pileNow > b.pile) {
      var t = $(".pile.discard .card.top");
      if (t) { if (b.cards[top]) fly(t, b.cards[top], 280); else if (b.opps[b.turn]) fly(t, b.opps[b.turn], 320, 0, true); else pop(t); }
    }
    // Melds: new cards on the table come from your hand, or from the player who played them.
    $$(".meld[data-onto]").forEach(function (m) {
      var had = b.melds[m.getAttribute("data-onto")] || [];
      $$(".card[data-card]", m).forEach(function (el, i) {
        var c = el.getAttribute("data-card");
        if (had.indexOf(c) >= 0) return;
        if (b.cards[c]) fly(el, b.cards[c], 300, i * 30);
        else if (b.opps[b.turn]) fly(el, b.opps[b.turn], 320, i * 30, true);
        else pop(el, i * 30);
      });
    });
    // Someone else drew: a card back goes from the pile to their box.
    $$(".opp[data-seat]").forEach(function (o) {
      var s = o.getAttribute("data-seat"), c = $(".count", o), now = c ? parseInt(c.textContent, 10) : 0;
      if (now > (b.counts[s] || 0)) {
        var took = stockN === b.stockN && pileNow < b.pile;
        ghost(took ? (discardNow || b.discard) : (stockNow || b.stock), o.getBoundingClientRect());
      }
    });
  }

  /* ---- htmx: keep state across swaps, show errors in plain words -------------------- */
  var openDetails = {}, before = null, focusBefore = null, focusWasIn = false;
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    if (e.detail.elt && e.detail.elt.matches && e.detail.elt.matches("form.act")) {
      saved = [];
      $$("form.act button").forEach(function (b) { b.disabled = true; });   // no double tap
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target !== root) return;
    var m = /data-version="(\d+)"/.exec(e.detail.serverResponse || "");
    if (m && +m[1] < version()) { e.detail.shouldSwap = false; return; }  // an older answer arrived late
    $$("details[id]", root).forEach(function (d) { openDetails[d.id] = d.open; });
    before = snapshot();
    focusWasIn = root.contains(document.activeElement) && document.activeElement !== root;
    focusBefore = focusWasIn ? focusKey(document.activeElement) : null;
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target !== root) return;
    $$("details[id]", root).forEach(function (d) { if (openDetails[d.id]) d.open = true; });
    var keep = saved;
    picks().forEach(function (b) {
      if (keep.indexOf(b.getAttribute("data-card")) >= 0) b.setAttribute("aria-pressed", "true");
    });
    update();
    var b = before;
    before = null;
    if (focusWasIn) {
      var target = findKey(focusBefore);
      if (!visible(target) || target.disabled) target = b ? fallbackFocus(b) : null;
      if (target) {
        if (target.matches(".hand .pick")) rove(target, false);
        target.focus({ preventScroll: true });
      }
    } else {
      var cur = $(".hand .pick[tabindex='0']");
      if (cur) rove(cur, false);
    }
    try { animate(b); } catch (err) { /* motion is decoration only */ }
    var res = $("#result");
    if (res && b && !b.result) {
      res.scrollIntoView({ block: "start", behavior: motion() ? "smooth" : "auto" });
    }
    afterView(true);
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

  /* ---- after every view: the invite, the turn cues, what a screen reader hears -------- */
  var wasMine = null, heard = null, heardHand = null, lastTurn = "";
  function afterView(swapped) {
    var v = view();
    if (!v) return;
    var invite = $("#invite[data-auto]");
    if (invite && v.getAttribute("data-phase") !== "waiting") {
      // Opened for the seating only: the deal closes it (the code chip opens it again).
      invite.removeAttribute("data-auto");
      invite.hidden = true;
      var chip = $("[data-toggle=invite]");
      if (chip) chip.setAttribute("aria-expanded", "false");
    }
    var mine = v.getAttribute("data-mine") === "1";
    if (mine && wasMine === false && swapped) turnCue();
    wasMine = mine;
    document.title = (mine ? "● Your turn · " : "") + baseTitle;
    // The phone's own toolbar turns yellow too (where the browser colours it).
    $$("meta[name=theme-color]").forEach(function (m) {
      if (!m.hasAttribute("data-base")) m.setAttribute("data-base", m.getAttribute("content"));
      m.setAttribute("content", mine ? "#f3b600" : m.getAttribute("data-base"));
    });

    // The live region: the moves that are new since the last view, then whose turn it is.
    var say = $("#say"), region = $("#announce");
    var count = +v.getAttribute("data-log") || 0, hand = v.getAttribute("data-hand-no");
    if (say && region) {
      var lines = $$("p:not([data-turn-words])", say).map(function (p) { return p.textContent.trim(); });
      var turnP = $("[data-turn-words]", say);
      var turn = turnP ? turnP.textContent.trim() : "";
      var fresh = [];
      if (heard !== null) {
        var n = hand !== heardHand ? count : Math.max(0, count - heard);
        fresh = lines.slice(Math.max(0, lines.length - n));
      }
      var text = fresh.map(function (l) { return l.replace(/[.!]?$/, "."); }).concat(turn ? [turn] : []).join(" ");
      // Only news: new moves, or a turn that moved on (a redraw with neither says nothing).
      if (heard !== null && text && (fresh.length || turn !== lastTurn)) region.textContent = text;
      lastTurn = turn;
      heard = count;
      heardHand = hand;
    }
  }
  afterView(false);
  update();
  rove($(".hand .pick[tabindex='0']"), false);

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
