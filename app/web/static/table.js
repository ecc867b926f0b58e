// The table page: the live sensor matrix, an LED test, the brightness, finished games.
"use strict";

(() => {
  const { get, post, liveViews, el } = Panel;
  const $ = (id) => document.getElementById(id);
  const FILES = "abcdefghi";

  function buildMatrix() {
    const matrix = $("matrix");
    matrix.replaceChildren();
    for (let rank = 9; rank >= 1; rank--) {
      matrix.append(el("span", { class: "label", text: String(rank) }));
      for (const file of FILES) {
        matrix.append(el("span", { "data-square": `${file}${rank}`, role: "gridcell",
                                   "aria-label": `${file}${rank} empty` }));
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
      cell.setAttribute("aria-label", `${square} ${on.has(square) ? "piece" : "empty"}`);
    }
    const faults = view.faults || (view.table && view.table.faults) || [];
    $("faults").replaceChildren(...faults.map((f) =>
      el("li", { text: typeof f === "string" ? f : (f.detail || f.kind || JSON.stringify(f)) })));
  }

  async function showFinished() {
    const games = await get("/api/games");
    const list = $("finished");
    list.replaceChildren();
    if (!games.length) list.append(el("li", { class: "muted", text: "No finished games yet." }));
    for (const g of games) {
      const scores = (g.scores || []).join(" : ");
      list.append(el("li", { "data-game": String(g.id) },
        el("span", { text: `${g.variant}, ${g.finished || ""}${scores ? ", " + scores : ""}` }),
        el("a", { class: "button secondary", href: `/api/games/${g.id}/record?download=1`,
                  download: `${g.variant}-${g.id}.json`, text: "Record" })));
    }
  }

  async function main() {
    buildMatrix();
    const info = await get("/api/table");
    const slider = $("brightness");
    if (typeof info.brightness === "number") slider.value = String(info.brightness);
    $("brightness-value").textContent = Number(slider.value).toFixed(2);
    slider.addEventListener("input", () => {
      $("brightness-value").textContent = Number(slider.value).toFixed(2);
    });
    slider.addEventListener("change", () => post("/api/table/brightness",
                                                 { level: Number(slider.value) }).catch(() => {}));
    $("led-test").addEventListener("click", () => post("/api/table/led-test", {}).catch(() => {}));
    liveViews(showSensors);
    showFinished().catch(() => {});
    document.body.dataset.rendered = "true";
  }

  main();
})();
