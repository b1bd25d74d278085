"""Every socket renders in its reader's language (issue 23, defect 2): a German player's table
stays German after each pushed update, Bea's moves and a person's alike, and so does a German
guest's, whether the page, the language cookie or the browser's Accept-Language said German.
The language of the page counts only if the site offers it; a profile's choice comes first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.access import GUEST_COOKIE, key_cookie_value, new_key
from games.bea import guests
from games.bea import turns as bea_turns
from games.models import Match
from ginsite.asgi import application

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, start
from .live_helpers import (
    cookie_of,
    english,
    frames,
    lobby_match,
    opening_frames,
    signed_in,
    submit,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")


def socket(match: Match, cookie: str, query: str = "", **headers: str) -> WebsocketCommunicator:
    sent = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", cookie.encode()),
    ]
    sent += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    path = f"/ws/games/{match.public_id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=sent)


async def pushed_after(
    comm: WebsocketCommunicator, match: Match, seat: int, action: Any, until: str
) -> str:
    """Everything the socket got after ``seat``'s ``action`` and Bea's replies, if any, and
    not before a frame holding ``until`` came: Bea's worker may be idle before her push has
    reached the socket (CI's pass on Redis once read nothing in the 0.3 s of quiet after)."""
    await submit(match, seat, action)
    assert await database_sync_to_async(bea_turns.worker.wait_idle)(30)
    return "".join(await frames(comm, until=until))


@database_sync_to_async
def speaks(user: User, language: str) -> str:
    user.profile.language = language
    user.profile.save()
    return cookie_of(signed_in(user)).decode()


async def test_a_german_player_sees_bea_s_moves_in_german(alice: User, quick_bea: None):
    match = await database_sync_to_async(start)(alice, DECK)
    comm = socket(match, await speaks(alice, "de"))
    assert (await comm.connect())[0]
    try:
        opening = "".join(await opening_frames(comm))
        assert "Talon" in opening and english(opening) == []
        got = await pushed_after(comm, match, 0, {"type": "pass"}, until="Bea: ")
        draw = {"type": "draw", "from": "stock"}
        got += await pushed_after(comm, match, 0, draw, until='id="status"')
        discard = {"type": "discard", "card": "KD"}
        got += await pushed_after(comm, match, 0, discard, until='id="status"')
        assert 'id="status"' in got and "Bea: " in got
        assert english(got) == []
    finally:
        await comm.disconnect()


async def test_each_player_sees_a_person_s_moves_in_their_own_language(alice: User, bob: User):
    match = await database_sync_to_async(lobby_match)(alice, bob, DECK)
    german = socket(match, await speaks(alice, "de"))
    english_socket = socket(match, await speaks(bob, ""))
    assert (await german.connect())[0] and (await english_socket.connect())[0]
    try:
        opening = "".join(await opening_frames(german))
        assert english(opening) == [] and "Zugzeit" in opening
        assert "Your move clock" not in "".join(await opening_frames(english_socket))
        # Each push waited for by name: on an idle machine in CI's run a push came after the
        # helper's 0.3 s of quiet.
        await submit(match, 0, {"type": "pass"})
        assert "Your turn" in "".join(await frames(english_socket, until="Your turn"))
        await frames(german, until='id="status"')
        await submit(match, 1, {"type": "pass"})
        got = "".join(await frames(german, until='id="status"'))
        assert 'id="status"' in got and "bob" in got
        assert english(got) == []
    finally:
        await german.disconnect()
        await english_socket.disconnect()


def signed(key: str) -> str:
    return key_cookie_value(GUEST_COOKIE, key)


@pytest.mark.parametrize(
    ("cookie", "query", "headers"),
    [
        ("", "lang=de", {}),  # the page was rendered in German
        ("django_language=de", "", {}),  # the language switcher's cookie
        ("", "", {"accept_language": "de-DE,de;q=0.9,en;q=0.5"}),  # the browser's language
    ],
)
async def test_a_german_guest_gets_german_pushes(
    quick_bea: None, cookie: str, query: str, headers: dict[str, str]
):
    key = new_key()
    match = await database_sync_to_async(guests.start)(key, deck=DECK)
    comm = socket(match, f"gin_guest={signed(key)}; {cookie}", query, **headers)
    assert (await comm.connect())[0]
    try:
        opening = "".join(await opening_frames(comm))
        assert "Talon" in opening and english(opening) == []
        got = await pushed_after(comm, match, 0, {"type": "pass"}, until="Bea")
        assert "Bea" in got and english(got) == []
    finally:
        await comm.disconnect()


@pytest.mark.parametrize("query", ["lang=fr", "lang=de-XX", "lang=", "lang=de%00", "lang=%C3%BC"])
async def test_a_language_the_site_does_not_offer_is_ignored(query: str):
    key = new_key()
    match = await database_sync_to_async(guests.start)(key, deck=DECK)
    comm = socket(match, f"gin_guest={signed(key)}", query)
    assert (await comm.connect())[0]
    try:
        assert "Stock ·" in "".join(await opening_frames(comm))
    finally:
        await comm.disconnect()


async def test_a_profile_s_language_comes_before_the_page_s(alice: User):
    match = await database_sync_to_async(start)(alice, DECK)
    comm = socket(match, await speaks(alice, "en"), "lang=de")
    assert (await comm.connect())[0]
    try:
        assert "Stock ·" in "".join(await opening_frames(comm))
    finally:
        await comm.disconnect()
