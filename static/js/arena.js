// Arenas: every countdown on the page ticks each second (the server's text stays right without
// JavaScript until the next load), a push naming this player's new match sends the page there,
// and the page's socket sends only what changed (lobby/arena/patch.py): this applies it.
(function () {
  "use strict";

  function clock(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function tick() {
    var found = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < found.length; i++) {
      var left = Math.max(0, Math.round((Date.parse(found[i].dataset.countdown) - Date.now()) / 1000));
      found[i].textContent = clock(left);
    }
  }

  // A join that pairs the player at once is answered with HX-Redirect, and the same pairing is
  // pushed over the page's socket: leave-once.js follows whichever comes first.
  function followRedirect() {
    var target = document.getElementById("arena-redirect");
    if (target) window.ginLeave(target.getAttribute("data-redirect"));
  }

  // --- The pushes: regions without their rows, and the rows that changed ------------------------

  var shown = 0; // the last push applied (0: none, or waiting for a full one)
  var asked = false;

  function rowsOf(list) {
    var rows = { order: [], byKey: {} };
    for (var i = 0; i < list.children.length; i++) {
      var key = list.children[i].getAttribute("data-key");
      if (key === null) continue;
      rows.order.push(key);
      rows.byKey[key] = list.children[i];
    }
    return rows;
  }

  function rowFrom(list, html) {
    var holder = document.createElement(list.tagName);
    holder.innerHTML = html;
    return holder.firstElementChild;
  }

  function applyList(list, before, change, full) {
    var byKey = full ? {} : before.byKey;
    var set = change.set || {};
    Object.keys(set).forEach(function (key) { byKey[key] = rowFrom(list, set[key]); });
    var order = change.order || before.order;
    var rows = order.map(function (key) { return byKey[key]; }).filter(Boolean);
    list.replaceChildren.apply(list, rows);
    rows.forEach(function (row, i) {
      var rank = row.querySelector("[data-rank]");
      if (rank) rank.textContent = String(i + 1);
    });
  }

  function apply(data) {
    var kept = {};
    document.querySelectorAll("[data-rows]").forEach(function (list) {
      kept[list.dataset.rows] = rowsOf(list);
    });
    Object.keys(data.regions).forEach(function (id) {
      htmx.swap(document.body, data.regions[id], { swapStyle: "none" });
    });
    document.querySelectorAll("[data-rows]").forEach(function (list) {
      var name = list.dataset.rows;
      var before = kept[name] || { order: [], byKey: {} };
      applyList(list, before, (data.rows || {})[name] || {}, data.full);
    });
  }

  function resync(socket) {
    shown = 0;
    if (asked || !socket) return;
    asked = true;
    socket.send(JSON.stringify({ resync: true }));
  }

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    socket = event.detail.socketWrapper;
    var message = event.detail.message;
    if (typeof message !== "string" || message.charAt(0) !== "{") return;
    event.preventDefault();
    var data;
    try { data = JSON.parse(message); } catch (e) { return; }
    if (data.type !== "arena") return;
    if (!data.full && data.v !== shown + 1) { resync(event.detail.socketWrapper); return; }
    asked = false;
    shown = data.v;
    apply(data);
  });
  // A new socket (htmx reconnects after a drop) starts with a full push; until then nothing
  // it sends can follow what this page shows.
  var socket = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    shown = 0;
    asked = false;
  });
  // A button's answer swapped the regions whole: they may be older than the last push, so the
  // page asks for everything again rather than be patched from a state it no longer shows.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#arena")) resync(socket);
  });

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:wsAfterMessage", followRedirect);
})();
