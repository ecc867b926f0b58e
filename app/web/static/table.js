// The table page: the live sensor matrix, an LED test (shown on the matrix as the LEDs run it),
// the brightness, and the finished games with their players, winner and record.
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
    const on = new Set((view.table && view.table.occupied) || []);
    for (const cell of $("matrix").querySelectorAll("[data-square]")) {
      const square = cell.dataset.square;
      cell.classList.toggle("on", on.has(square));
      cell.textContent = on.has(square) ? "\u25cf" : "";
      cell.setAttribute("aria-label", on.has(square) ? t("{square} piece", { square })
        : t("{square} empty", { square }));
    }
    const faults = view.faults || (view.table && view.table.faults) || [];
    $("faults").replaceChildren(...faults.map((f) =>
      el("li", { text: typeof f === "string" ? f : (f.detail || f.kind || JSON.stringify(f)) })));
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

  async function showFinished() {
    const games = await get("/api/games");
    const list = $("finished");
    list.replaceChildren();
    if (!games.length) list.append(el("li", { class: "muted", text: t("No finished games yet.") }));
    for (const g of games) {
      // Seats nobody named are listed by their seat's name (White, Player 2) in this language.
      const names = (g.names || []).map((n) => {
        const seat = /^Player (\d+)$/.exec(n);
        return seat ? t("Player {n}", { n: seat[1] }) : t(n);
      });
      const scores = g.scores || [];
      const winners = g.winners || [];
      const who = names.map((n, i) => `${n} ${scores[i] ?? ""}`.trim()).join(" : ");
      const won = winners.length === 1
        ? t("{player} won", { player: names[winners[0]] || t("Player {n}", { n: winners[0] + 1 }) })
        : winners.length > 1 ? t("{players} shared the win", { players: winners.map((w) => names[w]).join(", ") })
          : t("a draw");
      const reason = said("end", g.end_reason);
      const why = reason ? ` (${reason})` : "";
      list.append(el("li", { "data-game": String(g.id) },
        el("div", {},
          el("strong", { text: g.name || g.variant }), " ",
          el("span", { class: "muted", text: localDate(g.finished) }),
          el("div", { text: `${won}${why}` }),
          el("div", { class: "muted small", text: who })),
        el("a", { class: "button secondary", href: `/api/games/${g.id}/record?download=1`,
                  download: `${g.variant}-${g.id}.json`, text: t("Record"),
                  "aria-label": t("Record of {game}, {date}", { game: g.name || g.variant,
                                                                  date: localDate(g.finished) }) })));
    }
  }

  // The buzzer's switch: off by default; without a usable buzzer pin it says why.
  function showTableSound(sound) {
    const button = $("table-sound");
    if (!sound) return;
    button.setAttribute("aria-pressed", sound.on ? "true" : "false");
    button.textContent = sound.on ? t("Table sound: on") : t("Table sound: off");
    button.disabled = !sound.available;
    const problem = $("table-sound-problem");
    problem.hidden = sound.available;
    problem.textContent = sound.available ? ""
      : t("No buzzer: {problem}", { problem: sound.problem || "" });
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
    showTableSound(info.sound);
    $("table-sound").addEventListener("click", () => {
      const on = $("table-sound").getAttribute("aria-pressed") !== "true";
      post("/api/table/sound", { on }).then((r) => showTableSound(r.sound)).catch(() => {});
    });
    liveViews(showSensors);
    showFinished().catch(() => {});
    document.body.dataset.rendered = "true";
  }

  main();
})();
