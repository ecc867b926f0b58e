// The review of a finished game: each player's summary, the score over the game and the points
// each move left on the table as charts (d3: scales, axes, lines and bars, drawn as SVG), every
// move in words, a small board at the chosen move (board.js, with the same lights the table
// shows in a replay), and the replay on the table itself. The words come from the server in
// this phone's language; the review fills in while the computer judges (the page polls).
"use strict";

(() => {
  const { get, post, el, t, said } = Panel;
  const $ = (id) => document.getElementById(id);
  const gameId = Number($("review").dataset.game);
  const POLL_MS = 700;
  const DASHES = ["", "7 4", "2 4", "10 4 2 4"];

  let doc = null;
  let positions = null;
  let legend = { signals: {}, players: [] };
  let traits = {};
  let board = null;
  let selected = 0;
  let replay = null; // the view's table.replay: what the table's LEDs show now

  // Each player is drawn as at the table: in the game's own piece colours where it has them
  // (DOMINARI's White and Black), else in the seat colour the play page gives them.
  const seatColor = (i) => {
    const look = (traits.piece_looks || [])[i];
    return look ? look.fill : Board.seatColor(i);
  };

  function swatch(i) {
    const node = el("span", { class: "swatch", "aria-hidden": "true", "data-mark": Board.markOf(i) });
    node.style.background = seatColor(i);
    return node;
  }

  function localDate(iso) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso || "";
    return date.toLocaleString(Panel.language(), { dateStyle: "medium", timeStyle: "short" });
  }

  function resultWords() {
    const result = doc.result || {};
    const winners = result.winners || [];
    const names = doc.names || [];
    const won = winners.length === 1 ? t("{player} won", { player: names[winners[0]] })
      : winners.length > 1 ? t("{players} shared the win", { players: winners.map((w) => names[w]).join(", ") })
        : t("a draw");
    const scores = (result.scores || []).map((s, i) => `${names[i]} ${s}`).join(" : ");
    const reason = said("end", result.end_reason);
    return [won + (reason ? ` (${reason})` : ""), scores, localDate(doc.finished)].filter(Boolean).join(" \u00b7 ");
  }

  // --- progress and summary ---------------------------------------------------------------

  function renderProgress() {
    const box = $("review-progress");
    const done = doc.done || 0, total = doc.total || 0;
    $("review-bar").max = Math.max(total, 1);
    $("review-bar").value = done;
    box.dataset.status = doc.status;
    let text;
    if (doc.status === "done") text = t("Every move judged: {total} moves.", { total });
    else if (doc.status === "failed") text = t("The review stopped: {detail}", { detail: doc.failed || "" });
    else if (doc.status === "waiting") text = t("Waiting for another review to finish\u2026 ({done} of {total} moves judged)", { done, total });
    else text = t("The computer is judging the moves: {done} of {total}\u2026", { done, total });
    $("review-progress-text").textContent = text;
  }

  function renderSummary() {
    const list = $("review-summary");
    const partial = doc.status !== "done";
    list.replaceChildren(...(doc.summary || []).map((s) => el("li", { "data-player": String(s.player) },
      swatch(s.player), " ", el("span", { text: s.text + (partial && s.moves ? " (" + t("so far") + ")" : "") }))));
    $("review-known").textContent = doc.known || "";
  }

  // --- the charts (d3) ----------------------------------------------------------------------

  function chartFrame(svgId, height) {
    const svg = d3.select(`#${svgId}`);
    const width = Math.max(280, Math.round(svg.node().getBoundingClientRect().width) || 560);
    svg.attr("viewBox", `0 0 ${width} ${height}`).attr("height", height);
    svg.selectAll("*").remove();
    return { svg, width, height, margin: { top: 12, right: 14, bottom: 30, left: 44 } };
  }

  const isChance = () => doc.measure === "chance";

  function drawScores() {
    const scores = doc.scores || [];
    const moves = Math.max(scores.length - 1, 1);
    const { svg, width, height, margin } = chartFrame("chart-scores", 230);
    const x = d3.scaleLinear().domain([0, moves]).range([margin.left, width - margin.right]);
    const values = scores.flat();
    const y = d3.scaleLinear().domain(d3.extent([0, 1, ...values])).nice()
      .range([height - margin.bottom, margin.top]);
    svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
      .call(d3.axisBottom(x).ticks(Math.min(moves, Math.floor(width / 55))).tickFormat(d3.format("d")));
    const [low, high] = y.domain();
    svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).ticks(Math.max(1, Math.min(5, high - low))).tickFormat(d3.format("d")));
    const line = d3.line().x((d, i) => x(i)).y((d) => y(d)).curve(d3.curveStepAfter);
    for (let p = 0; p < doc.players; p++) {
      svg.append("path").datum(scores.map((s) => s[p] ?? 0)).attr("class", "chart-line")
        .attr("data-player", String(p)).attr("stroke", seatColor(p))
        .attr("stroke-dasharray", DASHES[p % DASHES.length]).attr("d", line);
    }
    svg.append("line").attr("class", "chart-cursor").attr("x1", x(selected + 1)).attr("x2", x(selected + 1))
      .attr("y1", margin.top).attr("y2", height - margin.bottom);
    svg.on("click", (event) => {
      const [px] = d3.pointer(event);
      select(Math.min(Math.max(Math.round(x.invert(px)) - 1, 0), (doc.moves || []).length - 1));
    });
    const names = doc.names || [];
    const final = scores[scores.length - 1] || [];
    $("scores-desc").textContent = t("A line per player, from the first move to the last; the vertical line marks the move shown. At the end: {scores}.",
      { scores: names.map((n, i) => `${n} ${final[i] ?? 0}`).join(", ") });
    $("chart-legend").replaceChildren(...names.map((n, i) => {
      const sample = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      sample.setAttribute("class", "legend-line");
      sample.setAttribute("viewBox", "0 0 36 10");
      sample.setAttribute("aria-hidden", "true");
      const stroke = document.createElementNS("http://www.w3.org/2000/svg", "line");
      for (const [k, v] of Object.entries({ x1: 0, y1: 5, x2: 36, y2: 5, stroke: seatColor(i),
        "stroke-dasharray": DASHES[i % DASHES.length], class: "chart-line" })) stroke.setAttribute(k, v);
      sample.append(stroke);
      return el("li", {}, sample, swatch(i), " ", n);
    }));
    renderScoresTable();
  }

  function renderScoresTable() {
    const table = $("scores-table");
    const names = doc.names || [];
    const head = el("tr", {}, el("th", { scope: "col", text: t("Move") }),
      ...names.map((n) => el("th", { scope: "col", class: "points", text: n })));
    const body = el("tbody", {});
    (doc.scores || []).forEach((row, i) => {
      if (i === 0) return;
      body.append(el("tr", {}, el("th", { scope: "row", text: String(i) }),
        ...row.map((s) => el("td", { class: "points", text: String(s) }))));
    });
    table.replaceChildren(el("thead", {}, head), body);
  }

  function lossValue(m) {
    if (m.verdict === null || m.verdict === undefined) return null;
    return isChance() ? Math.round(100 * (m.loss || 0)) : m.loss || 0;
  }

  function drawLoss() {
    const moves = doc.moves || [];
    $("loss-title").textContent = isChance() ? t("The chance to win each move left on the table")
      : doc.measure === "markers" ? t("The markers each move left on the table")
        : t("The points each move left on the table");
    const { svg, width, height, margin } = chartFrame("chart-loss", 190);
    const x = d3.scaleBand().domain(moves.map((m) => m.index)).range([margin.left, width - margin.right])
      .paddingInner(0.15);
    const top = d3.max(moves, (m) => lossValue(m) || 0) || 1;
    const y = d3.scaleLinear().domain([0, top]).nice().range([height - margin.bottom, margin.top]);
    const every = Math.max(1, Math.ceil(moves.length / Math.floor(width / 45)));
    svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
      .call(d3.axisBottom(x).tickValues(moves.map((m) => m.index).filter((i) => (i + 1) % every === 0 || i === 0))
        .tickFormat((i) => String(i + 1)));
    svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).ticks(4).tickFormat(isChance() ? (d) => `${d} %` : d3.format("~g")));
    svg.append("g").selectAll("rect").data(moves.filter((m) => lossValue(m) !== null)).join("rect")
      .attr("class", (m) => `loss-bar verdict-${m.verdict}${m.index === selected ? " selected" : ""}`)
      .attr("data-move", (m) => String(m.move))
      .attr("x", (m) => x(m.index)).attr("width", Math.max(1, x.bandwidth()))
      .attr("y", (m) => y(lossValue(m))).attr("height", (m) => Math.max(0, y(0) - y(lossValue(m))))
      .attr("fill", (m) => seatColor(m.player));
    // Moves not judged yet: a faint mark on the axis, so the progress shows in the picture too.
    svg.append("g").selectAll("rect").data(moves.filter((m) => lossValue(m) === null)).join("rect")
      .attr("class", "loss-pending").attr("x", (m) => x(m.index)).attr("width", Math.max(1, x.bandwidth()))
      .attr("y", y(0) - 3).attr("height", 3);
    svg.on("click", (event) => {
      const [px] = d3.pointer(event);
      const step = x.step();
      const index = Math.floor((px - margin.left) / step);
      if (index >= 0 && index < moves.length) select(index);
    });
    const missed = moves.filter((m) => m.verdict === "miss").length;
    const slips = moves.filter((m) => m.verdict === "slip").length;
    $("loss-desc").textContent = t("A bar per move, in the colour of the player who made it: how much better the computer's move was. {missed} chances missed, {slips} a little weaker; the list of every move below says each in words.",
      { missed, slips });
  }

  // --- the moves ----------------------------------------------------------------------------

  function moveLine(m) {
    let text = m.text + (m.scored ? ` (${m.scored})` : "");
    if (m.verdict) text += ` \u2014 ${m.verdict_text}${m.gain ? ` (${m.gain})` : ""}`;
    else text += " \u2014 " + t("not judged yet");
    return text;
  }

  function renderMoves() {
    const list = $("review-moves");
    const moves = doc.moves || [];
    list.replaceChildren(...moves.map((m) => el("li", { "data-move": String(m.move),
      "data-verdict": m.verdict || "pending" },
      el("button", { type: "button", class: "move-button", "aria-current": m.index === selected ? "true" : null,
                     onclick: () => select(m.index) },
        m.player === null || m.player === undefined ? "" : swatch(m.player), " ",
        el("span", { class: `verdict-mark verdict-${m.verdict || "pending"}`, "aria-hidden": "true",
                     text: { best: "\u2713", good: "\u2713", forced: "\u2013", slip: "!", miss: "!!" }[m.verdict] || "\u2026" }),
        " ", el("span", { text: moveLine(m) })))));
  }

  function signalsAt(m) {
    const signals = {};
    const squaresOf = (a) => (a.type === "move" ? a.path.filter((s) => s !== "off")
      : a.cell ? [a.cell] : []);
    for (const s of squaresOf(m.action)) signals[s] = "replayed";
    if (m.best && m.verdict !== "best" && JSON.stringify(m.best) !== JSON.stringify(m.action)) {
      for (const s of squaresOf(m.best)) signals[s] = "better";
    }
    return signals;
  }

  function renderMove() {
    const moves = doc.moves || [];
    const m = moves[selected];
    if (!m) return;
    $("move-title").textContent = t("Move {move} of {moves}", { move: m.move, moves: moves.length });
    $("move-played").replaceChildren(m.player === null || m.player === undefined ? "" : swatch(m.player), " ",
      m.text + (m.scored ? ` (${m.scored})` : ""),
      ...(m.played_reasons && m.played_reasons.length
        ? [el("span", { class: "muted", text: ` \u2014 ${m.played_reasons.map((r) => r.text).join("; ")}` })] : []));
    $("move-verdict").textContent = m.verdict ? m.verdict_text + (m.gain ? ` (${m.gain})` : "")
      : t("The computer has not judged this move yet.");
    $("move-verdict").dataset.verdict = m.verdict || "pending";
    const showBetter = !!m.verdict && !["best", "forced"].includes(m.verdict);
    $("move-better").hidden = !showBetter;
    if (showBetter) {
      $("move-best").textContent = m.best_text + (m.best_scored ? ` (${m.best_scored})` : "");
      $("move-reasons").replaceChildren(...(m.reasons || []).map((r) =>
        el("li", { "data-reason": r.code, text: r.text })));
    }
    $("move-note").hidden = !m.note;
    $("move-note").textContent = m.note || "";
    $("move-first").disabled = $("move-prev").disabled = selected === 0;
    $("move-last").disabled = $("move-next").disabled = selected >= moves.length - 1;
    if (board && positions) {
      const replayedLook = { color: seatColor(m.player), pattern: "steady", level: 0.8 };
      board.legend.signals = { ...legend.signals, replayed: replayedLook };
      Board.update(board, { game: positions[m.index + 1] || { cells: {} },
                            table: { signals: signalsAt(m), colors: [] } });
    }
    renderReplayButtons();
  }

  function select(index) {
    const moves = doc.moves || [];
    if (index < 0 || index >= moves.length) return;
    selected = index;
    history.replaceState(null, "", `#move-${index + 1}`);
    renderMove();
    renderMoves();
    drawScores();
    drawLoss();
    if (showingHere()) post("/api/replay", { game: gameId, move: index + 1 }).catch(() => {});
  }

  // --- the replay on the table --------------------------------------------------------------

  const showingHere = () => !!replay && replay.game === gameId;

  function renderReplayButtons() {
    $("replay-show").hidden = showingHere();
    $("replay-leave").hidden = !replay;
    document.body.dataset.replay = showingHere() ? String(replay.move) : "";
  }

  async function showOnTable() {
    try {
      const view = await post("/api/replay", { game: gameId, move: selected + 1 });
      replay = view && view.table ? view.table.replay : replay;
    } catch (e) { /* the toast says why */ }
    renderReplayButtons();
  }

  async function leaveReplay() {
    try {
      const view = await post("/api/replay/leave", {});
      replay = view && view.table ? view.table.replay : null;
    } catch (e) { /* the toast says why */ }
    renderReplayButtons();
  }

  // --- loading and polling ------------------------------------------------------------------

  function render() {
    $("review-title").textContent = t("Review: {game}", { game: doc.name || doc.variant });
    document.title = `${t("Review: {game}", { game: doc.name || doc.variant })} - ${t("Sudoku Table")}`;
    $("review-result").textContent = resultWords();
    renderProgress();
    renderSummary();
    renderMoves();
    renderMove();
    drawScores();
    drawLoss();
    document.body.dataset.status = doc.status;
    document.body.dataset.judged = String(doc.done || 0);
  }

  async function poll() {
    try {
      doc = await get(`/api/games/${gameId}/review`);
      render();
    } catch (e) { /* shown as a toast; the next poll tries again */ }
    if (doc && ["running", "waiting"].includes(doc.status)) setTimeout(poll, POLL_MS);
  }

  async function main() {
    await Panel.ready;
    $("move-first").addEventListener("click", () => select(0));
    $("move-prev").addEventListener("click", () => select(selected - 1));
    $("move-next").addEventListener("click", () => select(selected + 1));
    $("move-last").addEventListener("click", () => select((doc.moves || []).length - 1));
    $("replay-show").addEventListener("click", showOnTable);
    $("replay-leave").addEventListener("click", leaveReplay);
    try {
      doc = await post(`/api/games/${gameId}/review`, {});
    } catch (e) {
      $("review-error").hidden = false;
      $("review-error").textContent = e.message;
      $("review-progress").hidden = true;
      document.body.dataset.status = "missing";
      return;
    }
    const wanted = /^#move-(\d+)$/.exec(location.hash || "");
    if (wanted) selected = Math.min(Math.max(Number(wanted[1]) - 1, 0), (doc.moves || []).length - 1);
    try {
      const [legendAnswer, variantList, geometry, found] = await Promise.all([
        get("/api/legend"), get("/api/variants"), get(`/api/variants/${doc.variant}`),
        get(`/api/games/${gameId}/positions`)]);
      legend = legendAnswer;
      Board.setPalette(legend);
      traits = (variantList.find((v) => v.id === doc.variant) || {}).traits || {};
      positions = found.positions;
      board = Board.build($("review-board"), geometry, { legend: { signals: { ...legend.signals } },
        pieceLooks: traits.piece_looks, jokers: traits.has_jokers,
        pieceWords: traits.piece_words, clickable: false });
    } catch (e) { /* the board stays empty; the words and charts still say it all */ }
    render();
    Panel.liveViews((view) => {
      replay = (view.table && view.table.replay) || null;
      renderReplayButtons();
    });
    window.addEventListener("resize", () => { if (doc) { drawScores(); drawLoss(); } });
    if (["running", "waiting"].includes(doc.status)) setTimeout(poll, POLL_MS);
    document.body.dataset.rendered = "true";
  }

  main();
})();
