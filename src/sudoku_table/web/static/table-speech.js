// The Table page's speech settings: the table's own speaker on or off, its volume and its
// language (GET and POST /api/table/speech; changes ask for the PIN where one is set). Without
// a usable engine or sound device the switch is disabled and the page says why.
"use strict";

(() => {
  const { get, post, el, t } = Panel;
  const $ = (id) => document.getElementById(id);
  let current = null;

  function show(speech) {
    if (!speech) return;
    current = speech;
    const toggle = $("table-speech");  // a switch: it shows whether the table speaks
    toggle.checked = !!speech.on;
    toggle.disabled = !speech.available;
    const problem = $("table-speech-problem");
    const why = speech.problem || speech.error;
    problem.hidden = !why;
    problem.textContent = why ? t("The table cannot speak: {problem}", { problem: why }) : "";
    $("speech-volume").value = String(speech.volume);
    $("speech-volume").disabled = !speech.available;
    $("speech-volume-value").textContent = `${Math.round(speech.volume * 100)} %`;
    const select = $("speech-language");
    select.replaceChildren(...(speech.languages || []).map((l) =>
      el("option", { value: l.code, text: l.name, selected: l.code === speech.language })));
    select.disabled = !speech.available;
  }

  async function change(body) {
    try {
      const answer = await post("/api/table/speech", body);
      show(answer.speech);
    } catch (e) {
      show(current); // the toast says why; the controls show what the table keeps
    }
  }

  async function main() {
    await Panel.ready;
    $("table-speech").addEventListener("change", () => change({ on: $("table-speech").checked }));
    $("speech-volume").addEventListener("input", () => {
      $("speech-volume-value").textContent = `${Math.round(Number($("speech-volume").value) * 100)} %`;
    });
    $("speech-volume").addEventListener("change", () =>
      change({ volume: Number($("speech-volume").value) }));
    $("speech-language").addEventListener("change", () =>
      change({ language: $("speech-language").value }));
    try {
      show((await get("/api/table/speech")).speech);
    } catch (e) {
      // The toast says what failed.
    }
  }

  main();
})();
