"""The site's own arenas (a few a day per rule set, rated, made a day ahead, once), and
private arenas by a signed-in player, with their abuse cases: a player making many of them,
and throw-away accounts joining a rated arena to farm points."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from ginsite.lib.refusals import NotAllowed, Refused, TooMany
from lobby import services as lobby_services
from lobby.arena import schedule, service
from lobby.arena.models import Arena, ArenaMatch, ArenaPlayer
from tests.lobby.arena_helpers import match_of
from tests.lobby.correspondence_helpers import Clock

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 6, 12, 30, tzinfo=UTC)


def test_the_site_schedules_a_few_rated_arenas_a_day_for_every_rule_set() -> None:
    made = schedule.make_scheduled(NOON)
    assert made == Arena.objects.count() > 0
    assert schedule.make_scheduled(NOON) == 0  # a second sweep makes none again
    arenas = list(Arena.objects.all())
    assert {a.preset for a in arenas} == {"standard", "classic", "simple"}
    assert all(a.rated and a.kind == "scheduled" for a in arenas)
    for preset in ("standard", "classic", "simple"):
        within_a_day = [a for a in arenas if a.preset == preset and a.starts_at > NOON]
        assert 3 <= len(within_a_day) <= 8
    # The 12:00 standard arena is running at 12:30: listed with the ones to come.
    listed = service.listed(limit=50)
    assert listed[0].starts_at <= NOON < listed[0].ends_at
    assert all(a.kind == "scheduled" for a in listed)


def test_a_private_arena_is_reached_by_its_link_only(clock: Clock, alice: User) -> None:
    made = schedule.create_private(alice, "Friday  club", "standard", 50, minutes=30)
    assert made.name == "Friday club"
    assert (made.rated, made.kind, made.created_by) == (False, "private", alice)
    assert made not in service.listed()
    assert service.find(made.public_id) == made
    assert len(made.public_id) >= 16


@pytest.mark.parametrize(
    ("name", "preset", "target", "minutes", "starts_in"),
    [
        ("", "standard", 50, 30, 5),
        ("x" * 41, "standard", 50, 30, 5),
        ("club", "poker", 50, 30, 5),
        ("club", "standard", 75, 30, 5),
        ("club", "standard", 50, 31, 5),
        ("club", "standard", 50, "30; drop", 5),
        ("club", "standard", 50, 30, 60 * 24 * 8),
        ("club", "standard", 50, 30, -1),
    ],
)
def test_bad_input_makes_no_arena(
    alice: User, name: str, preset: str, target: int, minutes: object, starts_in: int
) -> None:
    with pytest.raises(Refused):
        schedule.create_private(alice, name, preset, target, minutes=minutes, starts_in=starts_in)
    assert not Arena.objects.exists()


def test_a_player_holds_a_few_private_arenas_at_once_and_makes_a_few_a_day(
    clock: Clock, alice: User
) -> None:
    for n in range(schedule.OPEN_PRIVATE):
        schedule.create_private(alice, f"club {n}", "standard", 50, minutes=20)
    with pytest.raises(TooMany):
        schedule.create_private(alice, "one more", "standard", 50, minutes=20)
    assert Arena.objects.count() == schedule.OPEN_PRIVATE
    # Once they are over, more may be made, but not more than PRIVATE_PER_DAY in a day.
    made = schedule.OPEN_PRIVATE
    while made < schedule.PRIVATE_PER_DAY:
        clock.advance(minutes=30)
        for _ in range(min(schedule.OPEN_PRIVATE, schedule.PRIVATE_PER_DAY - made)):
            schedule.create_private(alice, "again", "standard", 50, minutes=20, starts_in=0)
            made += 1
    clock.advance(minutes=30)
    with pytest.raises(TooMany):
        schedule.create_private(alice, "too many today", "standard", 50, minutes=20)
    clock.advance(days=1)
    schedule.create_private(alice, "tomorrow", "standard", 50, minutes=20)


def test_throw_away_accounts_cannot_join_a_rated_arena(
    clock: Clock, alice: User, django_user_model: type[User]
) -> None:
    made = schedule.create_private(alice, "rated club", "standard", 50, minutes=30, rated=True)
    throwaway = django_user_model.objects.create_user("fresh1", password="pw-fresh-123")
    with pytest.raises(NotAllowed):
        service.join(throwaway, made)
    assert not ArenaPlayer.objects.filter(user=throwaway).exists()
    # A casual private arena takes them: its points count for nothing rated.
    casual = schedule.create_private(alice, "casual club", "standard", 50, minutes=30)
    service.join(throwaway, casual)
    with pytest.raises(NotAllowed):
        schedule.create_private(throwaway, "my rated", "standard", 50, minutes=30, rated=True)


def test_a_block_holds_in_an_arena(clock: Clock, alice: User, bob: User, carol: User) -> None:
    lobby_services.block(alice, bob)
    made = schedule.create_private(carol, "club", "standard", 50, minutes=30, starts_in=0)
    service.join(alice, made)
    service.join(bob, made)
    assert not ArenaMatch.objects.exists()
    clock.advance(minutes=5)
    service.sweep(clock.now)
    assert not ArenaMatch.objects.exists()
    service.join(carol, made)
    assert {s.user.username for s in match_of(carol).seats.all()} in (
        {"alice", "carol"},
        {"bob", "carol"},
    )


def test_the_sweep_makes_the_schedule_a_day_ahead(clock: Clock) -> None:
    service.sweep()
    made = list(Arena.objects.all())
    assert made
    assert all(a.kind == "scheduled" for a in made)
    assert max(a.starts_at for a in made) - clock.now <= timedelta(days=1)
