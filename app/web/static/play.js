// The play page: the board with pieces and signals, whose turn, scores, the number pad and the
// other inputs. Every view comes from the live stream (or the answer to a tap) and is drawn in
// full, so the page always shows exactly what the table knows.
"use strict";

(() => {
  const { get, post, liveViews, el, toast } = Panel;
  const simulated = document.body.dataset.simulated === "true";
  const $ = (id) => document.getElementById(id);

  let legend = { signals: {}, players: [] };
  let variants = {};
  const geometries = {};
  let board = null;
  let boardVariant = null;
  let view = null;
  let mode = null; // "discard" or "joker": the next pad tap means that
  let busy = false;

  // What the running game says about itself (GET /api/variants: traits).
  const traitsOf = (id) => (variants[id] && variants[id].traits) || {};

  function playerName(i) {
    const names = (view && view.player_names) || [];
    return names[i] || `Player ${i + 1}`;
  }

  function playerColor(i) {
    const look = view && view.game && (traitsOf(view.game.variant).piece_looks || [])[i];
    if (look) return look.fill;
    return legend.players[i] || "#999";
  }

  async function send(path, body) {
    if (busy) return;
    busy = true;
    try {
      const answer = await post(path, body);
      if (answer && "table" in answer) render(answer);
    } catch (e) {
      // The toast already shows the table's message.
    } finally {
      busy = false;
    }
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
    if (!view) return;
    const occupied = new Set((view.table && view.table.occupied) || []);
    send("/api/sim/square", { square, occupied: !occupied.has(square) });
  }

  function renderTurn(game) {
    const turn = $("turn");
    turn.replaceChildren();
    if (game.over) {
      const winners = game.winners || [];
      let text = "Game over: a draw";
      if (winners.length === 1) text = `Game over: ${playerName(winners[0])} wins`;
      else if (winners.length > 1) text = `Game over: ${winners.map(playerName).join(" and ")} share the win`;
      turn.append(text);
      turn.dataset.toMove = "";
      return;
    }
    const who = game.to_move;
    turn.dataset.toMove = String(who);
    turn.append(el("span", { class: "swatch", "aria-hidden": "true" }));
    turn.firstChild.style.background = playerColor(who);
    turn.append(`${playerName(who)} to move`);
    if (game.phase === "blanks") turn.append(" (blanks)");
  }

  function renderScores(game) {
    const body = $("scores").tBodies[0];
    body.replaceChildren();
    const scores = game.scores || [];
    for (let i = 0; i < game.players; i++) {
      const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.background = playerColor(i);
      const row = el("tr", { "data-player": String(i) },
        el("td", {}, swatch, " ", playerName(i)),
        el("td", { class: "points", text: String(scores[i] ?? 0) }));
      if (!game.over && game.to_move === i) row.classList.add("to-move");
      if (game.over && (game.winners || []).includes(i)) row.classList.add("winner");
      body.append(row);
    }
    const extras = [];
    if ("blanks_left" in game) extras.push(`Blanks left: ${game.blanks_left}`);
    if ("borne_off" in game) extras.push(`Borne off: ${game.borne_off.join(" : ")}`);
    if ("discarded" in game) {
      const limit = traitsOf(game.variant).set_aside_limit;
      extras.push(`Cards set aside: ${game.discarded}${limit ? ` of ${limit}` : ""}`);
    }
    if ("markers" in game) {
      const count = new Array(game.players).fill(0);
      for (const owner of Object.values(game.markers)) if (owner !== null) count[owner]++;
      extras.push(`Markers: ${count.map((n, i) => `${playerName(i)} ${n}`).join(", ")}`);
    }
    $("extras").textContent = extras.join(" \u00b7 ");
  }

  function ownerName(owner) {
    return owner === null || owner === undefined ? "gold" : playerName(owner);
  }

  // What the table waits for, in words (prompt kinds of the table's view).
  function promptText(prompt, game) {
    if (mode === "discard") {
      return (view.table.discard_choices || []).length
        ? "Tap the number of the card you set aside (only numbers that fit nowhere)."
        : "Every number still fits somewhere: no card may be set aside now.";
    }
    if (mode === "joker") {
      return (view.table.joker_choices || []).length
        ? `Tap the number of the stone laid face down on ${prompt && prompt.square}.`
        : "Every number still fits somewhere: no joker now.";
    }
    if (game.over || !prompt) return "";
    switch (prompt.kind) {
      case "setup": {
        const piece = prompt.piece || {};
        const what = piece.blank ? "blank" : piece.number;
        const whose = piece.owner === null || piece.owner === undefined
          ? `the gold ${what}` : `${ownerName(piece.owner)}'s ${what}`;
        return `Set up: put ${whose} on ${prompt.square} (${prompt.left} to go).`;
      }
      case "number":
        if (!(prompt.choices || []).length) {
          // No number may go there: say what the player can do instead.
          if ("discarded" in game) return `No number fits on ${prompt.square}: lift the card, or set it aside if it fits nowhere.`;
          if (traitsOf(game.variant).has_jokers) return `No number fits on ${prompt.square}: lift the ${traitsOf(game.variant).piece_word}, or tap Joker if it fits nowhere.`;
          return `No number fits on ${prompt.square}: lift the piece.`;
        }
        return `Which number is on the new piece on ${prompt.square}? Greyed numbers may not go there.`;
      case "joker":
        return prompt.square
          ? `The ${prompt.number} fits nowhere: lay it face down on ${prompt.square} as a joker.`
          : `The ${prompt.number} fits nowhere: lay it face down on any empty cell as a joker.`;
      case "discard":
        return `The ${prompt.number} fits nowhere: set it aside.`;
      case "bear_off":
        return `Bear the piece from ${prompt.square} off the board?`;
      case "blank":
        return `Blank on ${prompt.square}: which colour faces up?`;
      case "place":
        return `Put your ${prompt.number} down.`;
      case "end_turn":
        return "Put blanks on dead fields (blue), or end your turn.";
      default:
        return prompt.text || "";
    }
  }

  function renderPrompt(game) {
    const prompt = (view.table && view.table.prompt) || null;
    const geometry = geometries[game.variant];
    const [low, high] = (geometry && geometry.numbers) || [1, 9];
    const moveGame = "borne_off" in game;
    const kind = prompt ? prompt.kind : null;
    const pad = $("pad");
    pad.replaceChildren();
    $("prompt-text").textContent = promptText(prompt, game);
    const numberPrompt = kind === "number";
    const choices = new Set(numberPrompt ? (prompt.choices || []) : []);
    // A number may be chosen before the piece goes down, whenever nothing else is asked.
    const preChoice = !game.over && !moveGame && !view.table.setting_up &&
      (kind === null || kind === "place" || kind === "end_turn");
    pad.hidden = moveGame || game.over || !(numberPrompt || mode || preChoice);
    pad.dataset.mode = mode || (numberPrompt ? "answer" : "pre-choice");
    const inHand = view.table.in_hand;
    // Setting a card aside or laying a joker is legal only for a number that fits nowhere.
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
    const prompt = (view.table && view.table.prompt) || null;
    $("undo").disabled = !view.table.can_undo;
    $("hints").checked = !!view.table.hints;
    $("hints-switch").hidden = !!traitsOf(game.variant).moves_pieces; // hints light numbers
    $("end-turn").hidden = game.over || game.phase !== "blanks";
    $("discard").hidden = game.over || !("discarded" in game);
    $("discard").setAttribute("aria-pressed", mode === "discard" ? "true" : "false");
    $("joker").hidden = game.over || !traitsOf(game.variant).has_jokers ||
      !(prompt && prompt.kind === "number" && prompt.square);
    $("joker").setAttribute("aria-pressed", mode === "joker" ? "true" : "false");
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
    if (legendFor === variantId) return;
    legendFor = variantId;
    const shown = traitsOf(variantId).signals;
    const list = $("legend");
    list.replaceChildren();
    for (const [word, meaning] of Object.entries(Board.MEANINGS)) {
      if (shown && !shown.includes(word)) continue;
      const look = legend.signals[word] || { color: "#fff", pattern: "steady" };
      const light = el("span", { class: `light pattern-${look.pattern}`, text: Board.SYMBOLS[word],
                                  "aria-hidden": "true" });
      light.style.background = look.color;
      list.append(el("li", { "data-signal": word }, light, el("span", { text: `${word}: ${meaning}` })));
    }
  }

  async function render(next) {
    view = next;
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
    const message = view.table && view.table.message;
    $("message").hidden = !message;
    $("message").textContent = message || "";
    const prompt = view.table.prompt;
    if (mode === "joker" && !(prompt && prompt.kind === "number" && prompt.square)) mode = null;
    const illegal = Object.values(view.table.signals || {}).includes("illegal");
    $("message").classList.toggle("info", !illegal);
    renderTurn(game);
    renderScores(game);
    renderPrompt(game);
    renderActions(game);
    renderFaults();
    document.body.dataset.version = String(view.version ?? "");
    document.body.dataset.rendered = "true";
  }

  async function main() {
    $("undo").addEventListener("click", () => sendInput({ type: "undo" }));
    $("hints").addEventListener("change", () => sendInput({ type: "hints", on: $("hints").checked }));
    $("end-turn").addEventListener("click", () => sendInput({ type: "end_turn" }));
    $("discard").addEventListener("click", () => {
      mode = mode === "discard" ? null : "discard";
      render(view);
    });
    $("joker").addEventListener("click", () => {
      mode = mode === "joker" ? null : "joker";
      render(view);
    });
    try {
      const [legendAnswer, variantList] = await Promise.all([get("/api/legend"), get("/api/variants")]);
      legend = legendAnswer;
      for (const v of variantList) variants[v.id] = v;
    } catch (e) {
      // Drawn with default colours; the toast says what failed.
    }
    renderLegend();
    liveViews((v) => render(v));
  }

  main();
})();
