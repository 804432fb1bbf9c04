// printer serve: the card editor. A form built from the game's JSON Schema, checked by the server as you type.
"use strict";

(() => {
  const { el, getJSON, post } = printer;
  const params = new URLSearchParams(location.search);
  const form = document.getElementById("form");
  const status = document.getElementById("status");
  const saveButton = document.getElementById("save");
  let card = null; // the /api/card answer
  let inputs = new Map(); // field name -> {field, read(), node}
  let dirty = false;
  let lastData = null;
  let invalidJSON = new Set();

  function say(text, kind = "") {
    status.textContent = text;
    status.className = `status ${kind}`;
  }

  // -- fields --------------------------------------------------------------------------------------------------------
  function fieldNode(field, value, wide) {
    const node = el("div", { class: `field ${wide ? "wide" : ""} ${field.required ? "required" : ""}`, dataset: { field: field.name } });
    const label = el("label", { class: "label", for: `f-${field.name}` }, el("b", { text: field.name }));
    node.append(label);
    let read;
    const changed = () => onChange();
    switch (field.kind) {
      case "select": {
        const select = el("select", { id: `f-${field.name}`, onchange: changed }, el("option", { value: "", text: "—" }), field.options.map((o) => el("option", { value: o, text: o })));
        select.value = typeof value === "string" ? value : "";
        node.append(select);
        read = () => (select.value === "" ? undefined : select.value);
        break;
      }
      case "multi": {
        const chosen = new Set(Array.isArray(value) ? value : value === undefined ? [] : [value]);
        const box = el("div", { class: "options", id: `f-${field.name}` });
        for (const option of field.options) {
          box.append(el("label", { class: "check" }, el("input", { type: "checkbox", value: option, checked: chosen.has(option), onchange: changed }), option));
        }
        node.append(box);
        read = () => {
          const picked = [...box.querySelectorAll("input:checked")].map((i) => i.value);
          if (!picked.length) return undefined;
          return field.scalar && picked.length === 1 ? picked[0] : picked;
        };
        break;
      }
      case "boolean": {
        const input = el("input", { type: "checkbox", id: `f-${field.name}`, checked: value === true, onchange: changed });
        node.append(el("label", { class: "check" }, input, "yes"));
        const had = value !== undefined;
        read = () => (input.checked ? true : had ? false : undefined);
        break;
      }
      case "integer":
      case "number": {
        const input = el("input", { type: "number", id: `f-${field.name}`, min: field.minimum, max: field.maximum, step: field.kind === "integer" ? 1 : "any", oninput: changed });
        input.value = value === undefined ? "" : value;
        node.append(input);
        read = () => {
          if (input.value.trim() === "") return undefined;
          const n = Number(input.value);
          return Number.isFinite(n) ? n : input.value;
        };
        if (field.minimum !== undefined || field.maximum !== undefined) {
          node.append(el("span", { class: "desc", text: `from ${field.minimum ?? "…"} to ${field.maximum ?? "…"}` }));
        }
        break;
      }
      case "stat": {
        const input = el("input", { id: `f-${field.name}`, oninput: changed, autocomplete: "off" });
        input.value = value === undefined ? "" : String(value);
        node.append(input);
        read = () => {
          const text = input.value.trim();
          if (text === "") return undefined;
          return /^-?\d+$/.test(text) && typeof value !== "string" ? Number(text) : /^\d+$/.test(text) ? Number(text) : text;
        };
        break;
      }
      case "string":
      case "textarea": {
        const multi = field.kind === "textarea";
        const input = el(multi ? "textarea" : "input", { id: `f-${field.name}`, oninput: changed, maxlength: field.maxLength, spellcheck: multi ? "true" : "false", autocomplete: "off" });
        input.value = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
        node.append(input);
        if (field.icons && card.icons.length) node.append(palette(input));
        read = () => (input.value === "" ? undefined : input.value);
        break;
      }
      case "list": {
        const items = el("div", { class: "items", id: `f-${field.name}` });
        const add = (text) => {
          const input = el("input", { value: text, oninput: changed, autocomplete: "off" });
          const row = el("div", { class: "item" }, input, el("button", { type: "button", class: "button mini", title: "remove", text: "−", onclick: () => { row.remove(); changed(); } }));
          items.append(row);
          return input;
        };
        for (const item of Array.isArray(value) ? value : []) add(String(item));
        node.append(items, el("button", { type: "button", class: "button mini", text: "+ add", onclick: () => { add("").focus(); changed(); } }));
        read = () => {
          const list = [...items.querySelectorAll("input")].map((i) => i.value).filter((v) => v !== "");
          return list.length ? list : undefined;
        };
        break;
      }
      default: {
        const input = el("textarea", { id: `f-${field.name}`, spellcheck: "false", oninput: changed });
        input.value = value === undefined ? "" : JSON.stringify(value, null, 2);
        node.append(input, el("span", { class: "desc", text: "JSON" }));
        read = () => {
          if (input.value.trim() === "") {
            invalidJSON.delete(field.name);
            return undefined;
          }
          try {
            invalidJSON.delete(field.name);
            return JSON.parse(input.value);
          } catch {
            invalidJSON.add(field.name);
            return undefined;
          }
        };
      }
    }
    if (field.description) node.append(el("span", { class: "desc", text: field.description }));
    node.append(el("span", { class: "field-error" }));
    inputs.set(field.name, { field, read, node });
    return node;
  }

  function palette(target) {
    const box = el("div", { class: "palette", title: "Insert an icon at the cursor" });
    for (const name of card.icons) {
      box.append(
        el("button", { type: "button", title: `{${name}}`, onclick: () => insert(target, `{${name}}`) }, el("img", { src: `/icon/${card.game}/${name}.svg`, alt: "" }), name),
      );
    }
    return box;
  }

  function insert(target, text) {
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? start;
    target.value = target.value.slice(0, start) + text + target.value.slice(end);
    target.focus();
    target.selectionStart = target.selectionEnd = start + text.length;
    onChange();
  }

  function build() {
    inputs = new Map();
    const data = card.data;
    const wide = (f) => ["textarea", "json", "multi"].includes(f.kind);
    const known = new Set(card.form.map((f) => f.name));
    const nodes = card.form.map((f) => fieldNode(f, data[f.name], wide(f)));
    for (const name of Object.keys(data)) {
      if (!known.has(name) && name !== "$schema" && name !== "game") {
        nodes.push(fieldNode({ name, kind: "json", description: "not in the game's schema", required: false }, data[name], true));
      }
    }
    form.replaceChildren(...nodes);
  }

  // The card as the form says, keys in the file's order first, then new ones in the form's order.
  function collect() {
    const out = {};
    const values = new Map();
    for (const [name, input] of inputs) values.set(name, input.read());
    for (const name of Object.keys(card.data)) {
      if (values.has(name)) {
        if (values.get(name) !== undefined) out[name] = values.get(name);
      } else out[name] = card.data[name];
    }
    for (const [name, value] of values) if (!(name in out) && value !== undefined) out[name] = value;
    return out;
  }

  // A card's place as the page shows it: its JSON path, or "row 7" / "Sheet1, row 7" in a spreadsheet.
  function placeName(pointer) {
    const row = /^(.*)!(\d+)$/.exec(pointer || "");
    return row ? (row[1] ? `${row[1]}, row ${row[2]}` : `row ${row[2]}`) : pointer;
  }

  // -- checking and the preview -----------------------------------------------------------------------------------
  function fieldOf(problem) {
    const pointer = card.entry ? card.entry.pointer : "";
    let path = (problem.location && problem.location.path) || "";
    if (pointer && path.startsWith(pointer)) path = path.slice(pointer.length);
    else if (path.startsWith("$")) path = path.slice(1); // a spreadsheet row's draft is checked as a card of its own
    const match = path.match(/^\.([A-Za-z_][A-Za-z0-9_]*)/) || path.match(/^\["([^"]+)"\]/);
    if (match) return match[1];
    const missing = problem.message.match(/field '([^']+)'/);
    return missing ? missing[1] : null;
  }

  function showCheck(result) {
    for (const { node } of inputs.values()) {
      node.classList.remove("invalid");
      node.querySelector(".field-error").textContent = "";
    }
    for (const name of invalidJSON) {
      const input = inputs.get(name);
      input.node.classList.add("invalid");
      input.node.querySelector(".field-error").textContent = "not valid JSON";
    }
    const general = [];
    for (const problem of result.problems) {
      const input = inputs.get(fieldOf(problem));
      if (input && problem.severity === "error") {
        input.node.classList.add("invalid");
        const box = input.node.querySelector(".field-error");
        box.textContent = [box.textContent, problem.message + (problem.hint ? ` (${problem.hint})` : "")].filter(Boolean).join("; ");
      }
      general.push(problem);
    }
    printer.showProblems(document.getElementById("problems"), general, document.getElementById("problem-count"), (p) => {
      const input = inputs.get(fieldOf(p));
      input?.node.scrollIntoView({ behavior: "smooth", block: "center" });
      input?.node.querySelector("input, select, textarea")?.focus();
    });
    if (result.required) {
      const required = new Set(result.required);
      for (const [name, { node }] of inputs) node.classList.toggle("required", required.has(name));
    }
    for (const [id, key] of [["pv-front", result.front], ["pv-back", result.back]]) {
      const box = document.getElementById(id);
      if (key) printer.geometry(box, card.game, result.piece); // a draft that became a component's piece, or a card again
      const shown = box.querySelector("img")?.dataset.key;
      box.querySelector(".stale-note")?.remove();
      if (key || !shown) {
        box.classList.remove("stale");
        printer.setFace(box, key, result.error || "fix the errors to see the card", id.slice(3));
      } else {
        // keep the last picture that printed, marked as out of date, until the errors are fixed
        box.classList.add("stale");
        box.append(el("div", { class: "stale-note", text: result.error || "not updated: fix the errors to see the card" }));
      }
    }
  }

  const check = printer.debounce(async () => {
    const data = collect();
    lastData = data;
    const target = targetOf();
    try {
      const result = await post("/api/card/check", { game: card.game, file: target.file, pointer: card.entry?.pointer, uid: card.entry?.uid, data });
      if (lastData !== data) return; // a newer check is on its way
      showCheck(result);
      const errors = result.problems.filter((p) => p.severity === "error").length + invalidJSON.size;
      saveButton.disabled = !dirty;
      if (dirty) say(errors ? `${errors} error(s): the card can be saved, but it will not print until they are fixed` : "Not saved yet.", errors ? "bad" : "");
    } catch (error) {
      say(`check failed: ${error.message}`, "bad");
    }
  }, 250);

  function onChange() {
    dirty = true;
    saveButton.disabled = false;
    check();
  }

  // -- where the card is saved --------------------------------------------------------------------------------------
  // a duplicate is saved right after the card it copies
  const copyAfter = params.get("copy") ? JSON.parse(sessionStorage.getItem("printer-copy-after") || "null") : null;

  function targetOf() {
    if (card.entry) return { file: card.entry.file };
    if (copyAfter) return { file: copyAfter.file, after: copyAfter.after };
    const choice = document.getElementById("t-file")?.value || "";
    if (choice === "__new__") return { new_file: document.getElementById("t-new")?.value || "" };
    return { file: choice };
  }

  function showTarget() {
    const box = document.getElementById("target");
    if (card.entry || copyAfter) {
      const where = card.entry ? `${card.entry.file} ${placeName(card.entry.pointer)}` : `${copyAfter.file}, after ${placeName(copyAfter.after)}`;
      box.replaceChildren(el("span", { class: "hint", text: where }));
      return;
    }
    const games = el("select", { id: "t-game", onchange: () => { location.search = `?game=${games.value}`; } }, card.games.map((g) => el("option", { value: g.id, text: g.name })));
    games.value = card.game;
    const files = el("select", { id: "t-file", onchange: () => { newName.hidden = files.value !== "__new__"; check(); } }, card.files.map((f) => el("option", { value: f, text: f })), el("option", { value: "__new__", text: "a new file…" }));
    const newName = el("input", { id: "t-new", placeholder: "file name, e.g. new-cards", hidden: card.files.length > 0 });
    if (!card.files.length) files.value = "__new__";
    box.replaceChildren(el("label", {}, "Game", games), el("label", {}, "File", files), newName);
  }

  // -- loading, saving, new, duplicate, delete ---------------------------------------------------------------------
  async function load(uid) {
    const query = uid ? `uid=${encodeURIComponent(uid)}` : `game=${encodeURIComponent(params.get("game") || "")}`;
    try {
      card = await getJSON(`/api/card?${query}`);
    } catch (error) {
      if (!uid && error.status === 404) {
        const first = (await getJSON("/api/state")).games[0];
        if (first) {
          location.search = `?game=${first.id}`;
          return;
        }
      }
      say(error.message, "bad");
      return;
    }
    printer.setGames(card.games);
    for (const id of ["pv-front", "pv-back"]) printer.geometry(document.getElementById(id), card.game, card.entry?.piece);
    if (params.get("copy")) {
      const copy = JSON.parse(sessionStorage.getItem("printer-copy") || "null");
      if (copy) card.data = copy;
    }
    document.getElementById("editor-title").textContent = card.entry ? card.entry.title : `New ${card.game} card`;
    document.title = `${document.getElementById("editor-title").textContent} · printer`;
    document.getElementById("duplicate").disabled = !card.entry;
    document.getElementById("delete").disabled = !card.entry || !/(\[\d+\]|!\d+)$/.test(card.entry.pointer);
    document.getElementById("new").href = `/edit?game=${card.game}`;
    dirty = Boolean(params.get("copy"));
    saveButton.disabled = !dirty;
    showTarget();
    build();
    if (!card.entry || card.entry.editable === false) {
      if (card.entry && /\.(ods|xls)$/i.test(card.entry.file)) say("This card comes from a spreadsheet: edit it in its spreadsheet program.", "bad");
      else if (card.entry) say("This card's file is read-only here (a read_also folder or printer's bundled files).", "bad");
    }
    if (card.entry && !card.entry.editable) saveButton.hidden = true;
    check();
  }

  async function save() {
    const data = collect();
    if (invalidJSON.size) return say(`fix the JSON of ${[...invalidJSON].join(", ")} first`, "bad");
    saveButton.disabled = true;
    say("Saving…");
    try {
      let result;
      if (card.entry) {
        result = await post("/api/card/save", { game: card.game, file: card.entry.file, pointer: card.entry.pointer, base: card.base, data });
      } else {
        result = await post("/api/card/new", { game: card.game, ...targetOf(), data });
      }
      dirty = false;
      say(`Saved to ${result.file}.`, "ok");
      if (!card.entry || (result.uid && result.uid !== card.entry.uid)) {
        history.replaceState(null, "", `/edit?uid=${encodeURIComponent(result.uid)}`);
      }
      await load(result.uid);
      say(`Saved to ${result.file}.`, "ok");
    } catch (error) {
      saveButton.disabled = false;
      say(`Not saved: ${error.message}`, "bad");
    }
  }

  function duplicate() {
    const data = collect();
    data.id = `${data.id || "card"}-copy`;
    if (typeof data.title === "string") data.title = `${data.title} (copy)`;
    sessionStorage.setItem("printer-copy", JSON.stringify(data));
    sessionStorage.setItem("printer-copy-after", JSON.stringify({ file: card.entry.file, after: card.entry.pointer }));
    location.href = `/edit?game=${card.game}&copy=1`;
  }

  async function remove() {
    const dialog = document.getElementById("confirm");
    document.getElementById("confirm-text").textContent = `Delete "${card.entry.title}" from ${card.entry.file}? The file's other cards stay as they are.`;
    dialog.showModal();
    dialog.addEventListener(
      "close",
      async () => {
        if (dialog.returnValue !== "ok") return;
        try {
          await post("/api/card/delete", { game: card.game, file: card.entry.file, pointer: card.entry.pointer, base: card.base });
          location.href = "/";
        } catch (error) {
          say(`Not deleted: ${error.message}`, "bad");
        }
      },
      { once: true },
    );
  }

  saveButton.addEventListener("click", save);
  document.getElementById("duplicate").addEventListener("click", duplicate);
  document.getElementById("delete").addEventListener("click", remove);
  form.addEventListener("submit", (event) => event.preventDefault());
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      if (!saveButton.disabled) save();
    }
  });

  let started = false;
  printer.connect(
    {
      cards(data) {
        if (!card?.entry) return;
        const mine = data.changed.find((e) => e.uid === card.entry.uid);
        if (data.removed.includes(card.entry.uid)) say("This card was removed or renamed on disk.", "bad");
        else if (mine && mine.pointer === card.entry.pointer && !dirty) load(card.entry.uid);
        else if (mine && dirty) say("The card changed on disk: saving now would be refused; reload to see it.", "bad");
      },
      translations() {
        if (printer.translationChanged) printer.translationChanged();
      },
    },
    () => {
      if (!started) {
        started = true;
        load(params.get("uid"));
      }
    },
  );
})();
