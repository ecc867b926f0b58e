// The watch page: one game of another table, looked on at live (GET /api/watch/GAME, polled;
// drawn again only when it changed). Its board with the last move lit, whose turn it is or how
// it ended, the players with their scores, the tables and whether each is online, every move,
// and the record so far as a file. Nothing here acts in the game.
"use strict";

(() => {
  const { el, t } = Panel;
  const $ = (id) => document.getElementById(id);
  const gameId = $("watch").dataset.game;
  let game = null;
  let retried = false;

  function renderMoves() {
    const actions = (game.record && game.record.actions) || [];
    $("watch-moves-none").hidden = actions.length > 0;
    $("watch-moves-box").hidden = actions.length === 0;
    $("watch-moves-count").textContent = t("Every move ({count})", { count: actions.length });
    // The moves in words, as the server says them in this page's language, numbered.
    $("watch-moves").replaceChildren(...(game.moves || []).map((words, i) => el("li", {},
      el("span", { class: "move-number", text: `${i + 1}.` }), " ", words)));
  }

  function renderLast() {
    const said = game.moves || [];
    $("watch-last").textContent = said.length ? t("Last move: {move}", { move: said[said.length - 1] }) : "";
  }

  // Another table of the club took the game over (its host was gone): it goes on there.
  function renderMoved() {
    const moved = game.successor;
    $("watch-moved").hidden = !moved;
    if (!moved) return;
    const table = moved.host || t("Another table");
    $("watch-moved-text").textContent = t("{table} took this game over: it goes on there.", { table });
    $("watch-moved-link").href = `/watch/${moved.game}`;
  }

  async function render() {
    $("watch-missing").hidden = true;
    $("watch-game").hidden = false;
    renderMoved();
    const name = Watched.gameName(game);
    $("watch-title").textContent = name ? t("Watching: {game}", { game: name }) : t("Watching a game");
    document.title = `${$("watch-title").textContent} - ${t("Sudoku Table")}`;
    $("watch-where").textContent = Watched.where(game);
    const now = Watched.state(game);
    document.body.dataset.state = now.kind;
    const line = $("watch-state");
    line.replaceChildren(...(now.actor !== undefined ? [Watched.swatch(game, now.actor), " "] : []),
      el("strong", { text: now.text }));
    renderLast();
    $("watch-players").replaceChildren(...Watched.players(game));
    $("watch-tables").replaceChildren(...Watched.tables(game));
    renderMoves();
    $("watch-download").disabled = !game.record;
    $("watch-download").textContent = Watched.finished(game) ? t("Download the record")
      : t("Download the record so far");
    await Watched.drawBoard($("watch-board"), game);
    document.body.dataset.moves = String(((game.record && game.record.actions) || []).length);
  }

  // This server does not follow the game (it restarted, or the link came from elsewhere): the
  // code after the # follows it again; without one, the form asks for it.
  async function missing(error) {
    const code = decodeURIComponent((location.hash || "").slice(1));
    if (error.data && error.data.code === "not_followed" && code && !retried) {
      retried = true;
      try {
        await Panel.post("/api/watch", { code });
        return;
      } catch (e) { /* the toast says why; the form below asks again */ }
    }
    $("watch-game").hidden = true;
    $("watch-missing").hidden = false;
    $("watch-missing-text").textContent = Panel.sentence(error.message);
    $("watch-missing-form").hidden = error.data && error.data.code === "no_broker";
    document.body.dataset.state = "missing";
    document.body.dataset.rendered = "true";
  }

  async function main() {
    await Panel.ready;
    await Watched.load().catch(() => {});
    Watched.codeForm($("watch-missing").querySelector("[data-watch-form]"));
    $("watch-download").addEventListener("click", () => Watched.download(game));
    await Watched.poll(`/api/watch/${gameId}`, async (answer) => {
      game = answer;
      $("watch-away").hidden = answer.connected !== false;
      await render();
      document.body.dataset.rendered = "true";
    }, (error) => { if (error.status) missing(error); });
  }

  main();
})();
