"""Matches in the database before the seeded deal keep replaying and verifying as they were
dealt: migration 0011 gives each the scheme it was dealt with (docs/fairness.md, "Older
matches")."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import PRESETS, apply, fair, legal_actions, new_match
from games.models import Match
from games.records import replays
from games.state_cache import forget_all, load_state
from ginclient.verify import check

BEFORE = [("games", "0009_match_fair")]


def _played_hand(secret: str) -> list[tuple[int, dict[str, object]]]:
    """The actions of one hand of the older fair scheme, each seat cutting with its first."""
    state = new_match(PRESETS["standard"], seed=secret, fair=fair.CUT)
    rng, log, cut = random.Random(secret), [], set()
    while state.phase != "hand_over":
        seat = state.to_act
        legal = legal_actions(state, seat)
        enders = [a for a in legal if a["type"] in ("knock", "gin", "big_gin")]
        action = dict(rng.choice(enders or legal))
        if seat not in cut:
            action["seed"] = f"cut-{seat}"
            cut.add(seat)
        state = apply(state, seat, action)
        log.append((seat, action))
    return log


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_each_older_match_on_the_scheme_it_was_dealt_with() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    old_match, old_seat, old_action, old_record = (
        old.get_model("games", name) for name in ("Match", "Seat", "Action", "HandRecord")
    )
    rules = PRESETS["standard"].as_dict()
    made = {}
    for dealt_fair, secret in ((True, "a" * 32), (False, "b" * 32)):
        match = old_match.objects.create(
            kind="lobby", rules=rules, seed=secret, fair=dealt_fair, public_id=secret[:20]
        )
        for number, name in enumerate(("Ann", "Ben")):
            old_seat.objects.create(
                match=match, number=number, kind="guest", name=name, guest_key_hash="h"
            )
        made[dealt_fair] = match.public_id
    cut_match = old_match.objects.get(public_id=made[True])
    hand = _played_hand("a" * 32)
    for seq, (seat, action) in enumerate(hand, start=1):
        old_action.objects.create(match=cut_match, seq=seq, seat=seat, payload=action)
    cut_match.version = len(hand)
    cut_match.save()
    old_record.objects.create(match=cut_match, hand_number=1, kind="knock", points=0)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    forget_all()

    cut = Match.objects.get(public_id=made[True])
    plain = Match.objects.get(public_id=made[False])
    assert (cut.fair, plain.fair, cut.deal_due, plain.deal_due) == (fair.CUT, fair.NONE, None, None)
    assert load_state(plain).phase == "upcard_offer"  # dealt at once, as it was
    replay = replays.as_json(replays.replay_of(cut, 1))
    assert replay["shuffle"]["scheme"] == "sha256-fisher-yates-1"
    assert sorted(c["seed"] for c in replay["shuffle"]["cuts"]) == ["cut-0", "cut-1"]
    verdict = check(replay)
    assert verdict.ok, verdict.problems
    # A match made now is dealt from both players' seeds.
    assert Match._meta.get_field("fair").default == fair.SEEDED
