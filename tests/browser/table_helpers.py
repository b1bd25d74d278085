"""Tables in a known position for the browser tests: a match against Bea from a stacked deck,
brought to the draw, the discard or the hand-over phase, and a browser signed in to it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import connections
from django.test import Client

from games.bea import turns as bea_turns
from games.models import Match
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, move, stacked, start

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from playwright.sync_api import BrowserContext, Page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    # Phones turned sideways.
    "740x360": {"width": 740, "height": 360},
    "844x390": {"width": 844, "height": 390},
    "768x1024": {"width": 768, "height": 1024},
    "1280x800": {"width": 1280, "height": 800},
}
PHASES = ("draw", "discard", "hand_over")


def settle(page: Page) -> None:
    """Bring every running card animation to its end: where the cards come to rest (a fresh
    deal flies them in from the stock), for measuring and screenshots."""
    page.evaluate(
        """() => document.getAnimations().forEach(a => {
            if (isFinite(a.effect.getComputedTiming().endTime)) a.finish(); })"""
    )


def sign_in(context: BrowserContext, base: str, user: User) -> Client:
    """Give the browser ``user``'s session (the sign-in form has tests of its own)."""
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return client


def table_in(user: User, phase: str) -> Match:
    """``_table_in`` on a thread of its own: Playwright's event loop runs in the test's thread,
    and the pushes after a commit may not run their async code from there."""
    return off_thread(_table_in, user, phase)


def off_thread(fn: Any, *args: Any) -> Any:
    """Set-up that commits (and so pushes) runs off Playwright's event-loop thread, on a thread
    of its own that gives its database connection back when done: a thread that ends with its
    connection open never returns it to PostgreSQL's pool, and twenty such exhaust it."""

    def run() -> Any:
        try:
            return fn(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _table_in(user: User, phase: str) -> Match:
    """A Bea match of ``user``'s at the start of their turn's ``phase`` ("upcard": the offer of
    the upcard that opens the hand).

    Alice's hand (three runs and K♦) lets her knock as soon as she takes Q♣; Bea's holds
    nothing she could knock with, so she only draws and discards."""
    client = Client()
    client.force_login(user)
    match = start(user, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    if phase == "discard":
        move(client, match, "take_upcard")
    elif phase == "draw":
        move(client, match, "take_upcard")
        move(client, match, "discard", "KD")
        assert bea_turns.worker.wait_idle(30)
    elif phase == "hand_over":
        move(client, match, "take_upcard")
        move(client, match, "knock", "KD")
    match.refresh_from_db()
    return match


def knocked_against(user: User, bea: str, *, knock: bool = True) -> str:
    """A Bea match of ``user``'s (set up off Playwright's thread) holding ``bea`` against Alice's
    three runs: Alice takes Q♣ and, with ``knock``, knocks throwing K♦. Its public id."""

    def set_up() -> str:
        client = Client()
        client.force_login(user)
        match = start(user, stacked(ALICE_KNOCKS, bea, "QC", "2D"))
        move(client, match, "take_upcard")
        if knock:
            move(client, match, "knock", "KD")
        return match.public_id

    return str(off_thread(set_up))
