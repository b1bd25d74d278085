"""Finding players and the friends list: what the lobby page, the player search and the API
read about other players.

A search matches display names by prefix through the name key (``ginsite.lib.names.key``), so
case, width and look-alike letters do not matter ("аl" with a Cyrillic а finds alice). A block
either way hides a pair from each other here as in the lobby (``presence.hidden_from``), and
overrides a follow: the friends list never shows someone blocked or blocking.

Searches are limited per player and per client address (``SEARCH_LIMIT_PER_PLAYER``,
``SEARCH_LIMIT_PER_ADDRESS`` every ``SEARCH_LIMIT_WINDOW`` seconds): the abuse case is a
script walking every two-letter prefix to list every account and who of them is online (674
searches listed all 74 accounts in 89 s, issue 39). A person types a few searches a minute;
the page, the lobby's search box and the API count together, so no door is a way around.
Only a search that is looked up counts: one refused for its length does no work.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginsite.lib import limits, names
from ginsite.lib.refusals import Refused, TooMany
from lobby import presence
from lobby.models import Follow, display_name_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

MAX_RESULTS = 20


# What a search may be, as the API's schema says it (``lobby.people.api.SearchQuery``) and the
# page checks it: at most MAX_CHARS characters, two of them at least other than spaces (and no
# NUL). The rule is on the text as sent, so that a client can know it; what normalising then
# leaves too short to be a name's start ("a" and a combining accent, a tab and "a") finds
# nobody rather than everyone whose name starts with "a".
QUERY_PATTERN = r"^ *[^ \x00][^\x00]*[^ \x00] *$"


def search_query(raw: str) -> str | None:
    """The search as a name key; None when no name could start with it; ``Refused`` for a
    search outside the rule above."""
    # Length first: a search of 10,000 characters is refused before any work on it.
    if len(raw) > names.MAX_CHARS:
        raise Refused(_("Search for at most %(n)s characters.") % {"n": names.MAX_CHARS})
    if not re.fullmatch(QUERY_PATTERN, raw):
        raise Refused(_("Type at least %(n)s characters of a name.") % {"n": names.MIN_CHARS})
    query = names.normalise(raw)
    return names.key(query) if len(query) >= names.MIN_CHARS else None


def search(viewer: AbstractBaseUser, raw: str, address: str) -> list[Any]:
    """Active players whose display name starts with ``raw`` (as the name key sees it), by
    name, at most MAX_RESULTS; nobody hidden from ``viewer`` by a block. ``TooMany`` past
    the searches ``viewer`` or ``address`` (the client's) may make in the window."""
    key = search_query(raw)
    if key is None:
        return []
    _count_search(viewer.pk, address)
    return list(
        get_user_model()
        .objects.filter(is_active=True, profile__name_key__startswith=key)
        .exclude(pk__in=presence.hidden_from(viewer.pk))
        .select_related("profile")
        .order_by("profile__display_name")[:MAX_RESULTS]
    )


def _count_search(user_id: int, address: str) -> None:
    window = settings.SEARCH_LIMIT_WINDOW
    retry = limits.over(f"search-from:{address}", settings.SEARCH_LIMIT_PER_ADDRESS, window)
    if retry is not None:
        message = ngettext(
            "Too many player searches came from your network just now. Try again in "
            "%(seconds)d second.",
            "Too many player searches came from your network just now. Try again in "
            "%(seconds)d seconds.",
            retry,
        )
        raise TooMany(message % {"seconds": retry}, retry)
    retry = limits.over(f"search-by:{user_id}", settings.SEARCH_LIMIT_PER_PLAYER, window)
    if retry is not None:
        message = ngettext(
            "You have searched for players too often just now. Try again in %(seconds)d second.",
            "You have searched for players too often just now. Try again in %(seconds)d seconds.",
            retry,
        )
        raise TooMany(message % {"seconds": retry}, retry)


def followed_ids(viewer_id: int) -> set[int]:
    """Whom ``viewer_id`` follows and may see: a block either way overrides the follow."""
    ids = set(Follow.objects.filter(follower_id=viewer_id).values_list("followed_id", flat=True))
    return ids - presence.hidden_from(viewer_id) if ids else ids


def friends(viewer: AbstractBaseUser, now: datetime | None = None) -> list[dict[str, Any]]:
    """The players ``viewer`` follows: online ones first (free before busy), then by name."""
    now = now or timezone.now()
    ids = followed_ids(viewer.pk)
    if not ids:
        return []
    online = presence.online_user_ids(now) & ids
    busy = presence.busy_user_ids(now) & online
    users = get_user_model().objects.filter(pk__in=ids, is_active=True).select_related("profile")
    rows = [
        {
            "user": user,
            "name": display_name_of(user),
            "username": user.get_username(),
            "online": user.pk in online,
            "busy": user.pk in busy,
        }
        for user in users
    ]
    rows.sort(key=lambda r: (not r["online"], r["busy"], r["name"].lower()))
    return rows
