// The start page: pick one of the twelve games, the players with their names and colours, the
// options, the hints, and (where a game has one) the start position; then start it on the table.
// Any seat may be the computer, at one of its levels; in the games where each player has a pile
// of their own, the table may draw the computer's cards. Names, colours, computer seats and that
// choice are remembered on this phone for the next game. In the games that hide each player's
// card or stone, the table may deal them all (each player sees theirs on their own phone).
// Where the table has a broker (config [network]), a seat may be played at another Sudoku
// Table (the play page then shows that seat's code), and a game another table hosts is joined
// here with the code it shows ("Join a game").
"use strict";

(() => {
  const { get, post, el, t } = Panel;
  const $ = (id) => document.getElementById(id);
  const SEATS_KEY = "sudoku-table-seats";
  const DRAWS_KEY = "sudoku-table-computer-draws";
  const DEAL_KEY = "sudoku-table-deal";
  const colorNames = () => ({
    "#99ddff": t("light blue"), "#cc3311": t("red"), "#009e73": t("green"), "#aa4499": t("purple"),
    "#0072b2": t("dark blue"), "#ee7733": t("orange"), "#cc6677": t("rose"), "#ffffff": t("white"),
    "#8c8c8c": t("grey"),
  });
  let variants = [];
  let chosen = null;
  let players = 2;
  let setup = null;
  let palette = { players: [], choices: [] };
  let network = { ready: false }; // the view's table.network: is a broker configured?
  const REMOTE = "remote"; // the player-kind choice of a seat played at another table

  function remembered() {
    try {
      const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
      return Array.isArray(seats) ? seats : [];
    } catch (e) {
      return [];
    }
  }

  function remember(names, colors, kinds) {
    localStorage.setItem(SEATS_KEY, JSON.stringify(names.map((name, i) => ({
      name, color: colors[i] || null, computer: kinds[i] || null }))));
  }

  // Each seat's player-kind choice: "" (a person here), a computer level, or REMOTE.
  const seatKinds = () => [...document.querySelectorAll("#player-names select[data-computer]")]
    .map((s) => s.value);

  // The table draws the computer's cards: offered only with a computer seat in a game whose
  // players have piles of their own; a shared bag (SUDOKU FAMILY) gets a word why not.
  // Where the table deals, it deals the computer's too: nothing else to choose or say.
  function showDraws() {
    const traits = (chosen && chosen.traits) || {};
    const computer = seatKinds().some((kind) => kind && kind !== REMOTE);
    const dealing = !$("deal-box").hidden && $("deal").checked;
    $("draws-box").hidden = !(computer && traits.own_piles) || dealing;
    $("bag-help").hidden = !(computer && traits.hidden_hands && !traits.own_piles) || dealing;
  }

  // The table deals: offered in the games that hide each player's card or stone, with every
  // player at this table.
  function showDeal() {
    const traits = (chosen && chosen.traits) || {};
    $("deal-box").hidden = !traits.hidden_hands || seatKinds().includes(REMOTE);
    $("deal-help").textContent = (traits.piece_words || {}).one === "stone"
      ? t("Lay all the stones open beside the board, sorted by number. On each turn the player's own phone (or this panel) shows the stone to take; once it is down, the table knows its number.")
      : t("Lay all the cards open beside the board, sorted by number. On each turn the player's own phone (or this panel) shows the card to take; once it is down, the table knows its number.");
  }

  const LEVELS = ["easy", "normal", "strong"];
  const computerName = (level) => t("Computer ({level})", { level: Panel.said("levels", level) || level });

  // A game to choose: a small drawing of its board (drawn once its geometry has come) beside
  // its name, players and description.
  function gameButton(v) {
    const range = v.players[0] === v.players[1] ? `${v.players[0]}` : `${v.players[0]}-${v.players[1]}`;
    const picture = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    picture.setAttribute("class", "board thumb");
    picture.setAttribute("data-thumb", v.id);
    picture.setAttribute("role", "img");
    picture.setAttribute("aria-label", t("The board"));
    return el("li", {}, el("button", {
      type: "button", class: "game-choice", "data-variant": v.id, "aria-pressed": "false",
      onclick: () => choose(v),
    }, picture, el("span", { class: "about" }, el("strong", { text: v.name }), " ",
       el("span", { class: "meta", text: `${v.family}, ${t("{players} players", { players: range })}` }),
       el("span", { class: "desc", text: t(v.description) }))));
  }

  // The small drawings, from the same geometry the play page draws the board from: one at a
  // time, each in a task of its own, so that a tap on a game is answered at once meanwhile.
  async function drawBoards(legend) {
    // (A board that cannot be fetched is left undrawn; the toast says why.)
    const geometries = variants.map((v) => get(`/api/variants/${encodeURIComponent(v.id)}`)
      .catch(() => null));
    for (const [index, v] of variants.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const geometry = await geometries[index];
      if (!geometry) continue;
      v.numbers = v.numbers || geometry.numbers;  // the setup form needs them too
      const svg = document.querySelector(`svg[data-thumb="${CSS.escape(v.id)}"]`);
      if (!svg) continue;
      const board = Board.build(svg, geometry, { legend, picture: true,
                                                 pieceLooks: (v.traits || {}).piece_looks });
      // A fixed start position is drawn too (Halma's and Revers' pieces); a random one is not.
      const cells = v.has_setup && !(v.traits || {}).random_setup
        ? await get(`/api/variants/${encodeURIComponent(v.id)}/setup`).catch(() => ({})) : {};
      Board.update(board, { game: { cells }, table: { signals: {} } });
      svg.setAttribute("aria-label", t("The board: {words}", { words: Board.describe(geometry) }));
    }
  }

  // The real pieces of the DOMINARI games are white and black: no colour to choose there.
  const fixedLooks = () => ((chosen.traits || {}).piece_looks || []).length > 0;

  function seatSwatch(i, color) {
    const node = el("span", { class: "swatch", "aria-hidden": "true", "data-mark": Board.markOf(i) });
    const look = ((chosen.traits || {}).piece_looks || [])[i];
    node.style.background = look ? look.fill : color;
    return node;
  }

  function renderPlayers() {
    const box = $("player-count");
    box.replaceChildren();
    for (let n = chosen.players[0]; n <= chosen.players[1]; n++) {
      box.append(el("button", {
        type: "button", role: "radio", "aria-checked": n === players ? "true" : "false",
        "data-players": String(n),
        "aria-label": t("{players} players", { players: n }), text: String(n), onclick: () => { players = n; renderPlayers(); },
      }));
    }
    const names = $("player-names");
    const old = [...names.querySelectorAll(".seat")].map((row) => ({
      name: row.querySelector("input").value,
      color: (row.querySelector("select[data-color]") || {}).value,
      computer: row.querySelector("select[data-computer]").value || null }));
    const kept = remembered();
    names.replaceChildren();
    const names2 = colorNames();
    const choices = palette.choices.length ? palette.choices : Object.keys(names2);
    for (let i = 0; i < players; i++) {
      const label = ((chosen.traits || {}).player_labels || [])[i];
      const fallback = label ? t(label) : t("Player {n}", { n: i + 1 });
      const was = old[i] || kept[i] || {};
      const color = choices.includes(was.color) ? was.color : (palette.players[i] || choices[i]);
      const input = el("input", {
        type: "text", maxlength: "24", "aria-label": t("Name of player {n}", { n: i + 1 }),
        placeholder: fallback, value: was.name || "", "data-player": String(i),
      });
      // Who plays this seat: a person, or the computer at one of its levels.
      // Or (with a broker) a person at another Sudoku Table: named here, as every table shows.
      const remote = network.ready && was.computer === REMOTE;
      const who = el("select", { "aria-label": t("Who plays seat {n}", { n: i + 1 }), "data-computer": String(i) });
      who.append(el("option", { value: "", text: t("A person"),
                                selected: !was.computer || (was.computer === REMOTE && !remote) }));
      for (const level of LEVELS) {
        who.append(el("option", { value: level, text: computerName(level), selected: was.computer === level }));
      }
      if (network.ready) {
        who.append(el("option", { value: REMOTE, text: t("At another table"), selected: remote }));
      }
      const showWho = () => {
        input.disabled = !!who.value && who.value !== REMOTE;
        input.placeholder = who.value && who.value !== REMOTE ? computerName(who.value) : fallback;
        row.classList.toggle("computer", !!who.value && who.value !== REMOTE);
        row.classList.toggle("remote", who.value === REMOTE);
        showRemote();
      };
      who.addEventListener("change", showWho);
      const row = el("div", { class: "seat", "data-seat": String(i) }, seatSwatch(i, color), input, who);
      showWho();
      if (!fixedLooks()) {
        const select = el("select", { "aria-label": t("Colour of player {n}", { n: i + 1 }), "data-color": String(i) });
        for (const c of choices) {
          select.append(el("option", { value: c, text: names2[c] || c, selected: c === color }));
        }
        select.addEventListener("change", () => {
          row.querySelector(".swatch").style.background = select.value;
        });
        row.append(select);
      }
      names.append(row);
    }
    showRemote();
  }

  // A seat at another table: one line under it says what happens next; the table deals only
  // when every player is here.
  let remoteHelp = null; // the line (moved from row to row, so kept here)
  function showRemote() {
    const first = document.querySelector("#player-names .seat.remote");
    const help = remoteHelp || (remoteHelp = $("remote-help"));
    help.hidden = !first;
    if (first && help.parentElement !== first) first.append(help);
    else if (!first && !help.isConnected) $("player-names").after(help);
    showDeal();
    showDraws();
  }

  function renderOptions() {
    const box = $("options");
    box.replaceChildren();
    const entries = Object.entries(chosen.options || {});
    $("options-box").hidden = !entries.length;
    for (const [key, option] of entries) {
      const select = el("select", { id: `option-${key}`, "data-option": key });
      for (const choice of option.choices.length ? option.choices : [option.default]) {
        select.append(el("option", { value: JSON.stringify(choice), text: optionLabel(key, choice),
                                     selected: choice === option.default }));
      }
      box.append(el("label", { class: "option", for: `option-${key}` },
                    el("span", { text: optionName(key) }), select));
    }
  }

  // Option and choice names come from the game itself (GET /api/variants: traits).
  function optionName(key) {
    return t(((chosen.traits || {}).option_labels || {})[key] || key.replace(/_/g, " "));
  }

  function optionLabel(key, choice) {
    const labels = ((chosen.traits || {}).choice_labels || {})[key] || {};
    return t(labels[String(choice)] || String(choice));
  }

  async function loadSetup(seed) {
    const query = seed === undefined ? "" : `?seed=${seed}`;
    setup = await get(`/api/variants/${chosen.id}/setup${query}`);
    renderSetup();
  }

  function renderSetup() {
    const box = $("setup-pieces");
    box.replaceChildren();
    const proposed = !!chosen.traits.random_setup;
    $("propose-setup").hidden = !proposed;
    $("setup-help").textContent = proposed
      ? t("A random start: take this proposal, ask for another, or enter the one you laid out.")
      : t("Which number stands where at the start; change any number before starting.");
    const [low, high] = chosen.numbers || [1, 9];
    for (const [cell, piece] of Object.entries(setup || {})) {
      const cellInput = el("input", { type: "text", value: cell, maxlength: "2", "data-setup-cell": cell,
                                      "aria-label": t("square of the piece on {cell}", { cell }),
                                      readonly: proposed ? null : true });
      const number = el("select", { "data-setup-number": cell, "aria-label": t("number on {cell}", { cell }) });
      for (let n = low; n <= high; n++) {
        number.append(el("option", { value: String(n), text: String(n), selected: n === piece.number }));
      }
      box.append(el("div", { class: "setup-piece", "data-owner": String(piece.owner) }, cellInput, number));
    }
  }

  function readSetup() {
    const result = {};
    for (const row of $("setup-pieces").querySelectorAll(".setup-piece")) {
      const cell = row.querySelector("input").value.trim().toLowerCase();
      const number = Number(row.querySelector("select").value);
      const owner = row.dataset.owner === "null" ? null : Number(row.dataset.owner);
      result[cell] = { owner, number };
    }
    return result;
  }

  async function choose(v) {
    chosen = v;
    players = Math.min(Math.max(remembered().length || v.players[0], v.players[0]), v.players[1]);
    for (const b of document.querySelectorAll(".game-choice")) {
      b.setAttribute("aria-pressed", b.dataset.variant === v.id ? "true" : "false");
    }
    $("setup-form").hidden = false;
    $("chosen-name").textContent = v.name;
    $("chosen-description").textContent = t(v.description);
    $("player-names").replaceChildren();
    renderPlayers();
    renderOptions();
    $("setup-box").hidden = !v.has_setup;
    setup = null;
    if (!chosen.numbers) {
      try { chosen.numbers = (await get(`/api/variants/${v.id}`)).numbers; } catch (e) { /* shown */ }
    }
    if (v.has_setup) {
      await loadSetup(v.traits.random_setup ? Math.floor(Math.random() * 1e9) : undefined);
    }
    $("setup-form").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  async function start(event) {
    event.preventDefault();
    const options = {};
    for (const select of document.querySelectorAll("[data-option]")) {
      options[select.dataset.option] = JSON.parse(select.value);
    }
    const names = [...document.querySelectorAll("#player-names input")].map((i) => i.value.trim());
    const colors = [...document.querySelectorAll("#player-names select[data-color]")].map((s) => s.value);
    const kinds = seatKinds();
    const computers = {};
    const remote = [];
    kinds.forEach((kind, i) => {
      if (kind === REMOTE) remote.push(i);
      else if (kind) computers[String(i)] = kind;
    });
    if (new Set(colors).size !== colors.length) {
      Panel.toast(t("Two players have the same colour: choose another for one of them."));
      return;
    }
    remember(names, colors, kinds);
    const draws = !$("draws-box").hidden && $("computer-draws").checked;
    if (!$("draws-box").hidden) localStorage.setItem(DRAWS_KEY, $("computer-draws").checked ? "true" : "false");
    const body = { variant: chosen.id, players, options, hints: $("hints").checked,
                   names: names.map((name, i) => (kinds[i] && kinds[i] !== REMOTE ? "" : name)),
                   colors, computers };
    if (remote.length) body.remote = remote;
    if (draws) body.computer_draws = true;
    const deal = !$("deal-box").hidden && $("deal").checked;
    if (!$("deal-box").hidden) localStorage.setItem(DEAL_KEY, deal ? "true" : "false");
    if (deal) body.deal = true;
    if (chosen.has_setup) body.setup = readSetup();
    try {
      await post("/api/game", body);
      window.location.href = "/play";
    } catch (e) {
      // The toast shows why (or the players chose to keep the running game).
    }
  }

  // "Join a game": the code another table shows for a seat here, typed or pasted. The table
  // asks the host (which answers within seconds) and plays that game; the play page shows it.
  // Spaces, line breaks and lower case are all fine; the table says when a code is mistyped.
  function openJoinGame() {
    $("join-game-status").hidden = true;
    $("join-game-submit").disabled = false;
    $("join-game-dialog").showModal();
    $("join-game-code").focus();
  }

  async function joinGame(event) {
    event.preventDefault();
    const code = $("join-game-code").value.trim().toUpperCase().replace(/[^0-9A-Z]+/g, "-")
      .replace(/^-+|-+$/g, "");
    if (!code) {
      Panel.toast(t("Type or paste the code the other table shows."));
      $("join-game-code").focus();
      return;
    }
    const status = $("join-game-status");
    status.hidden = false;
    status.textContent = t("Asking the other table…");
    $("join-game-submit").disabled = true;
    try {
      await post("/api/join", { code });
      status.textContent = t("Joined. Opening the game…");
      window.location.href = "/play";
    } catch (e) {
      // The toast says why (a mistyped code, the other table not answering); try again.
      status.hidden = true;
      $("join-game-submit").disabled = false;
      $("join-game-code").focus();
    }
  }

  function bindJoinGame() {
    $("join-game-open").addEventListener("click", openJoinGame);
    $("join-game-form").addEventListener("submit", joinGame);
    $("join-game-cancel").addEventListener("click", () => $("join-game-dialog").close());
    // Enter joins (a code has no line breaks of its own; a pasted one may, and is cleaned).
    $("join-game-code").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        $("join-game-form").requestSubmit();
      }
    });
  }

  // A player's own phone plays its seat: it says at once that new games are started on the
  // shared panel (the table would refuse one from here), and offers to leave the seat to
  // become the shared panel.
  function seatNote(state) {
    const kept = Panel.seat();
    if (!kept) return false;
    const name = ((state && state.table && state.table.names) || [])[kept.seat];
    $("seat-note-text").textContent = name
      ? t("This phone plays {player}'s seat. To use it as the shared panel, leave the seat first.", { player: name })
      : t("This phone plays seat {n}. To use it as the shared panel, leave the seat first.", { n: kept.seat + 1 });
    $("seat-note").hidden = false;
    for (const id of ["running", "choose-title", "join-game-line", "games", "setup-form"]) {
      $(id).hidden = true;
    }
    document.body.dataset.rendered = "true";
    return true;
  }

  async function main() {
    let list, state, legend;
    $("setup-form").addEventListener("submit", start);
    $("computer-draws").checked = localStorage.getItem(DRAWS_KEY) === "true";
    $("deal").checked = localStorage.getItem(DEAL_KEY) === "true";
    $("deal").addEventListener("change", showDraws);
    $("propose-setup").addEventListener("click", () => loadSetup(Math.floor(Math.random() * 1e9)));
    $("seat-note-leave").addEventListener("click", () => Panel.leaveSeat("/"));
    bindJoinGame();
    await Panel.ready;
    if (seatNote(null)) {
      // The player's name, once the table says it (a phone whose seat is gone hears why).
      get("/api/state").then(seatNote, () => {});
      return;
    }
    try {
      [list, state, legend] = await Promise.all([get("/api/variants"), get("/api/state"),
                                                       get("/api/legend")]);
      variants = list;
      palette = legend;
      Board.setPalette(legend);
      $("running").hidden = !(state.game && !state.game.over);
      network = (state.table && state.table.network) || { ready: false };
      $("join-game-line").hidden = !network.ready;
      Panel.showSaving(state.table && state.table.saving);
    } catch (e) {
      return;
    }
    $("games").replaceChildren(...variants.map(gameButton));
    try {
      await drawBoards(legend);
    } catch (e) {
      // The games can be chosen without their drawings; the toast says what failed.
    }
    document.body.dataset.rendered = "true";
  }

  main();
})();
