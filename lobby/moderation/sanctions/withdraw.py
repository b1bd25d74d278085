"""What a sanction withdraws from the lobby at once: a ban from rated play the player's rated
challenges (sent and received), rated seeks and rated places in the pool; a closure all of
them. Both players of each challenge hear of it (their event streams), and every lobby page
re-renders its lists, on every server process (``lobby.broadcast``)."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from lobby.arena import service as arenas
from lobby.broadcast import publish, publish_to
from lobby.events import feeds as event_feeds
from lobby.models import Challenge, PoolEntry, Seek


def offers(user_id: int, *, rated_only: bool) -> int:
    """Withdraw the player's open challenges, seeks, pool places and arena places (only the
    rated ones with ``rated_only``): how many there were."""
    now = timezone.now()
    rated = Q(rated=True) if rated_only else Q()
    challenges = (
        Challenge.objects.filter(rated, status=Challenge.Status.OPEN)
        .filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .update(status=Challenge.Status.CANCELLED, answered_at=now)
    )
    seeks = Seek.objects.filter(rated, status=Seek.Status.OPEN, poster_id=user_id).update(
        status=Seek.Status.CANCELLED
    )
    places = PoolEntry.objects.filter(
        rated, status=PoolEntry.Status.WAITING, user_id=user_id
    ).update(status=PoolEntry.Status.CANCELLED, ended_at=now)
    if challenges or seeks:
        publish(["challenges", "seeks"])
    if challenges:
        event_feeds.challenges_closed_at(now)
    if places:
        publish_to([user_id], ["pool"])
        publish(["pool"])
    # An arena's place too: a closed account's points, or a rated-banned player's in a rated
    # arena, are removed from its standings (lobby.arena).
    taken = arenas.take_out(user_id, rated_only=rated_only)
    return challenges + seeks + places + taken
