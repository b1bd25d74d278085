// Cards move instead of jumping: after a swap each card that changed place (by its code) is
// animated from where it was (FLIP: the page is already in its final state, the animation is
// only drawn on top of it, so no move ever waits for it). A card new to the hand flies in from
// the stock, a card new on the pile from the opponent's fan, a new back from the piles.
// It also tells sound.js what happened ("gin:sound" events).
(function () {
  "use strict";

  var reduced = matchMedia("(prefers-reduced-motion: reduce)");
  var before = null;

  function rect(el) {
    if (!el) return null;
    var r = el.getBoundingClientRect();
    return r.width || r.height ? r : null;
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
      result: !!document.querySelector("#result:not([hidden]) .headline"),
    };
  }

  function fly(el, from) {
    var to = rect(el);
    if (!to || !from || reduced.matches || !el.animate) return;
    var dx = from.left - to.left;
    var dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.animate(
      [{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }],
      { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" }
    );
  }

  function sound(name) {
    document.dispatchEvent(new CustomEvent("gin:sound", { detail: name }));
  }

  function play() {
    var old = before;
    before = null;
    if (!old) return;
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
    var result = !!document.querySelector("#result:not([hidden]) .headline");
    if (result && !old.result) sound("knock");
    else if (top && top.dataset.code !== old.top) sound("discard");
    else if (hand.length > old.hand || backs.length > old.backs) sound("draw");
    if (document.querySelector("#status.your-turn") && !old.turn) sound("turn");
  }

  document.addEventListener("htmx:oobBeforeSwap", function () {
    if (before) return;
    before = snapshot();
    // Every region of one answer or frame is swapped in the same task; animate after them.
    setTimeout(play, 0);
  });
})();
