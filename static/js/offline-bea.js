// Bea offline (templates/games/offline/bea.html, docs/offline.md). The rules and Bea are the
// server's own Python (games/engine, games/ai, games/offline/driver.py), run here by Pyodide;
// this file only draws the table and passes the player's presses to the driver, as JSON.
// Pyodide is imported only when the player presses Play (or Continue), never on page load.
const main = document.querySelector("[data-offline-bea]");
const SAVE_KEY = "gin-offline-bea";
const ROOT = "/home/pyodide/gin/";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
let engine = null;
let shown = null;

const $ = (id) => document.getElementById(id);
const say = (text) => { $("offline-status").textContent = text; };
const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
const cardLabel = (code) => (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
const FACE_MARKS = { K: "♚", Q: "♛", J: "♞" };
// The rest of the hand after the melds, by suit, then by rank (the online table's first order).
const SUIT_ORDER = "SHCD";
const RANKS = "A23456789TJQK";

// A card as the online table draws it (games/templatetags/cards.py): same classes, same parts.
function cardElement(code, melded) {
  const card = document.createElement("span");
  const rank = code[0] === "T" ? "10" : code[0];
  const face = FACE_MARKS[code[0]];
  card.className = ["card", "DH".includes(code[1]) ? "red" : "black", "suit-" + code[1]]
    .concat(melded ? ["melded"] : [], face ? ["face"] : code[0] === "A" ? ["ace"] : [])
    .join(" ");
  card.dataset.code = code;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardLabel(code));
  card.innerHTML = '<span class="corner" aria-hidden="true"><span class="rank"></span>'
    + '<span class="suit"></span></span><span class="pip" aria-hidden="true"></span>';
  card.querySelector(".rank").textContent = rank;
  card.querySelector(".suit").textContent = SUITS[code[1]];
  card.querySelector(".pip").textContent = face || SUITS[code[1]];
  return card;
}

function wire(button, action, view) {
  const fresh = button.cloneNode(false);
  button.replaceWith(fresh);
  fresh.disabled = !action;
  if (action) {
    fresh.setAttribute("aria-label", actionLabel(action, view));
    fresh.addEventListener("click", () => play(action));
  }
  return fresh;
}

async function loadEngine() {
  if (engine) return engine;
  say(main.dataset.loading);
  const { loadPyodide } = await import(main.dataset.pyodide + "pyodide.mjs");
  // Everything from this site's own copy: packageBaseUrl keeps the loader off its CDN default.
  const pyodide = await loadPyodide({
    indexURL: main.dataset.pyodide,
    packageBaseUrl: main.dataset.pyodide,
  });
  say(main.dataset.starting);
  const code = await (await fetch(main.dataset.code)).json();
  for (const [name, source] of Object.entries(code.files)) {
    const path = ROOT + name;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, source);
  }
  pyodide.runPython(`import sys; sys.path.insert(0, "${ROOT}")`);
  // The site's translations of the AI's words, before anything reads them (games.labels
  // names the suits when it is imported).
  const catalog = (code.catalogs || {})[document.documentElement.lang] || {};
  pyodide.pyimport("django.utils.translation").use_catalog(pyodide.toPy(catalog));
  const driver = pyodide.pyimport("games.offline.driver");
  engine = { driver, version: code.version };
  // For the tests (tests/browser/test_offline_bea.py): a whole match of Bea against Bea.
  window.ginOffline = {
    version: code.version,
    selfPlay: (preset, target, level, seed) =>
      JSON.parse(driver.page_self_play(preset, Number(target), level, String(seed))),
  };
  say("");
  return engine;
}

function newSeed() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function actionLabel(action, view) {
  const top = view.discard_pile.length ? cardLabel(view.discard_pile[view.discard_pile.length - 1]) : "";
  const d = main.dataset;
  switch (action.type) {
    case "take_upcard": return fill(d.takeUpcard, { card: top });
    case "pass": return d.pass;
    case "draw": return action.from === "stock" ? d.drawStock : fill(d.drawDiscard, { card: top });
    case "discard": return fill(d.discard, { card: cardLabel(action.card) });
    case "knock": return fill(d.knock, { card: cardLabel(action.card) });
    case "gin": return fill(d.gin, { card: cardLabel(action.card) });
    case "big_gin": return d.bigGin;
    case "next_hand": return d.nextHand;
    default: return action.type;
  }
}

function statusOf(view) {
  const d = main.dataset;
  if (view.phase === "match_over") return view.settlement && view.settlement.winner === 0 ? d.youWon : d.beaWon;
  if (view.phase === "hand_over") return d.handOver;
  if (view.phase === "upcard_offer") return d.yourUpcard;
  if (view.phase === "draw") return d.yourDraw;
  return d.yourDiscard;
}

