// printer serve: the sheets and rules pages. Start a build, watch it, see its pages, download what it wrote.
"use strict";

(() => {
  const { el, getJSON, post } = printer;
  const form = document.getElementById("build-form");
  const kind = form.dataset.kind;
  const game = document.getElementById("game");
  const out = document.getElementById("result");

  function pages(pdf, n) {
    const shown = Math.min(n, 40);
    return el(
      "div",
      { class: "pages" },
      Array.from({ length: shown }, (_, i) => el("figure", {}, el("img", { src: `/page/${pdf}?page=${i + 1}&v=${Date.now()}`, alt: `page ${i + 1}`, loading: "lazy" }), el("figcaption", { text: `page ${i + 1}` }))),
      n > shown ? el("p", { class: "hint", text: `… and ${n - shown} more pages in the PDF` }) : null,
    );
  }

  function jobNode(job) {
    const parts = [el("strong", { text: job.label }), " ", el("span", { class: job.status === "running" || job.status === "queued" ? "spinner" : "", text: job.status + (job.seconds ? ` in ${job.seconds} s` : "") })];
    if (job.error) parts.push(el("p", { class: "verdict illegal", text: job.error }));
    for (const line of job.summary || []) parts.push(el("p", { class: "hint", text: line }));
    const files = [];
    if (job.pdf) files.push(job.pdf);
    for (const output of job.outputs || []) if (!files.includes(output)) files.push(output);
    for (const book of job.books || []) if (book.pdf) files.push(book.pdf);
    if (files.length) parts.push(el("div", { class: "downloads" }, files.map((f) => el("a", { class: "button", href: `/file/${f}`, download: "", text: `⬇ ${f}` }))));
    const problems = [...(job.problems || []), ...(job.books || []).flatMap((b) => b.problems)];
    if (problems.length) parts.push(el("details", {}, el("summary", { text: `${problems.length} problem(s)` }), el("ol", { class: "problem-list" }, problems.map((p) => printer.problemItem(p)))));
    if (job.pdf && job.pages) parts.push(pages(job.pdf, job.pages));
    for (const book of job.books || []) if (book.pdf) parts.push(el("h2", { text: `${book.edition}: ${book.pdf}` }), pages(book.pdf, book.pages));
    return el("div", { class: `job ${job.status}`, id: `job-${job.id}` }, parts);
  }

  function show(job) {
    if (job.kind !== kind) return;
    const node = jobNode(job);
    const old = document.getElementById(`job-${job.id}`);
    if (old) old.replaceWith(node);
    else out.prepend(node);
  }

  async function outputs() {
    const list = document.getElementById("outputs");
    const state = await getJSON("/api/builds");
    if (list) list.replaceChildren(...state.outputs.map((o) => el("li", {}, el("a", { href: `/file/${o.name}`, download: "", text: o.folder ? `${o.name}/ (zip)` : o.name }))));
    for (const job of state.builds) show(job);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const exports = [...form.querySelectorAll('input[name="export"]:checked')].map((i) => i.value);
    const url = kind === "rules" ? "/api/rules/build" : "/api/sheets/build";
    try {
      const { job } = await post(url, { game: game.value, exports });
      show(job);
    } catch (error) {
      out.prepend(el("p", { class: "verdict illegal", text: error.message }));
    }
  });

  printer.connect({
    build(data) {
      show(data.job);
      if (data.job.status === "done" || data.job.status === "failed") outputs();
    },
  }, outputs);
})();
