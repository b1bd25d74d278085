"""games.table.regions: which regions a move changes (what htmx answers and sockets push)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from games import services
from games.readers import view_for
from games.table.regions import FACTS, REGIONS, changed_regions, render_update

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, start

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _step(match, seat, action):  # type: ignore[no-untyped-def]
    before = {s: view_for(match, s) for s in (0, 1)}
    services.submit(match, seat, action, match.version)
    after = {s: view_for(match, s) for s in (0, 1)}
    return {s: changed_regions(before[s], after[s]) for s in (0, 1)}


def test_it_names_every_region_without_a_before(alice: User):
    match = start(alice)
    view = view_for(match, 0)
    assert changed_regions(None, view) == list(REGIONS)


def test_it_names_only_what_a_draw_changed(alice: User):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _step(match, 0, {"type": "pass"})
    _step(match, 1, {"type": "pass"})
    changed = _step(match, 0, {"type": "draw", "from": "stock"})
    assert set(changed[0]) == {
        "version",
        "status",
        "pile",
        "hand",
        "actions",
        "hint",
        "notice",
        "history",
    }
    # Bea's page: the stock shrank and Alice holds one more card; her own hand is the same.
    assert "opponent" in changed[1] and "pile" in changed[1]
    assert "hand" not in changed[1] and "scores" not in changed[1]


def test_it_names_scores_and_result_at_the_end_of_a_hand(alice: User):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _step(match, 0, {"type": "pass"})
    _step(match, 1, {"type": "pass"})
    _step(match, 0, {"type": "draw", "from": "stock"})
    changed = _step(match, 0, {"type": "knock", "card": "KD"})
    for seat in (0, 1):
        assert {"scores", "result", "status", "actions"} <= set(changed[seat])


def test_it_renders_the_update_for_each_seat(alice: User):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    before = view_for(match, 1)
    services.submit(match, 0, {"type": "pass"}, 0)
    html = render_update(match, 1, before, view_for(match, 1))
    assert 'id="status"' in html and 'hx-swap-oob="true"' in html
    # Seat 1's own hand is rendered for seat 1 only when it changed; Alice's never.
    assert "Deadwood 10" not in html


def test_it_declares_what_every_partial_of_the_table_renders_from():
    # A partial left out of REGIONS would never be sent when it changed.
    source = (Path(__file__).parents[2] / "templates/games/table.html").read_text()
    assert set(re.findall(r"{% partialdef (\w+) inline %}", source)) == set(REGIONS)


def test_it_reads_only_facts_a_view_has(alice: User):
    # A misspelt fact would read as None in every view, and its region would never change.
    view = view_for(start(alice), 0)
    # Fields only some views have: a lesson's, and a watcher's seat shown as backs.
    fields = {*view, "lesson", "spectated"}
    # What live_state gives (games/live/connection.py); "open" and "names" at a private table.
    live = {"connected", "names", "next", "offer", "answered", "open"}
    for region in REGIONS.values():
        for fact in (*region.reads, region.shown_if, region.form_if):
            field, _dot, key = fact.partition(".")
            assert not fact or fact in FACTS or (field in fields and (not key or key in live))
