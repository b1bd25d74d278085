"""The end of a hand and of a match: both hands laid open, the settlement, the hands so far."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.labels import KIND_NAMES
from games.models import Match
from games.results_card.links import card_url


def result_context(
    view: dict[str, Any],
    names: dict[int, str],
    seat: int,
    laid: dict[str, Any],
    spectator: bool = False,
) -> dict[str, Any]:
    """The last hand laid open (``laid``: its cards labelled and in order, ``hand.laid_open``):
    both hands' melds, the layoffs, deadwood, kind and points."""
    last = view["last_hand"]
    kind = last["kind"]
    knocker = last["knocker"]
    winner = last["winner"]
    headline = (
        _watched_headline(kind, knocker, winner, last["points"], names)
        if spectator
        else _result_headline(kind, knocker, winner, last["points"], names, seat)
    )
    sides = []
    for s in (seat, 1 - seat):
        sides.append(
            {
                "seat": s,
                "name": names[s],
                "knocker": s == knocker,
                "winner": s == winner,
                # Laid-off cards sit in the knocker's meld where they fit, marked as laid off.
                "melds": [{"cards": meld} for meld in laid["melds"][s]],
                "deadwood_cards": laid["deadwood"][s],
                "deadwood": last["deadwood"][s],
                "laid_off": laid["laid_off"] if s != knocker and knocker is not None else [],
            }
        )
    return {
        "kind": kind,
        "kind_name": KIND_NAMES.get(kind, kind),
        "hand_number": last.get("hand_number"),
        "points": last["points"],
        "headline": headline,
        "sides": sides,
        "undercut_bonus": view["rules"]["undercut_bonus"],
        # Gin and Big Gin are celebrated for whoever went out, and for watchers (issue 41).
        "celebrate": kind in ("gin", "big_gin") and (spectator or winner == seat),
    }


def _result_headline(
    kind: str,
    knocker: int | None,
    winner: int | None,
    points_won: int,
    names: dict[int, str],
    seat: int,
) -> str:
    if kind == "draw" or knocker is None or winner is None:
        return _("A draw: the stock ran down to two cards. No points; the same dealer deals again.")
    you_knocked = knocker == seat
    other = names[1 - seat]
    values = {"name": other, "points": points_won}
    if kind == "undercut":
        if you_knocked:
            return _("%(name)s undercut your knock and scores %(points)s.") % values
        return _("You undercut %(name)s's knock and score %(points)s.") % values
    if kind == "gin":
        if you_knocked:
            return _("You went gin and score %(points)s.") % values
        return _("%(name)s went gin and scores %(points)s.") % values
    if kind == "big_gin":
        if you_knocked:
            return _("You went Big Gin and score %(points)s.") % values
        return _("%(name)s went Big Gin and scores %(points)s.") % values
    if you_knocked:
        return _("You knocked and score %(points)s.") % values
    return _("%(name)s knocked and scores %(points)s.") % values


def _watched_headline(
    kind: str, knocker: int | None, winner: int | None, points_won: int, names: dict[int, str]
) -> str:
    """The hand's result in the third person, for watchers."""
    if kind == "draw" or knocker is None or winner is None:
        return _("A draw: the stock ran down to two cards. No points; the same dealer deals again.")
    values = {"name": names[winner], "other": names[1 - winner], "points": points_won}
    if kind == "undercut":
        return _("%(name)s undercut %(other)s's knock and scores %(points)s.") % values
    if kind == "gin":
        return _("%(name)s went gin and scores %(points)s.") % values
    if kind == "big_gin":
        return _("%(name)s went Big Gin and scores %(points)s.") % values
    return _("%(name)s knocked and scores %(points)s.") % values


def settlement(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    s = view["settlement"]
    winner, loser = s["winner"], s["loser"]
    return {
        "winner": names[winner],
        "loser": names[loser],
        "columns": [names[winner], names[loser]],
        "rows": [
            (_("Points"), s["scores"][winner], s["scores"][loser]),
            (_("Game bonus"), s["game_bonus"], 0),
            *(
                # Rules without a box bonus (the classic preset) have no row of zeros for it.
                [
                    (
                        _("Boxes (%(bonus)s per hand won)") % {"bonus": s["box_bonus"]},
                        s["boxes"][winner],
                        s["boxes"][loser],
                    )
                ]
                if s["box_bonus"]
                else []
            ),
            (_("Tally"), s["tallies"][winner], s["tallies"][loser]),
        ],
        "hands_won": (s["hands_won"][winner], s["hands_won"][loser]),
        "shutout": s["shutout"],
        "doubled": s["doubled"],
        "net": s["net"],
    }


def history(view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    rows = []
    for h in view["history"]:
        winner = h.get("winner")
        rows.append(
            {
                "hand_number": h["hand_number"],
                "kind": KIND_NAMES.get(h["kind"], h["kind"]),
                "winner": names[winner] if winner is not None else "—",
                "points": h["points"],
            }
        )
    return rows


def add_ending(ctx: dict[str, Any], match: Match, view: dict[str, Any], seat: int) -> None:
    """The last hand laid open (``ctx["laid"]``: ``hand.add_hand``'s, None before any), the
    settlement, the hands so far with their replays, and the results card to share once the
    match is over (``games.results_card``)."""
    names = ctx["names"]
    ctx["result"] = None
    if view["last_hand"]:
        shown = ctx["spectator"] or ctx["local"]
        ctx["result"] = result_context(view, names, seat, ctx["laid"], shown)
        ctx["result"]["replay_url"] = _replay_url(match, view["last_hand"]["hand_number"])
    ctx["show_result"] = bool(
        (ctx["result"] and ctx["hand_ended"])
        or view["settlement"]
        or view["phase"] == "match_over"
        or not match.is_active
    )
    ctx["settlement"] = settlement(view, names) if view["settlement"] else None
    ctx["history"] = history(view, names)
    for row in ctx["history"]:
        row["replay_url"] = _replay_url(match, row["hand_number"])
    ctx["card_url"] = "" if match.is_active or ctx["local"] else card_url(match)


def _replay_url(match: Match, hand_number: int) -> str:
    """A finished hand's replay (games.records.replays): whoever reads the table may read it."""
    return reverse("games:replay", args=[match.public_id, hand_number])