function draw(answer, before) {
  const view = answer.view;
  shown = answer;
  const d = main.dataset;
  $("offline-start").hidden = true;
  $("offline-table").hidden = false;
  $("offline-scores").textContent = fill(d.scores, {
    mine: view.scores[0], hers: view.scores[1], target: view.rules.target,
  });
  $("offline-stock").textContent = fill(d.stock, { n: view.stock_count });
  $("offline-stock-count").textContent = view.stock_count;
  $("offline-count").textContent = view.opponent_card_count;
  $("offline-backs").replaceChildren(...Array.from({ length: view.opponent_card_count }, () => {
    const back = document.createElement("span");
    back.className = "card back";
    return back;
  }));
  const pile = view.discard_pile;
  const topCode = pile.length ? pile[pile.length - 1] : null;
  $("offline-top").textContent = topCode ? fill(d.pileTop, { card: cardLabel(topCode) }) : d.pileEmpty;
  $("offline-deadwood").textContent = fill(d.deadwood, { n: view.arrangement.deadwood });
  const discards = new Map();
  const others = [];
  let fromStock = null;
  let fromPile = null;
  for (const action of view.legal_actions) {
    if (action.type === "discard") discards.set(action.card, action);
    else others.push(action);
    if (action.type === "draw" && action.from === "stock") fromStock = action;
    if (action.type === "take_upcard" || (action.type === "draw" && action.from === "discard")) fromPile = action;
  }
  // The stock's card back stays (it holds the count); the pile's top card is drawn anew.
  const stockButton = $("offline-stock-button");
  stockButton.disabled = !fromStock;
  stockButton.onclick = fromStock ? () => play(fromStock) : null;
  stockButton.setAttribute("aria-label", fromStock ? actionLabel(fromStock, view) : d.drawStock);
  const topButton = wire($("offline-top-button"), fromPile, view);
  if (topCode) topButton.append(cardElement(topCode, false));
  else topButton.append(Object.assign(document.createElement("span"), { className: "card empty" }));
  // Melds first, then the rest: the hand as the arrangement reads it.
  const melded = view.arrangement.melds.flat();
  const rest = view.hand.filter((c) => !melded.includes(c));
  rest.sort((a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]));
  const order = melded.concat(rest);
  const hand = $("offline-hand");
  hand.replaceChildren(...order.map((code, index) => {
    const item = document.createElement("li");
    const inMeld = melded.includes(code);
    item.className = "slot" + (inMeld ? " in-meld" : "") + (index === melded.length && index > 0 ? " group-start" : "");
    item.dataset.code = code;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card-button pick";
    button.append(cardElement(code, inMeld));
    const discard = discards.get(code);
    button.disabled = !discard;
    if (discard) {
      button.setAttribute("aria-label", actionLabel(discard, view));
      button.addEventListener("click", () => play(discard));
    }
    item.append(button);
    return item;
  }));
  $("offline-actions").replaceChildren(...others.map((action) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = actionLabel(action, view);
    button.dataset.action = action.type;
    button.addEventListener("click", () => play(action));
    return button;
  }));
  // The hand just over, in one line (the online table's result, short).
  const last = view.last_hand;
  const lastLine = $("offline-last-hand");
  lastLine.hidden = !(last && (view.phase === "hand_over" || view.phase === "match_over"));
  if (!lastLine.hidden) {
    const kind = { knock: d.kindKnock, gin: d.kindGin, big_gin: d.kindBigGin, undercut: d.kindUndercut, draw: d.kindDraw }[last.kind] || last.kind;
    const values = {
      n: last.hand_number, kind, points: last.points,
      mine: last.deadwood ? last.deadwood[0] : "", hers: last.deadwood ? last.deadwood[1] : "",
    };
    lastLine.textContent = last.winner === null || last.winner === undefined
      ? fill(d.handNone, values)
      : fill(last.winner === 0 ? d.handYou : d.handBea, values);
  }
  const log = $("offline-log");
  for (const action of answer.bea) {
    const line = document.createElement("li");
    line.textContent = fill(d.beaDid, { what: actionLabel(action, before || view) });
    log.prepend(line);
  }
  while (log.children.length > 12) log.lastElementChild.remove();
  $("offline-hint-text").textContent = "";
  say(statusOf(view));
  localStorage.setItem(SAVE_KEY, JSON.stringify({ saved: answer.saved, over: view.phase === "match_over" }));
}

function play(action) {
  const before = shown && shown.view;
  const answer = JSON.parse(engine.driver.page_play(JSON.stringify(action)));
  if (answer.refused) {
    say(answer.refused);
    return;
  }
  draw(answer, before);
}

async function start(event) {
  event.preventDefault();
  try {
    await loadEngine();
  } catch (error) {
    say(fill(main.dataset.failed, { error: String(error) }));
    return;
  }
  const form = new FormData($("offline-start"));
  draw(JSON.parse(engine.driver.page_start(
    form.get("preset"), Number(form.get("target")), form.get("level"), newSeed(),
  )));
}

async function resume() {
  try {
    await loadEngine();
  } catch (error) {
    say(fill(main.dataset.failed, { error: String(error) }));
    return;
  }
  draw(JSON.parse(engine.driver.page_restore(JSON.stringify(saved().saved))));
}

function saved() {
  try {
    return JSON.parse(localStorage.getItem(SAVE_KEY) || "null");
  } catch (error) {
    return null;
  }
}

if (main && $("offline-start")) {
  $("offline-start").addEventListener("submit", start);
  $("offline-continue").addEventListener("click", resume);
  const last = saved();
  $("offline-continue").hidden = !(last && last.saved && !last.over);
  $("offline-hint").addEventListener("click", () => {
    $("offline-hint-text").textContent = JSON.parse(engine.driver.page_hint()).reason;
  });
  $("offline-new").addEventListener("click", () => {
    localStorage.removeItem(SAVE_KEY);
    $("offline-table").hidden = true;
    $("offline-start").hidden = false;
    $("offline-continue").hidden = true;
    say("");
  });
}
