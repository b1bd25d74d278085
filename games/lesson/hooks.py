"""The lesson in the move path, by registration (``games.table.add_ons.kinds``), so that the door,
the readers and the table ask "does this kind of match have rules of its own?" and know nothing of
lessons: the door applies only the script's next move (``admit``), a learner's view says where
the lesson stands (``add_to_view``), the table shows the panel (``panel.table_context``), no
hint is offered, and Bea plays her "level" ``lesson`` by the script (``script.choose``).
``games.apps`` registers them once, at start.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import IllegalAction, MatchState
from games.models import Match
from games.table import add_ons as extras

from . import panel, script


def admit(state: MatchState, seat: int, action: Any) -> dict[str, Any]:
    """The action the door applies in a lesson: the script's next move, if ``action`` is it
    (seed aside). Anything else is refused, with what the lesson wants instead."""
    where = script.position(state.hand_number, len(state.moves), state.phase)
    expected = where.next_move
    if expected is None:
        raise IllegalAction(_("The lesson is over: play Bea for real, or take the lesson again."))
    if seat != expected.seat:
        raise IllegalAction(_("Wait for Bea: it is her turn."))
    if script.without_seed(action) != expected.action:
        raise IllegalAction(_("Not that move in this lesson. %(ask)s") % {"ask": panel.ask(where)})
    return dict(expected.action)


def add_to_view(state: MatchState, seat: int, view: dict[str, Any]) -> None:
    """A seat's view of a lesson: where it stands and the move asked for (``lesson``)."""
    view["lesson"] = script.progress(state, seat)
    if view["lesson"]["done"]:
        # The lesson ends with its last hand: there is no next one to deal.
        view["legal_actions"] = []


def table(match: Match, ctx: dict[str, Any]) -> None:
    """The panel, on a table whose view says where the lesson stands."""
    if ctx["view"].get("lesson") is not None:
        panel.table_context(match, ctx)


def register() -> None:
    extras.kinds[Match.Kind.LESSON] = extras.KindRules(
        admit=admit, add_to_view=add_to_view, table=table, hints=False
    )
    extras.scripted_levels[script.LEVEL] = script.choose
