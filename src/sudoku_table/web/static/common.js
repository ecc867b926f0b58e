// Shared by every page: JSON requests with the PIN when the table asks for one (and the seat's
// token on a player's own phone), a toast for errors, and the live view stream. Plain browser
// JavaScript, no build step.
"use strict";

const Panel = (() => {
  const PIN_KEY = "sudoku-table-pin";
  const SEAT_KEY = "sudoku-table-seat";

  // A player's own phone keeps its seat here ({seat, token}, from the join page): every request
  // and the live stream then act as that seat. Null on a shared panel.
  function seat() {
    try {
      const kept = JSON.parse(localStorage.getItem(SEAT_KEY) || "null");
      return kept && typeof kept.token === "string" && Number.isInteger(kept.seat) ? kept : null;
    } catch (e) {
      return null;
    }
  }

  function keepSeat(kept) {
    if (kept) localStorage.setItem(SEAT_KEY, JSON.stringify({ seat: kept.seat, token: kept.token }));
    else localStorage.removeItem(SEAT_KEY);
  }

  // A sentence as it begins and ends: its first letter upper case (in this phone's language)
  // and a full stop where it has no mark of its own. The table's messages come in lower case,
  // to be quoted inside a sentence; shown alone, they read as sentences.
  function sentence(text, end = true) {
    if (!text) return text;
    // A square's name stays as the board prints it ("c3: ...", never "C3: ...").
    const square = /^[a-z]\d+\b/.test(text);
    const opened = square ? text : text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
    return end && !/[.!?\u2026:]$/.test(opened) ? `${opened}.` : opened;
  }

  function toast(text, kind) {
    const box = document.getElementById("toast");
    if (!box) return;
    // Over an open dialog the rest of the page lies under its backdrop: the toast goes inside
    // the dialog (still fixed to the screen's foot), and back to the page once none is open.
    const dialog = [...document.querySelectorAll("dialog[open]")].pop();
    const home = dialog || document.body;
    if (box.parentElement !== home) home.append(box);
    box.textContent = sentence(text);
    box.className = "toast" + (kind === "info" ? " info" : "");
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  // A question in the page's own dialog (base.html): resolves to true for the choice that does
  // what is asked (``yes``), false for the one that keeps things as they are (``no``, Escape).
  // Both choices are named by what they do; the one that changes nothing has the focus first.
  function ask(question, yes, no) {
    const dialog = document.getElementById("ask-dialog");
    document.getElementById("ask-text").textContent = sentence(question);
    document.getElementById("ask-yes").textContent = yes;
    document.getElementById("ask-no").textContent = no;
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      dialog.showModal();
      document.getElementById("ask-no").focus();
    });
  }

  // A tap that closes a dialog or an overlay must not reach what lies beneath it: a click whose
  // touch or press began while a dialog was open acts only inside an open dialog.
  let begunOverDialog = false;
  document.addEventListener("pointerdown", () => {
    begunOverDialog = !!document.querySelector("dialog[open]");
  }, true);
  document.addEventListener("click", (event) => {
    if (begunOverDialog && !event.target.closest("dialog[open]")) {
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);

  // A request to the API; resolves to the JSON answer, rejects with an Error carrying the
  // table's message (already shown as a toast unless quiet is set).
  async function request(method, path, body, options = {}) {
    // options.raw: a body that is JSON text already (a file being loaded), sent as it is.
    const headers = { "Accept": "application/json" };
    if (body !== undefined || options.raw !== undefined) headers["Content-Type"] = "application/json";
    const pin = sessionStorage.getItem(PIN_KEY);
    if (pin) headers["X-Table-Pin"] = pin;
    const mine = options.seat === undefined ? seat() : options.seat;
    if (mine) headers["X-Seat-Token"] = mine.token;
    let response;
    try {
      response = await fetch(path, {
        method, headers,
        body: options.raw !== undefined ? options.raw
          : body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
      });
    } catch (e) {
      // No answer at all: the table is off, restarting, or this phone left its Wi-Fi.
      offline(true);
      const error = new Error(t("The table cannot be reached: trying again\u2026"));
      error.status = 0;
      throw error;
    }
    if (!streaming) offline(false);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (response.ok) return data;
    const message = (data && data.error) || t("the table answered {status}", { status: response.status });
    if (response.status === 401 && data && data.pin && !options.retried) {
      const entered = window.prompt(sentence(message) + "\n" + t("Enter the table's PIN:"));
      if (entered) {
        sessionStorage.setItem(PIN_KEY, entered);
        return request(method, path, body, { ...options, retried: true });
      }
    }
    if (response.status === 409 && data && data.confirm && !options.confirmed &&
        body && typeof body === "object") {
      // Replacing a running game, reopening a finished one or taking back another player's
      // action is asked first, its choices named by the table (``yes``, ``no``).
      if (await ask(message, data.yes || t("Go on"), data.no || t("Keep it as it is"))) {
        const field = data.confirm === "replace" ? "replace" : "confirm";
        return request(method, path, { ...body, [field]: true }, { ...options, confirmed: true });
      }
      const error = new Error(message);
      error.status = 409;
      error.declined = true;
      throw error;
    }
    if (response.status === 401) sessionStorage.removeItem(PIN_KEY);
    // A stale input (409 "stale") is news, not a fault: the table says what it did instead.
    if (!options.quiet) toast(message, data && data.code === "stale" ? "info" : undefined);
    const error = new Error(message);
    error.status = response.status;
    error.data = data;
    throw error;
  }

  const get = (path) => request("GET", path);
  const post = (path, body) => request("POST", path, body || {});

  // While the table cannot be reached (its live views stopped, or a request got no answer),
  // every page says so on its line for it (data-offline-line; base.html has one) and marks
  // the body (data-offline), so that nothing it still shows is taken for the table's word.
  let streaming = false; // a page with live views: they alone say when the table is back
  function offline(on) {
    if (on) document.body.dataset.offline = "true";
    else delete document.body.dataset.offline;
    for (const line of document.querySelectorAll("[data-offline-line]")) {
      line.hidden = !on;
      if (on) line.textContent = t("The table cannot be reached: trying again\u2026");
    }
    // A page without live views asks the table itself, every few seconds, until it answers.
    clearTimeout(offline.retry);
    if (on && !streaming) {
      offline.retry = setTimeout(() => {
        fetch("/api/version", { cache: "no-store" }).then((r) => offline(!r.ok), () => offline(true));
      }, 3000);
    }
  }

  // Calls onView with every view the table sends; reconnects by itself after a drop.
  function liveViews(onView, onStatus) {
    // The server ends a live view now and then (after a few minutes, or when it is busy); the
    // browser reconnects by itself, and a refused one (429: too many phones at once) is tried
    // again here. Meanwhile the view is asked for once per try (GET /api/state), so a page
    // whose live view is refused still shows the game, a few seconds late at most. "Offline"
    // shows only when no view came back within a few seconds.
    streaming = true;
    let source = null;
    let closed = false;
    let waiting = null;
    let live = false; // the live view is sending
    function back(view) {
      clearTimeout(waiting);
      waiting = null;
      offline(false);
      if (onStatus) onStatus(true);
      onView(view);
    }
    function lost() {
      if (waiting === null) {
        waiting = setTimeout(() => { offline(true); if (onStatus) onStatus(false); }, 4000);
      }
    }
    async function asked() {
      try {
        const view = await request("GET", "/api/state", undefined, { quiet: true });
        if (!live && !closed) back(view);
      } catch (e) { /* not reached either: "offline" shows once the wait is over */ }
    }
    function open() {
      const mine = seat();
      source = new EventSource(mine ? `/api/events?token=${encodeURIComponent(mine.token)}`
        : "/api/events");
      source.addEventListener("view", (event) => {
        live = true;
        back(JSON.parse(event.data));
      });
      source.onerror = () => {
        live = false;
        lost();
        if (source.readyState === EventSource.CLOSED && !closed) {
          asked();
          setTimeout(open, 3000);
        }
      };
    }
    open();
    function close() { closed = true; if (source) source.close(); }
    window.addEventListener("pagehide", close);
    return close;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  // The panel's words in this phone's language (GET /api/i18n: the same catalogs as the
  // pages). t("English words {name}", {name: ...}) gives them translated, with the parameters.
  let words = { language: "en", strings: {}, codes: {} };
  const ready = fetch("/api/i18n", { headers: { "Accept": "application/json" },
                                     credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((w) => { if (w) words = w; })
    .catch(() => {});

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}|%\((\w+)\)s/g, (match, a, b) => {
      const key = a || b;
      return key in params ? String(params[key]) : match;
    });
  }

  function t(text, params) {
    return fill(words.strings[text] || text, params);
  }

  // A code the table sends (a message, a next step, an end reason, a score part), worded in
  // this phone's language; null for a code the catalog does not know.
  function said(kind, code, params) {
    const english = (words.codes[kind] || {})[code];
    return english === undefined ? null : t(english, params);
  }

  const language = () => words.language;

  // What the table says when it cannot save, or saves on its last space (the view's
  // table.saving): a headline and what to do, in this phone's language; null when all is well.
  function savingWords(saving) {
    if (!saving || !saving.state || saving.state === "ok") return null;
    if (saving.state === "low") {  // short is what the what-now bar says: play goes on
      return saving.cause === "reserve_used"
        ? { kind: "low", title: t("The memory card is full."),
            todo: t("The table uses the space it kept for this game, so the game can be played to the end and is saved. Free space on the card before the next game (see the table's guide)."),
            short: t("The memory card is full: this game is still saved to its end; free space before the next one.") }
        : { kind: "low", title: t("The memory card is nearly full."),
            todo: t("A new game waits until there is space on the card (see the table's guide)."),
            short: t("The memory card is nearly full: free space before the next game.") };
    }
    const titles = {
      full: t("The table cannot save: its memory card is full."),
      read_only: t("The table cannot save: its memory card has turned read-only."),
      io: t("The table cannot save: its memory card reports errors."),
    };
    const todo = saving.cause === "full"
      ? t("Nothing counts until it can. Free space on the card (see the table's guide): the table tries again every few seconds and goes on by itself.")
      : saving.cause === "read_only" || saving.cause === "io"
        ? t("Nothing counts until it can. The card is failing, but what was saved so far is safe on it: switch the table off, copy the save file from the card and put in a new one (see the table's guide).")
        : t("Nothing counts until it can. The table tries again every few seconds.");
    return { kind: "failing", title: titles[saving.cause] || t("The table cannot save."), todo };
  }

  // The banner at the top of a page that has no what-now bar (start, table).
  function showSaving(saving) {
    const box = document.getElementById("saving-banner");
    if (!box) return;
    const words = savingWords(saving);
    box.hidden = !words;
    if (!words) return;
    box.dataset.kind = words.kind;
    box.replaceChildren(el("strong", { text: words.title }), " ", el("span", { text: words.todo }));
  }

  // A player's own phone gives its seat back (asked first), and opens ``then`` as a shared
  // panel. False when the player kept it, or the table refused (the toast says why).
  async function leaveSeat(then) {
    const kept = seat();
    if (!kept) return false;
    if (!await ask(t("Leave this seat? This phone then stops playing it; it can join again with a new code."),
                   t("Leave the seat"), t("Stay in the seat"))) return false;
    try {
      await post(`/api/seats/${kept.seat}/leave`, {});
    } catch (e) {
      if (e.status !== 403) return false; // the seat is still this phone's
    }
    keepSeat(null);
    window.location.replace(then);
    return true;
  }

  return { ask, leaveSeat, request, get, post, liveViews, toast, el, t, said, ready, language, savingWords,
           showSaving, seat, keepSeat, sentence, offline };
})();
