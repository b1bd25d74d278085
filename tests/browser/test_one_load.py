"""A table plays like an app: over five turns of every kind of match the page loads exactly
once and opens one socket where the table has one (issue 23, defect 1 and pass and play).

A turn is a move that hands the turn to the other side and back. Each table is played at
360x740 by a sensible player who never knocks (tests/browser/turns.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext

from games.models import Match
from tests.browser.conftest import phone_contexts
from tests.browser.table_helpers import off_thread, sign_in
from tests.browser.turns import Watch, take_turns
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURNS = 5
BEA_TABLE = re.compile(r".*/games/[\w-]+/$")


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    with phone_contexts(browser, 2) as made:
        yield made


def assert_one_load(watch: Watch, url: str, sockets: int) -> None:
    loads, opened = watch.since(url)
    assert loads == [url], f"the table loaded {len(loads)} times: {loads}"
    assert len(opened) == sockets, f"the table opened {len(opened)} sockets: {opened}"
    if sockets:
        assert_moves_over_the_socket(watch)


def assert_moves_over_the_socket(watch: Watch) -> None:
    """Once its socket is open, a table sends its every move over it: no request per move."""
    sent, posted = watch.moves()
    assert len(sent) >= TURNS, f"only {sent} went over the table socket"
    assert posted == [], f"moves posted while the socket was open: {posted}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("who", ["guest", "player"])
def test_bea_s_table_plays_on_one_load(
    contexts: list[BrowserContext], base: str, alice: User, quick_bea: None, who: str
) -> None:
    """From the home page: a guest's one click, or a signed-in player's form."""
    if who == "player":
        sign_in(contexts[0], base, alice)
    page = contexts[0].new_page()
    watch = Watch(page)
    page.goto(base + "/")
    start = "Play Bea now" if who == "guest" else "Start the match"
    page.get_by_role("button", name=start).click()
    page.wait_for_url(BEA_TABLE)
    url = page.url
    take_turns([page], TURNS)
    assert_one_load(watch, url, sockets=1)


@pytest.mark.timeout(300)
def test_two_people_play_a_lobby_match_on_one_load_each(
    contexts: list[BrowserContext], base: str, alice: User, bob: User
) -> None:
    match = off_thread(lobby_match, alice, bob)
    url = f"{base}/games/{match.public_id}/"
    pages, watches = [], []
    for context, user in zip(contexts, (alice, bob), strict=True):
        sign_in(context, base, user)
        page = context.new_page()
        watches.append(Watch(page))
        page.goto(url)
        pages.append(page)
    take_turns(pages, 2 * TURNS)
    for watch in watches:
        assert_one_load(watch, url, sockets=1)


@pytest.mark.timeout(300)
def test_friends_play_at_a_private_table_on_one_load_each(
    contexts: list[BrowserContext], base: str
) -> None:
    host = contexts[0].new_page()
    host_watch = Watch(host)
    host.goto(base + "/games/friend/")
    host.fill("input[name=name]", "Hal")
    host.locator("form button[type=submit]").last.click()
    host.wait_for_url(re.compile(r".*/games/t/[\w-]+/$"))
    url = host.url
    friend = contexts[1].new_page()
    friend_watch = Watch(friend)
    friend.goto(url)
    friend.fill("input[name=name]", "Dora")
    friend.locator("form button[type=submit]").last.click()
    take_turns([host, friend], 2 * TURNS)
    assert_one_load(host_watch, url, sockets=1)
    # The friend's page loaded the invitation, then (after taking the seat) the table.
    loads, opened = friend_watch.since(url)
    assert loads == [url, url], f"the friend's table loaded {len(loads) - 1} times"
    assert len(opened) == 1, f"the friend's table opened {len(opened)} sockets"


@pytest.mark.timeout(300)
def test_pass_and_play_runs_on_one_load(contexts: list[BrowserContext], base: str) -> None:
    page = contexts[0].new_page()
    watch = Watch(page)
    page.goto(base + "/games/local/")
    page.fill("input[name=first]", "Ann")
    page.fill("input[name=second]", "Ben")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/games/local/[\w-]+/$"))
    url = page.url
    take_turns([page], 2 * TURNS)
    assert_one_load(watch, url, sockets=0)
    assert page.url == url
    assert Match.objects.get().version >= 2 * TURNS
