"""What the open lobby pages are told: which regions changed, and where a player must go.

Every lobby page's socket (``lobby.consumers``) is in the ``lobby`` group, which hears region
names and nothing else (each page renders them for its own user), and in its user's own group,
which hears where to go when a match of theirs starts. Sent after the commit: a rolled-back
change tells nobody.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from games.models import Match
from ginsite.lib.after_commit import group_send_after_commit

LOBBY_GROUP = "lobby"
# "turns" (correspondence matches waiting for your move), then "pool" and "friends": the page
# shows what is yours to play, then how to start playing, before everything else.
REGIONS: tuple[str, ...] = (
    "turns",
    "pool",
    "friends",
    "players",
    "challenges",
    "seeks",
    "matches",
    "arenas",
)


def user_group(user_id: int) -> str:
    """The group of every lobby page one user has open (for redirects meant for them alone)."""
    return f"lobby-user-{user_id}"


def publish(regions: Iterable[str]) -> None:
    """After the commit, tell every lobby page which regions to re-render. Whatever changes
    who is in the players list (someone came, left, started a match) changes the friends
    online too."""
    names = set(regions)
    if "players" in names:
        names.add("friends")
    group_send_after_commit(LOBBY_GROUP, {"type": "lobby.changed", "regions": sorted(names)})


def publish_to(user_ids: Iterable[int], regions: Iterable[str]) -> None:
    """After the commit, tell these users' own lobby pages (no one else's) which regions to
    re-render: what only they see, such as their place in the pool."""
    message = {"type": "lobby.changed", "regions": sorted(set(regions))}
    for user_id in set(user_ids):
        group_send_after_commit(user_group(user_id), message)


def send_to_match(user_ids: Iterable[int], match: Match) -> None:
    """After the commit, send each of these users' lobby pages to the match's table."""
    url = reverse("games:table", args=[match.public_id])
    for user_id in set(user_ids):
        group_send_after_commit(user_group(user_id), {"type": "lobby.redirect", "url": url})
