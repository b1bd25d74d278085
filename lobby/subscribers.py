"""Everything the lobby hears: what ``games`` announces, and what accounts do.

All the lobby's receivers, connected in ``LobbyConfig.ready`` (``connect``). Games announces
(``games.events``) and knows nothing of the lobby: a match change reaches its players' event
streams, and a lobby match that starts, scores a hand or ends re-renders the lobby's lists and
"in a match" badges for everyone with the lobby open; a signed-in player's table socket keeps
them online. From accounts (Django's and allauth's signals): every new account gets its
profile, signing in brings the preferred language along, signing up adopts the browser's guest
matches, and signing out closes the sockets that browser opened; both replace its guest and
owner keys.
"""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_logged_in, user_signed_up
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.http import HttpRequest

from games import access, events
from games.bea import guests
from games.events import MatchChanged
from games.live import quick_messages
from games.models import Match
from ginsite.lib.after_commit import credentials_ended
from lobby import presence
from lobby.accounts.language import set_language_cookie
from lobby.broadcast import publish
from lobby.events import feeds as event_feeds
from lobby.models import Challenge, ensure_profile
from lobby.ratings import results as rating_results
from lobby.ratings.reads import forget_all_leaders
from lobby.webpush import notifications

# --- From games ---------------------------------------------------------------------------------

# Which lobby regions a change of a lobby match touches: the list of matches in progress (with
# their scores) and the players' "in a match" badges.
_REGIONS_BY_REASON = {
    events.STARTED: ("matches", "players"),
    events.HAND_ENDED: ("matches",),
    events.ENDED: ("matches", "players"),
}


def on_match_changed(
    sender: Any, change: MatchChanged, match: Match | None = None, **kwargs: Any
) -> None:
    event_feeds.match_changed(change, match)
    # In the ending's transaction, so a rated result is applied with it or not at all.
    rating_results.on_match_changed(change, match)
    regions = _REGIONS_BY_REASON.get(change.reason)
    if change.kind == Match.Kind.LOBBY and regions:
        publish(regions)


def on_quick_message(sender: Any, match: Match, seat: int, message: str, **kwargs: Any) -> None:
    event_feeds.quick_message(match, seat, message)


def kept_apart(sender: Any, user_id: int, **kwargs: Any) -> set[int]:
    # A block keeps both sides out of each other's matches, as out of the lobby's lists.
    return presence.hidden_from(user_id)


def on_table_opened(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.seen(user, channel)


def on_table_alive(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.heartbeat(user, channel)


def on_table_closed(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.left(channel)


# --- From accounts ------------------------------------------------------------------------------


def on_user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # Every user has a profile, however it was created (sign-up, createsuperuser, tests), so
    # templates and games can read user.profile.display_name without checking.
    if created and not kwargs.get("raw"):
        ensure_profile(instance)


def on_signed_in(
    sender: Any, request: HttpRequest, user: Any, response: Any = None, **kwargs: Any
) -> None:
    # A preferred language saved in Settings follows the player to every device they sign in
    # on; allauth hands us the redirect response, so the cookie rides on it.
    language = ensure_profile(user).language
    if language and response is not None:
        set_language_cookie(response, language)


def on_signed_out(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    # The table, lobby and event sockets this browser opened with its session close: a page
    # left open after signing out must not go on showing the player's hand.
    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        credentials_ended(user.pk, session=session.session_key)
    # Whoever uses this browser next gets new guest and owner keys (what they open moves over),
    # so a copy of the old ones opens nothing (games.access).
    access.rotate_keys(request)


def on_signed_up(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    # Whoever played Bea in this browser without an account and now signs up from it keeps
    # those matches, and so their statistics (counted from the seats).
    if request is not None:
        guests.adopt(access.guest_key(request), user)
        # Then new keys: a copy of the old guest key, planted or taken, opens nothing now.
        access.rotate_keys(request)


# What a change to an account ends. A new password (changed, or the same one salted anew to
# sign out everywhere else) invalidates every session Django holds for it, but a socket or a
# stream checked its session only when it opened: each must be told, or a browser signed out
# that way would go on receiving the player's hand. API tokens survive a new password (Settings
# says so and offers to revoke them all); a deactivated or deleted account ends them too.
_SESSIONS = ("session",)
_EVERYTHING = ("session", "token")


def on_user_saving(
    sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    instance._gin_ended_credentials = ()
    if raw or instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return  # a sign-in's last_login, say: nothing to compare
    before = sender._default_manager.filter(pk=instance.pk).values("password", "is_active")
    row = before.first()
    if row is None:
        return
    if row["is_active"] and not instance.is_active:
        instance._gin_ended_credentials = _EVERYTHING
    elif row["password"] != instance.password:
        instance._gin_ended_credentials = _SESSIONS


def on_user_credentials_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    ended = getattr(instance, "_gin_ended_credentials", ())
    if ended:
        credentials_ended(instance.pk, every=ended)
    if ended == _EVERYTHING:
        _closed()


def on_user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    credentials_ended(instance.pk, every=_EVERYTHING)
    _closed()


def _closed() -> None:
    # A closed account leaves the leaderboards at once (their query skips it; the cached
    # boards are dropped). After the commit, or a board read meanwhile would cache it again.
    transaction.on_commit(forget_all_leaders)


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="lobby.match_changed")
    # Web Push: a challenge or a rematch offer reaches a player whose pages are all closed.
    events.match_changed.connect(notifications.on_match_changed, dispatch_uid="lobby.push_offer")
    # Correspondence: a player's turn (a push, and their "your turn" lists).
    events.match_changed.connect(notifications.on_turn, dispatch_uid="lobby.push_turn")
    post_save.connect(
        notifications.on_challenge_saved, sender=Challenge, dispatch_uid="lobby.push_challenge"
    )

    access.keeping_apart.connect(kept_apart, dispatch_uid="lobby.kept_apart")
    events.table_opened.connect(on_table_opened, dispatch_uid="lobby.table_opened")
    quick_messages.sent.connect(on_quick_message, dispatch_uid="lobby.quick_message")
    events.table_alive.connect(on_table_alive, dispatch_uid="lobby.table_alive")
    events.table_closed.connect(on_table_closed, dispatch_uid="lobby.table_closed")
    post_save.connect(on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="lobby.profile")
    user_logged_in.connect(on_signed_in, dispatch_uid="lobby.signed_in")
    user_logged_out.connect(on_signed_out, dispatch_uid="lobby.signed_out")
    user_signed_up.connect(on_signed_up, dispatch_uid="lobby.signed_up")
    user = settings.AUTH_USER_MODEL
    pre_save.connect(on_user_saving, sender=user, dispatch_uid="lobby.credentials_before")
    post_save.connect(on_user_credentials_saved, sender=user, dispatch_uid="lobby.credentials")
    post_delete.connect(on_user_deleted, sender=user, dispatch_uid="lobby.credentials_deleted")
