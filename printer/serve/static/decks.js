// printer serve: check a decklist against a format (the report of `printer deck check`), then print proxies.
"use strict";

(() => {
  const { el, getJSON, post } = printer;
  const format = document.getElementById("format");
  const text = document.getElementById("deck-text");
  const name = document.getElementById("deck-name");
  const out = document.getElementById("deck-result");
  const proxies = document.getElementById("proxies");
  let last = null;

  async function formats() {
    const [list, state] = await Promise.all([getJSON("/api/formats"), getJSON("/api/state")]);
    printer.setGames(state.games);
    format.replaceChildren(...list.formats.map((f) => el("option", { value: f.id, text: `${f.name} (${f.id})` })));
    const saved = localStorage.getItem("printer-format");
    if (saved && list.formats.some((f) => f.id === saved)) format.value = saved;
  }

  document.getElementById("deck-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    text.value = await file.text();
    name.value = file.name;
  });

  function group(title, problems) {
    if (!problems.length) return null;
    return el("section", {}, el("h2", { text: `${title} (${problems.length})` }), el("ol", { class: "problem-list" }, problems.map((p) => printer.problemItem(p))));
  }

  function counts(report) {
    const byType = new Map();
    const bySection = new Map();
    for (const row of report.cards) {
      const type = row.card ? row.card.type : "not found";
      byType.set(type, (byType.get(type) || 0) + row.count);
      const section = row.section || row.header || "—";
      bySection.set(section, (bySection.get(section) || 0) + row.count);
    }
    const table = (caption, map) =>
      el("table", { class: "counts" }, el("caption", { text: caption }), [...map].sort((a, b) => b[1] - a[1]).map(([k, v]) => el("tr", {}, el("td", { text: k }), el("td", { text: v }))));
    return el("div", { class: "sections" }, table("by type", byType), table("by side", bySection));
  }

  function show(report) {
    const parts = [];
    parts.push(el("div", { class: `verdict ${report.status}`, id: "verdict", text: report.verdict }));
    parts.push(el("pre", { class: "summary", id: "summary", text: report.summary.join("\n") }));
    if (report.card_problems) parts.push(el("p", { class: "hint", text: `${report.card_problems} problem(s) in the card files: those cards are left out (see the gallery's problems).` }));
    parts.push(el("div", { class: "sections" }, report.sections.map((s) => el("span", { class: s.ok ? "" : "bad", text: `${s.name}: ${s.count}${s.min !== null || s.max !== null ? ` [${s.min ?? 0}–${s.max ?? "∞"}]` : ""}` }))));
    for (const g of report.groups) parts.push(group(g.title, g.problems));
    parts.push(el("h2", { text: "Counts" }), counts(report));
    parts.push(el("h2", { text: "Cards" }));
    parts.push(
      el(
        "div",
        { class: "deck-cards" },
        report.cards.map((row) =>
          el("figure", {}, printer.faceBox(report.game, row.front, row.card ? "not shown" : "not in the card data", "", true, false, row.piece), el("figcaption", {}, el("span", { class: "n", text: `${row.count}× ` }), row.name)),
        ),
      ),
    );
    out.replaceChildren(...parts.filter(Boolean));
    printer.watch(out);
  }

  document.getElementById("deck-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem("printer-format", format.value);
    out.replaceChildren(el("p", { class: "spinner", text: "Checking" }));
    try {
      last = await post("/api/deck/check", { text: text.value, name: name.value, format: format.value });
      if (last.error) throw Object.assign(new Error(last.error), { body: last });
      show(last);
      proxies.disabled = false;
    } catch (error) {
      proxies.disabled = true;
      out.replaceChildren(el("div", { class: "verdict unreadable", text: error.message }), group("problems", error.body?.problems || []));
    }
  });

  proxies.addEventListener("click", async () => {
    if (!last) return;
    proxies.disabled = true;
    try {
      const { job } = await post("/api/deck/proxies", { token: last.token, name: name.value, game: last.game });
      out.prepend(el("p", { class: "job spinner", id: `job-${job.id}`, text: `Printing proxies (${job.label})` }));
    } catch (error) {
      out.prepend(el("p", { class: "verdict unreadable", text: error.message }));
    }
    proxies.disabled = false;
  });

  printer.connect({
    build(data) {
      const job = data.job;
      const node = document.getElementById(`job-${job.id}`);
      if (!node || job.status === "queued" || job.status === "running") return;
      node.classList.remove("spinner");
      node.replaceChildren(
        job.status === "done" ? el("a", { class: "button primary", href: `/file/${job.pdf}`, download: "", text: `Download ${job.pdf} (${job.pages} pages)` }) : el("span", { text: `Proxies not printed: ${job.error}` }),
      );
    },
  });
  formats();
})();
