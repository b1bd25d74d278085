"""An offline match against Bea, as the browser runs it (Pyodide) and the tests run it here: the
state is a pure function of the match's seed, rules, Bea's level and the log of actions
(DESIGN.md, principle 3), which is all the browser stores.

Uses only ``games.engine``, ``games.ai`` and the table's orders of cards
(``games.table.orders``, pure): nothing of Django, nothing of the server.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from games import ai
from games.engine import ALL_CARDS, PRESETS, IllegalAction, apply, new_match, player_view
from games.labels import card_name
from games.table import orders

PLAYER, BEA = 0, 1
# Bea's moves in one call at most: a hand cannot have more (a safeguard, not a rule).
_MOST = 400


class Offline:
    """One offline match: seat 0 the player, seat 1 Bea at ``level``."""

    def __init__(self, preset: str, target: int, level: str, seed: int | str) -> None:
        if level not in ai.LEVELS:
            raise ValueError(f"unknown level {level!r}")
        rules = dataclasses.replace(PRESETS[preset], target=int(target))
        self.meta = {"preset": preset, "target": int(target), "level": level, "seed": seed}
        self.state = new_match(rules, seed=seed)
        self.log: list[list[Any]] = []
        # The player's order of their hand, as the online table keeps it per seat
        # (games.table.arrange): a sort, or the cards as dragged in one hand.
        self.order: dict[str, Any] = {"sort": orders.MELDS, "cards": [], "hand_number": 0}

    @classmethod
    def restore(cls, saved: dict[str, Any]) -> Offline:
        """The match a browser saved (``saved()``), replayed from its log."""
        match = cls(saved["preset"], saved["target"], saved["level"], saved["seed"])
        for seat, action in saved["log"]:
            match._apply(seat, action)
        order = saved.get("order")
        if order:
            match.arrange(sort=order.get("sort"))
            if order.get("cards") and order.get("hand_number") == match.view()["hand_number"]:
                match.arrange(cards=order["cards"])
        return match

    def saved(self) -> dict[str, Any]:
        return {**self.meta, "log": self.log, "order": self.order}

    def arrange(self, sort: str | None = None, cards: list[str] | None = None) -> None:
        """A sort chosen (the dragged order forgotten), or the hand as the player dragged it
        (the same cards, in a new order). Refused with ``ValueError``, nothing changed."""
        if sort is not None:
            if sort not in orders.SORT_CYCLE:
                raise ValueError(f"unknown sort {sort!r}")
            self.order = {"sort": sort, "cards": [], "hand_number": 0}
        if cards is not None:
            view = self.view()
            if sorted(cards) != sorted(view["hand"]):
                raise ValueError("not the cards of this hand")
            self.order = {**self.order, "cards": list(cards), "hand_number": view["hand_number"]}

    def table(self) -> dict[str, Any]:
        """What the page draws besides the view: the hand in the player's order (code, melded,
        starts a group), the sort in use and the next, and the last hand laid open."""
        view = self.view()
        dragged = self.order["cards"] if self.order["hand_number"] == view["hand_number"] else []
        last = view["last_hand"]
        return {
            "hand": orders.arranged(view, self.order["sort"], dragged),
            "sort": self.order["sort"],
            "next_sort": orders.next_sort(self.order["sort"]),
            "laid_open": orders.laid_open(last) if last else None,
        }

    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        self.state = apply(self.state, seat, action)
        self.log.append([seat, action])

    def bea_step(self) -> dict[str, Any] | None:
        """Bea's next action if it is her turn (or her "next hand"), taken; else None."""
        view = player_view(self.state, BEA)
        if view["to_act"] != BEA or not view["legal_actions"]:
            return None
        action = ai.choose(view, self.meta["level"])
        self._apply(BEA, action)
        return action

    def bea_plays(self) -> list[dict[str, Any]]:
        """Bea's actions while it is her turn (or her "next hand"): the actions she took."""
        taken = []
        for _turn in range(_MOST):
            action = self.bea_step()
            if action is None:
                break
            taken.append(action)
        return taken

    def play(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The player's action (refused with ``IllegalAction``, nothing changed), then Bea's."""
        self._apply(PLAYER, action)
        return self.bea_plays()

    def view(self) -> dict[str, Any]:
        return player_view(self.state, PLAYER)

    def hint(self) -> dict[str, Any]:
        return ai.hint(self.view())


def self_play(preset: str, target: int, level: str, seed: int | str) -> dict[str, Any]:
    """Bea against Bea for a whole match from ``seed``: each hand's first deal, the scores,
    and a digest of the log (what the browser and the server must agree on)."""
    match = Offline(preset, target, level, seed)
    deals = []
    for _turn in range(20_000):
        view = player_view(match.state, match.state.to_act or 0)
        if view["phase"] == "match_over":
            break
        if view["hand_number"] > len(deals):
            deals.append(sorted(player_view(match.state, PLAYER)["hand"]))
        seat = match.state.to_act if match.state.to_act is not None else PLAYER
        mine = player_view(match.state, seat)
        if not mine["legal_actions"]:
            seat = 1 - seat
            mine = player_view(match.state, seat)
        match._apply(seat, ai.choose(mine, level))
    log = json.dumps(match.log, sort_keys=True).encode()
    final = player_view(match.state, PLAYER)
    return {
        "deals": deals,
        "scores": list(final["scores"]),
        "phase": final["phase"],
        "actions": len(match.log),
        "digest": hashlib.sha256(log).hexdigest(),
    }


# --- What the page calls (static/js/offline-bea.js): JSON in, JSON out ---------------------------

_current: Offline | None = None


def _answer(taken: list[dict[str, Any]] | None = None) -> str:
    assert _current is not None
    return json.dumps(
        {
            "view": _current.view(),
            "table": _current.table(),
            "bea": taken or [],
            "saved": _current.saved(),
            # Each card's name for a screen reader ("ten of clubs"), as the online table's.
            "names": {code: card_name(code) for code in ALL_CARDS},
        }
    )


def page_start(preset: str, target: int, level: str, seed: str) -> str:
    """A new match (if Bea opens, the page asks for her moves: ``page_bea``)."""
    global _current
    _current = Offline(preset, target, level, seed)
    return _answer()


def page_restore(saved: str) -> str:
    """The match this browser saved, as it was."""
    global _current
    _current = Offline.restore(json.loads(saved))
    return _answer()


def page_play(action: str) -> str:
    """The player's action; a refusal as ``{"refused": reason}``, nothing changed. Bea's
    answer comes move by move (``page_bea``), for the player to see each."""
    assert _current is not None
    try:
        _current._apply(PLAYER, json.loads(action))
    except IllegalAction as refused:
        return json.dumps({"refused": str(refused)})
    return _answer()


def page_bea() -> str:
    """Bea's next move, if it is her turn (``bea``: the one action taken, or none)."""
    assert _current is not None
    action = _current.bea_step()
    return _answer([action] if action is not None else [])


def page_arrange(sort: str, cards: str) -> str:
    """A sort chosen (``sort``), or the hand dragged into a new order (``cards``, the codes
    joined by spaces); a refusal as ``{"refused": reason}``."""
    assert _current is not None
    try:
        _current.arrange(sort=sort or None, cards=cards.split() if cards else None)
    except ValueError as refused:
        return json.dumps({"refused": str(refused)})
    return _answer()


def page_hint() -> str:
    assert _current is not None
    return json.dumps(_current.hint())


def page_self_play(preset: str, target: int, level: str, seed: str) -> str:
    return json.dumps(self_play(preset, target, level, seed))
