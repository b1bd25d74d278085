"""Account pages (Settings, the public player profile) and the lobby.

Lobby views are thin: a lookup and one action of ``lobby.services`` (the lobby's one door, which
the API calls too), and an answer. With htmx the answer is the user's lobby regions as
out-of-band swaps (refusals too, with their status and message); without JavaScript a change
redirects (post/redirect/get) and a refusal renders the whole page with its status.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games.models import Match
from ginsite.lib.htmx import go_to
from ginsite.lib.refusals import Refused
from lobby import presence
from lobby import regions as lobby_regions
from lobby import services as lobby_services
from lobby.accounts import emails, sign_out, tokens
from lobby.accounts.language import set_language_cookie
from lobby.accounts.profile_forms import SettingsForm
from lobby.broadcast import REGIONS
from lobby.models import ApiToken, display_name_of, ensure_profile
from lobby.pool import service as pool_service
from lobby.webpush import subscriptions as push


def _get_player(username: str) -> AbstractBaseUser:
    user_model = get_user_model()
    return get_object_or_404(user_model, **{user_model.USERNAME_FIELD: username, "is_active": True})


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    profile = ensure_profile(request.user)
    # A language chosen in the header (a cookie only) is the one in force: the form shows it,
    # so saving another setting keeps it rather than falling back to the browser's.
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    initial = {}
    if not profile.language and chosen in dict(settings.LANGUAGES):
        initial["language"] = chosen
    form = SettingsForm(request.POST or None, instance=profile, initial=initial)
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
    return render(request, "lobby/settings.html", {"form": form, **_api_token_context(request)})


@require_POST
@login_required
def sound(request: HttpRequest) -> HttpResponse:
    """The table's sound toggle, remembered with the account (each browser also keeps it)."""
    profile = ensure_profile(request.user)
    profile.sound_on = request.POST.get("on") == "1"
    profile.save(update_fields=["sound_on"])
    return HttpResponse(status=204)


def _api_token_context(request: HttpRequest, **extra: object) -> dict[str, object]:
    """What Settings shows below the form: the e-mail address, API tokens, and the devices
    notified."""
    return {
        "email": emails.address_state(request.user.pk),
        "api_tokens": ApiToken.objects.filter(user=request.user),
        "push_enabled": push.enabled(),
        "push_public_key": push.public_key(),
        "push_devices": push.devices(request.user),  # type: ignore[arg-type]
        **extra,
    }


@require_POST
@login_required
def remove_device(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        push.unsubscribe(request.user, pk)  # type: ignore[arg-type]
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("That device gets no more notifications."))
    return redirect(reverse("lobby:settings") + "#notifications")


@require_POST
@login_required
def create_api_token(request: HttpRequest) -> HttpResponse:
    """Make a personal API token and show it once, on this very answer (never stored in a
    message or the session: only its digest is kept)."""
    name = request.POST.get("name", "").strip()[:60]
    form = SettingsForm(instance=ensure_profile(request.user))
    if not name:
        messages.error(request, _("Give the token a name, so you can tell it apart later."))
        return redirect("lobby:settings")
    if ApiToken.objects.filter(user=request.user).count() >= tokens.MAX_PER_USER:
        messages.error(request, _("You have too many tokens. Revoke one you no longer use."))
        return redirect("lobby:settings")
    _token, secret = tokens.create(request.user, name)  # type: ignore[arg-type]
    context = _api_token_context(request, new_api_token=secret, new_api_token_name=name)
    response = render(request, "lobby/settings.html", {"form": form, **context})
    # The page holds a secret: no cache may keep it.
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def revoke_api_token(request: HttpRequest, pk: int) -> HttpResponse:
    if tokens.revoke(request.user, pk):  # type: ignore[arg-type]
        messages.success(request, _("Token revoked: programs using it can no longer sign in."))
    else:
        messages.error(request, _("There is no such token."))
    return redirect("lobby:settings")


@require_POST
@login_required
def revoke_all_api_tokens(request: HttpRequest) -> HttpResponse:
    if tokens.revoke_all(request.user):
        messages.success(request, _("All tokens revoked: no program can sign in as you now."))
    else:
        messages.error(request, _("You have no API tokens."))
    return redirect("lobby:settings")


@require_POST
@login_required
def sign_out_elsewhere(request: HttpRequest) -> HttpResponse:
    """End every other browser's session (and close its tables); this one stays signed in."""
    if not sign_out.everywhere_else(request, request.POST.get("password", "")):
        messages.error(request, _("That is not your password. Nobody was signed out."))
        return redirect(reverse("lobby:settings") + "#password-settings")
    messages.success(
        request,
        _(
            "You are signed out everywhere else, and every app you let in is signed out. Your "
            "API tokens still work: revoke them below."
        ),
    )
    return redirect("lobby:settings")


