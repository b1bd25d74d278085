"""Racing accepts on PostgreSQL: a player accepting two challenges at once, a seek and a
challenge at once, or accepting while the challenger accepts someone else. Every race ends
with one match and clear 409s for the others: never a 500 (``deadlock detected``), never a
player in two lobby matches, never a challenge or seek accepted without its match."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from games.models import Match, Seat
from lobby import services
from lobby.models import Challenge, Seek
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.lobby.lobby_helpers import online

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

ROUNDS = 6


def _client(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _race(posts: list[tuple[Client, str]]) -> list[int | str]:
    """POST every (client, url) at the same moment, each from its own thread; the statuses (or
    the exception a request raised)."""
    barrier = threading.Barrier(len(posts))
    results: list[int | str] = ["not run"] * len(posts)

    def run(i: int, client: Client, url: str) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = client.post(url).status_code
        except Exception as exc:  # reported by the assertion below
            results[i] = repr(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(i, client, url)) for i, (client, url) in enumerate(posts)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _players(django_user_model: type[User], prefix: str, *names: str) -> list[User]:
    users = [django_user_model.objects.create_user(username=f"{prefix}{name}") for name in names]
    online(*users)
    return users


def _active_lobby_matches(user: User) -> int:
    return Seat.objects.filter(
        user=user, match__kind=Match.Kind.LOBBY, match__status=Match.Status.ACTIVE
    ).count()


def _challenge_url(item: Challenge) -> str:
    return f"/lobby/challenges/{item.pk}/accept"


def _seek_url(item: Seek) -> str:
    return f"/lobby/seeks/{item.pk}/accept"


def _two_challenges(make: Callable[..., list[User]]) -> tuple[list[User], list[tuple[Client, str]]]:
    """Bob accepts Alice's challenge and Carol's at once."""
    bob, alice, carol = make("bob", "alice", "carol")
    first = services.challenge(alice, bob, "standard", 100)
    second = services.challenge(carol, bob, "standard", 100)
    return [bob, alice, carol], [
        (_client(bob), _challenge_url(first)),
        (_client(bob), _challenge_url(second)),
    ]


def _seek_and_challenge(
    make: Callable[..., list[User]],
) -> tuple[list[User], list[tuple[Client, str]]]:
    """Bob accepts Dave's seek and Alice's challenge at once."""
    bob, alice, dave = make("bob", "alice", "dave")
    seek = services.post_seek(dave, "standard", 100)
    item = services.challenge(alice, bob, "standard", 100)
    return [bob, alice, dave], [
        (_client(bob), _seek_url(seek)),
        (_client(bob), _challenge_url(item)),
    ]


def _chain(make: Callable[..., list[User]]) -> tuple[list[User], list[tuple[Client, str]]]:
    """Bob accepts Alice's challenge while Alice accepts Carol's and Carol's seek is taken by
    Alice too: Alice is in all three."""
    bob, alice, carol, dave = make("bob", "alice", "carol", "dave")
    to_bob = services.challenge(alice, bob, "standard", 100)
    to_alice = services.challenge(carol, alice, "standard", 100)
    seek = services.post_seek(dave, "standard", 100)
    return [bob, alice, carol, dave], [
        (_client(bob), _challenge_url(to_bob)),
        (_client(alice), _challenge_url(to_alice)),
        (_client(alice), _seek_url(seek)),
    ]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("scenario", [_two_challenges, _seek_and_challenge, _chain])
def test_racing_accepts_start_one_match_and_refuse_the_rest_with_409(
    django_user_model: type[User], scenario: Callable[..., tuple[list[User], list]]
) -> None:
    for round_no in range(ROUNDS):

        def make(*names: str, round_no: int = round_no) -> list[User]:
            return _players(django_user_model, f"r{round_no}", *names)

        users, posts = scenario(make)
        statuses = _race(posts)
        assert set(statuses) <= {302, 409}, f"round {round_no}: {statuses}"
        # Somebody always wins; whoever lost was told so, and nobody sits at two tables.
        assert statuses.count(302) >= 1, f"round {round_no}: {statuses}"
        for user in users:
            assert _active_lobby_matches(user) <= 1, f"round {round_no}: {user} in two matches"
        ids = [u.pk for u in users]
        started = Match.objects.filter(kind=Match.Kind.LOBBY, seats__user_id__in=ids).distinct()
        assert started.count() == statuses.count(302), f"round {round_no}: {statuses}"
        # Nothing half-done: what was accepted has its match, and the match is the winner's.
        accepted = (
            Challenge.objects.filter(
                status=Challenge.Status.ACCEPTED, challenged_id__in=ids
            ).count()
            + Seek.objects.filter(status=Seek.Status.ACCEPTED, poster_id__in=ids).count()
        )
        assert accepted == statuses.count(302), f"round {round_no}: {statuses}"
        assert not Challenge.objects.filter(status=Challenge.Status.ACCEPTED, match=None).exists()
        assert not Seek.objects.filter(status=Seek.Status.ACCEPTED, match=None).exists()
