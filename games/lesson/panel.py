"""The lesson panel's words at each position of the script: what just happened, what to do now
and why, in the reader's language.

Every card and number in these sentences comes from ``script.story()``, the lesson played
through the engine: the deadwood before and after a move, the cards a new meld joins, the
layoffs and the points of each hand. None is typed by hand, so the words cannot drift from what
the table shows (``tests/games/test_lesson_script.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from games.engine import best_arrangement, display
from games.labels import PRESET_NAMES
from games.models import Match

from .script import BEA, LEARNER, SCRIPT, Position, position, story

# The learner's steps, in order: the panel counts them ("Step 3 of 10").
STEPS: tuple[str, ...] = ("1.0", "1.1", "1.4", "1.5", "1.8", "1.9", "1.end", "2.1", "2.2", "2.end")


def _card(code: str) -> str:
    return display(code)


def _cards(codes: list[str]) -> str:
    return get_text_list([_card(c) for c in codes], _("and"))


def _view(key: str) -> dict[str, Any]:
    return story()[key]


def _deadwood(key: str) -> int:
    return int(_view(key)["arrangement"]["deadwood"])


def _after(key: str) -> int:
    """The learner's deadwood after the discard the script makes at ``key``."""
    card = _move_card(key)
    return int(_view(key)["deadwood_after_discard"][card])


def _move_card(key: str) -> str:
    hand, index = key.split(".")
    return str(SCRIPT[int(hand)][int(index)].action["card"])


def _top(key: str) -> str:
    """The top card of the discard pile at ``key``."""
    return str(_view(key)["discard_pile"][-1])


def _partners(key: str, card: str) -> str:
    """The cards ``card`` is melded with in the learner's hand at ``key``."""
    for meld in _view(key)["arrangement"]["melds"]:
        if card in meld:
            return _cards([c for c in meld if c != card])
    return ""


def _limit() -> int:
    return int(_view("1.0")["rules"]["knock_limit"])


# --- Each step: (said, ask, why) ------------------------------------------------------------

Words = tuple[str, str, str]


def _deal() -> Words:
    card = _top("1.0")
    return (
        _(
            "You and Bea hold ten cards each. Build melds: runs (three or more cards of one suit "
            "in a row) and sets (three or four of one rank). Cards outside melds are deadwood: "
            "yours count %(deadwood)s points (ace 1, picture cards 10)."
        )
        % {"deadwood": _deadwood("1.0")},
        _("Take the %(card)s.") % {"card": _card(card)},
        _("The upcard is offered to you first. With your %(partners)s it makes a set.")
        % {"partners": _partners("1.1", card)},
    )


def _first_discard() -> Words:
    return (
        _("A set! Melded cards have gold edges. Your deadwood fell from %(before)s to %(now)s.")
        % {"before": _deadwood("1.0"), "now": _deadwood("1.1")},
        _("Discard the %(card)s.") % {"card": _card(_move_card("1.1"))},
        _(
            "A turn ends with a discard: a high card that fits nothing. The number under each "
            "card is your deadwood without it: %(after)s."
        )
        % {"after": _after("1.1")},
    )


def _stock_draw() -> Words:
    card = _top("1.4")
    return (
        _("Bea drew a card and discarded the %(card)s.") % {"card": _card(card)},
        _("Draw from the stock."),
        _(
            "A turn starts with a draw. The %(card)s is no use to you, so take the stock's top "
            "card: only you will see it."
        )
        % {"card": _card(card)},
    )


def _second_discard() -> Words:
    drawn = _view("1.5")["moves"][-1]["card"]
    return (
        _("You drew the %(card)s: a run with your %(partners)s. Deadwood: %(now)s.")
        % {"card": _card(drawn), "partners": _partners("1.5", drawn), "now": _deadwood("1.5")},
        _("Discard the %(card)s.") % {"card": _card(_move_card("1.5"))},
        _("It is your highest card outside a meld: without it, %(after)s.")
        % {"after": _after("1.5")},
    )


def _discard_draw() -> Words:
    card = _top("1.8")
    return (
        _("Bea discarded the %(card)s.") % {"card": _card(card)},
        _("Take the %(card)s from the discard pile.") % {"card": _card(card)},
        _("With your %(partners)s it makes a run.") % {"partners": _partners("1.9", card)},
    )


def _knock() -> Words:
    card = _move_card("1.9")
    loose = _view("1.9")["arrangement"]["deadwood_cards"]
    return (
        _("Three melds! Only %(cards)s are left.") % {"cards": _cards(loose)},
        _("Knock with the %(card)s.") % {"card": _card(card)},
        _(
            "Without the %(card)s your deadwood is %(after)s, %(limit)s or less: you may knock. "
            "With the %(card)s selected, press Knock: the hand ends and both hands are shown."
        )
        % {"card": _card(card), "after": _after("1.9"), "limit": _limit()},
    )


def _laid_off(last: dict[str, Any]) -> list[str]:
    return [item["card"] for item in last["layoffs"]]


def _first_result() -> Words:
    last = _view("1.end")["last_hand"]
    mine, hers = last["deadwood"][LEARNER], last["deadwood"][BEA]
    return (
        _(
            "You knocked with %(mine)s. Bea laid off %(cards)s onto your melds, so those stopped "
            "counting for her. She kept %(hers)s: you score %(hers)s − %(mine)s = %(points)s."
        )
        % {"mine": mine, "hers": hers, "cards": _cards(_laid_off(last)), "points": last["points"]},
        _("Start the next hand."),
        _("Press Next hand. This time Bea knocks."),
    )


