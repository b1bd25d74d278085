"""Every number a client sends goes through one parser (``ginsite.lib.numbers``): ASCII digits,
bounded. "²" and "①" pass ``str.isdigit()`` and crash ``int()`` (a 500 on the leaderboards'
page, the offer, claim and resign forms and pass and play's move, a socket closed with 1011
on ``/ws/events/?since=①``), and ``int()`` reads "١٢", " 1" and "1_0" as numbers (issue 39,
finding 4). This walks every door that takes a number (pages, htmx, the API's queries, paths
and bodies, both sockets) with the bad values, and checks each answer is a refusal or the
page's default, never a 5xx or 1011, and that nothing changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest
from channels.db import database_sync_to_async
from django.db.models import Sum
from django.test import Client

from games import services
from games.models import Match, Offer
from ginsite.asgi import application
from ginsite.lib import numbers
from lobby.accounts import tokens
from lobby.models import Challenge, PoolEntry, Seek
from tests.api.streams import closed_code
from tests.games.live_helpers import cookie_of, lobby_match, opening_frames, socket
from tests.lobby.lobby_helpers import HTMX, online, signed_in
from tests.sockets import Socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

BAD = ["²", "①", "١٢", "-1", "1e9", "99999999999999999999", "", " 1", "0x10", "1_0"]
# Where "" means "none" (a live match, no days per move; no "since"), it is a valid answer.
BAD_BUT_EMPTY = [v for v in BAD if v]


def _state() -> tuple[Any, ...]:
    """Everything a door could change: matches and their versions, offers, challenges, seeks,
    the pool."""
    versions = Match.objects.aggregate(total=Sum("version"))["total"]
    return (
        Match.objects.count(),
        versions,
        list(Match.objects.order_by("pk").values_list("status", flat=True)),
        Offer.objects.count(),
        Challenge.objects.count(),
        Seek.objects.count(),
        PoolEntry.objects.count(),
    )


class World:
    """Alice at a running lobby match with Bob (and an offer of his waiting), a finished one
    of theirs before it, a pass-and-play match of hers; and the ways to reach each door."""

    def __init__(self, alice: User, bob: User) -> None:
        online(alice, bob)
        self.finished = lobby_match(alice, bob)
        services.resign(self.finished, 1, self.finished.version)
        self.live = lobby_match(alice, bob)
        self.offer = services.make_offer(self.live, 1, Offer.Kind.RESTART, self.live.version)
        # A 500 is an answer to count here, not an exception to stop at.
        self.page = signed_in(Client(raise_request_exception=False), alice)
        self.device = Client(raise_request_exception=False)
        made = self.device.post(
            "/games/local/", {"first": "Ann", "second": "Ben", "preset": "standard", "target": 100}
        )
        assert made.status_code == 302
        self.local = Match.objects.get(kind=Match.Kind.LOCAL)
        self.token = tokens.create(alice, "t")[1]

    def api(self, method: str, path: str, body: Any = None) -> HttpResponse:
        headers = {"Authorization": f"Bearer {self.token}"}
        client = Client(raise_request_exception=False)
        if method == "get":
            return client.get(f"/api/v1{path}", headers=headers)
        data = json.dumps(body)
        return client.post(f"/api/v1{path}", data, content_type="application/json", headers=headers)

    def doors(self) -> dict[str, Callable[[str], HttpResponse]]:
        live, local, page = self.live.public_id, self.local.public_id, self.page
        finished = self.finished.public_id
        q = quote
        return {
            "leaderboard page": lambda v: page.get(f"/leaderboards/standard/?page={q(v)}"),
            "my matches page": lambda v: page.get(f"/players/alice/?page={q(v)}"),
            "replay move": lambda v: page.get(f"/games/{finished}/replay/1/?move={q(v)}"),
            "offer version": lambda v: page.post(
                f"/games/{live}/offer", {"kind": "restart", "version": v}, **HTMX
            ),
            "answer version": lambda v: page.post(
                f"/games/{live}/answer", {"offer": self.offer.pk, "answer": "accept", "version": v}
            ),
            "answer offer": lambda v: page.post(
                f"/games/{live}/answer", {"offer": v, "answer": "accept", "version": 1}, **HTMX
            ),
            "claim version": lambda v: page.post(f"/games/{live}/claim", {"version": v}, **HTMX),
            "resign version": lambda v: page.post(
                f"/games/{live}/resign", {"version": v, "confirm": "1"}
            ),
            "move version": lambda v: page.post(
                f"/games/{live}/act", {"move": "pass", "version": v}, **HTMX
            ),
            "pass and play move": lambda v: self.device.post(
                f"/games/local/{local}/act", {"move": "pass", "version": v}
            ),
            "pass and play reveal": lambda v: self.device.post(
                f"/games/local/{local}/reveal", {"version": v}
            ),
            "pass and play restart": lambda v: self.device.post(
                f"/games/local/{local}/restart", {"version": v, "confirm": "1"}
            ),
            "new match target": lambda v: page.post(
                "/games/new/", {"preset": "standard", "target": v, "level": "easy"}
            ),
            "challenge target": lambda v: page.post(
                "/lobby/challenges/", {"to": "bob", "preset": "standard", "target": v}
            ),
            "seek target": lambda v: page.post(
                "/lobby/seeks/", {"preset": "standard", "target": v}, **HTMX
            ),
            "pool tile": lambda v: page.post("/lobby/pool/", {"tile": f"standard:{v}"}, **HTMX),
            "private table target": lambda v: page.post(
                "/games/friend/", {"preset": "standard", "target": v}
            ),
            "accept challenge id": lambda v: page.post(f"/lobby/challenges/{q(v)}/accept"),
            "revoke token id": lambda v: page.post(f"/settings/api-tokens/{q(v)}/revoke"),
            "api events since": lambda v: self.api("get", f"/events?since={q(v)}"),
            "api events limit": lambda v: self.api("get", f"/events?limit={q(v)}"),
            "api history page": lambda v: self.api("get", f"/me/matches/history?page={q(v)}"),
            "api history per page": lambda v: self.api(
                "get", f"/me/matches/history?per_page={q(v)}"
            ),
            "api matches limit": lambda v: self.api("get", f"/matches?limit={q(v)}"),
            "api leaderboard page": lambda v: self.api(
                "get", f"/leaderboards/standard?page={q(v)}"
            ),
            "api challenge id": lambda v: self.api("get", f"/challenges/{q(v)}"),
            "api seek id": lambda v: self.api("post", f"/seeks/{q(v)}/accept"),
            "api replay hand": lambda v: self.api(
                "get", f"/matches/{finished}/hands/{q(v)}/replay"
            ),
            "api offer id": lambda v: self.api(
                "post", f"/matches/{live}/offers/{q(v)}/accept", {"version": self.live.version}
            ),
            "api version as text": lambda v: self.api(
                "post", f"/matches/{live}/resign", {"version": v}
            ),
            "api target as text": lambda v: self.api(
                "post", "/challenges", {"to": "bob", "preset": "standard", "target": v}
            ),
        }


# With "" a live match, or no days: refused for their other fields alone.
_DAYS_DOORS = {
    "challenge days": lambda w, v: w.page.post(
        "/lobby/challenges/", {"to": "bob", "preset": "standard", "target": "100", "days": v}
    ),
    "seek days": lambda w, v: w.page.post(
        "/lobby/seeks/", {"preset": "standard", "target": "100", "days": v}, **HTMX
    ),
    "api days as text": lambda w, v: w.api(
        "post", "/seeks", {"preset": "standard", "target": 100, "days_per_move": v}
    ),
}


@pytest.mark.django_db
def test_every_door_refuses_bad_numbers_and_changes_nothing(alice: User, bob: User) -> None:
    world = World(alice, bob)
    doors = world.doors()
    failures = []
    for name, door in doors.items():
        for value in BAD:
            before = _state()
            status = door(value).status_code
            if status >= 500 or _state() != before:
                failures.append((name, value, status))
    for name, days_door in _DAYS_DOORS.items():
        for value in BAD_BUT_EMPTY:
            before = _state()
            status = days_door(world, value).status_code
            if status >= 500 or _state() != before:
                failures.append((name, value, status))
    assert not failures, "\n".join(
        f"{name} {value!r}: {status}" for name, value, status in failures
    )


@pytest.mark.django_db
def test_the_doors_still_take_good_numbers(alice: User, bob: User) -> None:
    world = World(alice, bob)
    assert world.page.get("/leaderboards/standard/?page=1").status_code == 200
    version = world.live.version
    resigned = world.page.post(
        f"/games/{world.live.public_id}/resign", {"version": version, "confirm": "1"}
    )
    assert resigned.status_code == 302
    world.live.refresh_from_db()
    assert world.live.status == Match.Status.RESIGNED
    assert world.api("get", "/events?since=0").status_code == 200


def test_the_parser_reads_ascii_digits_only() -> None:
    assert [numbers.parse(v) for v in BAD] == [None] * len(BAD)
    assert numbers.parse("12") == 12 and numbers.parse(7) == 7
    assert numbers.parse(True) is None and numbers.parse("2147483648") is None
    assert numbers.parse("0", low=1) is None and numbers.parse("5", high=4) is None


# --- Sockets ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("since", BAD_BUT_EMPTY)
async def test_the_event_socket_refuses_a_bad_since_with_4400(alice: User, since: str) -> None:
    token = await database_sync_to_async(lambda: tokens.create(alice, "t")[1])()
    path = f"/ws/events/?since={quote(since)}&token={token}"
    comm = Socket(application, path, headers=[(b"host", b"testserver")])
    connected, _ = await comm.connect()
    assert connected
    error = json.loads(await comm.receive_from(timeout=10))
    assert error["type"] == "error" and error["code"] == "malformed"
    assert await closed_code(comm) == 4400
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_answers_a_bad_version_and_stays_open(
    alice: User, bob: User
) -> None:
    match = await database_sync_to_async(lobby_match)(alice, bob)
    cookie = await database_sync_to_async(lambda: cookie_of(signed_in(Client(), alice)))()
    table = socket(match, cookie)
    assert (await table.connect())[0]
    await opening_frames(table)
    before = match.version
    for value in BAD:
        await table.send_to(text_data=json.dumps({"type": "act", "move": "pass", "version": value}))
        # The page's own pushes (alice's "is here", late on a busy machine) are HTML; the
        # answer is the JSON frame.
        while not (text := await table.receive_from(timeout=10)).startswith("{"):
            pass
        answer = json.loads(text)
        assert answer["type"] == "answer" and answer["status"] == 400
    await database_sync_to_async(match.refresh_from_db)()
    assert match.version == before
    await table.disconnect()
