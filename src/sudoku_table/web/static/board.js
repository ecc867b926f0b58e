// Draws any board of the table as SVG, from the geometry of GET /api/variants/ID, and shows
// pieces and LED signals on it. Square boards get squares, "hex" boards hexagons, "triangle"
// boards the points of a triangular lattice, and any other shape (the cube's faces) one
// parallelogram per cell, following the cells of its region.
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const REGION_COLORS = ["#33465e", "#4b3d5c", "#35584a", "#5b4a36", "#1f5f6b", "#583a48",
                         "#485a36", "#3d3d66"];
  // A symbol per signal, so that no meaning rests on colour alone.
  const SYMBOLS = {
    illegal: "\u2715", conflict: "!", flip: "\u21bb", number: "?", dead: "\u2205",
    target: "\u2713", missing: "+", extra: "\u2212", setup: "S", last: "\u2605",
    computer: "C", hint: "i", unsaved: "\u26a0", replayed: "\u25b6", better: "\u25c6",
  };
  const t = (text, params) => (typeof Panel !== "undefined" ? Panel.t(text, params) : text);
  // What each light means, in this phone's language (read when shown, after the words came),
  // with the game's own word for its pieces (Game.traits' piece_word: piece, card or stone).
  function meanings(pieceWord) {
    const pick = (piece, card, stone) => (pieceWord === "card" ? card
      : pieceWord === "stone" ? stone : piece);
    return {
      illegal: pick(t("take this piece away"), t("take this card away"), t("take this stone away")),
      conflict: pick(t("the piece it clashes with"), t("the card it clashes with"),
                     t("the stone it clashes with")),
      flip: t("turn this piece over"),
      number: pick(t("tell the panel this piece's number"), t("tell the panel this card's number"),
                   t("tell the panel this stone's number")),
      dead: t("dead field: only a blank may go here"),
      target: pick(t("a piece may go here"), t("a card may go here"), t("a stone may go here")),
      missing: pick(t("a piece belongs here"), t("a card belongs here"), t("a stone belongs here")),
      extra: pick(t("this piece does not belong here"), t("this card does not belong here"),
                  t("this stone does not belong here")),
      setup: pick(t("put a start piece here"), t("put a start card here"),
                  t("put a start stone here")),
      last: t("last move or completed area"),
      computer: t("carry out the computer's move here"), hint: t("the hint you asked for"),
      unsaved: t("not counted yet: the table cannot save (in the corners: the table cannot save)"),
      replayed: t("the move played here"), better: t("the computer's better move"),
    };
  }
  // Drawing units per square. Browsers enforce a minimum font size in user units, so the
  // drawing uses large numbers rather than one unit per square.
  const S = 100;
  // The panel's seat colours and marks (GET /api/legend); the defaults match src/sudoku_table/web/palette.py.
  let seats = ["#99ddff", "#cc3311", "#009e73", "#aa4499"];
  let gold = "#f0e442";
  const MARKS = ["circle", "triangle", "square", "diamond"];

  function setPalette(legend) {
    if (legend && Array.isArray(legend.players) && legend.players.length) seats = legend.players;
    if (legend && legend.nobody) gold = legend.nobody;
  }

  let chosen = []; // the colours the players chose for this game (the view's table.colors)

  function setSeatColors(colors) { chosen = Array.isArray(colors) ? colors : []; }

  function seatColor(i) {
    if (i === null || i === undefined) return gold;
    return chosen[i] || seats[i % seats.length];
  }

  function markOf(i) {
    return i === null || i === undefined ? "star" : MARKS[i % MARKS.length];
  }

  // A small shape on each piece that tells its owner without colour.
  function markShape(kind, x, y, size, color) {
    const h = size / 2;
    const attrs = { class: "owner-mark", fill: color, "data-mark": kind };
    if (kind === "circle") return svgEl("circle", { ...attrs, cx: x, cy: y, r: h * 0.8 });
    if (kind === "square") {
      return svgEl("rect", { ...attrs, x: x - h * 0.75, y: y - h * 0.75, width: h * 1.5, height: h * 1.5 });
    }
    let pts;
    if (kind === "triangle") pts = [[x, y - h], [x + h, y + h * 0.8], [x - h, y + h * 0.8]];
    else if (kind === "diamond") pts = [[x, y - h], [x + h, y], [x, y + h], [x - h, y]];
    else {
      pts = [];
      for (let k = 0; k < 10; k++) {
        const a = (-90 + 36 * k) * Math.PI / 180, r = k % 2 ? h * 0.45 : h;
        pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
      }
    }
    return svgEl("polygon", { ...attrs, points: polygonPoints(pts) });
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  // The first stone of SUDOKU FAMILY goes on one of these (docs/RULINGS.md); a geometry may also
  // name its marked cells itself in "dots".

  // Printed numbers that are not pieces: Kakuro's run sums ("clues") and any other labels.
  // "clues" maps a run's house name to its sum (a number, or {"sum": n}); the clue is printed
  // on the square before the run, across clues top right and down clues bottom left, as in a
  // Kakuro grid; a clue may name its square and direction ({"sum", "square", "direction"}).
  // "labels" maps a square or cell to a short text printed in its corner.
  function clueMarks(geometry) {
    const raw = geometry.coords || {};
    const marks = {};
    const at = (xy) => {
      const key = `${xy[0]},${xy[1]}`;
      if (!marks[key]) marks[key] = { xy, across: null, down: null };
      return marks[key];
    };
    for (const [name, clue] of Object.entries(geometry.clues || {})) {
      const value = clue !== null && typeof clue === "object" ? clue.sum : clue;
      const cells = (geometry.houses || {})[name] || (geometry.sections || {})[name] || [];
      if (value === undefined || value === null) continue;
      const where = clue !== null && typeof clue === "object" ? clue.square : null;
      const direction = clue !== null && typeof clue === "object" ? clue.direction : null;
      if (typeof where === "string" && /^[a-i][1-9]$/.test(where) &&
          (direction === "across" || direction === "down")) {
        // Printed on a named square of the sensor grid (square boards: file, rank from 0).
        at([where.charCodeAt(0) - 97, Number(where[1]) - 1])[direction] = String(value);
        continue;
      }
      if (!cells.length || !cells.every((c) => raw[c])) continue;
      const across = cells.every((c) => raw[c][1] === raw[cells[0]][1]);
      const down = cells.every((c) => raw[c][0] === raw[cells[0]][0]);
      if (across === down) continue; // a single cell or not a straight run
      if (across) {
        const first = cells.reduce((a, b) => (raw[b][0] < raw[a][0] ? b : a));
        at([raw[first][0] - 1, raw[first][1]]).across = String(value);
      } else {
        const first = cells.reduce((a, b) => (raw[b][1] > raw[a][1] ? b : a));
        at([raw[first][0], raw[first][1] + 1]).down = String(value);
      }
    }
    return Object.values(marks);
  }

  function minDistance(points) {
    let best = Infinity;
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) {
        const d = Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]);
        if (d > 1e-6 && d < best) best = d;
      }
    }
    return Number.isFinite(best) ? best : 1;
  }

  // Few regions (triangles, faces) each get their own colour, as on the printed boards; many
  // (blocks, cages) are coloured so that touching regions differ (greedy, in listed order).
  function regionColors(geometry, pos, unit) {
    const names = Object.keys(geometry.regions || {});
    if (names.length <= REGION_COLORS.length && names.length < 9) {
      return Object.fromEntries(names.map((name, i) => [name, REGION_COLORS[i]]));
    }
    const touching = {};
    for (const a of names) touching[a] = new Set();
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = names[i], b = names[j];
        outer: for (const ca of geometry.regions[a]) {
          for (const cb of geometry.regions[b]) {
            const d = Math.hypot(pos[ca][0] - pos[cb][0], pos[ca][1] - pos[cb][1]);
            if (d < unit * 1.2) { touching[a].add(b); touching[b].add(a); break outer; }
          }
        }
      }
    }
    const colorOf = {};
    for (const name of names) {
      const used = new Set([...touching[name]].map((n) => colorOf[n]));
      let k = 0;
      while (used.has(REGION_COLORS[k % REGION_COLORS.length]) && k < REGION_COLORS.length) k++;
      colorOf[name] = REGION_COLORS[k % REGION_COLORS.length];
    }
    return colorOf;
  }

  function regionOf(geometry) {
    const result = {};
    for (const [name, cells] of Object.entries(geometry.regions || {})) {
      for (const cell of cells) if (!(cell in result)) result[cell] = name;
    }
    return result;
  }

  function polygonPoints(points) {
    return points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
  }

  // The two shortest independent steps between cells of one region: a face's lattice.
  function latticeBasis(cells, pos, unit) {
    const steps = [];
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j < cells.length; j++) {
        const v = [pos[cells[j]][0] - pos[cells[i]][0], pos[cells[j]][1] - pos[cells[i]][1]];
        const len = Math.hypot(v[0], v[1]);
        if (len > 1e-6 && len < unit * 1.6) steps.push({ v, len });
      }
    }
    steps.sort((a, b) => a.len - b.len);
    if (!steps.length) return null;
    const u = steps[0].v;
    for (const s of steps) {
      const cross = Math.abs(u[0] * s.v[1] - u[1] * s.v[0]);
      if (cross > 0.3 * steps[0].len * s.len) return [u, s.v];
    }
    return null;
  }

  function cellOutline(geometry, cell, pos, unit, basisOf) {
    const [x, y] = pos[cell];
    const shape = geometry.shape || "square";
    if (shape === "square") {
      const h = unit / 2;
      return polygonPoints([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]);
    }
    if (shape === "hex") {
      const r = unit / Math.sqrt(3) * 0.98;
      const start = geometry._pointy ? -90 : 0;
      const pts = [];
      for (let k = 0; k < 6; k++) {
        const a = (start + 60 * k) * Math.PI / 180;
        pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
      }
      return polygonPoints(pts);
    }
    const basis = basisOf(cell);
    if (!basis) {
      const h = unit / 2;
      return polygonPoints([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]);
    }
    const [u, v] = basis;
    const s = 0.5;
    return polygonPoints([
      [x - s * u[0] - s * v[0], y - s * u[1] - s * v[1]],
      [x + s * u[0] - s * v[0], y + s * u[1] - s * v[1]],
      [x + s * u[0] + s * v[0], y + s * u[1] + s * v[1]],
      [x - s * u[0] + s * v[0], y - s * u[1] + s * v[1]],
    ]);
  }

  // Build the static drawing: cells, regions, borders, labels. Returns what update() needs.
  function build(svg, geometry, options) {
    while (svg.firstChild) svg.firstChild.remove();
    const raw = geometry.coords || {};
    const clues = clueMarks(geometry);
    // The drawing spans the cells and the squares that print a clue.
    const xs = geometry.cells.map((c) => raw[c][0] * S).concat(clues.map((m) => m.xy[0] * S));
    const ys = geometry.cells.map((c) => raw[c][1] * S).concat(clues.map((m) => m.xy[1] * S));
    const maxY = Math.max(...ys);
    // SVG's y grows downwards; the geometry's grows upwards.
    const pos = {};
    for (const c of geometry.cells) pos[c] = [raw[c][0] * S, maxY - raw[c][1] * S];
    const unit = geometry.shape === "square" ? S : minDistance(geometry.cells.map((c) => pos[c]));
    if (geometry.shape === "hex") {
      // Neighbours side by side mean hexagons standing on a corner.
      geometry._pointy = geometry.cells.some((a) => geometry.cells.some((b) =>
        a !== b && Math.abs(pos[a][1] - pos[b][1]) < unit * 0.1 &&
        Math.abs(Math.abs(pos[a][0] - pos[b][0]) - unit) < unit * 0.1));
    }
    // Square boards run edge to edge (their coordinates are printed inside the squares); the
    // other shapes keep a margin for their outer cells.
    const pad = unit * (geometry.shape === "square" ? 0.52 : 0.8);
    const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
    const minYs = -pad, maxYs = maxY - Math.min(...ys) + pad;
    svg.setAttribute("viewBox", `${minX} ${minYs} ${maxX - minX} ${maxYs - minYs}`);

    const regionName = regionOf(geometry);
    const colors = regionColors(geometry, pos, unit);
    const bases = {};
    const basisOf = (cell) => {
      const name = regionName[cell] || "";
      if (!(name in bases)) {
        const members = name ? geometry.regions[name] : geometry.cells;
        bases[name] = latticeBasis(members, pos, unit) || latticeBasis(geometry.cells, pos, unit);
      }
      return bases[name];
    };

    const defs = svgEl("defs", {});
    const marker = svgEl("marker", { id: "guide-arrow", viewBox: "0 0 10 10", refX: "8", refY: "5",
                                     markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
    marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#ff8c1a" }));
    defs.append(marker);
    svg.append(defs);
    let coordLayer = [];
    const layers = {};
    // The coordinates lie above the signals: a ring on an edge square runs over its corner,
    // where "a" or "1" is printed, and the bar names squares by them.
    for (const name of ["ground", "cells", "lattice", "borders", "pieces", "signals", "coords",
                        "guide", "hits"]) {
      layers[name] = svgEl("g", { class: `layer-${name}` });
      svg.append(layers[name]);
    }

    if (geometry.shape === "square") {
      // Squares of the bounding box that are not cells (Kakuro's black squares) stay dark.
      layers.ground.append(svgEl("rect", {
        class: "off-board", x: Math.min(...xs) - unit / 2, y: -unit / 2,
        width: Math.max(...xs) - Math.min(...xs) + unit, height: maxY - Math.min(...ys) + unit,
      }));
      // Square boards sit on the sensor grid: name every file and rank of the drawn area.
      const fileLow = Math.round(Math.min(...xs) / S), fileHigh = Math.round(Math.max(...xs) / S);
      const rankLow = Math.round(Math.min(...ys) / S), rankHigh = Math.round(maxY / S);
      coordLayer = [];
      for (let f = fileLow; f <= fileHigh; f++) {
        coordLayer.push(["coord coord-file", f * S + unit * 0.36, maxY - rankLow * S + unit * 0.34,
                         String.fromCharCode(97 + f)]);
      }
      for (let r = rankLow; r <= rankHigh; r++) {
        coordLayer.push(["coord coord-rank", fileLow * S - unit * 0.38, maxY - r * S - unit * 0.3,
                         String(r + 1)]);
      }
    }

    if (geometry.shape === "triangle") {
      for (let i = 0; i < geometry.cells.length; i++) {
        for (let j = i + 1; j < geometry.cells.length; j++) {
          const a = pos[geometry.cells[i]], b = pos[geometry.cells[j]];
          if (Math.abs(Math.hypot(a[0] - b[0], a[1] - b[1]) - unit) < unit * 0.05) {
            layers.lattice.append(svgEl("line", {
              class: "lattice", x1: a[0], y1: a[1], x2: b[0], y2: b[1],
            }));
          }
        }
      }
    }

    const squares = {};
    const names = geometry.shape === "square" ? null : svgEl("g", { class: "cell-names" });
    for (const cell of geometry.cells) {
      const [x, y] = pos[cell];
      const fill = colors[regionName[cell]] || REGION_COLORS[0];
      let shapeNode;
      if (geometry.shape === "triangle") {
        shapeNode = svgEl("circle", { class: "cell", cx: x, cy: y, r: unit * 0.44, fill });
      } else {
        shapeNode = svgEl("polygon", {
          class: "cell", points: cellOutline(geometry, cell, pos, unit, basisOf), fill,
        });
      }
      layers.cells.append(shapeNode);
      const hit = shapeNode.cloneNode();
      hit.setAttribute("class", "cell-hit");
      // A square of the simulated table is a button (tap: a hand puts a piece down or lifts
      // it); elsewhere it is a labelled picture of what stands there; in a small picture of the
      // whole board (options.picture) the board's own label says it all.
      const group = svgEl("g", options.clickable
        ? { class: "sq", "data-square": cell, role: "button", tabindex: "0", "aria-label": cell }
        : options.picture ? { class: "sq", "data-square": cell }
          : { class: "sq", "data-square": cell, role: "img", "aria-label": cell });
      group.append(hit);
      if (options.onSquare) {
        group.addEventListener("click", () => options.onSquare(cell));
        group.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); options.onSquare(cell); }
        });
      }
      layers.hits.append(group);
      squares[cell] = { x, y, group, shapeNode };
      if (names) {
        // Cells of other shapes carry their name, as the messages use it ("d5").
        const t = svgEl("text", { class: "cell-name", x, y: y + unit * 0.43, "data-name": cell });
        t.textContent = cell;
        names.append(t);
      }
    }
    if (names) layers.borders.append(names);
    for (const [cls, x, y, text] of coordLayer) {
      const label = svgEl("text", { class: cls, x, y });
      label.textContent = text;
      layers.coords.append(label);
    }

    if (geometry.shape === "square") {
      drawRegionBorders(geometry, pos, regionName, layers.borders, unit);
    }
    if (geometry.shape === "hex") {
      drawHexBorders(geometry, pos, regionName, layers.borders, unit);
    }
    drawRegionNumbers(geometry, pos, unit, layers.borders);
    drawClues(clues, maxY, unit, layers.borders);
    drawLabels(geometry, pos, raw, maxY, unit, layers.borders);
    const dots = (geometry.marked || {}).dots || [];
    for (const cell of dots) {
      if (!pos[cell]) continue;
      layers.borders.append(svgEl("circle", {
        class: "dot", cx: pos[cell][0], cy: pos[cell][1], r: unit * 0.1, "data-dot": cell,
      }));
    }

    return { svg, geometry, pos, unit, layers, squares, legend: options.legend || {},
             pieceLooks: options.pieceLooks || [], jokers: !!options.jokers,
             pieceWord: options.pieceWord || "piece", picture: !!options.picture };
  }

  // Thick lines where two regions (blocks, jigsaw regions, cages) meet, as on the printed board.
  function drawRegionBorders(geometry, pos, regionName, layer, unit) {
    if (!Object.keys(geometry.regions || {}).length) return;
    const at = {};
    for (const c of geometry.cells) at[`${pos[c][0]},${pos[c][1]}`] = c;
    const sides = [[1, 0], [-1, 0], [0, 1], [0, -1]];
    const h = unit / 2;
    for (const c of geometry.cells) {
      const [x, y] = pos[c];
      for (const [dx, dy] of sides) {
        const other = at[`${x + dx * unit},${y + dy * unit}`];
        if (other && regionName[other] === regionName[c]) continue;
        const x1 = x + dx * h + (dy ? -h : 0), x2 = x + dx * h + (dy ? h : 0);
        const y1 = y + dy * h + (dx ? -h : 0), y2 = y + dy * h + (dx ? h : 0);
        layer.append(svgEl("line", { class: "border", x1, y1, x2, y2 }));
      }
    }
  }

  // Hexagons of two regions share a side halfway between their centres, across the line
  // joining them; that side is drawn thick, as where two squares of two regions meet.
  function drawHexBorders(geometry, pos, regionName, layer, unit) {
    if (!Object.keys(geometry.regions || {}).length) return;
    const side = unit / Math.sqrt(3);
    const cells = geometry.cells;
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j < cells.length; j++) {
        const a = cells[i], b = cells[j];
        if (regionName[a] === regionName[b]) continue;
        const dx = pos[b][0] - pos[a][0], dy = pos[b][1] - pos[a][1];
        const d = Math.hypot(dx, dy);
        if (Math.abs(d - unit) > unit * 0.1) continue;
        const mx = (pos[a][0] + pos[b][0]) / 2, my = (pos[a][1] + pos[b][1]) / 2;
        const px = -dy / d * side / 2, py = dx / d * side / 2;
        layer.append(svgEl("line", { class: "border hex-border", x1: mx - px, y1: my - py, x2: mx + px,
                                     y2: my + py }));
      }
    }
  }

  // A few numbered regions (SUDOKU FAMILY's "triangle 1".."triangle 6") carry their number
  // where the messages can be followed: at the region's middle, when that falls between its
  // cells. All of them or none: a board where one middle would cover a cell keeps its regions
  // unnumbered rather than numbering some.
  function drawRegionNumbers(geometry, pos, unit, layer) {
    const regions = Object.entries(geometry.regions || {});
    if (!regions.length || regions.length > 8) return;
    const labels = [];
    for (const [name, cells] of regions) {
      const number = /\s(\d+)$/.exec(name);
      if (!number || !cells.length) return;
      const cx = cells.reduce((sum, c) => sum + pos[c][0], 0) / cells.length;
      const cy = cells.reduce((sum, c) => sum + pos[c][1], 0) / cells.length;
      const nearest = Math.min(...geometry.cells.map((c) => Math.hypot(pos[c][0] - cx, pos[c][1] - cy)));
      if (nearest < unit * 0.5) return;
      // Near the middle, the point farthest from every cell and every cell's name (drawn
      // below it), so the number covers neither.
      let x = cx, y = cy, best = -Infinity;
      for (const dx of [0, -0.15, 0.15, -0.3, 0.3]) {
        for (const dy of [0, -0.15, 0.15, -0.3, 0.3]) {
          const px = cx + dx * unit, py = cy + dy * unit;
          const room = Math.min(...geometry.cells.flatMap((c) => [
            Math.hypot(pos[c][0] - px, pos[c][1] - py) - unit * 0.44,
            Math.hypot(pos[c][0] - px, pos[c][1] + unit * 0.43 - py) - unit * 0.2]));
          if (room > best + unit * 0.01) { best = room; x = px; y = py; }
        }
      }
      const label = svgEl("text", { class: "region-number", x, y, "data-region": name });
      label.textContent = number[1];
      labels.push(label);
    }
    layer.append(...labels);
  }

  function drawClues(clues, maxY, unit, layer) {
    const h = unit / 2;
    for (const mark of clues) {
      const x = mark.xy[0] * S, y = maxY - mark.xy[1] * S;
      const [fx, ry] = mark.xy;
      const onGrid = Number.isInteger(fx) && Number.isInteger(ry) && fx >= 0 && fx < 9 &&
        ry >= 0 && ry < 9;
      const group = svgEl("g", { class: "clue", "data-across": mark.across ?? "",
                                 "data-down": mark.down ?? "",
                                 "data-at": onGrid ? String.fromCharCode(97 + fx) + (ry + 1) : "" });
      group.append(svgEl("rect", { class: "clue-square", x: x - h, y: y - h, width: unit,
                                   height: unit }));
      group.append(svgEl("line", { class: "clue-diagonal", x1: x - h, y1: y - h, x2: x + h,
                                   y2: y + h }));
      if (mark.across !== null) {
        const t = svgEl("text", { class: "clue-number", x: x + h * 0.42, y: y - h * 0.42 });
        t.textContent = mark.across;
        group.append(t);
      }
      if (mark.down !== null) {
        const t = svgEl("text", { class: "clue-number", x: x - h * 0.42, y: y + h * 0.45 });
        t.textContent = mark.down;
        group.append(t);
      }
      layer.append(group);
    }
  }

  function drawLabels(geometry, pos, raw, maxY, unit, layer) {
    for (const [where, text] of Object.entries(geometry.labels || {})) {
      let xy = pos[where];
      if (!xy && /^[a-i][1-9]$/.test(where)) {
        // A square that is not a cell: placed by its name, on the grid of the square boards.
        xy = [(where.charCodeAt(0) - 97) * S, maxY - (Number(where[1]) - 1) * S];
      }
      if (!xy) continue;
      const t = svgEl("text", { class: "cell-label", x: xy[0] - unit * 0.44, y: xy[1] - unit * 0.3,
                                "data-label": where });
      t.textContent = String(text);
      layer.append(t);
    }
  }

  // The board in words, for a small picture of it: how many cells of which shape, in how many
  // regions of which kind (the kind is the first word of a region's name), and the marks.
  function describe(geometry) {
    const cells = geometry.cells.length;
    const regions = Object.keys(geometry.regions || {});
    const count = regions.length;
    const kind = count ? regions[0].split(" ")[0] : "";
    const clues = Object.keys(geometry.clues || {}).length;
    let words;
    if (geometry.shape === "triangle") {
      words = t("{cells} points of a triangle lattice in {count} triangles", { cells, count });
    } else if (geometry.shape === "hex") {
      words = t("{cells} hexagons in {count} regions", { cells, count });
    } else if (geometry.shape === "square" && clues && !count) {
      words = t("{cells} white squares in runs with {clues} sums", { cells, clues });
    } else if (geometry.shape === "square") {
      words = kind === "block" ? t("{cells} squares in {count} blocks", { cells, count })
        : kind === "cage" ? t("{cells} squares in {count} cages", { cells, count })
          : count ? t("{cells} squares in {count} regions", { cells, count })
            : t("{cells} squares", { cells });
    } else if (kind === "face" || regions.some((name) => name.endsWith(" face"))) {
      words = t("{cells} squares on {count} faces of a cube", { cells, count });
    } else {
      words = t("{cells} cells", { cells });
    }
    const dots = ((geometry.marked || {}).dots || []).length;
    return dots ? `${words}, ${t("{dots} of them marked with a black dot", { dots })}` : words;
  }

  function textColor(hex) {
    const n = parseInt(hex.slice(1), 16);
    const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return lum > 140 ? "#111" : "#f5f5f5";
  }

  function pieceColors(board, owner) {
    // Drawn as the real pieces look where the game says so (white and black pieces).
    const look = owner === null || owner === undefined ? null : board.pieceLooks[owner];
    if (look) return look;
    const fill = seatColor(owner);
    return { fill, text: textColor(fill) };
  }

  // Show the view: the game's pieces, what the sensors feel, and every signal.
  function update(board, view) {
    const game = view.game || { cells: {} };
    const table = view.table || {};
    const occupied = new Set(table.occupied || []);
    // Felt but not yet confirmed: drawn as the hand left it, with a white ring (the LED's
    // acknowledgement), so a tap or a piece shows at once.
    const felt = new Set(table.felt || []);
    const signals = table.signals || {};
    const hinted = Object.values(signals).includes("hint");
    const said = meanings(board.pieceWord);
    const unturned = table.unturned || {};
    setSeatColors(table.colors);
    const legend = board.legend.signals || {};
    const { pieces, signals: signalLayer } = board.layers;
    while (pieces.firstChild) pieces.firstChild.remove();
    while (signalLayer.firstChild) signalLayer.firstChild.remove();
    const guide = board.layers.guide;
    while (guide.firstChild) guide.firstChild.remove();
    const r = board.unit * 0.36;
    // "Move the piece from there to here": an arrow per pair of extra and missing pieces.
    for (const pair of table.guidance || []) {
      const a = board.squares[pair.from], b = board.squares[pair.to];
      if (!a || !b) continue;
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const cut = board.unit * 0.3 / len;
      guide.append(svgEl("line", {
        class: "guide", x1: a.x + (b.x - a.x) * cut, y1: a.y + (b.y - a.y) * cut,
        x2: b.x - (b.x - a.x) * cut, y2: b.y - (b.y - a.y) * cut,
        "marker-end": "url(#guide-arrow)", "data-from": pair.from, "data-to": pair.to,
      }));
    }

    for (const [cell, sq] of Object.entries(board.squares)) {
      const piece = (game.cells || {})[cell];
      const group = sq.group;
      const here = occupied.has(cell) !== felt.has(cell);
      group.dataset.occupied = here ? "true" : "false";
      if (felt.has(cell)) {
        group.dataset.felt = "true";
        signalLayer.append(svgEl("circle", { class: "felt-ring", cx: sq.x, cy: sq.y,
                                             r: board.unit * 0.45 }));
      } else delete group.dataset.felt;
      delete group.dataset.number;
      delete group.dataset.owner;
      delete group.dataset.blank;
      delete group.dataset.signal;
      let label = cell;
      // While the board is cleared of an earlier game, what stands there is a leftover (drawn
      // as an unknown piece), never this game's start piece.
      if (piece && !(table.clearing && here)) {
        // A piece still to be turned over is drawn as it stands: its old owner's face.
        const stillShows = cell in unturned;
        const owner = stillShows ? unturned[cell] : piece.owner;
        const colors = pieceColors(board, owner);
        // A piece the game has but the sensors do not feel is drawn faded: lifted or missing.
        const lifted = Array.isArray(table.occupied) && !here;
        const classes = "piece" + (lifted ? " lifted" : "");
        pieces.append(svgEl("circle", { class: classes, cx: sq.x, cy: sq.y, r, fill: colors.fill,
                                        stroke: colors.edge || "#00000088" }));
        group.dataset.owner = owner === null ? "none" : String(owner);
        if (stillShows) group.dataset.unturned = "true";
        else delete group.dataset.unturned;
        if (!board.pieceLooks.length) {
          pieces.append(markShape(markOf(owner), sq.x, sq.y + r * 0.68, r * 0.34, colors.text));
        }
        if (piece.blank) {
          group.dataset.blank = "true";
          if (board.jokers) {
            const t = svgEl("text", { class: "piece-number", x: sq.x, y: sq.y, fill: colors.text });
            t.textContent = "J";
            pieces.append(t);
          } else {
            pieces.append(svgEl("circle", {
              class: "blank-mark", cx: sq.x, cy: sq.y, r: r * 0.55, stroke: colors.text,
            }));
          }
          label += " " + (board.jokers ? t("joker") : t("blank"));
        } else {
          group.dataset.number = String(piece.number);
          const t = svgEl("text", { class: "piece-number", x: sq.x, y: sq.y - r * 0.1, fill: colors.text });
          t.textContent = String(piece.number);
          pieces.append(t);
          label += ` ${piece.number}`;
        }
      } else if (here) {
        pieces.append(svgEl("circle", { class: "piece unknown", cx: sq.x, cy: sq.y, r }));
        label += ", " + (board.pieceWord === "card" ? t("a card")
          : board.pieceWord === "stone" ? t("a stone") : t("a piece"));
      }
      const word = signals[cell];
      if (word) {
        group.dataset.signal = word;
        label += `, ${said[word] || word}`;
        const look = legend[word] || { color: "#ffffff", pattern: "steady", level: 1 };
        // While a hint shows, the words that step back (the targets) dim as their LEDs do, so
        // the hint's square stands out of the many where a number may go.
        const behind = hinted && typeof look.behind_hint === "number";
        const opacity = behind ? Math.min(0.35, Math.max(0.2, look.behind_hint * 2)).toFixed(2)
          : Math.max(0.55, look.level || 1).toFixed(2);
        const pattern = `pattern-${look.pattern || "steady"}`;
        if (word === "hint") {
          // The hint's square tinted in its colour: the one square the hint names.
          signalLayer.append(svgEl("circle", { class: "hint-halo", cx: sq.x, cy: sq.y,
                                               r: board.unit * 0.45, fill: look.color }));
        }
        const ring = svgEl("circle", {
          class: `signal-ring ${pattern}${behind ? " behind" : ""}${word === "hint" ? " hint-ring" : ""}`,
          cx: sq.x, cy: sq.y, r: board.unit * (behind ? 0.4 : 0.45),
          stroke: look.color, "stroke-opacity": opacity, "data-signal": word,
        });
        signalLayer.append(ring);
        if (behind) {
          group.dataset.behind = "true";
        } else {
          delete group.dataset.behind;
          const dx = board.unit * 0.3, dy = -board.unit * 0.3;
          const badge = svgEl("g", { class: `signal-dot ${pattern}` });
          badge.append(svgEl("circle", { cx: sq.x + dx, cy: sq.y + dy, r: board.unit * 0.16,
                                         fill: look.color }));
          const t = svgEl("text", { class: "signal-label", x: sq.x + dx, y: sq.y + dy });
          t.style.fill = textColor(look.color); // readable on every badge colour (dead is dark blue)
          t.textContent = SYMBOLS[word] || "*";
          badge.append(t);
          signalLayer.append(badge);
        }
      } else {
        delete group.dataset.behind;
      }
      if (!board.picture) group.setAttribute("aria-label", label);
    }
  }

  return { build, update, setPalette, setSeatColors, seatColor, markOf, textColor, SYMBOLS, meanings,
           describe };
})();
