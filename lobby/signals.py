from __future__ import annotations

from typing import Any

from allauth.account.signals import user_logged_in, user_signed_up
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest

from games import access, guests
from ginsite.pushes import credentials_ended
from lobby.language import set_language_cookie
from lobby.models import ensure_profile


@receiver(user_logged_in)
def _apply_preferred_language(
    sender: Any, request: HttpRequest, user: Any, response: Any = None, **kwargs: Any
) -> None:
    # A preferred language saved in Settings follows the player to every device they sign in
    # on; allauth hands us the redirect response, so the cookie rides on it.
    language = ensure_profile(user).language
    if language and response is not None:
        set_language_cookie(response, language)


@receiver(user_logged_out)
def _end_the_sessions_sockets(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    # The table, lobby and event sockets this browser opened with its session close: a page
    # left open after signing out must not go on showing the player's hand.
    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        credentials_ended(user.pk, session=session.session_key)


@receiver(user_signed_up)
def _adopt_guest_matches(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    # Whoever played Bea in this browser without an account and now signs up from it keeps
    # those matches, and so their statistics (counted from the seats).
    if request is not None:
        guests.adopt(access.guest_key(request), user)


# What a change to an account ends. A new password (changed, or the same one salted anew to
# sign out everywhere else) invalidates every session Django holds for it, but a socket or a
# stream checked its session only when it opened: each must be told, or a browser signed out
# that way would go on receiving the player's hand. API tokens survive a new password (Settings
# says so and offers to revoke them all); a deactivated or deleted account ends them too.
_SESSIONS = ("session",)
_EVERYTHING = ("session", "token")


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _note_credentials_change(
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


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _end_credentials_on_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    ended = getattr(instance, "_gin_ended_credentials", ())
    if ended:
        credentials_ended(instance.pk, every=ended)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL)
def _end_credentials_on_delete(sender: Any, instance: Any, **kwargs: Any) -> None:
    credentials_ended(instance.pk, every=_EVERYTHING)