def _second_upcard() -> Words:
    card = _top("2.1")
    return (
        _("Hand 2: you dealt, so Bea was offered the %(card)s first. She passed.")
        % {"card": _card(card)},
        _("Take the %(card)s.") % {"card": _card(card)},
        _("With your %(partners)s it makes a run.") % {"partners": _partners("2.2", card)},
    )


def _third_discard() -> Words:
    return (
        _("A run. Deadwood: %(now)s.") % {"now": _deadwood("2.2")},
        _("Discard the %(card)s.") % {"card": _card(_move_card("2.2"))},
        _("That leaves %(after)s: too much to knock.") % {"after": _after("2.2")},
    )


def _undercut() -> Words:
    view = _view("2.end")
    last = view["last_hand"]
    mine, hers = last["deadwood"][LEARNER], last["deadwood"][BEA]
    return (
        _(
            "Bea knocked with %(hers)s. You laid off your %(cards)s onto her melds: your "
            "deadwood fell from %(before)s to %(mine)s, no more than hers. An undercut! You "
            "score the difference and a bonus: %(hers)s − %(mine)s + %(bonus)s = %(points)s."
        )
        % {
            "hers": hers,
            "mine": mine,
            "cards": _cards(_laid_off(last)),
            "before": best_arrangement(last["hands"][LEARNER]).deadwood,
            "bonus": view["rules"]["undercut_bonus"],
            "points": last["points"],
        },
        _("Well played!"),
        _(
            "You have seen a knock from both sides. A match goes on like this until someone "
            "reaches %(target)s points."
        )
        % {"target": view["rules"]["target"]},
    )


_WORDS: dict[str, Callable[[], Words]] = {
    "1.0": _deal,
    "1.1": _first_discard,
    "1.4": _stock_draw,
    "1.5": _second_discard,
    "1.8": _discard_draw,
    "1.9": _knock,
    "1.end": _first_result,
    "2.1": _second_upcard,
    "2.2": _third_discard,
    "2.end": _undercut,
}
assert tuple(_WORDS) == STEPS


def _order(key: str) -> tuple[int, int]:
    hand, index = key.split(".")
    return int(hand), (1 << 30) if index == "end" else int(index)


def _next_step(key: str) -> str:
    """The learner's step at or after ``key`` (while Bea plays: the one she plays towards)."""
    at = _order(key)
    return next((step for step in STEPS if _order(step) >= at), STEPS[-1])


def _while_bea_plays(key: str) -> str:
    """What the panel says while Bea makes her moves: where the learner stands."""
    if key == "2.0":
        return _("Hand 2: you dealt, so the upcard, the %(card)s, is offered to Bea first.") % {
            "card": _card(_top("2.0"))
        }
    deadwood = _deadwood(key)
    if deadwood > _limit():
        return _(
            "Your deadwood: %(deadwood)s. Once a discard leaves %(limit)s or less, you may knock."
        ) % {"deadwood": deadwood, "limit": _limit()}
    return _("Your deadwood: %(deadwood)s.") % {"deadwood": deadwood}


def ask(where: Position) -> str:
    """The learner's step at ``where`` in one short sentence (also the door's refusal)."""
    step = _next_step(where.key)
    return _WORDS[step]()[1]


def panel(view: dict[str, Any]) -> dict[str, Any]:
    """What the panel shows for a lesson's view, in the active language."""
    where = position(view["hand_number"], len(view["moves"]), view["phase"])
    step = _next_step(where.key)
    said, asked, why = _WORDS[step]()
    bea = ""
    expected = where.next_move
    if expected is not None and expected.seat == BEA:
        # Only where the learner stands: the next step's words would tell what Bea will do.
        said, asked, why = _while_bea_plays(where.key), "", ""
        bea = _("Bea's turn: she draws and discards.") if where.key != "2.0" else _("Bea's turn.")
        if where.hand == 2 and where.index >= 3:
            bea = _("Bea's turn. Watch closely: she may knock.")
    return {
        "key": where.key,
        "number": STEPS.index(step) + 1,
        "total": len(STEPS),
        "said": said,
        "ask": asked,
        "why": why,
        "bea": bea,
        "done": where.done,
    }


# The level a newcomer's first real match against Bea starts at, from the lesson's last step.
FIRST_LEVEL = "easy"


def table_context(match: Match, ctx: dict[str, Any]) -> None:
    """What a lesson changes on its table (``table.context.table_context``): the panel; no Resign
    (the panel's Leave ends a lesson) and no shuffle to verify (its deals are fixed). The hint
    is not offered either (``games.table.context.hints_allowed``)."""
    view = ctx["view"]
    ctx["lesson"] = {
        **panel(view),
        "left": not match.is_active,
        "urls": {
            "leave": reverse("games:lesson_leave", args=[match.public_id]),
            "again": reverse("games:lesson"),
            "play": reverse("games:new"),
            "rules": reverse("how_to_play"),
        },
        "level": FIRST_LEVEL,
    }
    ctx["urls"] = {**ctx["urls"], "resign": ""}
    ctx["shuffle"] = None
    # The table's own "New match" (once a lesson is left) starts a real match at this level.
    ctx["level"] = FIRST_LEVEL
    ctx["rules_line"] = _("A lesson: two hands against Bea, by the %(preset)s rules.") % {
        "preset": PRESET_NAMES.get(view["rules"]["name"], view["rules"]["name"])
    }
