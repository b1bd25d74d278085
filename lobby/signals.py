from __future__ import annotations

from typing import Any

from allauth.account.signals import user_logged_in, user_signed_up
from django.contrib.auth.signals import user_logged_out
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
