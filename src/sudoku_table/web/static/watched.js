// Looking on at other tables' games (the watch page and the club page): one game as
// GET /api/watch/GAME and GET /api/club give it, drawn read-only. Its board (board.js, with its
// last move lit), its players with their names, colours and scores, its state in words, its
// record as a file; and the form that takes a watch code. Nothing here acts in a game.
"use strict";

const Watched = (() => {
  const { get, post, el, t, said } = Panel;
  const POLL_MS = 1500;

  let known = null; // {legend, variants: {id: entry}} once loaded
  const geometries = {};

  // The legend (colours, marks) and every game's traits, once per page.
  async function load() {
    if (!known) {
      const [legend, list] = await Promise.all([get("/api/legend"), get("/api/variants")]);
      Board.setPalette(legend);
      known = { legend, variants: Object.fromEntries(list.map((v) => [v.id, v])) };
    }
    return known;
  }

  const entryOf = (game) => (known && known.variants[game.variant]) || {};
  const traitsOf = (game) => entryOf(game).traits || {};
  const gameName = (game) => entryOf(game).name || game.name || game.variant || "";

  async function geometry(variant) {
    if (!geometries[variant]) geometries[variant] = get(`/api/variants/${encodeURIComponent(variant)}`);
    return geometries[variant];
  }

  // A player's name as typed at the table, else the computer with its level, else the seat's
  // name in this language (White, Black; Player 3).
  function playerName(game, i) {
    const level = (game.computers || {})[String(i)];
    if (level) return t("Computer ({level})", { level: said("levels", level) || level });
    const typed = (game.names || [])[i];
    if (typed) return typed;
    // A seat nobody named is called by its table, as the tables themselves call it.
    const table = (game.tables || []).find((tb) => (tb.seats || []).includes(i) && tb.name !== game.host);
    if (table && table.name) return table.name;
    const label = (traitsOf(game).player_labels || [])[i];
    return label ? t(label) : t("Player {n}", { n: i + 1 });
  }

  function playerColor(game, i) {
    const look = (traitsOf(game).piece_looks || [])[i];
    if (look) return look.fill;
    Board.setSeatColors(game.colors);
    return Board.seatColor(i);
  }

  function swatch(game, i) {
    const node = el("span", { class: "swatch", "aria-hidden": "true", "data-mark": Board.markOf(i) });
    node.style.background = playerColor(game, i);
    return node;
  }

  // "a, b and c" in this language.
  function list(items) {
    try {
      return new Intl.ListFormat(Panel.language(), { style: "long", type: "conjunction" }).format(items);
    } catch (e) {
      return items.join(", ");
    }
  }

  const finished = (game) => !!(game.document && game.document.over) || !!game.closed;

  // Where the game stands, as one word for the page's marks (data-state) and a sentence.
  function state(game) {
    const doc = game.document;
    if (game.problem && !game.ready) {
      return { kind: "problem", text: t("This game cannot be followed: {detail}", { detail: game.problem }) };
    }
    if (!game.ready || !doc) return { kind: "waiting", text: t("Waiting for the game's table\u2026") };
    if (doc.over) {
      const winners = doc.winners || [];
      const who = winners.length === 1 ? t("{player} won", { player: playerName(game, winners[0]) })
        : winners.length > 1 ? t("{players} shared the win", { players: list(winners.map((w) => playerName(game, w))) })
          : t("a draw");
      const why = said("end", doc.end_reason);
      const result = why ? `${who} (${why})` : who;
      return { kind: "over", text: t("Game over: {result}", { result }) };
    }
    if (game.closed) return { kind: "left", text: t("Left unfinished: its table started another game.") };
    if (doc.to_move === null || doc.to_move === undefined) return { kind: "live", text: t("Playing") };
    return { kind: "live", text: t("{player}'s turn", { player: playerName(game, doc.to_move) }), actor: doc.to_move };
  }

  // The last move's squares, lit as the table lights a last move.
  function lastSquares(game) {
    const actions = (game.record && game.record.actions) || [];
    const a = actions[actions.length - 1];
    if (!a) return [];
    if (a.type === "move") return a.path.filter((s) => s !== "off");
    return a.cell ? [a.cell] : [];
  }

  // The board of ``game`` in ``svg`` (built once per game and variant, then updated).
  async function drawBoard(svg, game, options = {}) {
    if (!game.ready || !game.document) return null;
    await load();
    if (svg.dataset.built !== game.variant) {
      const drawing = await geometry(game.variant);
      const traits = traitsOf(game);
      svg.board = Board.build(svg, drawing, {
        legend: { signals: { ...known.legend.signals } }, pieceLooks: traits.piece_looks,
        jokers: traits.has_jokers, pieceWords: traits.piece_words, clickable: false,
        picture: !!options.picture,
      });
      svg.dataset.built = game.variant;
    }
    const signals = {};
    if (!game.document.over) for (const square of lastSquares(game)) signals[square] = "last";
    Board.update(svg.board, { game: game.document, table: { signals, colors: game.colors || [] } });
    return svg.board;
  }

  // The players: a swatch, the name and the score each; the one to move and the winners marked.
  function players(game) {
    const doc = game.document || {};
    const scores = doc.scores || [];
    const count = doc.players || (game.record && game.record.players) || (game.names || []).length;
    const rows = [];
    for (let i = 0; i < count; i++) {
      const row = el("li", { "data-player": String(i) }, swatch(game, i), " ",
        el("span", { class: "player-name", text: playerName(game, i) }),
        el("span", { class: "points", text: String(scores[i] ?? 0) }));
      if (!doc.over && !game.closed && doc.to_move === i) {
        row.classList.add("to-move");
        row.append(el("span", { class: "visually-hidden", text: t("(to move)") }));
      }
      if (doc.over && (doc.winners || []).includes(i)) {
        row.classList.add("winner");
        row.append(el("span", { class: "visually-hidden", text: t("(won)") }));
      }
      rows.push(row);
    }
    return rows;
  }

  // The tables of the game: the host's first, each online or away.
  function tables(game) {
    const all = [...(game.tables || [])];
    all.sort((a, b) => (b.name === game.host) - (a.name === game.host));
    return all.map((table) => {
      const seats = (table.seats || []).map((s) => playerName(game, s))
        .filter((name) => name !== table.name);
      const words = [];
      if (table.name === game.host) words.push(t("hosts the game"));
      if (seats.length) words.push(t("plays {players}", { players: list(seats) }));
      // "Ben's table: plays Ben (online)"
      return el("li", { "data-online": table.online ? "true" : "false" },
        el("span", { class: "online-dot", "aria-hidden": "true" }),
        el("span", {}, el("strong", { text: table.name }), words.length ? `: ${words.join(", ")} ` : " ",
          el("span", { class: "online-word", text: "(" + (table.online ? t("online") : t("away")) + ")" })));
    });
  }

  // A time of today as the clock says it ("18:34"), of another day with its date.
  function localTime(iso) {
    const date = new Date(iso);
    if (!iso || Number.isNaN(date.getTime())) return "";
    const today = date.toDateString() === new Date().toDateString();
    return date.toLocaleString(Panel.language(), today ? { timeStyle: "short" }
      : { dateStyle: "medium", timeStyle: "short" });
  }

  // "Played at Anna's table and Ben's table, started 18:34".
  function where(game) {
    const started = localTime((game.announced || {}).started);
    const others = (game.tables || []).map((table) => table.name).filter((name) => name !== game.host);
    const host = !game.host ? "" : t("Played at {tables}", { tables: list([game.host, ...others]) });
    return [host, started ? t("started {when}", { when: started }) : ""].filter(Boolean).join(", ");
  }

  // The record so far, as a file (docs/records.md): it replays with ``sudoku-table replay``
  // and loads on any table's page of finished games.
  function download(game) {
    const record = game.record;
    if (!record) return;
    const started = (game.announced || {}).started || new Date().toISOString();
    const name = `${record.variant}-${started.slice(0, 16).replace(/[:T]/g, "-")}.json`;
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: name, hidden: true });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  // The form that looks on at a game by its watch code: to the game's page, the code kept
  // after the # so that the page can follow the game again after the server restarted.
  function codeForm(form) {
    const input = form.querySelector("input");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (!code) { input.focus(); return; }
      try {
        const answer = await post("/api/watch", { code });
        window.location.assign(`/watch/${answer.game}#${encodeURIComponent(code)}`);
      } catch (e) { /* the toast says why */ }
    });
  }

  // Calls onAnswer with what ``path`` answers now and every POLL_MS after, while the page is
  // shown; ``key`` tells whether it changed (only then is onAnswer called again).
  function poll(path, onAnswer, onError) {
    let last = null;
    let timer = null;
    let asking = false; // one request at a time, however often the page is shown again
    async function once() {
      if (asking) return;
      asking = true;
      clearTimeout(timer);
      try {
        const answer = await Panel.request("GET", path, undefined, { quiet: true });
        const key = `${answer.version}/${answer.connected}`;
        if (key !== last) {
          last = key;
          await onAnswer(answer);
        }
      } catch (e) {
        last = null;
        if (onError) onError(e);
      } finally {
        asking = false;
      }
      if (!document.hidden) timer = setTimeout(once, POLL_MS);
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden) once(); });
    return once();
  }

  return { load, gameName, playerName, swatch, state, finished, drawBoard, players, tables,
           where, download, codeForm, poll, list };
})();
