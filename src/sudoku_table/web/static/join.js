// The join page: a player's own phone takes a seat. The link of the shared panel's code carries
// a one-time token after the "#" (claimed at once); else the short code is typed here. The
// phone keeps the token the table answers (its own, for this seat) and opens the play page as
// that seat.
"use strict";

(() => {
  const { post, t } = Panel;
  const $ = (id) => document.getElementById(id);

  function status(text) {
    $("join-status").hidden = !text;
    $("join-status").textContent = text || "";
  }

  function fail(text) {
    status("");
    $("join-error").hidden = !text;
    $("join-error").textContent = text || "";
  }

  // "abcd efgh", "ABCDEFGH" and "abcd-efgh" are all the code ABCD-EFGH.
  function normal(code) {
    const letters = code.toUpperCase().replace(/[^A-Z0-9]/g, "");
    return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : null;
  }

  async function claim(body) {
    fail("");
    status(t("Joining\u2026"));
    try {
      // Claimed as a new phone: a seat this phone held before is not sent along.
      const answer = await Panel.request("POST", "/api/seats/claim", body,
                                         { quiet: true, seat: null });
      Panel.keepSeat({ seat: answer.seat, token: answer.token });
      status(t("Joined. Opening the game\u2026"));
      window.location.replace("/play");
    } catch (e) {
      // The table's answer says what to do; a phone that reached no table gets the way back.
      fail(e.status ? Panel.sentence(e.message)
        : t("The table cannot be reached: is this phone on the same Wi-Fi as the table?") + " " +
          t("Ask for a new code on the shared panel: Phones, then \"Join on a phone\"."));
    }
  }

  async function main() {
    await Panel.ready;
    const kept = Panel.seat();
    if (kept) {
      $("join-kept").hidden = false;
      $("join-kept").replaceChildren(
        t("This phone already plays seat {n}.", { n: kept.seat + 1 }), " ",
        Panel.el("a", { class: "tap", href: "/play", text: t("Back to the game") }));
    }
    $("code-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const code = normal($("join-code-input").value);
      if (!code) {
        fail(t("A code has eight letters or digits, such as ABCD-EFGH."));
        return;
      }
      claim({ code });
    });
    const token = decodeURIComponent(window.location.hash.slice(1));
    // The token is used once: it leaves the address bar (and the history) at once.
    if (token) history.replaceState(null, "", window.location.pathname);
    document.body.dataset.rendered = "true";
    if (token) await claim({ token });
  }

  main();
})();
