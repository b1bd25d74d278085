// "Verify this shuffle" on a replay: recompute the hand's deck in this browser from the revealed
// server seed and the players' seeds (docs/fairness.md), check it against the commitment the
// server published before the seeds, then against the deal and every card drawn from the stock.
// Written from the document alone, with the browser's own SHA-256 (crypto.subtle), so it trusts
// nothing of the server's code. Two schemes: "sha256-seeded-deal-2" (the deck from the server
// seed and both players' seeds) and, for older matches, "sha256-fisher-yates-1" (the deck from
// the server seed, the stock cut by each player's seed).
(function () {
  "use strict";

  var CARDS = [];
  "CDHS".split("").forEach(function (suit) {
    "A23456789TJQK".split("").forEach(function (rank) { CARDS.push(rank + suit); });
  });
  var encoder = new TextEncoder();

  function sha256(text) {
    return crypto.subtle.digest("SHA-256", encoder.encode(text)).then(function (buffer) {
      return new Uint8Array(buffer);
    });
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // Unsigned 32-bit numbers from SHA-256("<key>:0"), SHA-256("<key>:1"), ..., big-endian.
  function numbers(key) {
    var block = 0, words = [], at = 0;
    return function next() {
      if (at < words.length) return Promise.resolve(words[at++]);
      return sha256(key + ":" + block++).then(function (digest) {
        var view = new DataView(digest.buffer);
        words = [];
        for (var i = 0; i < 32; i += 4) words.push(view.getUint32(i, false));
        at = 0;
        return next();
      });
    };
  }

  function below(next, bound) {
    var limit = 4294967296 - (4294967296 % bound);
    return next().then(function (x) { return x < limit ? x % bound : below(next, bound); });
  }

  function shuffle(cards, key) {
    var out = cards.slice(), next = numbers(key);
    function step(i) {
      if (i < 1) return Promise.resolve(out);
      return below(next, i + 1).then(function (j) {
        var card = out[i]; out[i] = out[j]; out[j] = card;
        return step(i - 1);
      });
    }
    return step(out.length - 1);
  }

  function sameCards(a, b) {
    return a.slice().sort().join(" ") === b.slice().sort().join(" ");
  }

  var SEEDED = "sha256-seeded-deal-2", CUT = "sha256-fisher-yates-1";

  // The key the deck is shuffled with: the server seed and both seats' seeds ("" for none).
  function deckKey(fair) {
    if (fair.scheme === CUT) return "deck:" + fair.server_seed;
    var seeds = fair.seeds || [];
    if (seeds.length !== 2 || seeds.some(function (s) { return String(s).indexOf(":") >= 0; })) {
      throw ["the players' seeds are not two seeds"];
    }
    return "deal:" + fair.server_seed + ":" + seeds[0] + ":" + seeds[1];
  }

  // Resolves to a list of problems: empty when everything matches.
  function check(replay) {
    var fair = replay.shuffle, problems = [];
    if (!fair || (fair.scheme !== SEEDED && fair.scheme !== CUT)) {
      return Promise.resolve(["this hand was not dealt by the provably fair shuffle"]);
    }
    var server = fair.server_seed, moves = replay.moves, dealer = replay.dealer;
    var cuts = {};
    (fair.cuts || []).forEach(function (cut) { cuts[cut.move] = cut; });
    return sha256(server).then(function (digest) {
      if (hex(digest) !== fair.commitment) throw ["the server seed does not match the commitment"];
      return shuffle(CARDS, deckKey(fair));
    }).then(function (deck) {
      var deal = moves[0];
      if (!sameCards(deal.hands[1 - dealer], deck.slice(0, 10)) ||
          !sameCards(deal.hands[dealer], deck.slice(10, 20))) {
        problems.push("the hands dealt are not the committed ones");
      }
      if (deal.discard_pile.length !== 1 || deal.discard_pile[0] !== deck[20]) {
        problems.push("the upcard is not the committed one");
      }
      var stock = deck.slice(21), draws = 0;
      function walk(index) {
        if (index >= moves.length || problems.length) return Promise.resolve(draws);
        var move = moves[index], cut = cuts[move.index];
        var ready = cut
          ? shuffle(stock, "cut:" + server + ":" + cut.seat + ":" + cut.seed)
          : Promise.resolve(stock);
        return ready.then(function (cutStock) {
          stock = cutStock;
          var action = move.action || {};
          if (action.type === "draw" && action.source === "stock") {
            if (action.card !== stock[0]) {
              problems.push("move " + move.index + ": " + action.card + " was drawn, not the top of the stock");
            }
            stock = stock.slice(1);
            draws += 1;
          }
          if (move.stock_count !== stock.length) {
            problems.push("move " + move.index + ": the stock does not add up");
          }
          return walk(index + 1);
        });
      }
      return walk(1);
    }).then(function () { return problems; }, function (thrown) {
      return Array.isArray(thrown) ? thrown : [String(thrown)];
    });
  }

  function start(button) {
    var box = document.getElementById("verify-result");
    var data = document.getElementById("shuffle-data");
    if (!box || !data) return;
    if (!window.crypto || !crypto.subtle) {
      box.textContent = box.dataset.noCrypto;
      box.className = "verify-result bad";
      return;
    }
    button.disabled = true;
    box.className = "verify-result";
    box.textContent = box.dataset.working;
    check(JSON.parse(data.textContent)).then(function (problems) {
      button.disabled = false;
      if (problems.length) {
        box.className = "verify-result bad";
        box.textContent = box.dataset.failed + " " + problems.join("; ") + ".";
      } else {
        box.className = "verify-result good";
        box.textContent = box.dataset.verified;
      }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#verify-shuffle");
    if (button) start(button);
  });

  window.ginVerify = { check: check };
})();
