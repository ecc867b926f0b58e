// The play page's bar for a finished game replayed on the table's lights: while the LEDs show
// a replay instead of the running game, it says which move they show and what the computer
// would have played there (GET /api/replay, in this phone's language), links to the review and
// ends the replay. It listens to the views play.js draws ("panel:view").
"use strict";

(() => {
  const { get, post, t } = Panel;
  const $ = (id) => document.getElementById(id);
  let shown = ""; // the replayed game and move the bar says now

  async function update(replay) {
    const bar = $("replay-bar");
    const key = replay ? `${replay.game}:${replay.move}:${JSON.stringify(replay.better)}` : "";
    if (key === shown) return;
    shown = key;
    bar.hidden = !replay;
    document.body.dataset.replay = replay ? String(replay.move) : "";
    if (!replay) return;
    $("replay-review").href = `/review/${replay.game}#move-${replay.move}`;
    $("replay-text").textContent = t("The table's lights show move {move} of {moves} of a finished game.",
                                     { move: replay.move, moves: replay.moves });
    $("replay-better").textContent = "";
    try {
      const words = await get("/api/replay");
      if (!words.entry || shown !== key) return;
      const m = words.entry;
      $("replay-text").textContent = `${words.name}: ${m.text}${m.scored ? ` (${m.scored})` : ""}`;
      $("replay-better").textContent = m.verdict && !["best", "forced"].includes(m.verdict)
        ? `${m.verdict_text}. ${m.best_text}${m.best_scored ? ` (${m.best_scored})` : ""}`
        : m.verdict ? m.verdict_text : "";
    } catch (e) { /* the bar keeps its first sentence */ }
  }

  $("replay-bar-leave").addEventListener("click", () => post("/api/replay/leave", {}).catch(() => {}));
  document.addEventListener("panel:view", (event) => update((event.detail.table || {}).replay || null));
})();
