// The table page: the live sensor matrix, an LED test (shown on the matrix as the LEDs run it),
// the brightness, the finished games with their players, winner and record, saving all of them
// to a file and loading such a file, other tables' games to watch (with a broker), and shutting
// the table down or restarting it.
"use strict";

(() => {
  const { get, post, liveViews, el, t, said } = Panel;
  const $ = (id) => document.getElementById(id);
  const FILES = "abcdefghi";

  function buildMatrix() {
    const matrix = $("matrix");
    matrix.replaceChildren();
    for (let rank = 9; rank >= 1; rank--) {
      matrix.append(el("span", { class: "label", text: String(rank) }));
      for (const file of FILES) {
        matrix.append(el("span", { "data-square": `${file}${rank}`, role: "img",
                                   "aria-label": t("{square} empty", { square: `${file}${rank}` }) }));
      }
    }
    matrix.append(el("span", { class: "label" }));
    for (const file of FILES) matrix.append(el("span", { class: "label", text: file }));
  }

  function showSensors(view) {
    Panel.showSaving(view.table && view.table.saving);
    const on = new Set((view.table && view.table.occupied) || []);
    for (const cell of $("matrix").querySelectorAll("[data-square]")) {
      const square = cell.dataset.square;
      cell.classList.toggle("on", on.has(square));
      cell.textContent = on.has(square) ? "\u25cf" : "";
      cell.setAttribute("aria-label", on.has(square) ? t("{square} piece", { square })
        : t("{square} empty", { square }));
    }
    const faults = view.faults || (view.table && view.table.faults) || [];
    $("faults").replaceChildren(...faults.map((f) => (typeof f === "string" ? el("li", { text: f })
      : el("li", { text: faultWords(f), title: f.detail || undefined }))));
  }

  // A sensor fault in this page's words (its English details, with the figures, as the title).
  function faultWords(f) {
    if (f.kind === "chatter" && f.square) {
      return t("{square} keeps changing by itself (a weak magnet or a failing switch): it is ignored until it is quiet.", { square: f.square });
    }
    if (f.kind === "dead_column" && f.line && f.shorted) {
      return t("File {file} reads a piece with no row driven (a wire shorted to ground): its squares are ignored until it reads free again.", { file: f.line });
    }
    if (f.kind === "dead_column" && f.line) {
      return t("File {file}: many squares changed at once, which no hand does (a broken wire?): they are ignored until they match the board again.", { file: f.line });
    }
    if (f.kind === "dead_row" && f.line) {
      return t("Rank {rank}: many squares changed at once, which no hand does (a broken wire?): they are ignored until they match the board again.", { rank: f.line });
    }
    return f.detail || f.kind || JSON.stringify(f);
  }

  // The LEDs light every square in turn; the matrix shows the same, at the same pace.
  async function ledTest() {
    const answer = await post("/api/table/led-test", {});
    const cells = Object.fromEntries([...$("matrix").querySelectorAll("[data-square]")]
      .map((c) => [c.dataset.square, c]));
    const step = (answer.step || 0.04) * 1000;
    document.body.dataset.ledTest = "running";
    for (const square of answer.squares || []) {
      const cell = cells[square];
      if (!cell) continue;
      cell.classList.add("lit");
      await new Promise((resolve) => setTimeout(resolve, step));
      cell.classList.remove("lit");
    }
    document.body.dataset.ledTest = "done";
  }

  function localDate(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso || "";
    return date.toLocaleString(Panel.language(), { dateStyle: "medium", timeStyle: "short" });
  }

  // The finished games, a page at a time (newest first): the first page on opening, the next
  // with "Show older games" (the table reads them beside the game, never holding it up).
  const PAGE = 20;
  let finishedNext = null;

  async function showFinished(more) {
    const list = $("finished");
    const after = more && finishedNext !== null ? `&after=${finishedNext}` : "";
    let page;
    try {
      page = await get(`/api/games?limit=${PAGE}${after}`);
    } catch (error) {
      if (error.status === 503) setTimeout(() => showFinished(more).catch(() => {}), 1500);
      throw error;
    }
    if (!more) list.replaceChildren();
    finishedNext = page.next;
    $("finished-more").hidden = page.next === null;
    const count = $("finished-count");
    count.hidden = !page.total;
    count.textContent = page.total ? t("{count} games, the newest first", { count: page.total }) : "";
    if (!page.total) list.append(el("li", { class: "muted", text: t("No games played yet.") }));
    for (const g of page.games) list.append(finishedItem(g));
  }

  function finishedItem(g) {
    // Seats nobody named are listed by their seat's name (White, Player 2) in this language.
    const names = (g.names || []).map((n) => {
      const seat = /^Player (\d+)$/.exec(n);
      return seat ? t("Player {n}", { n: seat[1] }) : t(n);
    });
    const scores = g.scores || [];
    const winners = g.winners || [];
    const who = names.map((n, i) => `${n} ${scores[i] ?? ""}`.trim()).join(" : ");
    // A game replaced by a new one before its end: kept as far as it went.
    const won = g.unfinished ? t("unfinished: replaced by a new game")
      : winners.length === 1
        ? t("{player} won", { player: names[winners[0]] || t("Player {n}", { n: winners[0] + 1 }) })
        : winners.length > 1 ? t("{players} shared the win", { players: winners.map((w) => names[w]).join(", ") })
          : t("a draw");
    const reason = g.unfinished ? null : said("end", g.end_reason);
    const why = reason ? ` (${reason})` : "";
    return el("li", { "data-game": String(g.id), "data-unfinished": g.unfinished ? "true" : null },
      el("div", {},
        el("strong", { text: g.name || g.variant }), " ",
        el("span", { class: "muted", text: localDate(g.finished) }),
        el("div", { text: `${won}${why}` }),
        el("div", { class: "muted small", text: who })),
      el("a", { class: "button secondary", href: `/api/games/${g.id}/record?download=1`,
                download: `${g.variant}-${g.id}.json`, text: t("Record"),
                "aria-label": t("Record of {game}, {date}", { game: g.name || g.variant,
                                                                date: localDate(g.finished) }) }),
      el("a", { class: "button", href: `/review/${g.id}`, "data-review": String(g.id),
                text: t("Review"), "aria-label": t("Review of {game}, {date}", {
                  game: g.name || g.variant, date: localDate(g.finished) }) }));
  }

  // The buzzer's switch, showing whether it is on: off by default; without a usable buzzer
  // pin it says why.
  function showTableSound(sound) {
    const toggle = $("table-sound");
    if (!sound) return;
    toggle.checked = !!sound.on;
    toggle.disabled = !sound.available;
    const problem = $("table-sound-problem");
    problem.hidden = sound.available;
    problem.textContent = sound.available ? ""
      : t("No buzzer: {problem}", { problem: sound.problem || "" });
  }

  // --- saving and loading finished games ----------------------------------------------------

  const IMPORT_MAX_BYTES = 8 * 1024 * 1024;

  async function importFile(file) {
    const report = $("import-report");
    report.hidden = false;
    report.className = "report";
    if (file.size > IMPORT_MAX_BYTES) {
      report.replaceChildren(el("p", { class: "rejected", text: t(
        "the file is too large: {size} MB; the table takes files of up to {most} MB",
        { size: (file.size / 1048576).toLocaleString(Panel.language(), { maximumFractionDigits: 1 }),
          most: (IMPORT_MAX_BYTES / 1048576).toLocaleString(Panel.language()) }) }));
      return;
    }
    report.replaceChildren(el("p", { text: t("Checking every game in {file}...", { file: file.name }) }));
    const text = await file.text();
    let answer;
    try {
      answer = await Panel.request("POST", "/api/games/import", undefined,
                                   { raw: text, quiet: true });
    } catch (error) {
      report.replaceChildren(el("p", { class: "rejected", text: error.message }));
      return;
    }
    const summary = t("{added} added, {skipped} already here, {rejected} refused.",
                      { added: answer.added, skipped: answer.skipped, rejected: answer.rejected });
    const items = answer.games.filter((g) => g.result === "rejected").map((g) =>
      el("li", { class: "rejected", text: t("Game {n} ({game}): {reason}", {
        n: g.index + 1, game: g.name || g.variant || "?", reason: g.reason }) }));
    report.replaceChildren(el("p", { text: summary }), ...(items.length ? [el("ul", {}, ...items)] : []));
    document.body.dataset.imported = "true";
    showFinished().catch(() => {});
  }

  // --- switching off ---------------------------------------------------------------------------

  // Marked for the catalog here, translated with t() when shown.
  const N_ = (text) => text;
  const POWER_WORDS = {
    poweroff: { title: N_("Shut the table down?"), button: N_("Shut down"),
                text: N_("The table stops and switches off. A running game is kept and goes on when the table is switched on again.") },
    reboot: { title: N_("Restart the table?"), button: N_("Restart"),
              text: N_("The table stops and starts again; this takes about a minute. A running game is kept.") },
  };

  function showPower(power) {
    const available = Boolean(power && power.available);
    for (const id of ["power-off", "power-restart"]) $(id).disabled = !available;
    $("power-unavailable").hidden = available;
    $("power-unavailable").textContent = available ? "" : ((power && power.message) || "");
  }

  function askPower(action) {
    const words = POWER_WORDS[action];
    const dialog = $("power-dialog");
    $("power-dialog-title").textContent = t(words.title);
    $("power-dialog-text").textContent = t(words.text);
    $("power-confirm").textContent = t(words.button);
    $("power-confirm").className = action === "poweroff" ? "danger" : "primary";
    dialog.dataset.action = action;
    dialog.returnValue = "";
    dialog.showModal();
  }

  // Until the table stops answering (shut down), or has answered again (restart).
  async function watchPower(action) {
    const state = $("power-state");
    const say = (text) => { state.textContent = text; };
    say(action === "poweroff"
      ? t("The table is shutting down. Wait until the green light on the Raspberry Pi has gone out (a Pi 5's light turns red), then it is safe to unplug.")
      : t("The table is restarting. This page reloads by itself when the table is back."));
    let gone = false;
    for (let i = 0; i < 120; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      let answered = false;
      try {
        const r = await fetch("/api/version", { cache: "no-store" });
        answered = r.ok;
      } catch (e) { answered = false; }
      if (!answered && !gone) {
        gone = true;
        if (action === "poweroff") {
          say(t("The table has stopped. Once the green light on the Raspberry Pi stays dark, you can unplug it."));
          document.body.dataset.power = "off";
          return;
        }
      }
      if (answered && gone && action === "reboot") { window.location.reload(); return; }
    }
  }

  async function power(action) {
    const state = $("power-state");
    try {
      await post("/api/table/power", { action, confirm: true });
    } catch (error) {
      return;  // the toast says why
    }
    for (const id of ["power-off", "power-restart"]) $(id).disabled = true;
    state.hidden = false;
    document.body.dataset.power = action;
    watchPower(action).catch(() => {});
  }

  async function main() {
    await Panel.ready;
    buildMatrix();
    const info = await get("/api/table");
    const slider = $("brightness");
    if (typeof info.brightness === "number") slider.value = String(info.brightness);
    // A percentage in this language's way of writing numbers ("60 %", "60%").
    const percent = (value) => Number(value).toLocaleString(Panel.language(), { style: "percent" });
    $("brightness-value").textContent = percent(slider.value);
    slider.addEventListener("input", () => {
      $("brightness-value").textContent = percent(slider.value);
    });
    slider.addEventListener("change", () => post("/api/table/brightness",
                                                 { level: Number(slider.value) }).catch(() => {}));
    $("led-test").addEventListener("click", () => ledTest().catch(() => {}));
    $("finished-more").addEventListener("click", () => showFinished(true).catch(() => {}));
    showTableSound(info.sound);
    $("table-sound").addEventListener("change", () => {
      const toggle = $("table-sound");
      post("/api/table/sound", { on: toggle.checked }).then((r) => showTableSound(r.sound))
        .catch(() => { toggle.checked = !toggle.checked; });
    });
    showPower(info.power);
    for (const id of ["power-off", "power-restart"]) {
      $(id).addEventListener("click", (event) => askPower(event.currentTarget.dataset.action));
    }
    $("power-dialog").addEventListener("close", () => {
      const dialog = $("power-dialog");
      if (dialog.returnValue === "confirm") power(dialog.dataset.action);
    });
    $("import-file").addEventListener("change", (event) => {
      const file = event.target.files && event.target.files[0];
      event.target.value = "";
      if (file) importFile(file).catch(() => {});
    });
    Watched.codeForm($("looking-on").querySelector("[data-watch-form]"));
    liveViews((view) => {
      showSensors(view);
      // Other tables' games can be watched once the table meets them through a broker.
      $("looking-on").hidden = !(view.table && view.table.network && view.table.network.ready);
    });
    showFinished().catch(() => {});
    document.body.dataset.rendered = "true";
  }

  main();
})();
