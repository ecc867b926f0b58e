// Speech on this phone: the table's announcements (table.say in every view, already in this
// phone's language) said by the browser's own speechSynthesis. Off until switched on; the
// choice is remembered on this phone. Only announcements made while the page is open are said
// (a page opened later does not read out the past); a newer part of the same kind replaces one
// not yet said; Repeat says the last announcement again, here or, with this phone's speech
// off, at the table.
//
// Who hears what: every part of an announcement names the seat it is addressed to (the player
// who must act on it) or none (everybody). This phone hears every part while it belongs to no
// seat (Speech.seat === null: the phone lying on the table). A seat's own phone sets
// Speech.setSeat(n) and then hears only what is addressed to that seat: its turn, its flips,
// its piece to take away.
"use strict";

const Speech = (() => {
  const KEY = "sudoku-table-speech";
  const synth = window.speechSynthesis || null;
  let seat = null;
  let seen; // the id of the newest announcement seen (undefined: no view yet)
  let last = null;
  let queue = [];
  let speaking = false;
  let guard = null;
  const buttons = { toggle: null, repeat: null };

  const available = () => !!synth && typeof window.SpeechSynthesisUtterance === "function";
  const on = () => available() && localStorage.getItem(KEY) === "on";
  const addressed = (part) => seat === null || part.seat === seat;

  function voiceFor(language) {
    const voices = (synth && synth.getVoices()) || [];
    return voices.find((v) => (v.lang || "").toLowerCase().startsWith(language)) || null;
  }

  function utter(text, language) {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = language === "de" ? "de-DE" : language === "en" ? "en-GB" : language;
    const voice = voiceFor(language);
    if (voice) u.voice = voice;
    return u;
  }

  function pump() {
    if (speaking || !queue.length || !on()) return;
    const item = queue.shift();
    const u = utter(item.text, item.language);
    speaking = true;
    const done = () => { clearTimeout(guard); speaking = false; pump(); };
    u.onend = done;
    u.onerror = done;
    // Some browsers never end an utterance they could not say: go on after a while anyway.
    guard = setTimeout(done, 2000 + 150 * item.text.length);
    document.body.dataset.spoken = item.text;
    synth.speak(u);
  }

  function enqueue(say, parts) {
    for (const part of parts) {
      if (!part.text) continue;
      queue = queue.filter((item) => item.kind !== part.kind);
      queue.push({ kind: part.kind, text: part.text, language: say.language || Panel.language() });
    }
    pump();
  }

  // The announcement in this phone's language: views come worded in the language of the
  // request that carried them, and a live stream may have been opened before the language
  // was chosen on this phone; then the table is asked once more.
  async function inLanguage(say) {
    if (!say.language || say.language === Panel.language()) return say;
    try {
      const view = await Panel.get("/api/state");
      const again = view && view.table && view.table.say;
      if (again && again.id === say.id) return again;
    } catch (e) {
      // Said as it came.
    }
    return say;
  }

  // Every view goes through here: a new announcement is said (when speech is on).
  async function follow(view) {
    const say = view && view.table && view.table.say;
    if (!say || say.id === undefined) return;
    const fresh = seen !== undefined && say.id !== seen;
    seen = say.id;
    last = say;
    showButtons();
    if (!fresh || !on() || !say.id) return;
    const worded = await inLanguage(say);
    if (last === say) last = worded;
    enqueue(worded, (worded.parts || []).filter(addressed));
  }

  async function repeat() {
    if (!last || !last.id) return;
    if (on()) {
      queue = [];
      synth.cancel();
      speaking = false;
      last = await inLanguage(last);
      enqueue(last, (last.parts || []).filter(addressed));
      return;
    }
    try {
      const answer = await Panel.post("/api/speech/repeat", {});
      if (answer && !answer.repeated && answer.reason) Panel.toast(answer.reason, "info");
    } catch (e) {
      // The toast says what failed.
    }
  }

  function toggle() {
    if (!available()) return;
    localStorage.setItem(KEY, on() ? "off" : "on");
    queue = [];
    if (synth) synth.cancel();
    speaking = false;
    // Said within the tap, so that phones that speak only after a tap let the page speak.
    if (on()) enqueue({ language: Panel.language() },
      [{ kind: "test", text: Panel.t("This phone speaks.") }]);
    showButtons();
  }

  // The switch shows whether this phone speaks (hidden where the browser cannot); Repeat is
  // there once something has been said.
  function showButtons() {
    const { toggle: t, repeat: r } = buttons;
    if (t) {
      (t.closest("label") || t).hidden = !available();
      t.checked = on();
    }
    if (r) r.disabled = !(last && last.id);
  }

  // The play page's switch (speech on this phone) and its Repeat button.
  function bind(toggleSwitch, repeatButton) {
    buttons.toggle = toggleSwitch;
    buttons.repeat = repeatButton;
    if (toggleSwitch) {
      toggleSwitch.addEventListener("change", () => {
        if (toggleSwitch.checked !== on()) toggle();
        showButtons();
      });
    }
    if (repeatButton) repeatButton.addEventListener("click", repeat);
    showButtons();
    Panel.ready.then(showButtons);
  }

  function setSeat(n) { seat = n === null || n === undefined ? null : Number(n); }

  return { available, on, follow, repeat, toggle, bind, setSeat, addressed,
           get seat() { return seat; } };
})();
