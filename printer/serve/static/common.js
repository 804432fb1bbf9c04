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

  // The trim size (mm) of a face of ``game``: its card's, or a component piece's (``piece``: the component's name).
  function trimSize(game, piece) {
    return (piece && game.pieces && game.pieces[piece]) || game.card;
  }

  function geometry(box, gameId, piece = null) {
    const game = games.get(gameId);
    if (!game) return;
    const [w, h] = trimSize(game, piece);
    const b = game.bleed;
    box.style.setProperty("--ar", `${w} / ${h}`);
    box.style.setProperty("--bleed-x", `${(-100 * b) / w}%`);
    box.style.setProperty("--bleed-y", `${(-100 * b) / h}%`);
    box.style.setProperty("--bleed-w", `${(100 * (w + 2 * b)) / w}%`);
    box.style.setProperty("--bleed-h", `${(100 * (h + 2 * b)) / h}%`);
  }

  // Pictures load when their card is near the view, at most MAX_LOADING at a time, so that the browser's six
  // connections to the server always have room for the picture of a card just saved (loaded at once, "urgent").
  const MAX_LOADING = 4;
  const loader = (() => {
    const queue = [];
    let active = 0;
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) {
          const img = change.target.querySelector("img");
          if (!img) continue;
          img.visible = change.isIntersecting;
          if (change.isIntersecting) want(img, false);
        }
      },
      { rootMargin: "300px 0px" },
    );

    function release(img) {
      if (img.counted) {
        img.counted = false;
        active -= 1;
      }
    }

    function start(img, counted) {
      const key = img.dataset.key;
      img.requested = key;
      img.classList.add("loading");
      // no picture shown yet: the box is a placeholder saying so (not a broken image) until this one arrives
      const box = img.parentElement;
      if (!img.naturalWidth) box?.classList.add("waiting");
      const done = () => {
        if (img.requested !== key) return;
        box?.classList.remove("waiting");
        img.classList.remove("loading");
        release(img);
        pump();
      };
      img.onload = done;
      img.onerror = done;
      if (counted) {
        img.counted = true;
        active += 1;
      }
      img.src = `/face/${key}.png${img.ahead ? "?ahead=1" : ""}`;
    }

    function pump() {
      while (active < MAX_LOADING && queue.length) {
        const img = queue.shift();
        if (!img.isConnected || !img.visible || img.requested === img.dataset.key) continue;
        start(img, true);
      }
    }

    function want(img, urgent) {
      if (!img.dataset.key || img.requested === img.dataset.key) return;
      if (urgent) {
        release(img);
        start(img, false);
        return;
      }
      if (!queue.includes(img)) queue.push(img);
      pump();
    }

    return { observe: (box) => observer.observe(box), want, state: () => ({ active, queued: queue.length }) };
  })();

  // A face picture cropped at the trim, or the error that keeps the card from having one. ``lazy``: loaded when
  // near the view (the gallery); otherwise at once.
  // ``ahead``: the server may render the next cards of the gallery along with this one.
  // ``piece``: the face is a component piece's, cropped at that component's trim size.
  function faceBox(gameId, key, error, alt, lazy = false, ahead = false, piece = null) {
    const box = el("div", { class: "face-box" });
    geometry(box, gameId, piece);
    box.lazy = lazy;
    box.ahead = ahead;
    setFace(box, key, error, alt);
    return box;
  }

  // Start watching the lazy boxes under ``node`` once it is in the page; ``now``: load their pictures at once.
  function watch(node, now = false) {
    for (const box of node.querySelectorAll(".face-box")) {
      if (!box.lazy) continue;
      loader.observe(box);
      const img = box.querySelector("img");
      if (now && img) {
        img.visible = true;
        loader.want(img, true);
      }
    }
  }

  // Show ``key`` in ``box``: a gallery picture in view (or any other) is loaded at once.
  function setFace(box, key, error, alt) {
    let img = box.querySelector("img");
    box.querySelector(".error")?.remove();
    if (!key) {
      img?.remove();
      box.append(el("div", { class: "error", role: "alert" }, el("strong", { text: "Cannot show this card" }), error || "no picture"));
      return;
    }
    if (!img) {
      img = el("img", { alt: alt || "", decoding: "async" });
      img.ahead = Boolean(box.ahead);
      box.append(img);
      box.classList.add("waiting"); // a placeholder until its first picture loads
    }
    if (img.dataset.key !== key) {
      img.dataset.key = key;
      if (!box.lazy || img.visible) loader.want(img, true);
    }
  }

  function problemItem(problem, onclick) {
    // where: the problem's place as printer validate writes it (cards/x.json:10:7 ($.cards[2].cost))
    const where = el("span", { class: "where", text: problem.where, title: problem.where });
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
      const warnings = problems.length - errors;
      const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
      countNode.textContent = problems.length ? `${plural(errors, "error")}, ${plural(warnings, "warning")}` : "0";
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

  // The language the cards are shown in: ?lang= in the address, else the last one chosen ("" = each game's source).
  const langSelect = document.getElementById("lang");
  function lang() {
    const asked = new URLSearchParams(location.search).get("lang");
    const chosen = asked !== null ? asked : localStorage.getItem("printer-lang") || "";
    return langSelect && [...langSelect.options].some((o) => o.value === chosen) ? chosen : "";
  }
  if (langSelect) {
    langSelect.value = lang() || langSelect.options[0].value;
    langSelect.addEventListener("change", () => {
      const chosen = langSelect.value === langSelect.options[0].value ? "" : langSelect.value;
      localStorage.setItem("printer-lang", chosen);
      const params = new URLSearchParams(location.search);
      if (chosen) params.set("lang", chosen);
      else params.delete("lang");
      location.search = params.toString();
    });
  }

  function debounce(fn, ms) {
    let timer = null;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => fn(...args), ms);
    };
  }

  return { lang, loader, getJSON, post, el, setGames, games, trimSize, geometry, faceBox, watch, setFace, problemItem, showProblems, connect, debounce };
})();
