// The play page: the board with pieces and signals, and beside or below it the what-now bar:
// who acts, the next act at the table in words, and the controls for it. Every view comes from
// the live stream (or the answer to a tap) and is drawn in full, so the page always shows
// exactly what the table knows.
//
// On a player's own phone (joined on the join page; Panel.seat() names the seat) the page acts
// as that seat: whose phone it is, "your turn" with a vibration and (switched on) a tone, the
// card or stone the table dealt them, and a way to leave the seat. On the shared panel a
// "Phones" card offers every person's seat to a phone (a code to scan or type) and takes a lost
// phone's seat back; where the table deals, a player without a phone sees their card here.
//
// A seat may be played at another Sudoku Table (tables.js): its moves arrive as remote_* steps
// that a person here carries out on this board, like the computer's; while its table is away,
// the bar says so and nobody here plays for it.
"use strict";

(() => {
  const { get, post, liveViews, el, t, said } = Panel;
  const simulated = document.body.dataset.simulated === "true";
  const $ = (id) => document.getElementById(id);

  let legend = { signals: {}, players: [], marks: [] };
  let variants = {};
  const geometries = {};
  let board = null;
  let boardVariant = null;
  let view = null;
  let mode = null; // "discard" or "joker": the next pad tap means that
  // Taps are sent one after another, in the order they were made: none is dropped.
  let queue = Promise.resolve();
  const mine = Panel.seat(); // this phone's seat ({seat, token}), or null: the shared panel
  if (mine) document.body.dataset.seat = String(mine.seat);
  let stopViews = null;
  let joining = null; // the seat whose code the join dialog shows

  const endWords = (code) => said("end", code) || t("nobody can move any more");

  // What the running game says about itself (GET /api/variants: traits).
  const traitsOf = (id) => (variants[id] && variants[id].traits) || {};

  // A player's name as typed, else the seat's name in this language (White, Black; Player 3).
  function playerName(i) {
    const level = ((view && view.table && view.table.computers) || {})[String(i)];
    if (level) return t("Computer ({level})", { level: said("levels", level) || level });
    const typed = ((view && view.table && view.table.names) || [])[i];
    if (typed) return typed;
    // In a game with other tables: the computer of the host, and a seat alone at its table
    // goes by that table's name ("Ben's table") until its player is named.
    const entry = Tables.seat(i);
    if (entry && entry.kind === "computer") return t("Computer");
    const alone = entry && Tables.joined(entry) &&
      view.table.seats.filter((s) => s.table === entry.table).length === 1;
    if (alone) return entry.table;
    const label = view && view.game && (traitsOf(view.game.variant).player_labels || [])[i];
    return label ? t(label) : t("Player {n}", { n: i + 1 });
  }

  function playerColor(i) {
    const look = view && view.game && (traitsOf(view.game.variant).piece_looks || [])[i];
    if (look) return look.fill;
    return Board.seatColor(i);
  }

  function swatch(i) {
    const node = el("span", { class: "swatch", "aria-hidden": "true", "data-mark": Board.markOf(i) });
    node.style.background = i === null || i === undefined ? legend.nobody || "#f0e442" : playerColor(i);
    return node;
  }

  function send(path, body) {
    const job = queue.then(async () => {
      try {
        const answer = await post(path, typeof body === "function" ? body() : body);
        if (answer && "table" in answer) await render(answer);
      } catch (e) {
        if (mine && e.status === 403) checkSeat();
        // The toast already shows the table's message; a stale input comes back with the
        // view it missed, shown at once so that the players decide again on what is true.
        if (e.status === 409 && e.data && e.data.view && "table" in e.data.view) {
          await render(e.data.view);
        }
      }
    });
    queue = job;
    return job;
  }

  // Every input names the view it was made from (taken now, at the tap): the table refuses
  // it (409) when the game, its question or the pending piece changed since.
  function sendInput(input) {
    const made = view && view.version !== undefined ? { version: view.version } : {};
    return send("/api/input", { ...input, ...made });
  }

  // The board of the game: most games have one; a game whose options shape it (a puzzle's
  // board) is drawn from the board its options name.
  async function ensureBoard(variantId, options) {
    const shaped = traitsOf(variantId).setup_from_options && options;
    const key = shaped ? `${variantId} ${JSON.stringify(options)}` : variantId;
    if (boardVariant === key && board) return board;
    if (!geometries[key]) {
      geometries[key] = await get(shaped ? `/api/variants/${variantId}?options=${
        encodeURIComponent(JSON.stringify(options))}` : `/api/variants/${variantId}`);
    }
    geometries[variantId] = geometries[key];  // the pad reads the numbers of the game's board
    board = Board.build($("board"), geometries[key], {
      legend,
      pieceLooks: traitsOf(variantId).piece_looks,
      jokers: traitsOf(variantId).has_jokers,
      pieceWords: traitsOf(variantId).piece_words,
      // A seat's phone plays its own seat only: the simulated board is the shared panel's.
      clickable: simulated && !mine,
      onSquare: simulated && !mine ? onSquare : null,
    });
    boardVariant = key;
    return board;
  }

  function onSquare(square) {
    // Decided when the tap's turn comes, from the newest view: a second quick tap on the
    // same square lifts what the first put down.
    send("/api/sim/square", () => {
      const table = (view && view.table) || {};
      const here = (table.occupied || []).includes(square) !== (table.felt || []).includes(square);
      return { square, occupied: !here };
    });
  }

  function pieceWords(piece) {
    const what = piece.blank ? t("blank") : piece.number;
    return piece.owner === null || piece.owner === undefined
      ? t("the gold {what}", { what }) : t("{player}'s {what}", { player: playerName(piece.owner), what });
  }

  // "a, b and c" in this phone's language (Intl.ListFormat where the browser has it).
  function list(items) {
    try {
      return new Intl.ListFormat(Panel.language(), { style: "long", type: "conjunction" }).format(items);
    } catch (e) {
      if (items.length <= 1) return items.join("");
      return t("{first} and {last}", { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
    }
  }

  // What a piece is called in this game ("card", "stone", "piece"), in this language: the
  // game declares its words (traits' piece_words), the catalog translates them.
  function piecesOf(game) {
    return traitsOf(game.variant).piece_words;
  }

  // The next act at the table, in a sentence (the table's next step, with the names).
  function nowSentence(next, game) {
    const p = next.params || {};
    const word = t(piecesOf(game).one);
    switch (next.code) {
      case "clear_board": {
        const n = (p.squares || []).length;
        return n === 1 ? t("Take away the piece left from the last game (it blinks).")
          : t("Take away the {n} pieces left from the last game (they blink).", { n });
      }
      case "set_up": return t("Set up: put {piece} on {square} ({left} to go).",
                              { piece: pieceWords(p.piece || {}), square: p.square, left: p.left });
      case "set_up_number": return t("Set up the {number}s: a piece on each of the {count} lit squares, no number to tap ({left} to go in all).",
                                     { number: p.number, count: p.count, left: p.left });
      case "game_over": return t("Game over: {reason}.", { reason: endWords(p.reason) });
      case "turn_over": {
        const turn = simulated
          ? t("Turn {squares} over (tap it twice).", { squares: list(p.squares || []) })
          : t("Turn {squares} over.", { squares: list(p.squares || []) });
        if (!game.over) return turn;
        const over = t("Game over.");
        const then = t("Then the board shows the final position.");
        return [over, turn, then].join(" ");
      }
      case "say_number": return p.joker
        ? t("Tap the number of the new {piece} on {square}. A stone that fits nowhere: tap Joker, then its number.", { piece: word, square: p.square })
        : t("Tap the number of the new {piece} on {square}.", { piece: word, square: p.square });
      case "take_away": return t("No number may go on {square}: take the {piece} away.", { piece: word, square: p.square });
      case "take_away_number": return t("The {number} may not go on {square}: take it away.", p);
      case "take_away_card": return t("The {piece} the table dealt you may not go on {square}: take it away.", { piece: word, square: p.square });
      case "say_joker": return t("No number may go on {square}. Is it a stone that fits nowhere? Tap Joker, then its number; otherwise take it away.", p);
      case "undo_on_board": return boardSentence(t("Taken back."), p, true);
      case "redo_on_board": return boardSentence(t("Redone."), p, false);
      case "lay_joker": return t("The {number} fits nowhere: lay it face down as a joker.", p);
      case "set_aside": return t("The {number} fits nowhere: set it aside.", p);
      case "lift_again": return t("That is no move: lift the piece from {square} again.", p);
      case "bear_off": return t("Bear the piece off from {square}, or set it down.", p);
      case "set_down": return t("Set the piece from {square} down on a lit square.", p);
      case "jump_on": return t("Jump on from {square}, or leave it: the move counts in a moment.", p);
      case "put_right": return t("Put the board right: follow the blinking squares.");
      case "place_number": return t("Put your {number} on the board.", p);
      case "blanks_or_end": return t("Lay blanks on the blue dead fields, or end your turn.");
      case "move": return t("Lift one of your pieces and set it down on a lit square.");
      case "place": {
        const first = p.nth === 2
          ? t("Your second {piece}: put it on the board, then tap its number.", { piece: word })
          : t("Put a {piece} on the board, then tap its number.", { piece: word });
        return first;
      }
      case "place_dealt": return dealtSentence(next, game);
      case "computer_thinking": return t("The computer is thinking\u2026");
      case "computer_hand": return t(piecesOf(game).computer_draws);
      case "computer_place": return t("Put the computer's {number} on {square}.", p);
      case "computer_blank": return t("Put a blank on {square} for the computer.", p);
      case "computer_blank_of": return t("Put a blank in {player}'s colour on {square} for the computer.",
                                         { square: p.square, player: playerName(p.player) });
      case "computer_joker": return t("Lay the computer's {number} face down on {square} as a joker.", p);
      case "computer_set_aside": return t("Set the computer's {number} aside, then tap the button.", p);
      case "computer_draw_place": return t("Take the computer's {number} and put it on {square}.", p);
      case "computer_draw_set_aside": return t("Take the computer's {number} and set it aside, then tap the button.", p);
      case "computer_move": return t("Lift {start} and set it down on {square}.", p);
      case "computer_jump": return t("Lift {start} and jump to {square} via {via}.",
                                     { start: p.start, square: p.square, via: list(p.via || []) });
      case "computer_bear_off": return t("Lift {start} and bear it off.", p);
      case "computer_end_turn": return t("The computer ends its turn.");
      case "computer_take_away": return t("That is not the computer's move: take the piece on {square} away.", p);
      case "computer_put_back": return t("That is not the computer's move: put the piece back on {square}.", p);
      case "cannot_save": return (Panel.savingWords({ state: "failing", cause: p.cause }) || {}).title || "";
      default:
        if ((next.code || "").startsWith("remote_")) return remoteSentence(next);
        return said("next", next.code, p) || "";
    }
  }

  // A move made at another table, carried out here by a person (as the computer's is), or the
  // other table's turn: who plays where, and for how long that table has been away.
  function remoteSentence(next) {
    const p = next.params || {};
    const table = Tables.tableName(p.table);
    const q = { ...p, table };
    switch (next.code) {
      case "remote_place": return t("From {table}: put the {number} on {square}.", q);
      case "remote_blank": return t("From {table}: put a blank on {square}.", q);
      case "remote_blank_of": return t("From {table}: put a blank in {player}'s colour on {square}.",
                                       { ...q, player: playerName(p.player) });
      case "remote_joker": return t("From {table}: lay the {number} face down on {square} as a joker.", q);
      case "remote_set_aside": return t("From {table}: set the {number} aside, then tap the button.", q);
      case "remote_move": return t("From {table}: lift {start} and set it down on {square}.", q);
      case "remote_jump": return t("From {table}: lift {start} and jump to {square} via {via}.",
                                   { ...q, via: list(p.via || []) });
      case "remote_bear_off": return t("From {table}: lift {start} and bear it off.", q);
      case "remote_end_turn": return t("{player} ends the turn at {table}.",
                                       { table, player: playerName(next.actor) });
      case "remote_take_away": return t("That is not the move from {table}: take the piece on {square} away.", q);
      case "remote_put_back": return t("That is not the move from {table}: put the piece back on {square}.", q);
      case "remote_waiting": {
        if (!Tables.joined(Tables.seat(next.actor) || { table: p.table })) {
          return t("Waiting for the other table to join.");
        }
        if (Tables.left()) return t("{table} has left this game.", { table });
        const off = Tables.away(next.actor);
        if (off !== null) return t("Waiting for {table} (offline {time}).", { table, time: Tables.duration(off) });
        const player = playerName(next.actor);
        return player === table ? t("Waiting for the move from {table}.", { table })
          : t("Waiting for {player}'s move at {table}.", { table, player });
      }
      default: return said("next", next.code, p) || "";
    }
  }

  // On a seat's phone while another person moves: it watches, and does not act.
  function watching(actor) {
    return !!mine && actor !== null && actor !== undefined && actor !== mine.seat &&
      !(view.game && view.game.over) && !((view.table.computers || {})[String(actor)]) &&
      !Tables.remote(actor);
  }

  // What the mover does, as another player's phone says it (the mover's own phone, or the
  // shared panel, has the words addressed to them); "" where nothing needs saying.
  function theirSentence(next, game) {
    const player = playerName(next.actor);
    const word = piecesOf(game).one;
    switch (next.code) {
      case "place": case "place_dealt": case "place_own": case "place_number":
      case "say_number": case "say_joker":
        return ({ card: t("{player} puts a card on the board.", { player }),
                  stone: t("{player} puts a stone on the board.", { player }) })[word] ||
          t("{player} puts a piece on the board.", { player });
      case "set_aside": return t("{player} sets a card aside.", { player });
      case "lay_joker": return t("{player} lays a stone face down as a joker.", { player });
      case "move": case "set_down": case "bear_off": case "jump_on": case "lift_again":
        return t("{player} moves a piece.", { player });
      case "blanks_or_end": return t("{player} lays blanks or ends the turn.", { player });
      case "take_away": case "take_away_number": case "take_away_card": case "put_right":
      case "clear_board": case "set_up": case "set_up_number": case "turn_over":
      case "undo_on_board": case "redo_on_board": case "cannot_save": case "game_over":
        return nowSentence(next, game); // the board itself: anyone at the table may help
      default: return "";
    }
  }

  // A sentence as it begins: its first letter upper case, in this phone's language.
  function sentence(text) {
    if (!text) return text;
    return text.charAt(0).toLocaleUpperCase(Panel.language()) + text.slice(1);
  }

  // After a take-back or a redo: what to move, take away, put back and turn, in words.
  function boardSentence(opening, p, back) {
    const parts = [opening];
    for (const pair of p.moves || []) {
      parts.push(t("Move the piece from {from} to {to}.", pair));
    }
    if ((p.take_away || []).length) parts.push(t("Take away {squares}.", { squares: list(p.take_away) }));
    if ((p.put_back || []).length) parts.push(t("Put back {squares}.", { squares: list(p.put_back) }));
    if ((p.turn || []).length) {
      parts.push(back ? t("Turn {squares} back over.", { squares: list(p.turn) })
        : t("Turn {squares} over.", { squares: list(p.turn) }));
    }
    return parts.join(" ");
  }

  function renderNow(game) {
    const next = view.table.next || { code: "", params: {}, actor: null };
    const who = $("now-who");
    who.replaceChildren();
    const actor = next.actor;
    if (game.over) {
      who.append(el("strong", { text: winnerWords(game) }));
    } else if (mine && actor === mine.seat) {
      who.dataset.actor = String(actor); // the "Your turn" banner above says who
    } else if (watching(actor)) {
      // Another player's turn, on this player's phone: whose it is, in so many words.
      who.append(swatch(actor), el("strong", { text: t("{player}'s turn", { player: playerName(actor) }) }));
      who.dataset.actor = String(actor);
    } else if (actor !== null && actor !== undefined) {
      who.append(swatch(actor), el("strong", { text: playerName(actor) }));
      who.dataset.actor = String(actor);
    } else {
      who.append(el("strong", { text: t("Everyone") }));
      who.dataset.actor = "";
    }
    let text = watching(actor) ? theirSentence(next, game) : nowSentence(next, game);
    if (mode === "discard") {
      text = (view.table.discard_choices || []).length
        ? t("Tap the number of the card you set aside (only numbers that fit nowhere).")
        : t("Every number still fits somewhere: no card may be set aside now.");
    } else if (mode === "joker") {
      text = (view.table.joker_choices || []).length
        ? t("Tap the number of the stone laid face down as a joker.")
        : t("Every number still fits somewhere: no joker now.");
    }
    $("now-text").textContent = text;
    // Where a piece may go, said before the first try (the game's own rule), on a line of its own.
    const rule = !mode && !watching(actor) && next.params && next.params.rule;
    $("now-rule").hidden = !rule;
    $("now-rule").textContent = rule ? sentence(t(rule.text, wordParams(rule.params))) + "." : "";
    $("now-rule").title = $("now-rule").textContent;
    $("now").dataset.next = next.code || "";
  }

  // The table cannot save (or saves on its last space): what waits, and what to do.
  function renderSaving(box) {
    const saving = view.table.saving || {};
    const words = Panel.savingWords(saving);
    const low = $("now-low");
    const inBar = box.id === "now-saving";
    low.hidden = !(words && words.short && inBar);
    if (!low.hidden) low.textContent = words.short;  // play goes on: said below the bar
    box.hidden = !words || !low.hidden;
    if (box.hidden) return;
    box.dataset.kind = words.kind;
    const lines = [];
    const held = saving.held;
    if (held && held.kind === "undo") {
      lines.push(t("Taking back {action} does not count yet: it counts as soon as the table can save. Undo gives it up.",
                   { action: describe(held.action) }));
    } else if (held) {
      lines.push(t("{action} does not count yet: leave it where it is, it counts as soon as the table can save. Undo gives it up.",
                   { action: describe(held.action) }));
    }
    if (saving.record_waits) lines.push(t("The finished game is kept as soon as the table can save."));
    lines.push(words.todo);
    // In the bar, the next step already says that the table cannot save.
    const titled = !inBar || words.kind !== "failing";
    const parts = titled ? [el("strong", { text: words.title })] : [];
    box.replaceChildren(...parts, ...lines.map((line) => el("p", { text: line })));
  }

  function winnerWords(game) {
    const winners = game.winners || [];
    if (winners.length === 1) return t("{player} wins!", { player: playerName(winners[0]) });
    if (winners.length > 1) return t("{players} share the win!", { players: list(winners.map(playerName)) });
    return t("A draw!");
  }

  // A house, section or area by its name ("rank 4", "block b4", "left face 3"), in words of
  // this language; the cells in it stay as they are.
  function area(name) {
    const [kind, ...words] = String(name).split(" ");
    // Kakuro's extra point for a run filled exactly to its clue: "line 7 exact".
    const rest = words.map((w) => (w === "exact" ? t("exact") : w));
    const KINDS = {
      rank: t("rank"), file: t("file"), block: t("block"), cage: t("cage"), line: t("line"),
      region: t("region"), triangle: t("triangle"),
    };
    if (kind in KINDS) return [KINDS[kind], ...rest].join(" ");
    if (rest[0] === "face") {
      const FACES = { left: t("left face"), right: t("right face"), top: t("top face") };
      if (kind in FACES) return [FACES[kind], ...rest.slice(1)].join(" ");
    }
    return String(name);
  }

  // A parameter that counts something ({count, noun}), in words of this language.
  function counted(value) {
    if (!value || typeof value !== "object" || !("noun" in value)) return value;
    const n = value.count;
    switch (value.noun) {
      case "piece": return n === 1 ? t("1 piece") : t("{count} pieces", { count: n });
      case "action": return n === 1 ? t("1 action") : t("{count} actions", { count: n });
      case "entry": return n === 1 ? t("1 entry") : t("{count} entries", { count: n });
      case "damaged entry": return n === 1 ? t("1 damaged entry") : t("{count} damaged entries", { count: n });
      case "finished game": return n === 1 ? t("1 finished game") : t("{count} finished games", { count: n });
      default: return `${n} ${value.noun}`;
    }
  }

  // Parameters of a sentence in words of this language: counts, lists of areas, actions.
  function wordParams(raw) {
    const params = {};
    for (const [key, value] of Object.entries(raw || {})) {
      params[key] = Array.isArray(value) ? list(value.map(area))
        : typeof value === "string" ? t(value) : counted(value);
    }
    return params;
  }

  // A message code of the table with its parameters, in this phone's language; the rules'
  // reason ("3 is already in file d") comes as its own template and parameters ("why").
  function wordMessage(code) {
    const params = wordParams(code.params);
    if (code.params && code.params.action) params.action = describe(code.params.action);
    const why = code.params && code.params.why;
    if (why && typeof why.text === "string") params.reason = t(why.text, wordParams(why.params));
    return said("messages", code.code, params);
  }

  // The areas an action completed, then those it won before they were full (Duell's early
  // claims): "file a; decided early: block a7".
  function scoredAreas(effects) {
    const parts = [(effects.completed || []).map(area).join(", ")];
    const claimed = (effects.claimed || []).map(area);
    if (claimed.length) parts.push(t("decided early: {areas}", { areas: claimed.join(", ") }));
    return parts.filter((part) => part).join("; ");
  }

  // "Anna: 3 on e3 - Anna +2, Ben -1 (rank 4, block b4)" for an action; otherwise the table's
  // message (or its latest notice) in this phone's language.
  function messageText() {
    const code = view.table.message_code || (view.table.notice_codes || []).slice(-1)[0];
    if (code && code.code === "action") {
      const p = code.params || {};
      const scored = (p.points || []).map((n, i) => [i, n]).filter(([, n]) => n);
      const done = scoredAreas(p);
      const did = t("{player}: {action}", { player: playerName(p.player),
                                            action: p.action ? describe(p.action) : "" });
      if (scored.length) {
        return `${did} \u2014 ` +
          scored.map(([i, n]) => `${playerName(i)} ${n > 0 ? "+" : ""}${n}`).join(", ") +
          (done ? ` (${done})` : "");
      }
      return did;
    }
    return (code && wordMessage(code)) || view.table.message;
  }

  function renderScores(game) {
    const body = $("scores").tBodies[0];
    body.replaceChildren();
    const scores = game.scores || [];
    for (let i = 0; i < game.players; i++) {
      // A seat at another table says which, and whether that table is there.
      const where = Tables.where(i, playerName(i));
      const row = el("tr", { "data-player": String(i) },
        el("td", {}, swatch(i), " ", playerName(i),
           where ? el("span", { class: "seat-where small", "data-seat-where": String(i),
                                "data-state": Tables.away(i) === null ? "connected" : "away",
                                text: where }) : null),
        el("td", { class: "points", text: String(scores[i] ?? 0) }));
      // The one to act now: the mover turns over their flips before the next player goes on.
      if (!game.over && (view.table.next || {}).actor === i) row.classList.add("to-move");
      if (game.over && (game.winners || []).includes(i)) row.classList.add("winner");
      body.append(row);
    }
    const traits = traitsOf(game.variant);
    const extras = [];
    const each = (values) => values.map((n, i) => `${playerName(i)} ${n}`).join(", ");
    if ("blanks_left" in game) extras.push(t("Blanks left: {n}", { n: game.blanks_left }));
    if ("borne_off" in game) extras.push(t("Borne off: {each}", { each: each(game.borne_off) }));
    if ("discarded" in game && traits.has_set_asides) {
      const limit = traits.set_aside_limit;
      extras.push(limit ? t("Cards set aside: {n} of {limit}", { n: game.discarded, limit })
        : t("Cards set aside: {n}", { n: game.discarded }));
    }
    if ("stones_left" in game) extras.push(t("Stones left: {n}", { n: game.stones_left }));
    if ("markers" in game) {
      const count = new Array(game.players).fill(0);
      for (const owner of Object.values(game.markers)) if (owner !== null) count[owner]++;
      extras.push(t("Markers: {each}", { each: each(count) }));
    }
    $("extras").textContent = extras.join(" \u00b7 ");
  }

  function describe(action) {
    switch (action.type) {
      case "place": return t("{number} on {cell}", action);
      case "blank": return t("blank on {cell}", action);
      case "joker": return t("joker on {cell}", action);
      case "discard": return t("{number} set aside", action);
      case "end_turn": return t("end of turn");
      case "move": return action.path[action.path.length - 1] === "off"
        ? t("{cell} borne off", { cell: action.path[0] }) : action.path.join(" \u2192 ");
      default: return action.type;
    }
  }


  // A reason of the engine ("+3: completes rank 4, block b4") in this phone's language, the
  // players named by their names.
  function reasonText(reason) {
    const params = {};
    for (const [key, value] of Object.entries(reason.params || {})) {
      if (key === "player") params[key] = playerName(value);
      else if (key === "areas") params[key] = list((value || []).map(area));
      else if (Array.isArray(value)) params[key] = list(value.map(String));
      else params[key] = value;
    }
    return said("reasons", reason.code, params) || reason.text;
  }

  // The hint: in the bar, the advised action with the mark its square carries on the board
  // (the targets step back meanwhile); below the bar, why.
  function renderHint() {
    const hint = view.table.hint;
    const box = $("hint-box");
    box.hidden = !hint;
    $("hint-why").hidden = !hint || hint.status !== "ready" || !(hint.reasons || []).length;
    if (!hint) return;
    box.dataset.status = hint.status;
    if (hint.status === "private") {
      // A hint about a dealt card is shown on the phone of the player it is for only.
      $("hint-action").textContent = t("The hint is on {player}'s phone.", { player: playerName(hint.player) });
      $("hint-reasons").replaceChildren();
      return;
    }
    if (hint.status !== "ready") {
      $("hint-action").textContent = t("Looking for a good move\u2026");
      $("hint-reasons").replaceChildren();
      return;
    }
    $("hint-action").textContent = t("Hint: {action} (marked i)",
                                     { action: describe(hint.action) });
    $("hint-reasons").replaceChildren(...(hint.reasons || []).map((r) =>
      el("li", { "data-reason": r.code, text: reasonText(r) })));
  }

  // The final scores as the rule book counts them: one column per part, then the total.
  function renderBreakdown(game) {
    const table = $("breakdown");
    table.replaceChildren();
    const parts = game.breakdown || [];
    const keys = parts.length ? Object.keys(parts[0]) : [];
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Player") }),
      ...keys.map((k) => el("th", { scope: "col", class: "points", text: said("parts", k) || k })),
      el("th", { scope: "col", class: "points", text: t("Total") }))));
    const body = el("tbody", {});
    for (let i = 0; i < game.players; i++) {
      const row = el("tr", { "data-player": String(i) },
        el("th", { scope: "row" }, swatch(i), " ", playerName(i)),
        ...keys.map((k) => el("td", { class: "points", text: String(parts[i][k]) })),
        el("td", { class: "points total", text: String((game.scores || [])[i] ?? 0) }));
      if ((game.winners || []).includes(i)) row.classList.add("winner");
      body.append(row);
    }
    table.append(body);
  }

  function renderEnd(game) {
    $("end").hidden = !game.over;
    $("moves-box").hidden = !game.over;
    // At the end the final scores, split as the rule book counts them, take the scores' place.
    $("scores-box").hidden = game.over;
    $("rematch").hidden = !game.over;
    $("another").hidden = !game.over;
    if (!game.over) return;
    $("end-title").textContent = t("Final scores");
    $("end-why").textContent = t("{winner} The game ended: {reason}.",
                                 { winner: winnerWords(game), reason: endWords(game.end_reason) });
    renderBreakdown(game);
    const moves = view.table.moves || [];
    $("moves").replaceChildren(...moves.map((m, index) => {
      const scored = (m.points || []).map((n, i) => [i, n]).filter(([, n]) => n)
        .map(([i, n]) => `${playerName(i)} ${n > 0 ? "+" : ""}${n}`).join(", ");
      const done = scoredAreas(m);
      // The move's number is text of its own, so that no list marker is cut at the edge.
      return el("li", {}, el("span", { class: "move-number", text: `${index + 1}.` }), " ",
                m.player === null || m.player === undefined ? "" : swatch(m.player), " ",
                `${m.player === null || m.player === undefined ? "" : playerName(m.player) + ": "}` +
                `${describe(m.action)}${scored ? ` (${scored}${done ? `: ${done}` : ""})` : ""}`);
    }));
  }

  function renderPad(game) {
    const prompt = view.table.prompt || null;
    const geometry = geometries[game.variant];
    const [low, high] = (geometry && geometry.numbers) || [1, 9];
    const moveGame = !!traitsOf(game.variant).moves_pieces;
    const kind = prompt ? prompt.kind : null;
    const pad = $("pad");
    pad.replaceChildren();
    const numberPrompt = kind === "number" || kind === "hand";
    // The numbers the table offers now: the legal ones for the new piece, or those that can be
    // played, to choose before the piece goes down; none (hidden) when no number is asked.
    const offered = view.table.pad || null;
    const choices = new Set(offered ? offered.numbers : []);
    // While the table cannot save, nothing but Undo is taken: no pad to tap in vain.
    const failing = (view.table.saving || {}).state === "failing";
    // Nor while another table's player is to move: nobody here plays for them.
    const elsewhere = (view.table.next || {}).code === "remote_waiting";
    pad.hidden = moveGame || game.over || failing || elsewhere || !(offered || mode);
    pad.dataset.mode = mode || (numberPrompt ? "answer" : "pre-choice");
    pad.style.setProperty("--numbers", String(high - low + 1));
    // Upright, up to six numbers stand in one row; nine in two.
    pad.style.setProperty("--pad-columns", String(high - low + 1 <= 6 ? high - low + 1 : 5));
    const inHand = view.table.in_hand;
    const modeChoices = new Set(mode === "discard" ? (view.table.discard_choices || [])
      : mode === "joker" ? (view.table.joker_choices || []) : []);
    for (let n = low; n <= high; n++) {
      const enabled = mode ? modeChoices.has(n) : choices.has(n);
      pad.append(el("button", {
        type: "button", "data-number": String(n), text: String(n), disabled: !enabled,
        class: enabled && (numberPrompt || mode) ? "enabled-choice" : null,
        "aria-label": t("number {n}", { n }), "aria-pressed": !numberPrompt && inHand === n ? "true" : "false",
        onclick: () => onNumber(n, prompt),
      }));
    }
    const extra = $("prompt-extra");
    extra.replaceChildren();
    const button = (label, data, onclick) => extra.append(el("button", {
      type: "button", class: "primary", text: label, ...data, onclick,
    }));
    // Beside the rule it answers, so that the two share a row of the bar.
    const ruleRow = $("now-rule-row");
    ruleRow.querySelectorAll("button").forEach((b) => b.remove());
    if (view.table.where_offered) {
      ruleRow.append(el("button", {
        type: "button", class: "secondary", text: t("Show where"), "data-action": "where",
        "aria-pressed": Object.values(view.table.signals || {}).includes("target") ? "true" : "false",
        onclick: () => sendInput({ type: "where" }),
      }));
    }
    const choice = view.table.blank_choice;
    if (choice) {
      // Only the colours it does not count as yet: each tap changes it.
      extra.append(el("p", { class: "small blank-question", text: t(
        "{player}: the blank on {square} counts as {owner}'s colour. Another colour? Tap it:",
        { player: playerName(choice.player), square: choice.square, owner: playerName(choice.owner) }) }));
      for (const owner of choice.choices || []) {
        if (owner === choice.owner) continue;
        button(t("Blank: {player}", { player: playerName(owner) }), {
          "data-blank-owner": String(owner), class: "secondary",
        }, () => sendInput({ type: "blank", square: choice.square, owner }));
      }
    }
    if (!game.over && prompt) {
      if (kind === "joker" && prompt.square) {
        button(t("Joker on {square}", prompt), { "data-action": "joker" },
               () => sendInput({ type: "joker", square: prompt.square, number: prompt.number }));
      } else if (kind === "discard") {
        button(t("Set the {number} aside", prompt), { "data-action": "discard" },
               () => sendInput({ type: "discard", number: prompt.number }));
      } else if (kind === "bear_off") {
        button(t("Bear off"), { "data-action": "bear_off" }, () => sendInput({ type: "bear_off" }));
      }
    }
    if (mode) {
      extra.append(el("button", { type: "button", class: "secondary", text: t("Cancel"),
                                  onclick: () => { mode = null; render(view); } }));
    }
    extra.hidden = !extra.childElementCount;
  }

  function onNumber(n, prompt) {
    if (mode === "discard") {
      mode = null;
      return sendInput({ type: "discard", number: n });
    }
    if (mode === "joker") {
      mode = null;
      return sendInput({ type: "joker", square: prompt && prompt.square, number: n });
    }
    if (prompt && prompt.kind === "hand") return sendInput({ type: "hand", number: n });
    if (prompt && prompt.kind === "number" && prompt.square) {
      return sendInput({ type: "number", square: prompt.square, number: n });
    }
    return sendInput({ type: "number", number: n });
  }

  function renderActions(game) {
    const prompt = view.table.prompt || null;
    const traits = traitsOf(game.variant);
    $("undo").disabled = !view.table.can_undo;
    // A game with other tables offers no Redo (the table refuses it): the action is played again.
    $("redo").hidden = !view.table.can_redo || !!(view.table.network || {}).role;
    $("hints").checked = !!view.table.hints;
    const next = view.table.next || {};
    const personToMove = !game.over && next.actor !== null && next.actor !== undefined &&
      !((view.table.computers || {})[String(next.actor)]) && !Tables.remote(next.actor);
    const failing = (view.table.saving || {}).state === "failing";
    // With hints off there is no Hint button (a disabled one never said why); the settings
    // say how to switch them on.
    $("hint").hidden = !personToMove || failing || !view.table.hints;
    $("hint").disabled = !view.table.hints || !!(view.table.hint && view.table.hint.status === "thinking");
    // The button names its action; whether hints are on is the switch's to show.
    if (view.table.hints) $("hint").removeAttribute("aria-describedby");
    else $("hint").setAttribute("aria-describedby", "hint-off");
    $("hint-off").hidden = !personToMove || !!view.table.hints;
    $("end-turn").hidden = game.over || failing || game.phase !== "blanks";
    // On the computer's turn (or another table's) the button is there only when its card is
    // set aside.
    const computerStep = /^(computer|remote)_/.test(next.code || "");
    // Offered only while a card fits nowhere (else it could not be set aside).
    $("discard").hidden = game.over || failing || !traits.has_set_asides || view.table.clearing ||
      !(view.table.discard_choices || []).length ||
      (computerStep && !(next.code || "").endsWith("set_aside"));
    $("discard").setAttribute("aria-pressed", mode === "discard" ? "true" : "false");
    $("joker").hidden = game.over || failing || !traits.has_jokers ||
      !(prompt && prompt.kind === "number" && prompt.square) ||
      !(view.table.joker_choices || []).length;
    $("joker").setAttribute("aria-pressed", mode === "joker" ? "true" : "false");
  }

  function renderSim(game) {
    if (!simulated || !board) return;
    $("sim-help").textContent = t(piecesOf(game).handle);
    const cells = new Set(board.geometry.cells);
    const off = ((view.table && view.table.occupied) || []).filter((s) => !cells.has(s));
    const box = $("off-board");
    box.hidden = !off.length;
    box.replaceChildren(...(off.length ? [el("span", { class: "muted small", text: t("Off this board:") })] : []),
      ...off.map((s) => el("button", { type: "button", class: "secondary", "data-off-board": s,
                                        text: t("Lift {square}", { square: s }), onclick: () => send("/api/sim/square",
                                          { square: s, occupied: false }) })));
  }

  function renderFaults() {
    const faults = view.faults || (view.table && view.table.faults) || [];
    $("faults-box").hidden = !faults.length;
    $("faults").replaceChildren(...faults.map((f) =>
      el("li", { text: typeof f === "string" ? f : (f.detail || f.kind || JSON.stringify(f)) })));
  }

  // Only the words of the LED language this game can show (its traits say which).
  let legendFor = null;
  function renderLegend(variantId) {
    // A move to carry out lights its squares as the computer's does, for another table too.
    const computer = Object.keys(view.table.computers || {}).length > 0;
    const remote = (view.table.seats || []).some((s) => s.kind !== "here");
    const key = `${variantId} ${computer} ${remote}`;
    if (!variantId || legendFor === key) return;
    legendFor = key;
    const traits = traitsOf(variantId);
    const shown = traits.signals && [...traits.signals, "hint",
      ...(computer || remote ? ["computer"] : []), "unsaved"];
    const listNode = $("legend");
    listNode.replaceChildren();
    for (const [word, meaning] of Object.entries(Board.meanings(traits.piece_words))) {
      if (shown && !shown.includes(word)) continue;
      const look = legend.signals[word] || { color: "#fff", pattern: "steady" };
      const light = el("span", { class: `light pattern-${look.pattern}`, text: Board.SYMBOLS[word],
                                  "aria-hidden": "true" });
      light.style.background = look.color;
      light.style.color = Board.textColor(look.color);
      const words = word === "dead" && !traits.has_blanks
        ? t("dead field: no number fits here any more")
        : word === "computer" && remote ? (computer ? t("carry out the computer's or the other table's move here")
          : t("carry out the other table's move here"))
          : meaning;
      listNode.append(el("li", { "data-signal": word }, light, el("span", { text: words })));
    }
  }

  function sounds(previous, next) {
    if (!previous || !next.game || previous.version === next.version) return;
    const was = Object.values(previous.table.signals || {}).includes("illegal");
    const is = Object.values(next.table.signals || {}).includes("illegal");
    if (is && !was) Sound.play("illegal");
    const code = next.table.message_code;
    if (code && code.code === "action" && (code.params.points || []).some((n) => n > 0) &&
        JSON.stringify(code) !== JSON.stringify(previous.table.message_code)) Sound.play("points");
    const before = (previous.table.next || {}).actor, after = (next.table.next || {}).actor;
    if (mine) {
      // A seat's phone is nudged for its own turn only.
      if (after === mine.seat && before !== mine.seat && !next.game.over) Sound.nudge();
    } else if (after !== before && after !== null && after !== undefined) Sound.play("turn");
  }

  // A view older than the one drawn (an answer overtaken by a newer live view) is dropped.
  // Versions count within one start of the table (its boot): after a restart they begin
  // again, so a view of another boot is always drawn.
  function outdated(next) {
    return !!view && next.version !== undefined && view.version !== undefined &&
      next.boot === view.boot && next.version < view.version;
  }

  async function render(next) {
    if (outdated(next) || checkSeat.lost) return; // a lost seat's page shows no game
    const previous = view;
    view = next;
    Tables.seen(view);
    document.dispatchEvent(new CustomEvent("panel:view", { detail: view })); // replay_bar.js
    const game = view.game;
    $("no-game").hidden = !!game;
    $("game").hidden = !game;
    renderSaving(game ? $("now-saving") : $("no-game-saving"));
    if (!game) return;
    const b = await ensureBoard(game.variant, game.options);
    if (view !== next) return; // a newer view arrived while the board was loading
    Board.update(b, view);
    renderLegend(game.variant);
    const meta = variants[game.variant];
    $("game-name").textContent = meta ? meta.name : game.variant;
    $("rules-link").href = `/rules/${encodeURIComponent(game.variant)}`;
    $("end-record").setAttribute("download", `${game.variant}.json`);
    // While the table cannot save, the box in the bar says what waits: not said twice.
    const code = view.table.message_code;
    const saidInBox = (view.table.saving || {}).state === "failing" && code &&
      (code.code === "held" || code.code === "held_undo");
    const message = saidInBox ? "" : sentence(messageText());
    $("message").hidden = !message;
    $("message").textContent = message || "";
    const prompt = view.table.prompt;
    if (mode === "joker" && !(prompt && prompt.kind === "number" && prompt.square)) mode = null;
    const illegal = Object.values(view.table.signals || {}).includes("illegal");
    $("message").classList.toggle("info", !illegal);
    renderNow(game);
    renderScores(game);
    renderPad(game);
    renderActions(game);
    renderHint();
    renderEnd(game);
    renderSim(game);
    renderSeat(game);
    renderPhones(game);
    renderTables(game);
    renderFaults();
    sounds(previous, next);
    Speech.follow(next);
    document.body.dataset.version = String(view.version ?? "");
    document.body.dataset.rendered = "true";
    markMore();
  }

  // Tables connected: the bar's line while a table is away, a disagreement between the
  // tables, and (on the host's shared panel) the other tables' codes.
  function renderTables(game) {
    const next = view.table.next || {};
    const away = game.over ? "" : Tables.awayLine(next, (seats) => list(seats.map(playerName)));
    $("now-away").hidden = !away;
    $("now-away").textContent = away;
    $("take-over").hidden = !!mine || !Tables.mayTakeOver();
    const diverged = Tables.diverged();
    $("now-diverged").hidden = !diverged;
    $("now-diverged").textContent = diverged;
    $("follow-host").hidden = !Tables.mayFollow();
    Tables.renderInvite(game, { mine, swatch, name: playerName });
    // A guest table plays the host's game: a rematch is started there.
    if ((view.table.network || {}).role === "guest") $("rematch").hidden = true;
  }

  // While a table is away, the seconds it has been away count on every second.
  function tick() {
    if (!view || !view.game || !Tables.ticking() || document.hidden) return;
    renderNow(view.game);
    renderScores(view.game);
    renderTables(view.game);
  }

  // Sideways and on a desktop the column beside the board scrolls by itself: while more of it
  // lies below (the scores, the cards set aside), its foot says so.
  function markMore() {
    const side = document.querySelector(".play-side");
    const scrolls = getComputedStyle(side).overflowY !== "visible";
    const more = scrolls && side.scrollHeight - side.scrollTop - side.clientHeight > 8;
    if (more) side.dataset.more = t("More below") + " \u25be";
    else delete side.dataset.more;
  }

  // --- Phones: a player's own phone, and the shared panel's offer of seats to phones --------

  // Words that depend on what the game's pieces are (a card, a stone): whole sentences, so
  // that each language can say them its own way.
  function pieceSaying(game, kind, params) {
    const word = piecesOf(game).one;
    const SAYINGS = {
      yours: { card: t("Your card"), stone: t("Your stone"), piece: t("Your piece") },
      show: { card: t("Show my card"), stone: t("Show my stone"), piece: t("Show my piece") },
      notMine: { card: t("That was not my card"), stone: t("That was not my stone"),
                 piece: t("That was not my piece") },
      notTheirs: { card: t("{player}: that was not my card", params),
                   stone: t("{player}: that was not my stone", params),
                   piece: t("{player}: that was not my piece", params) },
      whose: { card: t("{player}'s card", params), stone: t("{player}'s stone", params),
               piece: t("{player}'s piece", params) },
      fitsNowhere: { card: t("Your {number} fits nowhere: set it aside.", params),
                     stone: t("Your {number} fits nowhere: lay it face down on an empty square as a joker.", params) },
      take: { card: t("Take the {number} from the open cards and put it on the board.", params),
              stone: t("Take the {number} from the open stones and put it on the board.", params) },
      shown: { card: t("Tap \"Show my card\" to see your card, then take it from the open ones and put it on the board.", params),
               stone: t("Tap \"Show my stone\" to see your stone, then take it from the open ones and put it on the board.", params) },
    };
    return SAYINGS[kind][word] || SAYINGS[kind].piece || SAYINGS[kind].card;
  }

  // The mover takes the card the table dealt: on their own phone, which one; on the shared
  // panel for a player without a phone, how to see it; else the table's words (the phone
  // shows it).
  function dealtSentence(next, game) {
    const hand = view.table.hand;
    if (mine && next.actor === mine.seat && typeof hand === "number") {
      const stuck = view.table.hand_do === "set_aside" || view.table.hand_do === "joker";
      return pieceSaying(game, stuck ? "fitsNowhere" : "take", { number: hand });
    }
    if (!mine && !(view.table.phones || []).includes(next.actor)) return pieceSaying(game, "shown");
    const words = said("next", next.code, { ...next.params, piece: t(piecesOf(game).one) });
    return words ? `${sentence(words)}.` : "";
  }

  // The seat whose dealt card was just put down (the table's message says that placement),
  // or null: no other word of the table came since.
  function justPlaced() {
    const code = view.table.message_code;
    const p = (code && code.params) || {};
    if (!view.table.deal || !code || code.code !== "action" || !p.action || p.action.type !== "place") return null;
    if (p.player === null || p.player === undefined) return null;
    return (view.table.computers || {})[String(p.player)] ? null : p.player;
  }

  function renderSeat(game) {
    const next = view.table.next || {};
    const phones = new Set(view.table.phones || []);
    const personToMove = !game.over && next.actor !== null && next.actor !== undefined &&
      !((view.table.computers || {})[String(next.actor)]);
    const failing = (view.table.saving || {}).state === "failing";
    // The shared panel shows the card of a player without a phone, on their turn.
    const show = $("show-card");
    show.hidden = !!mine || !view.table.deal || !personToMove || phones.has(next.actor) || failing;
    show.textContent = pieceSaying(game, "show");
    if ($("card-dialog").open && $("card-dialog").dataset.seat !== String(next.actor)) hideCard();
    // Right after a placement of a dealt card: one tap says another card went down.
    const placed = justPlaced();
    const placedHere = placed !== null && (mine ? placed === mine.seat : !phones.has(placed));
    $("not-my-card").hidden = !placedHere || game.over || failing;
    // On the shared panel the button names whose card it was: only that player taps it.
    $("not-my-card").textContent = placedHere && !mine
      ? pieceSaying(game, "notTheirs", { player: playerName(placed) }) : pieceSaying(game, "notMine");
    if (!mine) {
      // Where the table deals, a mover with a phone sets their card aside there (the table
      // knows the card): the shared panel opens no number pad for it.
      if (view.table.deal && phones.has(next.actor)) {
        $("discard").hidden = true;
        $("joker").hidden = true;
        if (mode) { mode = null; renderPad(game); }
      }
      return;
    }
    if (view.table.seat !== undefined && view.table.seat !== mine.seat) checkSeat();
    $("seat-line").hidden = false;
    $("seat-name").replaceChildren(swatch(mine.seat), " ",
      el("strong", { text: t("{player}'s phone", { player: playerName(mine.seat) }) }));
    const myTurn = !game.over && next.actor === mine.seat;
    const hand = typeof view.table.hand === "number" ? view.table.hand : null;
    $("mine").hidden = !myTurn && hand === null;
    $("your-turn").hidden = !myTurn;
    $("hand").hidden = hand === null;
    $("hand-label").textContent = pieceSaying(game, "yours");
    $("hand-number").textContent = hand === null ? "" : String(hand);
    document.body.dataset.myTurn = myTurn ? "true" : "false";
    // A dealt card that fits nowhere is set aside with one tap.
    const aside = myTurn && hand !== null && view.table.hand_do === "set_aside";
    $("set-aside-dealt").hidden = !aside || failing;
    $("set-aside-dealt").textContent = aside ? t("Set the {number} aside", { number: hand }) : "";
    if (aside) $("discard").hidden = true;
    // Another player's turn: none of the mover's controls (the table would refuse them).
    if (!myTurn) {
      if (mode) { mode = null; renderPad(game); renderNow(game); }
      for (const id of ["pad", "prompt-extra", "hint", "hint-box", "hint-why", "discard", "joker",
                        "end-turn"]) $(id).hidden = true;
      $("now-rule-row").querySelectorAll("button").forEach((b) => b.remove());
    }
    // A seat plays; starting games, taking back, the hints switch and the simulated board are
    // the shared panel's.
    $("rematch").hidden = true;
    $("undo").hidden = true;
    $("redo").hidden = true;
    $("hints-switch").hidden = true;
    $("hint-off").hidden = true;
    $("another").hidden = true;
    const tools = $("sim-tools");
    if (tools) tools.hidden = true;
  }

  function renderPhones(game) {
    const box = $("phones-box");
    const phones = new Set(view.table.phones || []);
    const rows = [];
    for (let i = 0; !mine && !game.over && i < game.players; i++) {
      if ((view.table.computers || {})[String(i)] || Tables.remote(i)) continue;
      const has = phones.has(i);
      rows.push(el("li", { "data-seat": String(i), "data-phone": has ? "true" : "false" },
        el("span", { class: "phone-who" }, swatch(i), " ", el("strong", { text: playerName(i) }),
           has ? el("span", { class: "muted small", text: " \u00b7 " + t("plays on a phone") }) : null),
        has ? el("span", { class: "phone-acts" },
          el("button", { type: "button", class: "secondary", "data-action": "hand-over",
                         text: t("Hand to another phone"), onclick: () => joinSeat(i) }),
          el("button", { type: "button", class: "secondary", "data-action": "take-back",
                         text: t("Take back"), onclick: () => takeBack(i) }))
          : el("button", { type: "button", class: "primary", "data-action": "join",
                           text: t("Join on a phone"), onclick: () => joinSeat(i) })));
    }
    box.hidden = !rows.length;
    // Near the top, beside the game's name: the way to the list, with how many play on phones.
    const jump = $("phones-jump");
    jump.hidden = !rows.length;
    const joined = rows.filter((row) => row.dataset.phone === "true").length;
    $("phones-count").textContent = t("{n} of {total}", { n: joined, total: rows.length });
    $("phones").replaceChildren(...rows);
    const dialog = $("join-dialog");
    // (A seat handed on keeps its phone until the new one joins: the view cannot tell the
    // two apart, so that dialog stays until "Done".)
    if (joining !== null && dialog.open && phones.has(joining) && $("join-done").hidden &&
        dialog.dataset.handing !== "true") {
      $("join-body").hidden = true;
      $("join-done").hidden = false;
      $("join-done").textContent = t("{player}'s phone has joined.", { player: playerName(joining) });
      setTimeout(() => { if (dialog.open) dialog.close(); }, 2500);
    }
  }

  // A code for seat i: the picture to scan (the link) and the short code to type.
  async function joinSeat(i) {
    let answer;
    try {
      answer = await post(`/api/seats/${i}/join`, {});
    } catch (e) {
      return; // the toast says why (or the PIN was not given)
    }
    joining = i;
    const dialog = $("join-dialog");
    // A seat that has a phone is handed on: the phone that joins with this code takes it.
    const handing = (view.table.phones || []).includes(i);
    $("join-title").textContent = handing
      ? t("{player}: hand to another phone", { player: playerName(i) })
      : t("{player}: join on a phone", { player: playerName(i) });
    // A panel that listens on this computer only cannot be reached by any phone: said here.
    $("join-unreachable").hidden = answer.reachable !== false;
    dialog.dataset.handing = handing ? "true" : "false";
    $("join-handing").hidden = !handing;
    $("join-handing").textContent = handing
      ? t("{player}'s phone plays on until the new phone joins with this code; then it stops.", { player: playerName(i) })
      : "";
    $("join-qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(answer.qr)}`;
    $("join-qr").alt = t("A picture of the joining link, to scan with the phone's camera");
    $("join-code").textContent = answer.code;
    let address = answer.link;
    try { address = `${new URL(answer.link).host}/join`; } catch (e) { /* the link as it is */ }
    const minutes = Math.max(1, Math.round((answer.expires_in || 600) / 60));
    $("join-typed").textContent = t("No camera? Open {address} on the phone and type the code. It works once, for {minutes} minutes.",
                                    { address, minutes });
    $("join-body").hidden = false;
    $("join-done").hidden = true;
    clearTimeout(joinSeat.timer);
    joinSeat.timer = setTimeout(() => {
      if (!dialog.open || joining !== i || !$("join-done").hidden) return;
      $("join-body").hidden = true;
      $("join-done").hidden = false;
      $("join-done").textContent = t("This code has run out: close this and tap \"Join on a phone\" again.");
    }, (answer.expires_in || 600) * 1000);
    if (!dialog.open) dialog.showModal();
    renderPhones(view.game); // the phone may have joined already
  }

  async function takeBack(i) {
    const player = playerName(i);
    if (!await Panel.ask(t("{player} plays on this panel again; {player}'s phone stops playing. (The seat can join on a phone again later.)",
                           { player }),
                         t("Play {player} on this panel", { player }),
                         t("Keep {player} on the phone", { player }))) return;
    // The answer names the seat freed, not the view: the view is read again to show it.
    return send(`/api/seats/${i}/leave`, {}).then(() => get("/api/state").then(render, () => {}));
  }

  async function showCard() {
    const actor = (view.table.next || {}).actor;
    let answer;
    try {
      answer = await get(`/api/seats/${actor}/hand`);
    } catch (e) {
      return;
    }
    const dialog = $("card-dialog");
    dialog.dataset.seat = String(actor);
    $("card-title").textContent = pieceSaying(view.game, "whose", { player: playerName(actor) });
    $("card-number").textContent = String(answer.hand);
    const todo = { set_aside: t("It fits nowhere: set it aside."),
                   joker: t("It fits nowhere: lay it face down on an empty square as a joker.") };
    $("card-do").hidden = !todo[answer.do];
    $("card-do").textContent = todo[answer.do] || "";
    // It stays until tapped (or the turn moves on): a card that hid itself after a while
    // let the tap meant to cover it land on the board.
    if (!dialog.open) dialog.showModal();
  }

  function hideCard() {
    const dialog = $("card-dialog");
    $("card-number").textContent = "";
    if (dialog.open) dialog.close();
  }

  // A 403 on a seat's phone: its turn has not come, or the seat is no longer this phone's.
  // Only the second closes the page's seat (a view this phone may read says which).
  async function checkSeat() {
    if (!mine || checkSeat.lost) return;
    try {
      await Panel.request("GET", "/api/state", undefined, { quiet: true });
    } catch (e) {
      if (e.status !== 403) return;
      checkSeat.lost = true;
      if (stopViews) stopViews();
      Panel.keepSeat(null);
      // One message, the page's own (the table's answer says the same in its words). The
      // header no longer names the seat: it may be another player's in a new game.
      $("lost-text").textContent =
        t("The seat was handed to another phone, taken back on the shared panel, or a new game began. To play on, join again with a new code from the shared panel, or use this phone as the shared panel.");
      $("seat-line").hidden = true;
      $("seat-name").replaceChildren();
      $("mine").hidden = true;
      document.body.dataset.seatLost = "true";
      $("lost-dialog").showModal();
    }
  }

  function bindSeats() {
    $("show-card").addEventListener("click", showCard);
    $("set-aside-dealt").addEventListener("click", () => {
      if (typeof view.table.hand === "number") sendInput({ type: "discard", number: view.table.hand });
    });
    $("card-dialog").addEventListener("click", hideCard);
    $("not-my-card").addEventListener("click", () => sendInput({ type: "not_my_card" }));
    $("join-dialog").addEventListener("close", () => { joining = null; clearTimeout(joinSeat.timer); });
    $("leave-seat").addEventListener("click", () => Panel.leaveSeat("/play"));
    $("lost-shared").addEventListener("click", () => window.location.replace("/play"));
  }

  async function rematch() {
    const game = view && view.game;
    if (!game) return;
    // The same seats at the same other tables, with their names: those tables follow into
    // the new game by themselves (the old game's last entry hands each its new code).
    const remote = (view.table.seats || []).filter((s) => s.kind === "remote").map((s) => s.seat);
    const body = { variant: game.variant, players: game.players, options: game.options || {},
                   names: view.table.names || [],
                   colors: view.table.colors || [],
                   hints: !!view.table.hints, computers: view.table.computers || {} };
    if (view.table.computer_draws) body.computer_draws = true;
    if (remote.length) { body.remote = remote; body.same_tables = true; }
    if (view.table.deal) body.deal = true;
    await send("/api/game", body);
  }

  async function undo() {
    const game = view && view.game;
    if (game && game.over) {
      if (!await Panel.ask(t("The game is over. Take back its last move and play on? (It stays in the finished games.)"),
                           t("Take back and play on"), t("Keep the game finished"))) return;
      return sendInput({ type: "undo", confirm: true });
    }
    return sendInput({ type: "undo" });
  }

  async function main() {
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", () => sendInput({ type: "redo" }));
    $("hints").addEventListener("change", () => sendInput({ type: "hints", on: $("hints").checked }));
    $("end-turn").addEventListener("click", () => sendInput({ type: "end_turn" }));
    $("hint").addEventListener("click", () => send("/api/hint", {}));
    $("rematch").addEventListener("click", rematch);
    $("phones-jump").addEventListener("click", () => {
      $("phones-box").scrollIntoView({ behavior: "smooth", block: "center" }); // below the sticky bar
      const first = $("phones").querySelector("button");
      if (first) first.focus({ preventScroll: true });
    });
    $("discard").addEventListener("click", () => {
      mode = mode === "discard" ? null : "discard";
      render(view);
    });
    $("joker").addEventListener("click", () => {
      mode = mode === "joker" ? null : "joker";
      render(view);
    });
    // Sounds on this phone: a switch that shows whether they are on.
    const soundSwitch = $("sound");
    const showSound = () => { soundSwitch.checked = Sound.on(); };
    soundSwitch.addEventListener("change", () => {
      if (soundSwitch.checked !== Sound.on()) Sound.toggle();
      showSound();
    });
    showSound();
    Speech.bind($("speech"), $("repeat"));
    if (simulated) $("sim-clear").addEventListener("click", () => send("/api/sim/clear", {}));
    bindSeats();
    Tables.bind();
    // The answer of "Host the game here" is the view: drawn as any answer.
    document.addEventListener("panel:answer", (event) => { queue = queue.then(() => render(event.detail)); });
    setInterval(tick, 1000);
    const side = document.querySelector(".play-side");
    side.addEventListener("scroll", markMore, { passive: true });
    // What gets focus or is scrolled to stops below the sticky "what now" bar, not under it.
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--now-height", `${$("now").offsetHeight}px`);
    }).observe($("now"));
    window.addEventListener("resize", markMore);
    await Panel.ready;
    showSound();
    try {
      const [legendAnswer, variantList] = await Promise.all([get("/api/legend"), get("/api/variants")]);
      legend = legendAnswer;
      Board.setPalette(legend);
      for (const v of variantList) variants[v.id] = v;
    } catch (e) {
      // Drawn with default colours; the toast says what failed.
    }
    stopViews = liveViews((v) => render(v), (online) => { if (!online && mine) checkSeat(); });
  }

  main();
})();
