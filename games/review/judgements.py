"""Bea's judgement of finished hands: computed on demand, stored, and shown to whom it may be.

A hand is judged only once it is over (its replay exists: ``games.records.replays`` refuses a
hand in play), never on a move's path, and each of its decisions from the mover's own view at
that moment (``player_view``: their hand, the pile, the public log; ``games.ai.judge``). Bea's
own seat is not judged. A judged hand is stored (``HandJudgement``); judging a new one spends
the reader's budget (``games.review.budget``).

Who sees what (docs/review.md): while the match runs, a player sees the judgement of their own
decisions in its finished hands where the hint is offered (against Bea, or between two people
who agreed to hints; the owner of a pass-and-play match, both seats'), and a watcher sees none;
once the match is over, everyone who may read its replays sees every judged seat's.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games.access import Asker
from games.ai import judge
from games.engine import MatchState, player_view
from games.models import Match, Seat
from games.records import replays
from games.table.context import hints_allowed

from . import budget, marks
from .models import HandJudgement

#: Bumped when judgements change, so that stored ones of an older kind are redone.
VERSION = 1

Decision = dict[str, Any]


def reviewed_seats(match: Match) -> tuple[int, ...]:
    """The seats whose decisions are judged: every seat but Bea's."""
    return tuple(s.number for s in match.seats.all() if s.kind != Seat.Kind.BEA)


def shown_seats(asker: Asker) -> tuple[int, ...]:
    """The seats whose judged decisions ``asker`` may see now (see the module's docstring)."""
    match = asker.match
    if asker.nobody:
        return ()
    reviewed = reviewed_seats(match)
    if not match.is_active or asker.owner:
        return reviewed
    if not hints_allowed(match):
        # Bea's judgement is her help, as the hint is: between two people who did not agree
        # to hints it would be a third player at the table, so it waits for the match's end.
        return ()
    return (asker.seat,) if asker.seat in reviewed else ()


def stored(match: Match, hand_number: int) -> list[Decision] | None:
    """The hand's judged decisions if they were judged (by this version of the judge)."""
    row = HandJudgement.objects.filter(match=match, hand_number=hand_number).first()
    if row is None or row.version != VERSION:
        return None
    return list(row.decisions)


def judge_hand(match: Match, hand_number: int, positions: list[MatchState]) -> list[Decision]:
    """Judge every decision of the reviewed seats in one finished hand. The random numbers are
    seeded by the match's public id and the position, so a judgement repeats."""
    seats = reviewed_seats(match)
    decisions = []
    for index in range(1, len(positions)):
        move = positions[index].moves[-1]
        seat = move["seat"]
        if seat not in seats:
            continue
        view = player_view(positions[index - 1], seat)
        rng = random.Random(f"review:{match.public_id}:{hand_number}:{index}")
        judged = judge.judge(view, move, rng)
        if judged is not None:
            decisions.append({"index": index, "seat": seat, **judged})
    return decisions


def decisions_of(replay: replays.Replay, reader: str) -> list[Decision]:
    """The hand's judged decisions: stored, or judged now on ``reader``'s budget (which may
    raise ``budget.Spent``)."""
    found = stored(replay.match, replay.hand_number)
    if found is not None:
        return found
    with budget.judging(reader):
        decisions = judge_hand(replay.match, replay.hand_number, replay.positions)
    keep(replay.match, replay.hand_number, decisions)
    return decisions


def keep(match: Match, hand_number: int, decisions: list[Decision]) -> None:
    """Store a judged hand. Two first readers at once: the unique (match, hand_number) keeps
    one row, and both judged the same decisions with the same random numbers. A match deleted
    while its hand was judged (a guest's Bea match swept, a private table removed) keeps
    nothing, and its reader still gets the judgement rather than an error."""
    try:
        with transaction.atomic():
            HandJudgement.objects.update_or_create(
                match=match,
                hand_number=hand_number,
                defaults={"decisions": decisions, "version": VERSION},
            )
    except IntegrityError:
        if Match.objects.filter(pk=match.pk).exists():
            raise


def seat_summary(decisions: list[Decision], seat: int) -> dict[str, Any]:
    """One seat's accuracy over ``decisions`` and how many of each mark it got."""
    costs = [d["cost"] for d in decisions if d["seat"] == seat]
    counts = {name: 0 for name, _ in marks.MARKS}
    for cost in costs:
        name = marks.mark(cost)
        if name:
            counts[name] += 1
    return {"seat": seat, "accuracy": marks.overall(costs), "decisions": len(costs), **counts}


def worst(decisions: list[Decision], count: int = 3) -> list[Decision]:
    """The costliest marked decisions, costliest first (the earlier one on a tie)."""
    marked = [d for d in decisions if marks.mark(d["cost"])]
    marked.sort(key=lambda d: (-d["cost"], d.get("hand_number", 0), d["index"]))
    return marked[:count]


def match_decisions(
    match: Match, reader: str, first: int | None = None
) -> tuple[dict[int, list[Decision]], int | None]:
    """The judged decisions of the match's finished hands, hand by hand: those stored, and up
    to ``REVIEW_HANDS_PER_REQUEST`` judged now (hand ``first`` before the others), no more
    once ``REVIEW_SECONDS_PER_REQUEST`` have gone on judging (a page waits for its own hand,
    not for the whole match on a busy server). With them, the seconds to wait when the budget
    stopped a hand from being judged (else None)."""
    numbers = replays.finished_hands(match)
    if first in numbers:
        numbers = [first] + [n for n in numbers if n != first]
    out: dict[int, list[Decision]] = {}
    fresh = 0
    retry: int | None = None
    until = time.monotonic() + settings.REVIEW_SECONDS_PER_REQUEST
    for number in numbers:
        found = stored(match, number)
        if found is None:
            # Past the budget, or this request's share of it, the hands judged before still
            # count; no other is judged.
            spent = fresh >= settings.REVIEW_HANDS_PER_REQUEST or (
                fresh and time.monotonic() > until
            )
            if retry is not None or spent:
                continue
            fresh += 1
            try:
                found = decisions_of(replays.replay_of(match, number), reader)
            except budget.Spent as spent:
                retry = spent.retry_after
                continue
        out[number] = found
    return dict(sorted(out.items())), retry
