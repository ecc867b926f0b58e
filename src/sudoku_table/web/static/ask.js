// Ask the table: the play page's questions for a player who cannot see the board (or whose
// eyes are on it). Each button asks GET /api/say (docs/api.md, "Asking the table"); the answer
// is shown in the box (a polite live region, so a screen reader reads it), said by this
// phone's own voice when its speech is on or when "Say it on this phone" is tapped, and by the
// table's speaker when that switch is on. The square is typed, or picked by a tap on the board
// after "Tap it on the board". A part of its own: it only reads the page and the API.
const Ask = (() => {
  const $ = (id) => document.getElementById(id);
  const t = (text, params) => Panel.t(text, params);
  const ALOUD = "sudoku-table.ask-aloud";
  const SQUARE = /^[a-i][1-9]$/;
  const NEEDS_SQUARE = ["square", "rank", "file", "block", "may"];
  let last = "";

  function square() {
    return $("ask-square").value.trim().toLowerCase();
  }

  // The query of a question, or null (with the reason shown) when its square is missing.
  function query(q) {
    const params = new URLSearchParams({ q });
    if (NEEDS_SQUARE.includes(q)) {
      const chosen = square();
      if (!SQUARE.test(chosen)) {
        show(t("Type a square such as c3 first, or tap it on the board."));
        $("ask-square").focus();
        return null;
      }
      if (q === "rank") params.set("rank", chosen[1]);
      else if (q === "file") params.set("file", chosen[0]);
      else params.set("square", chosen);
    }
    if (q === "where") params.set("number", $("ask-number").value);
    if ($("ask-aloud").checked) params.set("speak", "1");
    return params;
  }

  function show(text) {
    last = text;
    $("ask-answer").textContent = text;
    $("ask-say").hidden = !text || !speaks();
    // Below the buttons: brought into view, so that the one who tapped sees it too.
    if (text) $("ask-answer").scrollIntoView({ block: "nearest" });
  }

  const speaks = () => !!window.speechSynthesis &&
    typeof window.SpeechSynthesisUtterance === "function";

  // This phone's own voice, in the page's language (the tap that asked lets the page speak).
  function sayHere(text) {
    if (!text || !speaks()) return;
    const u = new SpeechSynthesisUtterance(text);
    const language = Panel.language();
    u.lang = language === "de" ? "de-DE" : language === "en" ? "en-GB" : language;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  }

  async function ask(q) {
    const params = query(q);
    if (!params) return;
    let answer;
    try {
      answer = await Panel.get(`/api/say?${params}`);
    } catch (e) {
      show(e.message ? Panel.sentence(e.message) : "");
      return;
    }
    let text = answer.text;
    if (answer.spoken === false && answer.reason) text += " " + Panel.sentence(answer.reason);
    show(text);
    if (typeof Speech !== "undefined" && Speech.on()) sayHere(answer.text);
  }

  // Picking a square: the next tap on the board chooses it (before the simulated table's own
  // tap, which it then does not reach).
  function pick(on) {
    $("ask-pick").setAttribute("aria-pressed", on ? "true" : "false");
    $("board").classList.toggle("picking", on);
  }

  function onBoard(event) {
    if ($("ask-pick").getAttribute("aria-pressed") !== "true") return;
    const group = event.target.closest && event.target.closest("[data-square]");
    if (!group) return;
    event.stopPropagation();
    event.preventDefault();
    $("ask-square").value = group.dataset.square;
    pick(false);
    show(t("Square {square} chosen.", { square: group.dataset.square }));
    $("ask-square").focus();
  }

  function init() {
    if (!$("ask-box")) return;
    for (const button of document.querySelectorAll("#ask-box [data-q]")) {
      button.addEventListener("click", () => ask(button.dataset.q));
    }
    $("ask-square").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); ask("square"); }
    });
    $("ask-pick").addEventListener("click", () =>
      pick($("ask-pick").getAttribute("aria-pressed") !== "true"));
    $("board").addEventListener("click", onBoard, true);
    $("board").addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") onBoard(e);
    }, true);
    $("ask-say").addEventListener("click", () => sayHere(last));
    $("ask-aloud").checked = localStorage.getItem(ALOUD) === "on";
    $("ask-aloud").addEventListener("change", () =>
      localStorage.setItem(ALOUD, $("ask-aloud").checked ? "on" : "off"));
  }

  init();
  return { ask, sayHere };
})();
