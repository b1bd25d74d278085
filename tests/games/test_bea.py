"""Bea moves on her own: the door's announcement schedules her reply, the same way whether
the human moved with htmx, without JavaScript or through the API, and no read moves for her."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import bea_turns, services
from games.events import match_changed
from games.models import Match

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
    # Set up in Bea's turn without the announcement that would schedule her (as after a
    # process died between Alice's move and Bea's reply).
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    match_changed.disconnect(dispatch_uid="games.bea_turns")
    try:
        services.submit(match, 0, {"type": "pass"}, 0)
    finally:
        match_changed.connect(bea_turns.on_change, dispatch_uid="games.bea_turns")
    before = snapshot(match)
    alice_client.get(url(match, "table"))
    alice_client.get(url(match, "hint"), HTTP_HX_REQUEST="true")
    assert bea_turns.worker.wait_idle(5)
    assert snapshot(match) == before


def test_the_worker_plays_a_match_scheduled_many_times_once():
    played: list[int] = []
    worker = bea_turns.Worker(played.append)
    for _ in range(5):
        worker.schedule(7, 0.05)
    worker.schedule(8, 0.0)
    assert worker.wait_idle(5)
    assert played == [8, 7]  # in due order, each once
