// Bea offline (templates/games/offline/bea.html, docs/offline.md). The rules and Bea are the
// server's own Python (games/engine, games/ai, games/offline/driver.py, and the table's orders
// of cards, games/table/orders.py), run here by Pyodide; this file only draws the table and
// passes the player's presses to the driver, as JSON.
//
// It draws the online table's markup (the same regions, ids, classes, forms and buttons), so
// the online table's own scripts work on it unchanged: gestures.js (double-tap, drag onto the
// pile, the keyboard) presses the Discard button, arrange.js drags cards and says so
// ("gin:arranged"), motion.js flies the cards and celebrates a gin, sound.js plays it, focus.js
// keeps the focus, table.js keeps the buttons in step with the selected card. Where online a
// form is posted, here its submit is answered by the driver; every redraw is announced as the
// online table's swaps are ("gin:beforeswap", then "gin:swapped").
// Pyodide is imported only when the player presses Play (or Continue), never on page load.
const main = document.querySelector("[data-offline-bea]");
const SAVE_KEY = "gin-offline-bea";
const ROOT = "/home/pyodide/gin/";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const FACE_MARKS = { K: "♚", Q: "♛", J: "♞" };
const BEA = 1;
// Bea's pause before each of her moves, so that each is seen (none for reduced motion).
const BEA_PAUSE_MS = matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 350;
let engine = null;
let shown = null;
let hintAction = null;
let beaTimer = null;
let names = {}; // each card's name for a screen reader, from the driver (games.labels)

