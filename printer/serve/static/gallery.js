// printer serve: the gallery. Every card of every game, filtered in the page; pictures replaced as files change.
"use strict";

(() => {
  const { el, getJSON } = printer;
  const grid = document.getElementById("grid");
  const tiles = new Map(); // uid -> tile element
  const entries = new Map(); // uid -> entry
  const filters = {
    game: document.getElementById("f-game"),
    type: document.getElementById("f-type"),
    set: document.getElementById("f-set"),
    text: document.getElementById("f-text"),
    backs: document.getElementById("f-backs"),
    bad: document.getElementById("f-bad"),
  };
  let problems = [];

  function worst(entry) {
    if (entry.error || entry.problems.some((p) => p.severity === "error")) return "has-error";
    return entry.problems.length ? "has-warning" : "";
  }

  function tile(entry) {
    const faces = el("div", { class: "faces" });
    const front = printer.faceBox(entry.game, entry.front, entry.error, `${entry.title} (front)`, true, true, entry.piece);
    front.dataset.side = "front";
    front.addEventListener("click", () => entry.front && openViewer(entry.uid, "front"));
    faces.append(front);
    if (filters.backs.checked) {
      const back = printer.faceBox(entry.game, entry.back, entry.error, `${entry.title} (back)`, true, true, entry.piece);
      back.dataset.side = "back";
      back.addEventListener("click", () => entry.back && openViewer(entry.uid, "back"));
      faces.append(back);
    }
    const marks = { missing: "no translation: shown in the source language", stale: "the source changed since this was translated" };
    const caption = el(
      "figcaption",
      {},
      entry.copies !== 1 ? el("span", { class: "copies", title: "copies printed", text: `×${entry.copies}` }) : null,
      el("span", { class: "title", text: entry.title, lang: entry.lang || null }),
      marks[entry.translation] ? el("span", { class: `tr-mark tr-${entry.translation}`, title: marks[entry.translation], text: entry.translation }) : null,
      el("span", { class: "meta", text: [entry.type, entry.set].filter(Boolean).join(" · ") }),
      el("br"),
      el("span", { class: "meta file", title: `${entry.file} ${entry.pointer}`, text: `${entry.file.split("/").pop()}${(entry.pointer.match(/\[\d+\]$/) || [""])[0]}` }),
      el("br"),
      entry.editable && !entry.uid.endsWith("#file") ? el("a", { href: editLink(entry), text: "edit" }) : null,
    );
    const own = entry.problems.slice(0, 3).map((p) => el("li", { class: p.severity, text: p.message }));
    const node = el(
      "figure",
      { class: `tile ${worst(entry)}`, dataset: { uid: entry.uid, game: entry.game } },
      faces,
      caption,
      own.length ? el("ul", { class: "tile-problems" }, own) : null,
    );
    return node;
  }

  function editLink(entry) {
    const lang = printer.lang();
    return `/edit?uid=${encodeURIComponent(entry.uid)}` + (lang ? `&lang=${encodeURIComponent(lang)}` : "");
  }

  function matches(entry) {
    const f = filters;
    if (f.game.value && entry.game !== f.game.value) return false;
    if (f.type.value && entry.type !== f.type.value) return false;
    if (f.set.value && entry.set !== f.set.value) return false;
    if (f.bad.checked && !entry.problems.length && !entry.error) return false;
    const words = f.text.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return words.every((w) => entry.search.includes(w) || entry.file.toLowerCase().includes(w));
  }

  function applyFilters() {
    let shown = 0;
    for (const [uid, node] of tiles) {
      const visible = matches(entries.get(uid));
      node.hidden = !visible;
      shown += visible;
    }
    document.getElementById("count").textContent = `${shown} of ${tiles.size} cards`;
  }

  function options(select, values, all) {
    const current = select.value;
    select.replaceChildren(el("option", { value: "", text: all }), ...[...values].sort().map((v) => el("option", { value: v, text: v })));
    select.value = values.has(current) ? current : "";
  }

  function refreshOptions() {
    const game = filters.game.value;
    const types = new Set();
    const sets = new Set();
    for (const entry of entries.values()) {
      if (game && entry.game !== game) continue;
      if (entry.type) types.add(entry.type);
      if (entry.set) sets.add(entry.set);
    }
    options(filters.type, types, "any type");
    options(filters.set, sets, "any set");
  }

  function renderAll() {
    tiles.clear();
    const nodes = [];
    for (const entry of entries.values()) {
      const node = tile(entry);
      tiles.set(entry.uid, node);
      nodes.push(node);
    }
    grid.replaceChildren(...nodes);
    for (const node of nodes) printer.watch(node);
    refreshOptions();
    applyFilters();
  }

  function update(entry) {
    const old = tiles.get(entry.uid);
    const before = entries.get(entry.uid);
    entries.set(entry.uid, entry);
    if (old && before && before.title === entry.title && JSON.stringify(before.problems) === JSON.stringify(entry.problems) && !before.error === !entry.error && before.copies === entry.copies && before.file === entry.file && before.pointer === entry.pointer) {
      // only the pictures changed: swap their sources, keep the tile
      for (const box of old.querySelectorAll(".face-box")) {
        const side = box.dataset.side;
        printer.setFace(box, entry[side], entry.error, `${entry.title} (${side})`);
      }
      old.classList.remove("flash");
      void old.offsetWidth;
      old.classList.add("flash");
      return;
    }
    const node = tile(entry);
    node.classList.add("flash");
    tiles.set(entry.uid, node);
    const seen = Boolean(old && !old.hidden && old.querySelector("img")?.visible);
    if (old) old.replaceWith(node);
    else grid.append(node);
    node.hidden = !matches(entry);
    printer.watch(node, seen && !node.hidden);
  }

  function showProblems(list) {
    problems = list;
    printer.showProblems(document.getElementById("problems"), problems, document.getElementById("problem-count"), goTo);
  }

  function goTo(problem) {
    const file = (problem.location && problem.location.file) || problem.where;
    const path = (problem.location && problem.location.path) || "";
    for (const entry of entries.values()) {
      const under = path === entry.pointer || path.startsWith(entry.pointer + ".") || path.startsWith(entry.pointer + "[");
      if ((file === entry.file && under) || (entry.uid.endsWith("#file") && file === entry.file)) {
        const node = tiles.get(entry.uid);
        if (node) {
          filters.game.value = "";
          filters.text.value = "";
          filters.type.value = "";
          filters.set.value = "";
          applyFilters();
          node.scrollIntoView({ behavior: "smooth", block: "center" });
          node.classList.remove("flash");
          void node.offsetWidth;
          node.classList.add("flash");
        }
        return;
      }
    }
  }

  async function load() {
    const lang = printer.lang();
    const state = await getJSON(lang ? `/api/state?lang=${encodeURIComponent(lang)}` : "/api/state");
    document.body.dataset.lang = lang;
    printer.setGames(state.games);
    entries.clear();
    for (const entry of state.entries) entries.set(entry.uid, entry);
    renderAll();
    showProblems(state.problems);
    document.body.dataset.version = state.version;
  }

  // -- the print-size viewer ---------------------------------------------------------------------------------------
  const viewer = document.getElementById("viewer");
  const print = document.getElementById("print");
  const printImg = document.getElementById("print-img");
  const guides = { bleed: document.getElementById("g-bleed"), trim: document.getElementById("g-trim"), safe: document.getElementById("g-safe"), back: document.getElementById("g-back") };
  let viewing = null;

  function layoutViewer() {
    const entry = entries.get(viewing);
    if (!entry) return;
    const game = printer.games.get(entry.game);
    const [w, h] = printer.trimSize(game, entry.piece);
    const b = game.bleed;
    const s = game.safe;
    const bleed = guides.bleed.checked;
    const key = guides.back.checked ? entry.back : entry.front;
    if (key) printImg.src = `/face/${key}.png`;
    print.classList.toggle("no-bleed", !bleed);
    print.classList.toggle("hide-trim", !guides.trim.checked);
    print.classList.toggle("hide-safe", !guides.safe.checked);
    const outer = bleed ? b : 0;
    print.style.width = `${w + 2 * outer}mm`;
    print.style.height = `${h + 2 * outer}mm`;
    printImg.style.width = `${w + 2 * b}mm`;
    printImg.style.height = `${h + 2 * b}mm`;
    printImg.style.marginLeft = bleed ? "0" : `-${b}mm`;
    printImg.style.marginTop = bleed ? "0" : `-${b}mm`;
    const trim = print.querySelector(".trim");
    const safe = print.querySelector(".safe");
    Object.assign(trim.style, { left: `${outer}mm`, top: `${outer}mm`, width: `${w}mm`, height: `${h}mm` });
    Object.assign(safe.style, { left: `${outer + s}mm`, top: `${outer + s}mm`, width: `${w - 2 * s}mm`, height: `${h - 2 * s}mm` });
    document.getElementById("viewer-title").textContent = `${entry.title}: ${w} × ${h} mm`;
    document.getElementById("viewer-note").textContent = `Print size (at the screen's nominal 96 px per inch). Bleed ${b} mm beyond the trim (red); safe area ${s} mm inside it (blue).`;
    const edit = document.getElementById("viewer-edit");
    edit.href = editLink(entry);
    edit.hidden = !entry.editable;
  }

  function openViewer(uid, side) {
    viewing = uid;
    guides.back.checked = side === "back";
    layoutViewer();
    viewer.showModal();
  }

  for (const box of Object.values(guides)) box.addEventListener("change", layoutViewer);
  document.getElementById("viewer-close").addEventListener("click", () => viewer.close());
  viewer.addEventListener("click", (event) => {
    if (event.target === viewer) viewer.close();
  });

  // -- wiring ------------------------------------------------------------------------------------------------------
  filters.game.addEventListener("change", () => {
    refreshOptions();
    applyFilters();
  });
  for (const key of ["type", "set", "bad"]) filters[key].addEventListener("change", applyFilters);
  filters.backs.addEventListener("change", renderAll);
  filters.text.addEventListener("input", printer.debounce(applyFilters, 120));
  document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());

  const reload = printer.debounce(load, 150);

  printer.connect(
    {
      cards(data) {
        if (data.reloaded || printer.lang()) return reload(); // in another language: the cards as translated now
        for (const uid of data.removed) {
          tiles.get(uid)?.remove();
          tiles.delete(uid);
          entries.delete(uid);
        }
        for (const entry of data.changed) update(entry);
        document.body.dataset.version = data.version;
        applyFilters();
        if (viewer.open) layoutViewer();
      },
      problems(data) {
        showProblems(data.problems);
      },
      translations() {
        if (printer.lang()) reload();
      },
    },
    load,
  );
})();
