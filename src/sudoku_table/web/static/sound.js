// Optional sounds at the panel: a short buzz for an illegal piece, a chime for points, a nudge
// for your turn (Web Audio, and a vibration where the phone has one). Off until switched on;
// the choice is remembered on this phone. A player's own phone vibrates on their turn even so. A phone on silent keeps Web Audio quiet by itself.
"use strict";

const Sound = (() => {
  const KEY = "sudoku-table-sound";
  let context = null;

  const on = () => localStorage.getItem(KEY) === "on";

  function toggle() {
    localStorage.setItem(KEY, on() ? "off" : "on");
    if (on()) play("turn");
  }

  function tone(freq, start, length, type) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, context.currentTime + start);
    gain.gain.exponentialRampToValueAtTime(0.2, context.currentTime + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + start + length);
    osc.connect(gain).connect(context.destination);
    osc.start(context.currentTime + start);
    osc.stop(context.currentTime + start + length + 0.02);
  }

  const SOUNDS = {
    illegal: { tones: [[150, 0, 0.25, "square"]], vibrate: [120, 60, 120] },
    points: { tones: [[880, 0, 0.15, "sine"], [1320, 0.12, 0.25, "sine"]], vibrate: [40] },
    turn: { tones: [[660, 0, 0.12, "triangle"]], vibrate: [30] },
  };

  // vibrate: the pattern to vibrate instead of the sound's own.
  function play(name, vibrate) {
    if (!on()) return;
    const sound = SOUNDS[name];
    document.body.dataset.lastSound = name;
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) {
        context = context || new Context();
        for (const [freq, start, length, type] of sound.tones) tone(freq, start, length, type);
      }
      if (navigator.vibrate) navigator.vibrate(vibrate || sound.vibrate);
    } catch (e) {
      // No sound here: the screen says it all anyway.
    }
  }

  // A player's own phone when their turn comes: a vibration where the phone has one (even
  // with sounds off: it is the phone in their pocket), and the turn's tone where sounds are on.
  function nudge() {
    document.body.dataset.lastNudge = String(Date.now());
    try {
      if (navigator.vibrate) navigator.vibrate(200);
    } catch (e) {
      // No vibration here: the banner says it.
    }
    play("turn", [200]);
  }

  return { on, toggle, play, nudge };
})();
