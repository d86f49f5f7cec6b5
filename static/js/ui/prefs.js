/* This phone's settings (localStorage; theme.js applies the deck and theme before paint),
   and the turn cues made with them: a buzz and a chime (WebAudio: no sound files). */
import { $$ } from "./dom.js";

const PREFS = {
  "four-colour": { key: "baraha-four-colour", def: "0" },
  vibrate: { key: "baraha-vibrate", def: "1" },
  sound: { key: "baraha-sound", def: "1" },
  theme: { key: "baraha-theme", def: "system" },
  cards: { key: "baraha-card-size", def: "normal" },
};
export function pref(name) {
  const p = PREFS[name];
  let v = null;
  try { v = localStorage.getItem(p.key); } catch (e) { /* private mode: defaults */ }
  return v === null ? p.def : v;
}
function setPref(name, value) {
  try { localStorage.setItem(PREFS[name].key, value); } catch (e) { /* not kept */ }
  applyPrefs();
}
function applyPrefs() {
  const html = document.documentElement;
  html.classList.toggle("four-colour", pref("four-colour") === "1");
  const theme = pref("theme");
  if (theme === "light" || theme === "dark") html.setAttribute("data-theme", theme);
  else html.removeAttribute("data-theme");
  if (window.barahaCards) window.barahaCards(pref("cards"));       // theme.js
  $$("[data-pref]").forEach((input) => {
    const name = input.getAttribute("data-pref");
    if (input.type === "radio") input.checked = input.value === pref(name);
    else input.checked = pref(name) === "1";
  });
}
applyPrefs();
window.addEventListener("storage", applyPrefs);        // another tab changed them
document.addEventListener("change", (e) => {
  const input = e.target.closest && e.target.closest("[data-pref]");
  if (!input) return;
  const name = input.getAttribute("data-pref");
  if (input.type === "radio") { if (input.checked) setPref(name, input.value); }
  else setPref(name, input.checked ? "1" : "0");
  if (name === "sound" && input.checked) chime();
});

let audio = null;
function audioContext() {
  if (!audio) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try { audio = new AC(); } catch (e) { return null; }
  }
  if (audio.state === "suspended" && audio.resume) audio.resume().catch(() => {});
  return audio;
}
// Browsers let a page make sound only after a tap or a key (a touch counts when it ends):
// make the audio ready on each one, and wake it if the phone put it to sleep meanwhile.
function wakeAudio() { if (pref("sound") === "1") audioContext(); }
["click", "touchend", "keydown"].forEach((type) => {
  document.addEventListener(type, wakeAudio, { capture: true, passive: true });
});
export function chime() {
  const ctx = audioContext();
  if (!ctx) return;
  const t = ctx.currentTime + 0.02;
  [[659.25, 0], [987.77, 0.13]].forEach((n) => {       // E5 then B5, soft bell
    const osc = ctx.createOscillator(), gain = ctx.createGain();
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
export function turnCue() {
  // Chromium refuses (and logs) vibrate() before the first tap on the page.
  const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (pref("vibrate") === "1" && navigator.vibrate && tapped) { try { navigator.vibrate([90, 60, 90]); } catch (e) { /* no */ } }
  if (pref("sound") === "1") chime();
}
