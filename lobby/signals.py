from __future__ import annotations

from typing import Any

from allauth.account.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

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