const $ = (id) => document.getElementById(id);
const d = main ? main.dataset : {};
const say = (text) => { $("offline-status").textContent = text; };
const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
const cardLabel = (code) => (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
const count = (n, one, many) => fill(n === 1 ? one : many, { n }).replace(/\b[12]\b/, String(n));

// A card as the online table draws it (games/templatetags/cards.py): same classes, same parts.
function cardElement(code, flags) {
  const card = document.createElement("span");
  const rank = code[0] === "T" ? "10" : code[0];
  const face = FACE_MARKS[code[0]];
  card.className = ["card", "DH".includes(code[1]) ? "red" : "black"]
    .concat(flags || [], ["suit-" + code[1]], face ? ["face"] : code[0] === "A" ? ["ace"] : [])
    .join(" ");
  card.dataset.code = code;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", names[code] || cardLabel(code));
  card.title = names[code] || cardLabel(code);
  card.innerHTML = '<span class="corner" aria-hidden="true"><span class="rank"></span>'
    + '<span class="suit"></span></span><span class="pip" aria-hidden="true"></span>';
  card.querySelector(".rank").textContent = rank;
  card.querySelector(".suit").textContent = SUITS[code[1]];
  card.querySelector(".pip").textContent = face || SUITS[code[1]];
  return card;
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function button(move, text, className) {
  const made = element("button", className, text);
  made.type = "submit";
  made.name = "move";
  made.value = move;
  return made;
}

async function loadEngine() {
  if (engine) return engine;
  say(d.loading);
  const { loadPyodide } = await import(d.pyodide + "pyodide.mjs");
  // Everything from this site's own copy: packageBaseUrl keeps the loader off its CDN default.
  const pyodide = await loadPyodide({ indexURL: d.pyodide, packageBaseUrl: d.pyodide });
  say(d.starting);
  const code = await (await fetch(d.code)).json();
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

function topOf(view) {
  return view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
}

function actionLabel(action, view) {
  const top = topOf(view) ? cardLabel(topOf(view)) : "";
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

// The player's turn; between hands nobody's (to_act null), and the player goes on.
const myTurn = (view) => view.to_act !== BEA && view.legal_actions.length > 0;

function statusOf(view) {
  if (view.phase === "match_over") return view.settlement && view.settlement.winner === 0 ? d.youWon : d.beaWon;
  if (!myTurn(view)) return d.thinking;
  if (view.phase === "hand_over") return d.handOver;
  if (view.phase === "upcard_offer") return d.yourUpcard;
  // After both passed the upcard only the stock may be drawn from, and it says so, as online.
  if (view.phase === "draw") {
    return view.legal_actions.some((a) => a.type === "draw" && a.from === "discard") ? d.yourDraw : d.yourStock;
  }
  return d.yourDiscard;
}

function kindName(kind) {
  return { knock: d.kindKnock, gin: d.kindGin, big_gin: d.kindBigGin, undercut: d.kindUndercut, draw: d.kindDraw }[kind] || kind;
}

// The piles: the stock (a button while drawing from it is legal) and the pile's top card.
function drawPile(view, legal) {
  const stock = $("offline-stock").querySelector("button");
  stock.disabled = !legal.stock;
  $("offline-stock").classList.toggle("hinted", !!hintAction && hintAction.type === "draw" && hintAction.from === "stock");
  $("offline-stock-count").textContent = view.stock_count;
  $("offline-stock-caption").textContent = count(view.stock_count, d.stockOne, d.stockMany);
  const top = topOf(view);
  const pileMove = legal.upcard ? "take_upcard" : legal.pile ? "draw_discard" : null;
  let shownTop;
  if (!top) shownTop = element("span", "card empty");
  else if (pileMove) {
    shownTop = button(pileMove, undefined, "card-button");
    shownTop.setAttribute("aria-label", fill(d.takePile, { card: cardLabel(top) }));
    shownTop.append(cardElement(top));
  } else shownTop = cardElement(top);
  $("offline-top").replaceChildren(shownTop);
  const hinted = !!hintAction && (hintAction.type === "take_upcard" || (hintAction.type === "draw" && hintAction.from === "discard"));
  $("offline-discard").classList.toggle("hinted", hinted);
}

// The hand, in the player's order (the driver's: games/table/orders.py), as the online table
// draws it: a radio per card that may be discarded, its deadwood afterwards under it.
function drawHand(view, table) {
  const after = view.deadwood_after_discard || {};
  const choosing = myTurn(view) && view.legal_actions.some((a) => a.type === "discard");
  const knocks = new Set(view.legal_actions.filter((a) => a.type === "knock").map((a) => a.card));
  const gins = new Set(view.legal_actions.filter((a) => a.type === "gin").map((a) => a.card));
  const blocked = view.cannot_discard;
  const moves = view.moves || [];
  const last = moves[moves.length - 1];
  const drawn = view.phase === "discard" && last && last.seat === 0 && (last.type === "draw" || last.type === "take_upcard") ? last.card : "";
  $("offline-deadwood").textContent = fill(d.deadwood, { n: view.arrangement.deadwood });
  const sort = $("offline-sort");
  sort.value = table.next_sort;
  sort.dataset.sort = table.sort;
  sort.textContent = fill(d.sort, { how: d["sort" + table.next_sort[0].toUpperCase() + table.next_sort.slice(1)] });
  const hinted = hintAction && hintAction.card;
  $("offline-hand").replaceChildren(...table.hand.map(([code, melded, groupStart]) => {
    const slot = element("li", "slot" + (groupStart ? " group-start" : "") + (melded ? " in-meld" : ""));
    slot.dataset.code = code;
    const flags = (melded ? ["melded"] : []).concat(code === blocked ? ["fresh"] : [], code === drawn ? ["just-drawn"] : []);
    if (choosing) {
      const pick = element("label", "pick" + (code === hinted ? " hinted" : ""));
      const radio = element("input", "visually-hidden");
      Object.assign(radio, { type: "radio", name: "card", value: code, disabled: code === blocked });
      radio.dataset.label = cardLabel(code);
      radio.dataset.after = after[code] !== undefined ? after[code] : "";
      if (knocks.has(code)) radio.dataset.knock = "";
      if (gins.has(code)) radio.dataset.gin = "";
      pick.append(radio, cardElement(code, flags),
        element("span", "after", code === blocked ? "✕" : "→" + (after[code] !== undefined ? after[code] : "")));
      pick.lastChild.setAttribute("aria-hidden", "true");
      slot.append(pick);
    } else {
      slot.tabIndex = 0;
      slot.setAttribute("aria-label", names[code] || cardLabel(code));
      slot.append(cardElement(code, flags));
    }
    return slot;
  }));
}

// The buttons of the phase, the online table's (templates/games/table.html, #actions).
function drawButtons(view, legal) {
  const box = $("offline-buttons");
  const kinds = new Set(view.legal_actions.map((a) => a.type));
  const top = topOf(view) ? cardLabel(topOf(view)) : "";
  const hinted = (type) => (hintAction && hintAction.type === type ? " hinted" : "");
  const made = [];
  if (!myTurn(view)) {
    // Bea's turn: nothing to press.
  } else if (view.phase === "upcard_offer") {
    made.push(button("take_upcard", fill(d.takeUpcard, { card: top }), hinted("take_upcard").trim()),
      button("pass", d.pass, "secondary" + hinted("pass")));
  } else if (view.phase === "draw") {
    const fromStock = hintAction && hintAction.type === "draw" && hintAction.from === "stock";
    const fromPile = hintAction && hintAction.type === "draw" && hintAction.from === "discard";
    made.push(button("draw_stock", d.drawStock, fromStock ? "hinted" : ""));
    const pile = button("draw_discard", fill(d.takeUpcard, { card: top }), "secondary" + (fromPile ? " hinted" : ""));
    pile.disabled = !legal.pile;
    made.push(pile);
  } else if (kinds.has("discard")) {
    const parts = $("offline-buttons-discard").content.cloneNode(true);
    const selection = parts.querySelector(".selection");
    selection.dataset.noknock = fill(selection.dataset.noknock, { limit: view.rules.knock_limit });
    const knock = parts.querySelector("[value=knock]");
    if (kinds.has("knock")) knock.setAttribute("data-any", "");
    else knock.disabled = true;
    if (!kinds.has("gin")) parts.querySelector("[value=gin]").remove();
    if (!kinds.has("big_gin")) parts.querySelector("[value=big_gin]").remove();
    for (const type of ["discard", "knock", "gin", "big_gin"]) {
      const found = parts.querySelector(`[value=${type}]`);
      if (found && hinted(type)) found.classList.add("hinted");
    }
    made.push(...parts.childNodes);
  } else if (kinds.has("next_hand")) {
    made.push(button("next_hand", d.nextHand));
  }
  box.replaceChildren(...made);
  const why = $("offline-why");
  why.hidden = !(myTurn(view) && view.cannot_discard);
  const reason = element("li", "", fill(d.cannotDiscard, { card: cardLabel(view.cannot_discard || "AS") }));
  reason.dataset.refusal = "";
  why.replaceChildren(reason);
  $("offline-hint").hidden = !myTurn(view) || view.phase === "hand_over";
}

// A finished hand laid open, as the online table's result region (games/_hand_result.html):
// gin and Big Gin celebrated when the player went out (finish.css; motion.js and sound.js
// hear it). Only finished hands are shown: both are open by the rules by then.
function drawResult(view, table) {
  const result = $("result");
  const last = view.last_hand;
  const ended = !!last && (view.phase === "hand_over" || view.phase === "match_over");
  result.hidden = !ended;
  $("opponent").hidden = ended;
  $("hand").hidden = ended;
  if (!ended) {
    result.replaceChildren();
    return;
  }
  const parts = [];
  if ((last.kind === "gin" || last.kind === "big_gin") && last.winner === 0) {
    const banner = element("p", "celebration " + last.kind);
    banner.setAttribute("aria-hidden", "true");
    banner.append(element("span", "", last.kind === "big_gin" ? d.bigGin + "!" : "Gin!"));
    parts.push(banner);
  }
  const kind = kindName(last.kind);
  const values = {
    n: last.hand_number, kind, points: last.points,
    mine: last.deadwood ? last.deadwood[0] : "", hers: last.deadwood ? last.deadwood[1] : "",
  };
  const headline = element("p", "headline", last.winner === null || last.winner === undefined
    ? fill(d.handNone, values) : fill(last.winner === 0 ? d.handYou : d.handBea, values));
  headline.dataset.points = last.points || 0;
  headline.id = "offline-last-hand";
  parts.push(headline);
  const laid = table.laid_open;
  const laidOff = new Set(laid ? laid.laid_off : []);
  for (const seat of [0, 1]) {
    const side = element("div", "side" + (last.winner === seat ? " winner" : ""));
    const title = element("h3", "", seat === 0 ? d.you : "Bea");
    if (last.winner === seat) title.append(" ", element("span", "won", "★ " + d.wonHand));
    if (last.knocker === seat) title.append(" · " + (last.kind === "gin" || last.kind === "big_gin" ? d.wentOut : d.knocked));
    title.append(" ", element("span", "deadwood", fill(d.sideDeadwood, { n: values[seat === 0 ? "mine" : "hers"] })));
    side.append(title);
    const groups = element("div", "groups");
    if (laid) {
      for (const meld of laid.melds[seat]) {
        const group = element("div", "group meld");
        group.append(...meld.map((code) => cardElement(code, ["melded"].concat(laidOff.has(code) && seat === last.knocker ? ["laid-off"] : []))));
        groups.append(group);
      }
      if (laid.deadwood[seat].length) {
        const loose = element("div", "group loose");
        loose.append(...laid.deadwood[seat].map((code) => cardElement(code)));
        groups.append(loose);
      }
    }
    side.append(groups);
    parts.push(side);
  }
  result.replaceChildren(...parts);
}

function draw(answer) {
  const view = answer.view;
  const table = answer.table;
  const before = shown && shown.view;
  document.dispatchEvent(new CustomEvent("gin:beforeswap"));
  shown = answer;
  if (answer.names) names = answer.names;
  $("offline-start").hidden = true;
  $("table").hidden = false;
  document.body.classList.add("playing");
  const legal = { stock: false, pile: false, upcard: false };
  for (const action of view.legal_actions) {
    if (action.type === "draw" && action.from === "stock") legal.stock = true;
    if (action.type === "draw" && action.from === "discard") legal.pile = true;
    if (action.type === "take_upcard") legal.upcard = true;
  }
  if (!myTurn(view)) legal.stock = legal.pile = legal.upcard = false;
  const status = $("status");
  status.classList.toggle("your-turn", myTurn(view));
  status.classList.toggle("thinking", !myTurn(view) && view.phase !== "match_over");
  $("offline-headline").textContent = statusOf(view);
  $("offline-score-mine").textContent = view.scores[0];
  $("offline-score-bea").textContent = view.scores[1];
  $("offline-target").textContent = view.rules.target;
  $("offline-hand-no").textContent = view.hand_number;
  $("offline-count").textContent = count(view.opponent_card_count, d.cardsOne, d.cardsMany);
  $("offline-backs").replaceChildren(...Array.from({ length: view.opponent_card_count }, () => element("span", "card back")));
  drawPile(view, legal);
  drawHand(view, table);
  drawButtons(view, legal);
  drawResult(view, table);
  $("after").hidden = view.phase !== "match_over";
  $("actions").hidden = view.phase === "match_over";
  const hint = $("hint");
  hint.hidden = !hintAction;
  if (!hintAction) $("offline-hint-text").textContent = "";
  const log = $("offline-log");
  const lastMove = $("offline-last-move");
  for (const action of answer.bea) {
    const line = element("li", "", fill(d.beaDid, { what: actionLabel(action, before || view) }));
    log.prepend(line);
    lastMove.textContent = line.textContent;
  }
  lastMove.hidden = !lastMove.textContent;
  while (log.children.length > 12) log.lastElementChild.remove();
  $("notice").replaceChildren();
  localStorage.setItem(SAVE_KEY, JSON.stringify({ saved: answer.saved, over: view.phase === "match_over" }));
  document.dispatchEvent(new CustomEvent("gin:swapped"));
  // Bea's turn: one move at a time, each after a pause, so the player sees each.
  clearTimeout(beaTimer);
  if (view.to_act === BEA && view.phase !== "match_over") beaTimer = setTimeout(beaMoves, BEA_PAUSE_MS);
}

function beaMoves() {
  const answer = JSON.parse(engine.driver.page_bea());
  if (answer.bea.length) draw(answer);
}

function refuse(reason) {
  const box = $("notice");
  box.replaceChildren(element("p", "", reason));
}

function play(action) {
  if (!engine || (shown && !myTurn(shown.view))) return;
  hintAction = null;
  const answer = JSON.parse(engine.driver.page_play(JSON.stringify(action)));
  if (answer.refused) refuse(answer.refused);
  else draw(answer);
}

// The online table's forms, answered here: the move a button names (with the selected card),
// or the Sort button's next sort.
function submitted(event) {
  const form = event.target;
  if (!form.closest || !form.closest("#table")) return;
  event.preventDefault();
  const submitter = event.submitter;
  if (!submitter || !shown) return;
  if (submitter.name === "sort") {
    const answer = JSON.parse(engine.driver.page_arrange(submitter.value, ""));
    if (answer.refused) refuse(answer.refused);
    else draw(answer);
    return;
  }
  const picked = $("play").querySelector("input[name=card]:checked");
  const card = picked ? picked.value : null;
  const move = submitter.value;
  const actions = {
    draw_stock: { type: "draw", from: "stock" },
    draw_discard: { type: "draw", from: "discard" },
    take_upcard: { type: "take_upcard" },
    pass: { type: "pass" },
    next_hand: { type: "next_hand" },
    big_gin: { type: "big_gin" },
    discard: card && { type: "discard", card },
    knock: card && { type: "knock", card },
    gin: card && { type: "gin", card },
  };
  if (actions[move]) play(actions[move]);
}

// Whether the worker keeps Pyodide: its cache holds the file the page names (false where there
// is no Cache Storage).
async function kept() {
  if (!("caches" in window) || !(await caches.has(d.cache))) return false;
  const cache = await caches.open(d.cache);
  return !!(await cache.match(d.keptFile));
}

// Why the engine did not start: not fetched yet (and no network to fetch it), or the error.
async function failed(error) {
  say((await kept()) ? fill(d.failed, { error: String(error) }) : d.notKept);
}

async function start(event) {
  event.preventDefault();
  try {
    await loadEngine();
  } catch (error) {
    await failed(error);
    return;
  }
  const form = new FormData($("offline-start"));
  hintAction = null;
  $("offline-log").replaceChildren();
  $("offline-last-move").textContent = "";
  draw(JSON.parse(engine.driver.page_start(
    form.get("preset"), Number(form.get("target")), form.get("level"), newSeed(),
  )));
}

async function resume() {
  try {
    await loadEngine();
  } catch (error) {
    await failed(error);
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

function leave() {
  clearTimeout(beaTimer);
  localStorage.removeItem(SAVE_KEY);
  shown = null;
  $("table").hidden = true;
  document.body.classList.remove("playing");
  $("offline-start").hidden = false;
  $("offline-continue").hidden = true;
  say("");
}

if (main && $("offline-start")) {
  $("offline-start").addEventListener("submit", start);
  $("offline-continue").addEventListener("click", resume);
  const last = saved();
  $("offline-continue").hidden = !(last && last.saved && !last.over);
  document.addEventListener("submit", submitted);
  // A card dragged to a new place in the hand (arrange.js): the driver keeps the order.
  document.addEventListener("gin:arranged", (event) => {
    if (!engine || !event.detail) return;
    const answer = JSON.parse(engine.driver.page_arrange("", event.detail.order.join(" ")));
    if (!answer.refused) draw(answer);
  });
  $("offline-hint").addEventListener("click", () => {
    if (!engine || !shown || !myTurn(shown.view)) return;
    const hint = JSON.parse(engine.driver.page_hint());
    hintAction = hint.action;
    draw(shown);
    $("offline-hint-text").textContent = hint.reason;
    // The hinted card selected, as online: Discard (or Knock, Gin) is one press away.
    const radio = hintAction.card && $("play").querySelector(`input[name=card][value="${hintAction.card}"]`);
    if (radio && !radio.disabled) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
  $("offline-new").addEventListener("click", leave);
  $("offline-again").addEventListener("click", leave);
}
