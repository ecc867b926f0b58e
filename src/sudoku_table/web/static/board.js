// Draws any board of the table as SVG, from the drawing of GET /api/variants/ID (the same data
// the printed overlay draws: src/sudoku_table/rules/drawing.py makes it from the rules'
// geometry), and shows pieces and LED signals on it.
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // The dark region colours of the panel, by the drawing's colour index (palette_size long).
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
  // in the order of SYMBOLS. The lights that name a piece are the game's own words
  // (traits' piece_words.lights: "take this card away", "take this stone away"); the others
  // are the same in every game.
  function meanings(pieceWords) {
    const common = {
      flip: t("turn this piece over"),
      dead: t("dead field: only a blank may go here"),
      last: t("last move or completed area"),
      computer: t("carry out the computer's move here"), hint: t("the hint you asked for"),
      unsaved: t("not counted yet: the table cannot save (in the corners: the table cannot save)"),
      replayed: t("the move played here"), better: t("the computer's better move"),
    };
    const own = (pieceWords && pieceWords.lights) || {};
    const said = {};
    for (const word of Object.keys(SYMBOLS)) {
      if (word in own) said[word] = t(own[word]);
      else if (word in common) said[word] = common[word];
    }
    return said;
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

  function polygonPoints(points) {
    return points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
  }

  // Build the static drawing from the board's one drawing (GET /api/variants/ID's "drawing",
  // made by src/sudoku_table/rules/drawing.py, which the printed overlay draws too): cells,
  // region colours, borders, lattice links, clues, dots and labels. Positions come in square
  // units, y downwards; this scales them by S. Returns what update() needs.
  function build(svg, geometry, options) {
    while (svg.firstChild) svg.firstChild.remove();
    const drawing = geometry.drawing;
    const xy = (p) => [p[0] * S, p[1] * S];
    const unit = drawing.unit * S;
    svg.setAttribute("viewBox", drawing.box.map((v) => v * S).join(" "));

    const defs = svgEl("defs", {});
    const marker = svgEl("marker", { id: "guide-arrow", viewBox: "0 0 10 10", refX: "8", refY: "5",
                                     markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
    marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#ff8c1a" }));
    defs.append(marker);
    svg.append(defs);
    const layers = {};
    // The coordinates lie above the signals: a ring on an edge square runs over its corner,
    // where "a" or "1" is printed, and the bar names squares by them.
    for (const name of ["ground", "cells", "lattice", "borders", "pieces", "signals", "coords",
                        "guide", "hits"]) {
      layers[name] = svgEl("g", { class: `layer-${name}` });
      svg.append(layers[name]);
    }

    if (drawing.ground) {
      // Squares of the board's area that are not cells (Kakuro's black squares) stay dark.
      const [x, y, width, height] = drawing.ground.map((v) => v * S);
      layers.ground.append(svgEl("rect", { class: "off-board", x, y, width, height }));
    }
    const centre = Object.fromEntries(drawing.cells.map((c) => [c.cell, xy(c.at)]));
    // The links join the points of a lattice (cells drawn as circles); hexagons touch their
    // neighbours here, so their links show on paper only, where each cell keeps its square.
    const points = new Set(drawing.cells.filter((c) => c.outline === null).map((c) => c.cell));
    for (const [a, b] of drawing.links) {
      if (!points.has(a) || !points.has(b)) continue;
      const [x1, y1] = centre[a], [x2, y2] = centre[b];
      layers.lattice.append(svgEl("line", { class: "lattice", x1, y1, x2, y2 }));
    }

    const squares = {};
    const names = svgEl("g", { class: "cell-names" });
    for (const cell of drawing.cells) {
      const [x, y] = xy(cell.at);
      const fill = REGION_COLORS[cell.colour ?? 0];
      const marks = { "data-cell": cell.cell, "data-region": cell.region ?? "",
                      "data-colour": cell.colour ?? "" };
      const shapeNode = cell.outline === null
        ? svgEl("circle", { class: "cell", cx: x, cy: y, r: cell.radius * S, fill, ...marks })
        : svgEl("polygon", { class: "cell", points: polygonPoints(cell.outline.map(xy)), fill,
                             ...marks });
      layers.cells.append(shapeNode);
      const hit = shapeNode.cloneNode();
      hit.setAttribute("class", "cell-hit");
      for (const key of Object.keys(marks)) hit.removeAttribute(key);
      // A square of the simulated table is a button (tap: a hand puts a piece down or lifts
      // it); elsewhere it is a labelled picture of what stands there; in a small picture of the
      // whole board (options.picture) the board's own label says it all.
      const group = svgEl("g", options.clickable
        ? { class: "sq", "data-square": cell.cell, role: "button", tabindex: "0",
            "aria-label": cell.cell }
        : options.picture ? { class: "sq", "data-square": cell.cell }
          : { class: "sq", "data-square": cell.cell, role: "img", "aria-label": cell.cell });
      group.append(hit);
      if (options.onSquare) {
        group.addEventListener("click", () => options.onSquare(cell.cell));
        group.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); options.onSquare(cell.cell); }
        });
      }
      layers.hits.append(group);
      squares[cell.cell] = { x, y, group, shapeNode };
      if (cell.name_at) {
        // Cells of other shapes carry their name, as the messages use it ("d5").
        const [nx, ny] = xy(cell.name_at);
        names.append(text("cell-name", nx, ny, cell.cell, { "data-name": cell.cell }));
      }
    }
    if (names.firstChild) layers.borders.append(names);
    for (const label of drawing.coordinates) {
      const [x, y] = xy(label.at);
      layers.coords.append(text(`coord coord-${label.kind}`, x, y, label.text));
    }
    // Thick lines where two regions (blocks, jigsaw regions, cages, hexagons' regions) meet.
    const borderClass = drawing.shape === "hex" ? "border hex-border" : "border";
    for (const [x1, y1, x2, y2] of drawing.borders) {
      layers.borders.append(svgEl("line", { class: borderClass, x1: x1 * S, y1: y1 * S,
                                            x2: x2 * S, y2: y2 * S }));
    }
    for (const label of drawing.region_numbers) {
      const [x, y] = xy(label.at);
      layers.borders.append(text("region-number", x, y, label.text, { "data-region": label.of }));
    }
    drawClues(drawing.clues, unit, layers.borders);
    for (const cell of drawing.dots) {
      const [x, y] = centre[cell];
      layers.borders.append(svgEl("circle", { class: "dot", cx: x, cy: y, r: unit * 0.1,
                                              "data-dot": cell }));
    }

    return { svg, geometry, unit, layers, squares, legend: options.legend || {},
             pieceLooks: options.pieceLooks || [], jokers: !!options.jokers,
             pieceWords: options.pieceWords || null, picture: !!options.picture };
  }

  function text(cls, x, y, words, attrs) {
    const node = svgEl("text", { class: cls, x, y, ...(attrs || {}) });
    node.textContent = words;
    return node;
  }

  // Kakuro's clue squares: dark, split by a diagonal, the across sum top right and the down
  // sum bottom left, as in a Kakuro grid.
  function drawClues(clues, unit, layer) {
    const h = unit / 2;
    for (const clue of clues) {
      const [x, y] = [clue.at[0] * S, clue.at[1] * S];
      const group = svgEl("g", { class: "clue", "data-across": clue.across ?? "",
                                 "data-down": clue.down ?? "", "data-at": clue.square });
      group.append(svgEl("rect", { class: "clue-square", x: x - h, y: y - h, width: unit,
                                   height: unit }));
      group.append(svgEl("line", { class: "clue-diagonal", x1: x - h, y1: y - h, x2: x + h,
                                   y2: y + h }));
      if (clue.across !== null) group.append(text("clue-number", x + h * 0.42, y - h * 0.42, clue.across));
      if (clue.down !== null) group.append(text("clue-number", x - h * 0.42, y + h * 0.45, clue.down));
      layer.append(group);
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
    return dots ? words + ", " + t("{dots} of them marked with a black dot", { dots }) : words;
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
    const said = meanings(board.pieceWords);
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
        if (board.pieceWords) label += ", " + t(board.pieceWords.a);
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
