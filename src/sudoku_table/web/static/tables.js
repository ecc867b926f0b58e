// Tables connected: seats played at another Sudoku Table, as the play page shows them. The view
// says where each seat is played (table.seats: here, at another table, the computer) and
// whether that table is connected; the host's view carries each remote seat's code
// (table.join). This file words all that and draws the host's "Tables" dialog with
// the codes; play.js calls it on every view and says the remote_* steps in its what-now bar.
// Plain browser JavaScript, no build step.
"use strict";

const Tables = (() => {
  const { el, t } = Panel;
  const $ = (id) => document.getElementById(id);

  const GRACE = 3; // seconds away before the bar says so (a table reconnecting is not news)
  const GONE = 30; // seconds a host's table is away before a guest may host the game instead
  const ANOTHER = "another table"; // the table's word for a remote seat's table not yet known
  let view = null;
  let received = 0; // when this view came (performance.now()): offline seconds count on from it
  let shownCodes = ""; // the codes the dialog's list was drawn for
  let opened = ""; // the codes the dialog has opened by itself for (once per game and page)
  let selfOpened = false; // whether the dialog now open opened by itself (it closes by itself too)
  let closing = null;

  function seen(next) {
    view = next;
    received = performance.now();
  }

  const network = () => (view && view.table && view.table.network) || null;

  // The seat's entry of the view ({seat, kind, table, connected, offline}), or null.
  function seat(i) {
    return ((view && view.table && view.table.seats) || []).find((s) => s.seat === i) || null;
  }

  const remote = (i) => (seat(i) || {}).kind === "remote";

  // The seat's table has joined the game at least once (its name is known).
  const joined = (entry) => !!(entry && entry.table && entry.table !== ANOTHER);

  // Seconds the seat's table has been away (past the grace), or null: it is there (or has
  // not joined yet, which is said otherwise).
  function away(i) {
    const entry = seat(i);
    if (!entry || entry.kind === "here" || entry.connected || !joined(entry)) return null;
    const off = secondsOff(entry.offline);
    return off !== null && off >= GRACE ? off : null;
  }

  // Seconds offline as of now: the view's figure, counted on since it came.
  function secondsOff(offline) {
    if (offline === null || offline === undefined) return null;
    return Math.max(0, Math.round(offline + (performance.now() - received) / 1000));
  }

  // "15 s", "3 min", "2 h": how long, in a few characters. Seconds go in steps of five, so
  // that a screen reader reading the bar out is not given a new figure every second.
  function duration(seconds) {
    if (seconds < 60) return t("{n} s", { n: Math.max(1, 5 * Math.floor(seconds / 5)) });
    if (seconds < 3600) return t("{n} min", { n: Math.floor(seconds / 60) });
    return t("{n} h", { n: Math.floor(seconds / 3600) });
  }

  // The name a step's table goes by: its own, or "the other table" before it has joined.
  const tableName = (name) => (name && name !== ANOTHER ? name : t("the other table"));

  // Whether anything shown counts on by itself (a table offline): then the page redraws
  // those words every second.
  function ticking() {
    const net = network();
    if (net && net.role && net.offline !== null && net.offline !== undefined) return true;
    return ((view && view.table && view.table.seats) || []).some(
      (s) => s.kind === "remote" && s.offline !== null && s.offline !== undefined);
  }

  // Under a seat's name: where it is played ("at Ben's table, offline 12 s"); "" for a seat
  // here. ``name`` is what the seat is called (no need to name the table twice).
  function where(i, name) {
    const entry = seat(i);
    if (!entry || entry.kind !== "remote") return "";
    if (!joined(entry)) return t("at another table, not joined yet");
    const at = name === entry.table ? "" : t("at {table}", { table: entry.table });
    const off = away(i);
    if (off === null) return at;
    const state = t("offline {time}", { time: duration(off) });
    return at ? `${at}, ${state}` : state;
  }

  // The bar's line while a table is away: this table itself (it lost the broker), or another
  // table that plays seats here. ``next`` is the bar's step; ``names`` names seats.
  function awayLine(next, names) {
    const net = network();
    if (left()) return ""; // the table's message says so, and "Host the game here" is offered
    const off = net && net.role && !net.connected ? secondsOff(net.offline) : null;
    if (off !== null && off >= GRACE) {
      return t("This table has lost its connection to the other tables ({time}). It keeps trying; nothing is lost.",
               { time: duration(off) });
    }
    // Each table that is away, with the seats played there.
    const tables = new Map();
    for (const entry of (view && view.table && view.table.seats) || []) {
      const seconds = away(entry.seat);
      if (seconds === null) continue;
      if (!tables.has(entry.table)) tables.set(entry.table, { seats: [], seconds });
      tables.get(entry.table).seats.push(entry.seat);
    }
    const lines = [];
    for (const [table, { seats, seconds }] of tables) {
      // The seats by their players' names, or (not named) by their table's alone.
      const player = names(seats);
      const named = player !== table;
      const waiting = next && next.code === "remote_waiting" && seats.includes(next.actor);
      const params = { player, table, time: duration(seconds) };
      if (waiting) {  // the bar's step says whom it waits for, and since when
        lines.push(t("Nobody here can move for {player} meanwhile; nothing is lost.", params));
      } else {
        lines.push(named
          ? t("{table} is offline ({time}): nobody here can move for {player} until it is back.", params)
          : t("{table} is offline ({time}): nobody here can move for it until it is back.", params));
      }
    }
    // At a guest whose host's table is away: what this table can do if it stays away.
    const hostEntry = net && net.role === "guest"
      ? ((view && view.table && view.table.seats) || []).find((s) => s.kind !== "here") : null;
    const gone = hostEntry && tables.get(hostEntry.table);
    if (gone && !(view.game && view.game.over)) {
      const table = tableName(hostEntry.table);
      lines.push(gone.seconds < GONE
        ? t("If {table} does not come back, this table can go on with the game in {time}.",
            { table, time: duration(GONE - gone.seconds) })
        : t('If {table} does not come back, tap "Host the game here": the game goes on at this table.',
            { table }));
    }
    return lines.join(" ");
  }

  // A guest whose host started another game: this one is left to this table.
  const left = () => { const net = network(); return !!(net && net.role === "guest" && net.closed); };

  // A guest whose host's table is gone (away a while, or it left for another game): this
  // table may host the game from its own copy. The table says when that is not yet allowed.
  function mayTakeOver() {
    const net = network();
    if (!net || net.role !== "guest" || (view.game && view.game.over)) return false;
    if (net.closed) return true;
    return ((view.table && view.table.seats) || []).some((s) => (away(s.seat) || 0) >= GONE);
  }

  // The table of the host's seats, as a guest sees it (the first seat played elsewhere).
  const hostTable = () => tableName((((view && view.table && view.table.seats) || [])
    .find((s) => s.kind !== "here") || {}).table);

  async function takeOver() {
    if (!await Panel.ask(t("Host the game at this table from now on? {table} then joins again with a new code, like every other table.",
                           { table: hostTable() }),
                         t("Host the game here"), t("Leave it with {table}", { table: hostTable() }))) return;
    try {
      const answer = await Panel.post("/api/take-over", {});
      if (answer && "table" in answer) document.dispatchEvent(new CustomEvent("panel:answer", { detail: answer }));
    } catch (e) {
      // The toast says why (the host's table has not been away long enough).
    }
  }

  // This table's game parted from the host's (network.follow): one tap takes the host's.
  const mayFollow = () => { const net = network(); return !!(net && net.follow); };

  async function followHost() {
    try {
      const answer = await Panel.post("/api/follow-host", {});
      if (answer && "table" in answer) document.dispatchEvent(new CustomEvent("panel:answer", { detail: answer }));
    } catch (e) {
      // The toast says why (the games agree again meanwhile).
    }
  }

  // The tables disagree about the game (the view's network.diverged): said, never hidden.
  function diverged() {
    const net = network();
    return net && net.diverged
      ? t("This table and the other table disagree about the game: {what}", { what: net.diverged })
      : "";
  }

  // --- the host's "Tables": each remote seat's code, large, to type, paste or scan ------

  // The code in groups of four, each a box of its own with a gap between (the lines break
  // between groups only; copied from the page, the code has no gaps, which the table reads).
  function codeGroups(code) {
    return String(code).split("-").filter(Boolean).map((group) =>
      el("span", { class: "code-group", text: group }));
  }

  // Copies ``text``: the clipboard where the browser allows it (a secure page), else the old
  // way (a selected field and the copy command), inside ``within`` (an open dialog is the only
  // part of the page that can be used). True when it worked.
  async function copy(text, within) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) {
      // Refused (no permission): the old way below.
    }
    const field = el("textarea", { readonly: true, class: "visually-hidden", "aria-hidden": "true" });
    field.value = text;
    within.append(field);
    field.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    field.remove();
    return done;
  }

  async function copied(button, text) {
    const dialog = $("invite-dialog");
    if (await copy(text, dialog)) {
      Panel.toast(t("Copied. Paste it into a message to the other table."), "info");
      button.dataset.copied = "true";
    } else {
      // The browser would not copy: the code is selected, for the phone's own Copy.
      const shown = button.closest("li, details").querySelector(".invite-code");
      const range = document.createRange();
      range.selectNodeContents(shown);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      Panel.toast(t("This browser would not copy it: the code is selected, copy it from the menu."), "info");
    }
  }

  // One remote seat in the dialog: who, whether its table is there, its code and picture.
  function codeItem(entry, helpers) {
    const code = el("p", { class: "invite-code", "data-code": entry.code,
                           "aria-label": t("Code: {code}", { code: entry.code.split("-").join(" ") }) },
                    ...codeGroups(entry.code));
    const copyButton = el("button", { type: "button", class: "secondary", "data-action": "copy",
                                      text: t("Copy the code") });
    copyButton.addEventListener("click", () => copied(copyButton, entry.code));
    const picture = el("img", { class: "join-qr invite-qr", alt: t("The code as a picture, to scan with a phone at the other table") });
    picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(entry.qr || "")}`;
    picture.hidden = !entry.qr;
    return el("li", { "data-seat": String(entry.seat) },
      el("p", { class: "invite-who" }, helpers.swatch(entry.seat), " ",
         el("strong", { text: helpers.name(entry.seat) })),
      el("p", { class: "invite-state small", "data-state": "" }),
      code, el("div", { class: "row wrap" }, copyButton), picture);
  }

  // Whether seat i's table is there: joined and connected, joined and away, or not yet.
  function seatState(i) {
    const entry = seat(i);
    if (!joined(entry)) return { key: "waiting", text: t("waiting for its table to join") };
    if (away(i) === null) return { key: "joined", text: t("{table} has joined", { table: entry.table }) };
    return { key: "away", text: where(i, entry.table) };
  }

  // Drawn on every view of the host (``helpers``: swatch(i), name(i)); nothing elsewhere.
  function renderInvite(game, helpers) {
    const join = (view && view.table && view.table.join) || null;
    const codes = (join && join.codes) || [];
    const shared = !helpers.mine;
    const dialog = $("invite-dialog");
    const jump = $("invite-jump");
    jump.hidden = !shared || !codes.length;
    if (!codes.length) {
      if (dialog.open) dialog.close();
      return;
    }
    const states = codes.map((c) => seatState(c.seat));
    const connected = states.filter((s) => s.key === "joined").length;
    $("invite-count").textContent = t("{n} of {total}", { n: connected, total: codes.length });
    // The list is drawn again only for new codes (a new game): the pictures stay put.
    const key = codes.map((c) => c.code).join(" ");
    if (key !== shownCodes) {
      shownCodes = key;
      $("invite-codes").replaceChildren(...codes.map((c) => codeItem(c, helpers)));
      // The words name the picture only where there is one.
      const pictures = codes.some((c) => c.qr);
      $("invite-help").hidden = pictures;
      $("invite-help-qr").hidden = !pictures;
      $("invite-watch").hidden = !join.watch;
      $("invite-watch-code").replaceChildren(...codeGroups(join.watch || ""));
      $("invite-watch-code").dataset.code = join.watch || "";
    }
    for (const [index, c] of codes.entries()) {
      const item = $("invite-codes").querySelector(`li[data-seat="${c.seat}"]`);
      if (!item) continue;
      item.dataset.state = states[index].key;
      const label = item.querySelector(".invite-state");
      label.textContent = Panel.sentence(states[index].text);
      label.dataset.state = states[index].key;
      item.querySelector("strong").textContent = helpers.name(c.seat);
    }
    const waiting = states.some((s) => s.key === "waiting");
    // Opens by itself while a seat's table has not joined (once per game on this page) ...
    if (shared && waiting && !game.over && opened !== key && !dialog.open) {
      opened = key;
      selfOpened = true;
      $("invite-done").hidden = true;
      dialog.showModal();
    }
    // ... and, opened so, closes by itself once every table has joined.
    if (dialog.open && selfOpened && !waiting && closing === null) {
      $("invite-done").hidden = false;
      $("invite-done").textContent = codes.length === 1
        ? t("{table} has joined: the game can begin.", { table: seat(codes[0].seat).table })
        : t("Every table has joined: the game can begin.");
      closing = setTimeout(() => { closing = null; if (dialog.open) dialog.close(); }, 2500);
    }
  }

  function openInvite() {
    selfOpened = false;
    $("invite-done").hidden = true;
    const dialog = $("invite-dialog");
    if (!dialog.open) dialog.showModal();
  }

  function bind() {
    $("invite-jump").addEventListener("click", openInvite);
    $("take-over").addEventListener("click", takeOver);
    $("follow-host").addEventListener("click", followHost);
    $("invite-watch-copy").addEventListener("click", () =>
      copied($("invite-watch-copy"), $("invite-watch-code").dataset.code || ""));
    $("invite-dialog").addEventListener("close", () => {
      selfOpened = false;
      clearTimeout(closing);
      closing = null;
    });
  }

  return { seen, seat, remote, joined, away, left, where, awayLine, diverged, mayTakeOver, mayFollow, ticking,
           duration, tableName, renderInvite, bind };
})();
