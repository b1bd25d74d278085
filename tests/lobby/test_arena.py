"""Arenas: the start, the pairing (nearest rating, not the same opponent twice in a row while
others wait), a pause, the points and streaks, the end with matches still running, ties, a
banned player. The clock is frozen (``clock``) and moved by each test."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import Match
from ginsite.lib.refusals import Conflict, NotAllowed
from lobby.arena import service
from lobby.arena.models import ArenaMatch, ArenaPlayer
from lobby.moderation.models import Sanction
from lobby.moderation.sanctions import actions
from lobby.ratings.models import Rating
from tests.lobby.arena_helpers import abort, arena, match_of, win
from tests.lobby.correspondence_helpers import Clock
from tests.lobby.rating_helpers import eligible, play
from tests.moderation.helpers import make_moderator

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(django_user_model: type[User]) -> User:
    made = django_user_model.objects.create_user("dave", password="pw-dave-123")
    eligible(made)
    return made


def _rate(user: User, rating: float) -> None:
    Rating.objects.create(user=user, preset="standard", rating=rating, rd=80)


def _board(made: object) -> list[tuple[str, int, int]]:
    return [(s.username, s.points, s.streak) for s in service.standings(made)]


def _opponents(match: Match) -> set[str]:
    return {seat.user.username for seat in match.seats.all()}


def test_nobody_is_paired_before_the_start(clock: Clock, alice: User, bob: User) -> None:
    made = arena(starts_in=10)
    service.join(alice, made)
    service.join(bob, made)
    assert service.phase(made) == "upcoming"
    assert not ArenaMatch.objects.exists()
    clock.advance(minutes=10)
    service.sweep()
    assert service.phase(made) == "running"
    assert _opponents(match_of(alice)) == {"alice", "bob"}
    # Both joined in advance and hear that it started, once, whichever sweep tells them.
    assert [a.pk for a in service.started_now()] == []


def test_it_pairs_the_nearest_rating_as_soon_as_players_are_free(
    clock: Clock, alice: User, bob: User, carol: User
) -> None:
    _rate(alice, 1500)
    _rate(bob, 1900)
    _rate(carol, 1540)
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    assert not ArenaMatch.objects.exists()  # 400 apart: not at once
    service.join(carol, made)
    assert _opponents(match_of(carol)) == {"alice", "carol"}
    assert ArenaPlayer.objects.get(user=bob).free_since is not None


def test_not_the_same_opponent_twice_in_a_row_while_others_wait(
    clock: Clock, alice: User, bob: User, carol: User, dave: User
) -> None:
    made = arena()
    for user in (alice, bob):
        service.join(user, made)
    service.join(carol, made)
    service.join(dave, made)
    assert _opponents(match_of(alice)) == {"alice", "bob"}
    assert _opponents(match_of(carol)) == {"carol", "dave"}
    win(alice)
    win(carol)
    clock.advance(seconds=5)
    service.sweep()
    # alice and bob were free first, but each other's last opponent: carol and dave wait too.
    assert _opponents(match_of(alice)) in ({"alice", "carol"}, {"alice", "dave"})
    assert _opponents(match_of(bob)) in ({"bob", "carol"}, {"bob", "dave"})


def test_the_same_two_play_again_when_nobody_else_waits(
    clock: Clock, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    first = win(alice)
    service.sweep()
    assert match_of(alice) != first
    assert _opponents(match_of(alice)) == {"alice", "bob"}


def test_a_paused_player_is_not_paired_until_they_come_back(
    clock: Clock, alice: User, bob: User, carol: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.pause(alice, made)
    service.join(bob, made)
    assert not ArenaMatch.objects.exists()
    with pytest.raises(Conflict):
        service.pause(alice, made)  # paused already: nothing changes
    service.join(alice, made)  # back
    assert _opponents(match_of(bob)) == {"alice", "bob"}


def test_a_win_counts_two_and_a_streak_of_two_wins_doubles_it(
    clock: Clock, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    win(alice)
    assert _board(made) == [("alice", 2, 1), ("bob", 0, 0)]
    service.sweep()
    win(alice)
    assert _board(made)[0] == ("alice", 4, 2)
    service.sweep()
    win(alice)  # on a streak of two: this win counts 4
    assert _board(made)[0] == ("alice", 8, 3)
    service.sweep()
    win(bob)  # the streak ends with a loss
    assert _board(made) == [("alice", 8, 0), ("bob", 2, 1)]
    [a_row] = [s for s in service.standings(made) if s.username == "alice"]
    assert (a_row.player.wins, a_row.player.games) == (3, 4)


def test_an_abort_counts_nothing_and_pauses_who_walked_away(
    clock: Clock, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    played = abort(bob)
    assert set(_board(made)) == {("alice", 0, 0), ("bob", 0, 0)}
    assert ArenaMatch.objects.get(match=played).outcome == "abort"
    assert ArenaPlayer.objects.get(user=bob).paused
    service.sweep()
    assert not ArenaMatch.objects.filter(counted_at=None).exists()


def test_a_loss_on_time_while_away_counts_nothing_and_pauses_the_player(
    clock: Clock, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    win(alice)
    service.sweep()
    match = match_of(alice)
    play(match)
    # bob stayed away and alice claimed the match.
    seat = next(s.number for s in match.seats.all() if s.user_id == alice.pk)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.TIMED_OUT, winner_seat=seat)
    service.count(match.pk)
    assert _board(made) == [("alice", 4, 2), ("bob", 0, 0)]
    assert ArenaPlayer.objects.get(user=bob).paused


def test_matches_started_before_the_end_finish_and_count(
    clock: Clock, alice: User, bob: User, carol: User, dave: User
) -> None:
    made = arena(minutes=30)
    for user in (alice, bob, carol, dave):
        service.join(user, made)
    win(alice)
    clock.advance(minutes=31)
    service.sweep()
    assert service.phase(made) == "ending"  # carol and dave still play
    assert ArenaMatch.objects.count() == 2  # alice and bob are not paired again
    made.refresh_from_db()
    assert service.podium(made) == []
    win(carol)
    service.sweep()
    made.refresh_from_db()
    assert service.phase(made) == "over"
    assert [s.username for s in service.podium(made)][:2] in (
        ["alice", "carol"],
        ["carol", "alice"],
    )
    with pytest.raises(Conflict):
        service.join(bob, made)


def test_ties_go_to_the_higher_performance_then_to_who_got_there_first(
    clock: Clock, alice: User, bob: User, carol: User, dave: User
) -> None:
    _rate(alice, 1500)
    _rate(bob, 1500)
    _rate(carol, 1500)
    _rate(dave, 1500)
    made = arena()
    for user in (alice, bob, carol, dave):
        service.join(user, made)
    first, second = _opponents(match_of(alice)), _opponents(match_of(carol))
    assert first | second == {"alice", "bob", "carol", "dave"}
    win(carol)
    clock.advance(seconds=30)
    win(alice)
    # Both have 2 points and the same performance: carol scored first.
    assert [s.username for s in service.standings(made)][:2] == ["carol", "alice"]
    # A higher performance breaks a tie of points before the time does.
    ArenaPlayer.objects.filter(user=alice).update(opponents_rating=1700)
    assert [s.username for s in service.standings(made)][:2] == ["alice", "carol"]
    assert service.standings(made)[0].performance == 2100


def test_a_closed_accounts_points_are_removed(
    clock: Clock, alice: User, bob: User, carol: User, django_user_model: type[User]
) -> None:
    moderator = make_moderator(django_user_model, "mo")
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    win(alice)
    assert _board(made)[0] == ("alice", 2, 1)
    actions.act(moderator, alice, Sanction.Kind.CLOSURE, "other", "farming arena points")
    assert [s.username for s in service.standings(made)] == ["bob"]
    service.join(carol, made)
    service.sweep()
    # bob is paired with carol, never with the closed account.
    assert _opponents(match_of(bob)) == {"bob", "carol"}


def test_a_rated_ban_removes_points_from_rated_arenas_only(
    clock: Clock, alice: User, bob: User, django_user_model: type[User]
) -> None:
    moderator = make_moderator(django_user_model, "mo")
    rated, casual = arena(), arena(rated=False, kind="private", name="Casual")
    service.join(alice, rated)
    service.join(alice, casual)
    actions.act(moderator, alice, Sanction.Kind.RATED_BAN, "other", "sandbagging")
    assert service.standings(rated) == []
    assert [s.username for s in service.standings(casual)] == ["alice"]
    with pytest.raises(NotAllowed):
        service.join(alice, rated)


def test_bots_play_only_where_bots_are_allowed(clock: Clock, alice: User, bob: User) -> None:
    bob.profile.plays_by_bot = True
    bob.profile.save()
    with pytest.raises(NotAllowed):
        service.join(bob, arena())
    assert not ArenaPlayer.objects.exists()
    allowed = arena(allow_bots=True, kind="private")
    service.join(bob, allowed)
    service.join(alice, allowed)
    assert _opponents(match_of(alice)) == {"alice", "bob"}


def test_lifting_a_closure_gives_no_place_back_in_any_arena(
    clock: Clock, alice: User, bob: User, django_user_model: type[User]
) -> None:
    moderator = make_moderator(django_user_model, "mo")
    over, running = arena(minutes=20), arena(minutes=60, target=50, rated=False)
    for made in (over, running):
        service.join(alice, made)
        clock.advance(seconds=30)  # the first win parted their ratings: the window widens
        service.join(bob, made)
        win(alice)
    clock.advance(minutes=30)
    service.sweep()
    over.refresh_from_db()
    assert service.phase(over) == "over" and _board(over)[0] == ("alice", 2, 1)
    closure = actions.act(moderator, alice, Sanction.Kind.CLOSURE, "other", "farming arena points")
    assert [s.username for s in service.podium(over)] == ["bob"]
    actions.lift(moderator, closure.pk, "appeal granted")
    # The account is open again, but its arena points stay removed (as on lichess), in the arena
    # that was over as in the one still running; it may not come back to the running one.
    assert [s.username for s in service.standings(over)] == ["bob"]
    assert [s.username for s in service.standings(running)] == ["bob"]
    with pytest.raises(NotAllowed):
        service.join(alice, running)


def test_nobody_waits_long_for_want_of_a_near_rating(
    clock: Clock, alice: User, bob: User, carol: User, dave: User
) -> None:
    for user, rating in ((alice, 1500), (bob, 2300), (carol, 4000), (dave, 1000)):
        _rate(user, rating)
    made = arena()
    for user in (alice, bob, carol):
        service.join(user, made)
    clock.advance(seconds=30)
    service.sweep()
    assert not ArenaMatch.objects.exists()  # 800 apart: quick pairing's window ends at 500
    clock.advance(seconds=10)
    service.sweep()
    # The arena's window goes on widening (to +-1000 after 40 s): the nearest is paired.
    assert _opponents(match_of(alice)) == {"alice", "bob"}
    service.join(dave, made)
    clock.advance(seconds=19)
    service.sweep()
    assert ArenaMatch.objects.count() == 1  # carol and dave are 3000 apart
    clock.advance(seconds=1)
    service.sweep()
    # After a minute of waiting anyone free is near enough.
    assert _opponents(match_of(carol)) == {"carol", "dave"}


def test_an_account_that_turns_bot_after_joining_is_not_paired_where_bots_may_not_play(
    clock: Clock, alice: User, bob: User, carol: User
) -> None:
    made = arena(starts_in=10)
    for user in (alice, bob, carol):
        service.join(user, made)
    for user in (bob, carol):
        user.profile.plays_by_bot = True
        user.profile.save()
    clock.advance(minutes=10)
    service.sweep()
    # Neither with the person nor with each other: bots do not play in this arena at all.
    assert not ArenaMatch.objects.exists()
    bob.profile.plays_by_bot = False
    bob.profile.save()
    service.sweep()
    assert _opponents(match_of(alice)) == {"alice", "bob"}
