// The club page: every game of the club's tables (GET /api/club, polled; drawn again only when
// something changed), like a broadcast of many boards. The games being played as cards with a
// small live board, the players, their scores and whose turn it is; then the finished games in
// one list, each with its final position, result and record. Nothing here acts in a game.
"use strict";

(() => {
  const { el, t } = Panel;
  const $ = (id) => document.getElementById(id);
  const cards = new Map(); // game id -> {node, signature}: its card or its finished entry

  const link = (game) => `/watch/${game.game}`;

  function scoresLine(game) {
    const scores = (game.document && game.document.scores) || [];
    return scores.map((s, i) => `${Watched.playerName(game, i)} ${s}`).join(" \u00b7 ");
  }

  // The board as one picture, said in words for a screen reader.
  function boardLabel(game) {
    return [Watched.gameName(game), Watched.where(game), scoresLine(game)].filter(Boolean).join(". ")
      || Watched.state(game).text;
  }

  function stateLine(game) {
    const now = Watched.state(game);
    return el("p", { class: "club-state" },
      ...(now.actor !== undefined ? [Watched.swatch(game, now.actor), " "] : []),
      el("strong", { text: now.text }));
  }

  function awayLine(game) {
    const away = (game.tables || []).filter((table) => !table.online).map((table) => table.name);
    return away.length ? el("p", { class: "club-away small", text: t("Away: {tables}", { tables: Watched.list(away) }) })
      : null;
  }

  function liveCard(game) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board club-board");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", boardLabel(game));
    const node = el("li", { class: "card club-game", "data-game": game.game,
                            "data-state": Watched.state(game).kind },
      el("h3", { class: "club-game-title" }, el("a", { href: link(game), text: Watched.gameName(game) || t("A game") })),
      el("p", { class: "small muted club-where", text: Watched.where(game) }),
      el("a", { class: "club-board-link", href: link(game), tabindex: "-1", "aria-hidden": "true" }, svg),
      stateLine(game),
      el("ul", { class: "club-players" }, ...Watched.players(game)),
      awayLine(game),
      el("p", { class: "club-open" }, el("a", { class: "button secondary", href: link(game), text: t("Follow this game") })));
    Watched.drawBoard(svg, game, { picture: true });
    return node;
  }

  function doneEntry(game) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board thumb");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("The final position"));
    const node = el("li", { class: "club-done-item", "data-game": game.game,
                            "data-state": Watched.state(game).kind },
      svg,
      el("div", { class: "about" },
        el("strong", { text: Watched.gameName(game) || t("A game") }),
        el("span", { class: "small muted club-where", text: Watched.where(game) }),
        stateLine(game),
        el("p", { class: "small club-scores", text: scoresLine(game) })),
      el("div", { class: "club-done-acts" },
        el("a", { class: "button secondary", href: link(game), text: t("Open the game") }),
        el("button", { type: "button", class: "secondary", text: t("Download the record"),
                       disabled: !game.record, onclick: () => Watched.download(game) })));
    Watched.drawBoard(svg, game, { picture: true });
    return node;
  }

  // A game's node is made anew only when its game changed; the others stay as they are (with
  // the focus on them), in the answer's order: live ones newest first, then the finished.
  function place(list, games, make) {
    const nodes = games.map((g) => {
      const signature = JSON.stringify([g.ready, g.closed, g.problem, g.host, g.document,
                                        g.tables, Watched.finished(g)]);
      const kept = cards.get(g.game);
      if (kept && kept.signature === signature && kept.node.parentNode === list) return kept.node;
      const node = make(g);
      cards.set(g.game, { node, signature });
      return node;
    });
    for (const child of [...list.children]) if (!nodes.includes(child)) child.remove();
    nodes.forEach((node, i) => { if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null); });
  }

  // Newest first, by when each game began at its table (a page started later learns of many
  // games at once); the server's order where that is not known.
  const started = (g) => (g.announced || {}).started || "";
  const newest = (list) => list.map((g, i) => [g, i])
    .sort(([a, i], [b, j]) => (started(b) > started(a)) - (started(b) < started(a)) || i - j)
    .map(([g]) => g);

  function show(games) {
    const live = newest(games.filter((g) => !Watched.finished(g)));
    const done = newest(games.filter((g) => Watched.finished(g)));
    $("club-unset").hidden = true;
    document.querySelector(".club-intro").hidden = false;
    $("club-live-box").hidden = false;
    $("club-live-none").hidden = live.length > 0;
    $("club-done-box").hidden = done.length === 0;
    place($("club-live"), live, liveCard);
    place($("club-done"), done, doneEntry);
    document.body.dataset.live = String(live.length);
    document.body.dataset.finished = String(done.length);
  }

  // No club (or no broker) is set: the page says how to set one.
  function unset(error) {
    if (!error.data || !["no_club", "no_broker"].includes(error.data.code)) return;
    $("club-unset").hidden = false;
    $("club-live-box").hidden = true;
    $("club-done-box").hidden = true;
    $("club-unset-title").textContent = error.data.code === "no_club" ? t("No club is set")
      : t("This table meets no other tables yet");
    // Without a broker the table's own sentence says what to set first; without a club the
    // title and the words below say it all.
    $("club-unset-text").textContent = Panel.sentence(error.message);
    $("club-unset-text").hidden = error.data.code === "no_club";
    document.querySelector(".club-intro").hidden = true;
    document.body.dataset.state = error.data.code;
    document.body.dataset.rendered = "true";
  }

  async function main() {
    await Panel.ready;
    await Watched.load().catch(() => {});
    Watched.codeForm(document.querySelector("[data-watch-form]"));
    await Watched.poll("/api/club", async (answer) => {
      $("club-away").hidden = answer.connected !== false;
      show(answer.games || []);
      document.body.dataset.state = "shown";
      document.body.dataset.rendered = "true";
    }, unset);
  }

  main();
})();
