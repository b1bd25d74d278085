// Cards move instead of jumping: after a swap each card that changed place (by its code) is
// animated from where it was (FLIP: the page is already in its final state, the animation is
// only drawn on top of it, so no move ever waits for it). A card new to the hand flies in from
// the stock, a card new on the pile from the opponent's fan, a new back from the piles.
// Where a player looks for it there is more: a new hand is dealt from the stock to both hands;
// at a knock or gin both hands are laid open from where they were held and the lay-offs then
// travel onto the knocker's melds; scores and the hand's points count up. Nothing of it runs
// for prefers-reduced-motion, and none of it holds back a click: only transforms and a
// registered --n (table.css's counters) are animated, never the page's state.
// It also tells sound.js what happened ("gin:sound" events). A page that draws the table itself
// instead of htmx (Bea offline) sends "gin:beforeswap" before and "gin:swapped" after a redraw.
(function () {
  "use strict";

  var reduced = matchMedia("(prefers-reduced-motion: reduce)");
  var EASE = "cubic-bezier(.2,.7,.3,1)";
  var DEAL_STEP = 45;
  var before = null;

  function rect(el) {
    if (!el) return null;
    var r = el.getBoundingClientRect();
    return r.width || r.height ? r : null;
  }

  function still() {
    return reduced.matches || !document.body.animate;
  }

  function numbers(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (el) {
      return parseInt(el.textContent, 10);
    });
  }

  function snapshot() {
    var cards = {};
    document.querySelectorAll("#hand li[data-code], #pile .discard .card[data-code]").forEach(function (el) {
      var r = rect(el);
      if (r) cards[el.dataset.code] = r;
    });
    var backs = document.querySelectorAll("#opponent .backs .card");
    var top = document.querySelector("#pile .discard .card[data-code]");
    return {
      cards: cards,
      hand: document.querySelectorAll("#hand li[data-code]").length,
      top: top ? top.dataset.code : "",
      backs: backs.length,
      fan: rect(backs[backs.length - 1]) || rect(document.getElementById("opponent")),
      stock: rect(document.querySelector("#pile .stock .card")),
      pile: rect(document.querySelector("#pile .discard .card")),
      turn: !!document.querySelector("#status.your-turn"),
      shuffling: !!document.querySelector("#pile[hidden]"),
      result: !!document.querySelector("#result:not([hidden]) .headline"),
      handNumber: document.querySelector("#scores .hand-no dd") ? numbers("#scores .hand-no dd")[0] : null,
      scores: numbers("#scores .score:not(.target):not(.hand-no) dd strong"),
    };
  }

  // From ``from`` (a rect) to where ``el`` is now; ``delay`` ms later, sitting at ``from``
  // until then (fill: backwards). ``grow``: it also opens up (a card laid face up).
  function fly(el, from, options) {
    var to = rect(el);
    if (!to || !from || still()) return;
    options = options || {};
    var dx = from.left - to.left;
    var dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    var start = "translate(" + dx + "px," + dy + "px)" + (options.grow ? " scale(.6)" : "");
    el.animate([{ transform: start }, { transform: "none" }], {
      duration: options.duration || 320,
      delay: options.delay || 0,
      easing: EASE,
      fill: "backwards",
    });
  }

  // A number shown as counting up from ``from`` to what the page already says (table.css draws
  // the running count over the real text, which a screen reader reads as it is).
  function countUp(el, from) {
    var to = parseInt(el.textContent, 10);
    if (still() || isNaN(to) || isNaN(from) || to <= from) return;
    el.style.setProperty("--count-colour", getComputedStyle(el).color);
    el.classList.add("counting");
    var run = el.animate([{ "--n": from }, { "--n": to }], { duration: 900, easing: "ease-out" });
    run.onfinish = run.oncancel = function () {
      el.classList.remove("counting");
    };
  }

  // A new hand: ten cards each from the stock, one at a time to either hand, then the upcard.
  function deal() {
    var stock = rect(document.querySelector("#pile .stock .card"));
    var mine = document.querySelectorAll("#hand li[data-code], #hand .backs .card");
    var theirs = document.querySelectorAll("#opponent .backs .card");
    theirs.forEach(function (el, i) {
      fly(el, stock, { delay: 2 * i * DEAL_STEP, duration: 260 });
    });
    mine.forEach(function (el, i) {
      fly(el, stock, { delay: (2 * i + 1) * DEAL_STEP, duration: 260 });
    });
    var upcard = document.querySelector("#pile .discard .card[data-code]");
    fly(upcard, stock, { delay: (theirs.length + mine.length) * DEAL_STEP, duration: 260 });
  }

  // The hand is over: both hands laid open in the result, each card from where it was held
  // (yours from your hand, the opponent's from their fan), then each lay-off travels from the
  // defender's side onto the knocker's meld.
  function reveal(old) {
    var shown = document.querySelectorAll("#result .side .groups .card[data-code]");
    shown.forEach(function (el, i) {
      var held = old.cards[el.dataset.code];
      var laidOff = el.classList.contains("laid-off");
      if (laidOff) return;
      fly(el, held || old.fan, { delay: i * 25, duration: 380, grow: !held });
    });
    var travel = shown.length * 25 + 380;
    document.querySelectorAll("#result .groups .card.laid-off[data-code]").forEach(function (el, i) {
      var note = document.querySelector('#result .laid-off-note .card[data-code="' + el.dataset.code + '"]');
      fly(el, rect(note) || old.fan, { delay: travel + i * 150, duration: 450 });
    });
    var points = document.querySelector("#result .headline[data-points]");
    if (points && points.dataset.points !== "0") countUp(wrapNumber(points), 0);
  }

  // The headline's points ("You knocked and score 40.") as an element of their own.
  function wrapNumber(headline) {
    var value = headline.dataset.points;
    var walker = document.createTreeWalker(headline, NodeFilter.SHOW_TEXT);
    var found = null;
    while (walker.nextNode()) {
      if (walker.currentNode.data.lastIndexOf(value) !== -1) found = walker.currentNode;
    }
    if (!found) return headline;
    var at = found.data.lastIndexOf(value);
    var number = found.splitText(at);
    number.splitText(value.length);
    var span = document.createElement("span");
    span.className = "points";
    number.parentNode.replaceChild(span, number);
    span.appendChild(number);
    return span;
  }

  function scores(old) {
    var now = document.querySelectorAll("#scores .score:not(.target):not(.hand-no) dd strong");
    now.forEach(function (el, i) {
      if (old.scores.length === now.length) countUp(el, old.scores[i]);
    });
  }

  function sound(name) {
    document.dispatchEvent(new CustomEvent("gin:sound", { detail: name }));
  }

  function moves(old) {
    var hand = document.querySelectorAll("#hand li[data-code]");
    hand.forEach(function (li) {
      fly(li, old.cards[li.dataset.code] || old.stock);
    });
    var top = document.querySelector("#pile .discard .card[data-code]");
    if (top && top.dataset.code !== old.top) fly(top, old.cards[top.dataset.code] || old.fan);
    var backs = document.querySelectorAll("#opponent .backs .card");
    if (backs.length > old.backs && old.backs) {
      fly(backs[backs.length - 1], old.top && (!top || top.dataset.code !== old.top) ? old.pile : old.stock);
    }
  }

  function play() {
    var old = before;
    before = null;
    if (!old) return;
    var now = snapshot();
    // A new hand, or (the seeded deal) the hand that was shuffling while no card was out.
    if (now.hand && (now.handNumber !== old.handNumber || old.shuffling)) deal();
    else if (now.result && !old.result) reveal(old);
    else moves(old);
    scores(old);
    var top = document.querySelector("#pile .discard .card[data-code]");
    var fanfare = document.querySelector("#result .celebration");
    if (now.result && !old.result) sound(fanfare ? (fanfare.classList.contains("big_gin") ? "big_gin" : "gin") : "knock");
    else if (top && top.dataset.code !== old.top) sound("discard");
    else if (now.hand > old.hand || now.backs > old.backs) sound("draw");
    if (now.turn && !old.turn) sound("turn");
  }

  function beforeSwap() {
    if (before) return;
    before = snapshot();
    // Every region of one answer or frame is swapped in the same task; animate after them.
    setTimeout(play, 0);
  }
  document.addEventListener("htmx:oobBeforeSwap", beforeSwap);
  // A table drawn by the page itself (Bea offline, static/js/offline-bea.js) says so before
  // it redraws, in the same task.
  document.addEventListener("gin:beforeswap", beforeSwap);

  // A table opened on a fresh deal (no move in this hand yet, the match still on) is dealt
  // before the player's eyes.
  document.addEventListener("DOMContentLoaded", function () {
    var fresh = document.querySelector("#hand li[data-code]") && !document.querySelector("#history ol.moves");
    if (fresh && document.querySelector("#after[hidden]")) deal();
  });
})();
