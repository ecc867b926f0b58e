// The rules page: a picture of the game's board (regions, clues, marked cells), drawn from the
// same geometry the rules and the play page use.
"use strict";

(async () => {
  const box = document.getElementById("rules-board-box");
  const variant = box.dataset.variant;
  try {
    const [geometry, legend, list] = await Promise.all([
      Panel.get(`/api/variants/${encodeURIComponent(variant)}`), Panel.get("/api/legend"),
      Panel.get("/api/variants")]);
    const traits = (list.find((v) => v.id === variant) || {}).traits || {};
    const board = Board.build(document.getElementById("rules-board"), geometry, {
      legend, pieceLooks: traits.piece_looks, jokers: traits.has_jokers,
      pieceWords: traits.piece_words,
    });
    Board.update(board, { game: { cells: {} }, table: { signals: {} } });
    document.body.dataset.rendered = "true";
  } catch (e) {
    box.hidden = true; // the toast says what failed
  }
})();
