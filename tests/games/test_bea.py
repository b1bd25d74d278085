"""Bea moves on her own: the door's announcement schedules her reply, the same way whether
the human moved with htmx, without JavaScript or through the API, and no read moves for her."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.bea import turns as bea_turns
from games.events import match_changed
from games.models import Match
from games.state_cache import load_state

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, snapshot, stacked, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _wait_for_her(match: Match) -> Match:
    assert bea_turns.worker.wait_idle(30)
    match.refresh_from_db()
    return match


@pytest.mark.django_db(transaction=True)
def test_it_replies_to_an_htmx_move_without_another_request(
    alice: User, alice_client: Client, quick_bea: None
):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    answer = move(alice_client, match, "pass", htmx=True)
    assert answer.status_code == 200
    # The answer is Alice's own move; Bea's reply follows on her own.
    assert "Bea is thinking…" in answer.content.decode()
    match = _wait_for_her(match)
    # Bea's loose hand does not want Q♣: she passes, and it is Alice's draw.
    assert match.version == 2
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea passed the upcard." in page
    assert "Your turn: draw from the stock." in page


@pytest.mark.django_db(transaction=True)
def test_it_plays_her_whole_turn_for_a_page_without_javascript(
    alice: User, alice_client: Client, quick_bea: None
):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    match = _wait_for_her(match)
    move(alice_client, match, "draw_stock")
    response = move(alice_client, match, "discard", "2D")
    assert response.status_code == 302  # post/redirect/get
    match = _wait_for_her(match)
    # She drew and discarded: two actions after Alice's four, and it is Alice's turn again.
    assert match.version == 6
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Your turn: draw a card." in page


@pytest.mark.django_db(transaction=True)
def test_it_keeps_her_thinking_pause(alice: User, alice_client: Client, settings):  # type: ignore[no-untyped-def]
    settings.BEA_PAUSE_MS = 400
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass", htmx=True)
    match.refresh_from_db()
    assert match.version == 1  # the answer came back before she moved
    match = _wait_for_her(match)
    assert match.version == 2


@pytest.mark.django_db(transaction=True)
def test_a_read_never_moves_for_her(alice: User, alice_client: Client):
    # In Bea's turn without the announcement that would schedule her (as after a process
    # died between Alice's move and Bea's reply): only the sweep picks such a turn up.
    match = _her_turn_that_nobody_plays(alice)
    before = snapshot(match)
    alice_client.get(url(match, "table"))
    alice_client.get(url(match, "hint"), HTTP_HX_REQUEST="true")
    assert bea_turns.worker.wait_idle(5)
    assert snapshot(match) == before


def test_the_worker_plays_a_match_scheduled_many_times_once():
    played: list[int] = []
    worker = bea_turns.Worker(played.append)
    # 7 is due a second from now: long enough that a busy machine still asks for 8 (due at
    # once) before 7 falls due, so the order below is the worker's and not the machine's.
    for _ in range(5):
        worker.schedule(7, 1.0)
    worker.schedule(8, 0.0)
    assert worker.wait_idle(5)
    assert played == [8, 7]  # in due order, each once


def _her_turn_that_nobody_plays(alice: User) -> Match:
    """Bea to move, with the announcement that would have scheduled her lost (as when the
    process died in her pause), and nothing moved for longer than a stalled turn takes."""
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    match_changed.disconnect(dispatch_uid="games.bea.turns")
    try:
        services.submit(match, 0, {"type": "pass"}, 0)
    finally:
        match_changed.connect(bea_turns.on_change, dispatch_uid="games.bea.turns")
    _quiet(match)
    return match


def _quiet(match: Match) -> None:
    quiet = timezone.now() - bea_turns.STALLED_AFTER - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(updated_at=quiet)


@pytest.mark.django_db(transaction=True)
def test_a_turn_of_hers_that_a_dead_process_held_is_played_by_the_sweep(
    alice: User, quick_bea: None
):
    match = _her_turn_that_nobody_plays(alice)
    assert bea_turns.worker.wait_idle(5)
    assert Match.objects.get(pk=match.pk).version == 1  # stalled: nothing would move her
    bea_turns.Resumer()()  # a worker's sweep, its first look over every running match
    _wait_for_her(match)
    assert match.version > 1
    assert load_state(match).to_act == 0  # her whole turn played, Alice's turn again


@pytest.mark.django_db(transaction=True)
def test_the_sweep_leaves_turns_in_her_pause_long_ago_or_not_hers(alice: User, quick_bea: None):
    match = _her_turn_that_nobody_plays(alice)
    assert bea_turns.resume_stalled(lookback=timedelta(seconds=2)) == 0  # older than it looks
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now())  # still in her pause
    assert bea_turns.resume_stalled() == 0
    match.refresh_from_db()
    assert bea_turns.play_turn(match) > 0
    _quiet(match)  # Alice's turn, and she takes her time
    assert bea_turns.resume_stalled() == 0
