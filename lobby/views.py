"""Account pages: Settings (display name, language) and the public player profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games.services import player_stats
from lobby.forms import SettingsForm
from lobby.language import set_language_cookie
from lobby.models import ensure_profile


def _get_player(username: str) -> AbstractBaseUser:
    user_model = get_user_model()
    return get_object_or_404(user_model, **{user_model.USERNAME_FIELD: username, "is_active": True})


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    profile = ensure_profile(request.user)
    form = SettingsForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:
            # Another player took the name after validation: the unique constraint decided.
            form.add_error("display_name", _("That name was just taken. Please choose another."))
        else:
            # Switch now, so the confirmation and the page after the redirect are already
            # in the chosen language.
            if profile.language:
                translation.activate(profile.language)
            messages.success(request, _("Settings saved."))
            response = redirect("lobby:settings")
            set_language_cookie(response, profile.language)
            return response
    return render(request, "lobby/settings.html", {"form": form})


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = _get_player(username)
    ctx = {
        "player": user,
        "profile": ensure_profile(user),
        "stats": player_stats(user),
        "is_me": user == request.user,
    }
    return render(request, "lobby/player.html", ctx)
