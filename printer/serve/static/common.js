// printer serve: what every page shares (requests with the CSRF token, the event stream, card pictures).
"use strict";

const printer = (() => {
  const token = document.querySelector('meta[name="csrf-token"]').content;

  async function getJSON(url) {
    const response = await fetch(url, { headers: { accept: "application/json" } });
    const body = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw Object.assign(new Error(body.error || response.statusText), { body, status: response.status });
    return body;
  }

  async function post(url, data) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: JSON.stringify(data),
    });
    const body = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw Object.assign(new Error(body.error || response.statusText), { body, status: response.status });
    return body;
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // Card geometry of each game: trim size and bleed (mm), used to crop the pictures (which include the bleed).
  const games = new Map();
  function setGames(list) {
    for (const game of list) games.set(game.id, game);
  }

  function geometry(box, gameId) {
    const game = games.get(gameId);
    if (!game) return;
    const [w, h] = game.card;
    const b = game.bleed;
    box.style.setProperty("--ar", `${w} / ${h}`);
    box.style.setProperty("--bleed-x", `${(-100 * b) / w}%`);
    box.style.setProperty("--bleed-y", `${(-100 * b) / h}%`);
    box.style.setProperty("--bleed-w", `${(100 * (w + 2 * b)) / w}%`);
    box.style.setProperty("--bleed-h", `${(100 * (h + 2 * b)) / h}%`);
  }

  // A face picture cropped at the trim, or the error that keeps the card from having one.
  function faceBox(gameId, key, error, alt) {
    const box = el("div", { class: "face-box" });
    geometry(box, gameId);
    setFace(box, key, error, alt);
    return box;
  }

  function setFace(box, key, error, alt) {
    let img = box.querySelector("img");
    box.querySelector(".error")?.remove();
    if (!key) {
      img?.remove();
      box.append(el("div", { class: "error", role: "alert" }, el("strong", { text: "Cannot show this card" }), error || "no picture"));
      return;
    }
    if (!img) {
      img = el("img", { alt: alt || "", loading: "lazy", decoding: "async" });
      img.addEventListener("load", () => img.classList.remove("loading"));
      box.append(img);
    }
    if (img.dataset.key !== key) {
      img.classList.add("loading");
      img.dataset.key = key;
      img.src = `/face/${key}.png`;
    }
  }

  function problemItem(problem, onclick) {
    const where = el("span", { class: "where", text: problem.where });
    const item = el(
      "li",
      { class: problem.severity, dataset: { code: problem.code } },
      where,
      el("span", { class: "message", text: `${problem.severity}: ${problem.message}` }),
      problem.hint ? el("span", { class: "hint", text: `hint: ${problem.hint}` }) : null,
    );
    if (onclick) {
      item.tabIndex = 0;
      item.addEventListener("click", () => onclick(problem));
    }
    return item;
  }

  function showProblems(list, problems, countNode, onclick) {
    list.replaceChildren(...problems.map((p) => problemItem(p, onclick)));
    if (!problems.length) list.append(el("li", { class: "none", text: "No problems." }));
    if (countNode) {
      const errors = problems.filter((p) => p.severity === "error").length;
      countNode.textContent = problems.length ? `${errors} errors, ${problems.length - errors} warnings` : "0";
      countNode.className = `badge ${errors ? "bad" : problems.length ? "" : "good"}`;
    }
  }

  // The event stream: calls handlers[event](data); reconnects (the browser does) and calls onopen each time.
  function connect(handlers, onopen) {
    const live = document.getElementById("live");
    const source = new EventSource("/api/events");
    source.addEventListener("open", () => {
      live.textContent = "live";
      live.className = "live on";
      if (onopen) onopen();
    });
    source.addEventListener("error", () => {
      live.textContent = "reconnecting…";
      live.className = "live off";
    });
    for (const [event, handler] of Object.entries(handlers)) {
      source.addEventListener(event, (message) => handler(JSON.parse(message.data)));
    }
    return source;
  }

  function debounce(fn, ms) {
    let timer = null;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => fn(...args), ms);
    };
  }

  return { getJSON, post, el, setGames, games, geometry, faceBox, setFace, problemItem, showProblems, connect, debounce };
})();
