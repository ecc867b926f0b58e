// The play page: the board with pieces and signals, and beside or below it the what-now bar:
// who acts, the next act at the table in words, and the controls for it. Every view comes from
// the live stream (or the answer to a tap) and is drawn in full, so the page always shows
// exactly what the table knows.
"use strict";

(() => {
  const { get, post, liveViews, el } = Panel;
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

  const END_WORDS = {
    board_full: "the board is full",
    no_moves: "nobody can move any more",
    no_one_can_place: "nobody can place a number any more",
    four_in_a_row: "four pieces of one player stand in a row or a block",
    all_borne_off: "all six pieces of one player are borne off",
    cards_set_aside: "three cards were set aside",
    cards_used_up: "every card has been played",
    twelve_markers: "twelve markers were won",
    stones_used_up: "every stone has been laid",
  };

  // What the running game says about itself (GET /api/variants: traits).
  const traitsOf = (id) => (variants[id] && variants[id].traits) || {};

  function playerName(i) {
    const names = (view && view.player_names) || [];
    return names[i] || `Player ${i + 1}`;
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
        // The toast already shows the table's message.
      }
    });
    queue = job;
    return job;
  }

  function sendInput(input) { return send("/api/input", input); }

  async function ensureBoard(variantId) {
    if (boardVariant === variantId && board) return board;
    if (!geometries[variantId]) geometries[variantId] = await get(`/api/variants/${variantId}`);
    board = Board.build($("board"), geometries[variantId], {
      legend,
      pieceLooks: traitsOf(variantId).piece_looks,
      jokers: traitsOf(variantId).has_jokers,
      clickable: simulated,
      onSquare: simulated ? onSquare : null,
    });
    boardVariant = variantId;
    return board;
  }

  function onSquare(square) {
    // Decided when the tap's turn comes, from the newest view: a second quick tap on the
    // same square lifts what the first put down.
    send("/api/sim/square", () => {
      const occupied = new Set((view && view.table && view.table.occupied) || []);
      return { square, occupied: !occupied.has(square) };
    });
  }

  function pieceWords(piece) {
    const what = piece.blank ? "blank" : piece.number;
    return piece.owner === null || piece.owner === undefined
      ? `the gold ${what}` : `${playerName(piece.owner)}'s ${what}`;
  }

  function list(items) {
    if (items.length <= 1) return items.join("");
    return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
  }

  // The next act at the table, in a sentence (the table's next step, with the names).
  function nowSentence(next, game) {
    const p = next.params || {};
    const word = traitsOf(game.variant).piece_word || "piece";
    switch (next.code) {
      case "clear_board": {
        const n = (p.squares || []).length;
        return `Take away the ${n === 1 ? "piece" : `${n} pieces`} left from the last game (they blink).`;
      }
      case "set_up": return `Set up: put ${pieceWords(p.piece || {})} on ${p.square} (${p.left} to go).`;
      case "game_over": return `Game over: ${END_WORDS[p.reason] || "no more moves"}.`;
      case "turn_over": return `Turn ${list(p.squares || [])} over${simulated ? " (tap it twice)" : ""}.`;
      case "say_number": return `Tap the number of the new ${word} on ${p.square}.`;
      case "take_away": return `No number may go on ${p.square}: take the ${word} away.`;
      case "lay_joker": return `The ${p.number} fits nowhere: lay it face down as a joker.`;
      case "set_aside": return `The ${p.number} fits nowhere: set it aside.`;
      case "lift_again": return `That is no move: lift the piece from ${p.square} again.`;
      case "bear_off": return `Bear the piece off from ${p.square}, or set it down.`;
      case "set_down": return `Set the piece from ${p.square} down on a lit square.`;
      case "jump_on": return `Jump on from ${p.square}, or leave it: the move counts in a moment.`;
      case "put_right": return "Put the board right: follow the blinking squares.";
      case "blank_colour": return `Which colour shows on the blank on ${p.square}?`;
      case "place_number": return `Put your ${p.number} on the board.`;
      case "blanks_or_end": return "Lay blanks on the blue dead fields, or end your turn.";
      case "move": return "Lift one of your pieces and set it down on a lit square.";
      case "place": return `Put a ${word} on the board, then tap its number.`;
      default: return (view.table && view.table.next_text) || "";
    }
  }

  function renderNow(game) {
    const next = view.table.next || { code: "", params: {}, actor: null };
    const who = $("now-who");
    who.replaceChildren();
    const actor = next.actor;
    if (game.over) {
      who.append(winnerWords(game));
    } else if (actor !== null && actor !== undefined) {
      who.append(swatch(actor), el("strong", { text: playerName(actor) }));
      who.dataset.actor = String(actor);
    } else {
      who.append(el("strong", { text: "Everyone" }));
      who.dataset.actor = "";
    }
    let text = nowSentence(next, game);
    if (mode === "discard") {
      text = (view.table.discard_choices || []).length
        ? "Tap the number of the card you set aside (only numbers that fit nowhere)."
        : "Every number still fits somewhere: no card may be set aside now.";
    } else if (mode === "joker") {
      text = (view.table.joker_choices || []).length
        ? "Tap the number of the stone laid face down as a joker."
        : "Every number still fits somewhere: no joker now.";
    }
    $("now-text").textContent = text;
    $("now").dataset.next = next.code || "";
  }

  function winnerWords(game) {
    const winners = game.winners || [];
    if (winners.length === 1) return `${playerName(winners[0])} wins!`;
    if (winners.length > 1) return `${list(winners.map(playerName))} share the win!`;
    return "A draw!";
  }

  // "Anna +2: rank 4, block b4" for an action that scored; otherwise the table's message.
  function messageText() {
    const code = view.table.message_code;
    if (code && code.code === "action") {
      const p = code.params || {};
      const scored = (p.points || []).map((n, i) => [i, n]).filter(([, n]) => n);
      const done = (p.completed || []).join(", ");
      const did = `${playerName(p.player)}: ${p.action ? describe(p.action) : view.table.message}`;
      if (scored.length) {
        return `${did} \u2014 ` +
          scored.map(([i, n]) => `${playerName(i)} ${n > 0 ? "+" : ""}${n}`).join(", ") +
          (done ? ` (${done})` : "");
      }
      return did;
    }
    return view.table.message;
  }

  function renderScores(game) {
    const body = $("scores").tBodies[0];
    body.replaceChildren();
    const scores = game.scores || [];
    for (let i = 0; i < game.players; i++) {
      const row = el("tr", { "data-player": String(i) },
        el("td", {}, swatch(i), " ", playerName(i)),
        el("td", { class: "points", text: String(scores[i] ?? 0) }));
      // The one to act now: the mover turns over their flips before the next player goes on.
      if (!game.over && (view.table.next || {}).actor === i) row.classList.add("to-move");
      if (game.over && (game.winners || []).includes(i)) row.classList.add("winner");
      body.append(row);
    }
    const traits = traitsOf(game.variant);
    const extras = [];
    if ("blanks_left" in game) extras.push(`Blanks left: ${game.blanks_left}`);
    if ("borne_off" in game) {
      extras.push(`Borne off: ${game.borne_off.map((n, i) => `${playerName(i)} ${n}`).join(", ")}`);
    }
    if ("discarded" in game && traits.has_set_asides) {
      const limit = traits.set_aside_limit;
      extras.push(`Cards set aside: ${game.discarded}${limit ? ` of ${limit}` : ""}`);
    }
    if ("stones_left" in game) extras.push(`Stones left: ${game.stones_left}`);
    if ("markers" in game) {
      const count = new Array(game.players).fill(0);
      for (const owner of Object.values(game.markers)) if (owner !== null) count[owner]++;
      extras.push(`Markers: ${count.map((n, i) => `${playerName(i)} ${n}`).join(", ")}`);
    }
    $("extras").textContent = extras.join(" \u00b7 ");
  }

  function describe(action) {
    switch (action.type) {
      case "place": return `${action.number} on ${action.cell}`;
      case "blank": return `blank on ${action.cell}`;
      case "joker": return `joker on ${action.cell}`;
      case "discard": return `${action.number} set aside`;
      case "end_turn": return "end of turn";
      case "move": return action.path[action.path.length - 1] === "off"
        ? `${action.path[0]} borne off` : action.path.join(" \u2192 ");
      default: return action.type;
    }
  }

  const PARTS = {
    pieces: "Pieces", blocks: "Blocks", lines: "Rows and columns", sections: "Sections",
    bonuses: "Bonuses", borne_off: "Borne off", ranks: "Rows", files: "Columns",
    block_markers: "Blocks",
  };

  // The final scores as the rule book counts them: one column per part, then the total.
  function renderBreakdown(game) {
    const table = $("breakdown");
    table.replaceChildren();
    const parts = game.breakdown || [];
    const keys = parts.length ? Object.keys(parts[0]) : [];
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Player" }),
      ...keys.map((k) => el("th", { scope: "col", class: "points", text: PARTS[k] || k })),
      el("th", { scope: "col", class: "points", text: "Total" }))));
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
    $("rematch").hidden = !game.over;
    $("another").hidden = !game.over;
    if (!game.over) return;
    $("end-title").textContent = "Final scores";
    $("end-why").textContent = `${winnerWords(game)} The game ended because ` +
      `${END_WORDS[game.end_reason] || "nobody could go on"}.`;
    renderBreakdown(game);
    const moves = view.table.moves || [];
    $("moves").replaceChildren(...moves.map((m) => {
      const scored = (m.points || []).map((n, i) => [i, n]).filter(([, n]) => n)
        .map(([i, n]) => `${playerName(i)} ${n > 0 ? "+" : ""}${n}`).join(", ");
      const done = (m.completed || []).join(", ");
      return el("li", {}, m.player === null || m.player === undefined ? "" : swatch(m.player), " ",
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
    const numberPrompt = kind === "number";
    const choices = new Set(numberPrompt ? (prompt.choices || []) : []);
    const busyBoard = view.table.clearing || view.table.setting_up ||
      ["turn_over", "put_right", "take_away"].includes((view.table.next || {}).code);
    // A number may be chosen before the piece goes down, whenever nothing else is asked.
    const preChoice = !game.over && !moveGame && !busyBoard &&
      (kind === null || kind === "place" || kind === "end_turn");
    pad.hidden = moveGame || game.over || !(numberPrompt || mode || preChoice);
    pad.dataset.mode = mode || (numberPrompt ? "answer" : "pre-choice");
    pad.style.setProperty("--numbers", String(high - low + 1));
    const inHand = view.table.in_hand;
    const modeChoices = new Set(mode === "discard" ? (view.table.discard_choices || [])
      : mode === "joker" ? (view.table.joker_choices || []) : []);
    for (let n = low; n <= high; n++) {
      const enabled = mode ? modeChoices.has(n) : numberPrompt ? choices.has(n) : preChoice;
      pad.append(el("button", {
        type: "button", "data-number": String(n), text: String(n), disabled: !enabled,
        class: enabled && (numberPrompt || mode) ? "enabled-choice" : null,
        "aria-label": `number ${n}`, "aria-pressed": !numberPrompt && inHand === n ? "true" : "false",
        onclick: () => onNumber(n, prompt),
      }));
    }
    const extra = $("prompt-extra");
    extra.replaceChildren();
    const button = (label, data, onclick) => extra.append(el("button", {
      type: "button", class: "primary", text: label, ...data, onclick,
    }));
    if (!game.over && prompt) {
      if (kind === "blank") {
        for (const owner of prompt.choices || []) {
          button(`Blank: ${playerName(owner)}`, {
            "data-blank-owner": String(owner),
            "aria-pressed": owner === prompt.owner ? "true" : "false",
          }, () => sendInput({ type: "blank", square: prompt.square, owner }));
        }
      } else if (kind === "joker" && prompt.square) {
        button(`Joker on ${prompt.square}`, { "data-action": "joker" },
               () => sendInput({ type: "joker", square: prompt.square, number: prompt.number }));
      } else if (kind === "discard") {
        button(`Set the ${prompt.number} aside`, { "data-action": "discard" },
               () => sendInput({ type: "discard", number: prompt.number }));
      } else if (kind === "bear_off") {
        button("Bear off", { "data-action": "bear_off" }, () => sendInput({ type: "bear_off" }));
      }
    }
    if (mode) {
      extra.append(el("button", { type: "button", class: "secondary", text: "Cancel",
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
    if (prompt && prompt.kind === "number" && prompt.square) {
      return sendInput({ type: "number", square: prompt.square, number: n });
    }
    return sendInput({ type: "number", number: n });
  }

  function renderActions(game) {
    const prompt = view.table.prompt || null;
    const traits = traitsOf(game.variant);
    $("undo").disabled = !view.table.can_undo;
    $("hints").checked = !!view.table.hints;
    $("hints-switch").hidden = !!traits.moves_pieces; // hints light where a number fits
    $("end-turn").hidden = game.over || game.phase !== "blanks";
    $("discard").hidden = game.over || !traits.has_set_asides || view.table.clearing;
    $("discard").setAttribute("aria-pressed", mode === "discard" ? "true" : "false");
    $("joker").hidden = game.over || !traits.has_jokers ||
      !(prompt && prompt.kind === "number" && prompt.square);
    $("joker").setAttribute("aria-pressed", mode === "joker" ? "true" : "false");
  }

  function renderSim() {
    if (!simulated || !board) return;
    const cells = new Set(board.geometry.cells);
    const off = ((view.table && view.table.occupied) || []).filter((s) => !cells.has(s));
    const box = $("off-board");
    box.hidden = !off.length;
    box.replaceChildren(...(off.length ? [el("span", { class: "muted small", text: "Off this board:" })] : []),
      ...off.map((s) => el("button", { type: "button", class: "secondary", "data-off-board": s,
                                        text: `Lift ${s}`, onclick: () => send("/api/sim/square",
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
    if (!variantId || legendFor === variantId) return;
    legendFor = variantId;
    const traits = traitsOf(variantId);
    const shown = traits.signals;
    const listNode = $("legend");
    listNode.replaceChildren();
    for (const [word, meaning] of Object.entries(Board.MEANINGS)) {
      if (shown && !shown.includes(word)) continue;
      const look = legend.signals[word] || { color: "#fff", pattern: "steady" };
      const light = el("span", { class: `light pattern-${look.pattern}`, text: Board.SYMBOLS[word],
                                  "aria-hidden": "true" });
      light.style.background = look.color;
      light.style.color = Board.textColor(look.color);
      const said = word === "dead" && !traits.has_blanks ? "dead field: no number fits here any more" : meaning;
      listNode.append(el("li", { "data-signal": word }, light, el("span", { text: said })));
    }
  }

  let heard = null;
  function sounds(previous, next) {
    if (!previous || !next.game || previous.version === next.version) return;
    const was = Object.values(previous.table.signals || {}).includes("illegal");
    const is = Object.values(next.table.signals || {}).includes("illegal");
    if (is && !was) Sound.play("illegal");
    const code = next.table.message_code;
    if (code && code.code === "action" && (code.params.points || []).some((n) => n > 0) &&
        JSON.stringify(code) !== JSON.stringify(previous.table.message_code)) Sound.play("points");
    const before = (previous.table.next || {}).actor, after = (next.table.next || {}).actor;
    if (after !== before && after !== null && after !== undefined) Sound.play("turn");
  }

  async function render(next) {
    if (view && next.version !== undefined && view.version !== undefined &&
        next.version < view.version) return; // an older answer after a newer live view
    const previous = heard;
    view = next;
    heard = next;
    const game = view.game;
    $("no-game").hidden = !!game;
    $("game").hidden = !game;
    if (!game) return;
    const b = await ensureBoard(game.variant);
    if (view !== next) return; // a newer view arrived while the board was loading
    Board.update(b, view);
    renderLegend(game.variant);
    const meta = variants[game.variant];
    $("game-name").textContent = meta ? meta.name : game.variant;
    $("rules-link").href = `/rules/${encodeURIComponent(game.variant)}`;
    $("end-record").setAttribute("download", `${game.variant}.json`);
    const message = messageText();
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
    renderEnd(game);
    renderSim();
    renderFaults();
    sounds(previous, next);
    document.body.dataset.version = String(view.version ?? "");
    document.body.dataset.rendered = "true";
  }

  async function rematch() {
    const game = view && view.game;
    if (!game) return;
    const body = { variant: game.variant, players: game.players, options: game.options || {},
                   names: view.player_names || [], hints: !!view.table.hints };
    await send("/api/game", body);
  }

  function undo() {
    const game = view && view.game;
    if (game && game.over) {
      if (!window.confirm("The game is over. Take back its last move and play on? " +
                          "(It stays in the finished games.)")) return;
      return sendInput({ type: "undo", confirm: true });
    }
    return sendInput({ type: "undo" });
  }

  async function main() {
    $("undo").addEventListener("click", undo);
    $("hints").addEventListener("change", () => sendInput({ type: "hints", on: $("hints").checked }));
    $("end-turn").addEventListener("click", () => sendInput({ type: "end_turn" }));
    $("rematch").addEventListener("click", rematch);
    $("discard").addEventListener("click", () => {
      mode = mode === "discard" ? null : "discard";
      render(view);
    });
    $("joker").addEventListener("click", () => {
      mode = mode === "joker" ? null : "joker";
      render(view);
    });
    const soundButton = $("sound");
    const showSound = () => {
      soundButton.setAttribute("aria-pressed", Sound.on() ? "true" : "false");
      soundButton.textContent = Sound.on() ? "Sound on" : "Sound off";
    };
    soundButton.addEventListener("click", () => { Sound.toggle(); showSound(); });
    showSound();
    if (simulated) $("sim-clear").addEventListener("click", () => send("/api/sim/clear", {}));
    try {
      const [legendAnswer, variantList] = await Promise.all([get("/api/legend"), get("/api/variants")]);
      legend = legendAnswer;
      Board.setPalette(legend);
      for (const v of variantList) variants[v.id] = v;
    } catch (e) {
      // Drawn with default colours; the toast says what failed.
    }
    liveViews((v) => render(v));
  }

  main();
})();
