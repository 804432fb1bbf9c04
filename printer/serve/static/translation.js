// printer serve: the editor's translation panel. In a language other than the card's source (the language switch),
// each translatable field's source beside its translation, marked missing or stale; Save translation writes the
// overlay file (cards/<game>/<lang>/) and stamps each field with the digest of the source it was made from.
"use strict";

(() => {
  const { el, getJSON, post } = printer;
  const params = new URLSearchParams(location.search);
  const panel = document.getElementById("translation");
  const uid = params.get("uid");
  const lang = printer.lang();
  if (!panel || !uid || !lang) return;
  const marks = {
    missing: ["missing", "not translated yet: the card prints this field in the source language"],
    stale: ["stale", "the source changed since this was translated: check it, then save"],
    translated: ["", ""],
  };
  let shown = null;
  let said = ["", ""]; // the last status said, kept when the panel is drawn again

  function asText(value) {
    return typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value);
  }

  function render(found) {
    shown = found;
    const rows = found.fields.map((f) => {
      const [mark, why] = marks[f.state];
      const box = el("textarea", { id: `tr-${f.field}`, rows: asText(f.source).length > 60 ? 4 : 1, lang: found.lang, dataset: { field: f.field } });
      box.value = asText(f.value);
      box.addEventListener("input", () => { save.disabled = false; });
      return el(
        "div",
        { class: `tr-row tr-state-${f.state}`, dataset: { field: f.field, state: f.state } },
        el("span", { class: "tr-field", text: f.field }, mark ? el("span", { class: `tr-mark tr-${f.state}`, title: why, text: mark }) : null),
        el("div", { class: "tr-source", lang: found.source_lang, title: `source (${found.source_lang}), digest ${f.digest}`, text: asText(f.source) }),
        box,
      );
    });
    const save = el("button", { type: "button", class: "button primary", id: "tr-save", text: "Save translation", disabled: true, onclick: () => send() });
    const note = el("p", { class: "hint", text: found.file ? `kept in ${found.file}` : `no ${found.lang} translation yet: saving adds one beside the card's file` });
    printer.setGames([found.size]);
    const picture = el("figure", { class: "tr-picture" }, printer.faceBox(found.game, found.front, found.error, `${found.lang} front`), el("figcaption", { text: `${found.lang}, as saved` }));
    panel.replaceChildren(
      picture,
      el("h2", {}, `Translation: ${found.source_lang} → ${found.lang}`),
      note,
      el("div", { class: "tr-grid" }, el("span", { class: "tr-head", text: "field" }), el("span", { class: "tr-head", text: found.source_lang }), el("span", { class: "tr-head", text: found.lang }), rows),
      el("p", { class: "actions" }, save, el("span", { id: "tr-status", class: "status", role: "status" })),
    );
    panel.hidden = false;
    say(...said);
  }

  function say(text, kind = "") {
    said = [text, kind];
    const node = document.getElementById("tr-status");
    if (node) Object.assign(node, { textContent: text, className: `status ${kind}` });
  }

  async function load() {
    try {
      render(await getJSON(`/api/translation?uid=${encodeURIComponent(uid)}&lang=${encodeURIComponent(lang)}`));
    } catch (error) {
      panel.replaceChildren(el("p", { class: "hint", text: error.message }));
      panel.hidden = false;
    }
  }

  async function send() {
    const fields = {};
    for (const box of panel.querySelectorAll("textarea[data-field]")) {
      const before = shown.fields.find((f) => f.field === box.dataset.field);
      if (box.value !== asText(before.value) || (box.value && before.state !== "translated")) fields[box.dataset.field] = box.value;
    }
    say("Saving…");
    try {
      const result = await post("/api/translation/save", { uid, lang, fields });
      if (result.translation) render(result.translation);
      say(`saved${result.files.length ? ` to ${result.files.join(", ")}` : ""}`, "ok");
    } catch (error) {
      say(error.message, "bad");
    }
  }

  load();
  // a translation or its source changed on disk (the editor's event stream says): show it again, unless a
  // translation is being edited
  printer.translationChanged = () => document.getElementById("tr-save")?.disabled !== false && load();
})();