# --- The lobby ------------------------------------------------------------------------------------


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _me(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in player (``login_required`` has run)."""
    return cast(AbstractBaseUser, request.user)


def _lobby_answer(
    request: HtmxHttpRequest,
    *,
    status: int = 200,
    notice: str = "",
    level: str = "",
    regions: tuple[str, ...] = REGIONS,
) -> HttpResponse:
    """The lobby as it is now for this user: the regions as out-of-band swaps under htmx,
    the whole page otherwise."""
    user = _me(request)
    if request.htmx:
        html = lobby_regions.render_regions(
            user, regions, request=request, notice=notice, notice_level=level
        )
        return HttpResponse(html, status=status)
    context = lobby_regions.lobby_context(user, notice=notice, notice_level=level)
    return render(request, "lobby/lobby.html", context, status=status)


def _done(request: HtmxHttpRequest, message: str, region: str) -> HttpResponse:
    """A change that went through: post/redirect/get without htmx; with it, the one region it
    changed (a swap of the others could reset a choice the player is making there)."""
    if request.htmx:
        return _lobby_answer(request, notice=message, level="ok", regions=(region,))
    messages.success(request, message)
    return redirect("lobby:lobby")


def _refused(request: HtmxHttpRequest, refused: Refused) -> HttpResponse:
    """A service's refusal as the lobby's answer: its status, its message as the notice."""
    response = _lobby_answer(request, status=refused.status, notice=refused.message, level="error")
    for name, value in refused.headers.items():
        response[name] = value
    return response


def _to_match(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    return go_to(request, reverse("games:table", args=[match.public_id]))


LobbyView = Callable[..., HttpResponse]


def lobby_action(view: LobbyView) -> LobbyView:
    """A lobby form's post: signed in, POST only, and a refusal of the lobby's services
    answered with the lobby and the refusal's notice and status (``_refused``)."""

    @functools.wraps(view)
    def answered(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Refused as refused:
            return _refused(request, refused)

    return require_POST(login_required(answered))


@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # Guests play Bea or a friend; the public lobby is for accounts (names, challenges,
        # blocks and limits all hang on one). The page says so and offers to sign up.
        return render(request, "lobby/guest.html")
    presence.seen_over_http(_me(request))
    return _lobby_answer(request)


@lobby_action
def join_pool(request: HtmxHttpRequest) -> HttpResponse:
    """A "Play now" tile: its value is "preset:target"; rated and bots are the tiles' choices."""
    preset, _sep, target = request.POST.get("tile", "").partition(":")
    entry = pool_service.join_pool(
        _me(request),
        preset,
        target,
        rated=request.POST.get("rated") == "on",
        allow_bots=request.POST.get("bots") == "on",
        days_per_move=request.POST.get("days", ""),
    )
    if entry.match is not None:
        return _to_match(request, entry.match)
    return _done(request, _("You are waiting for an opponent."), "pool")


@lobby_action
def leave_pool(request: HtmxHttpRequest) -> HttpResponse:
    pool_service.leave_pool(_me(request))
    return _done(request, _("You stopped waiting."), "pool")


@lobby_action
def send_challenge(request: HtmxHttpRequest) -> HttpResponse:
    other = lobby_services.player_named(request.POST.get("to", ""))
    lobby_services.challenge(
        _me(request),
        other,
        request.POST.get("preset", ""),
        request.POST.get("target", ""),
        hints=request.POST.get("hints") == "on",
        rated=request.POST.get("rated") == "on",
        days_per_move=request.POST.get("days", ""),
    )
    message = _("Challenge sent to %(name)s.") % {"name": display_name_of(other)}
    return _done(request, message, "challenges")


@lobby_action
def accept_challenge(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Accept a challenge to you: both players go to the new match."""
    me = _me(request)
    match = lobby_services.accept_challenge(lobby_services.challenge_for(me, pk), me)
    return _to_match(request, match)


@lobby_action
def accept_counter(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Take the counter-proposal a challenge of yours was declined with."""
    me = _me(request)
    match = lobby_services.accept_counter(lobby_services.challenge_for(me, pk), me)
    return _to_match(request, match)


@lobby_action
def decline_challenge(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    me = _me(request)
    # A preset or target, from the "Or propose" form, is a counter-proposal.
    proposal = None
    if "preset" in request.POST or "target" in request.POST:
        proposal = lobby_services.Proposal(request.POST.get("preset"), request.POST.get("target"))
    counter = lobby_services.decline_challenge(
        lobby_services.challenge_for(me, pk), me, request.POST.get("reason", ""), proposal
    )
    if counter is None:
        return _done(request, _("Challenge declined."), "challenges")
    message = _("Challenge declined. %(name)s can accept your proposal: %(rules)s.") % {
        "name": display_name_of(counter.challenged),
        "rules": lobby_regions.rules_label(
            counter.preset, counter.target, counter.hints, counter.rated, counter.days_per_move
        ),
    }
    return _done(request, message, "challenges")


@lobby_action
def cancel_challenge(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    me = _me(request)
    lobby_services.cancel_challenge(lobby_services.challenge_for(me, pk), me)
    return _done(request, _("Challenge cancelled."), "challenges")


@lobby_action
def post_seek(request: HtmxHttpRequest) -> HttpResponse:
    preset, target = request.POST.get("preset", ""), request.POST.get("target", "")
    rated = request.POST.get("rated") == "on"
    days = request.POST.get("days", "")
    lobby_services.post_seek(_me(request), preset, target, rated=rated, days_per_move=days)
    return _done(request, _("Seek posted. The first player to accept it plays you."), "seeks")


@lobby_action
def accept_seek(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = lobby_services.accept_seek(lobby_services.seek_for(pk), _me(request))
    return _to_match(request, match)


@lobby_action
def cancel_seek(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    lobby_services.cancel_seek(lobby_services.seek_for(pk), _me(request))
    return _done(request, _("Seek cancelled."), "seeks")


@require_POST
@login_required
def block_player(request: HtmxHttpRequest, username: str) -> HttpResponse:
    other = _get_player(username)
    try:
        lobby_services.block(_me(request), other)
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("lobby:player", username)
    messages.success(
        request,
        _("You blocked %(name)s: they cannot challenge you.") % {"name": display_name_of(other)},
    )
    return redirect("lobby:player", username)


@require_POST
@login_required
def unblock_player(request: HtmxHttpRequest, username: str) -> HttpResponse:
    other = _get_player(username)
    lobby_services.unblock(_me(request), other)
    messages.success(request, _("You unblocked %(name)s.") % {"name": display_name_of(other)})
    return redirect("lobby:player", username)
