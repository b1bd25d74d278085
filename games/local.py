"""Pass-and-play: two people sharing one screen.

The match is stored like any other (kind LOCAL, both seats LOCAL with their own names). Its
owner is the signed-in user who started it, or else this browser, known by an owner key kept in
an HttpOnly cookie (the seats store only its hash). The page never holds both hands: between
turns it shows a pass screen, and only a press of Reveal renders the hand of the player to act.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import services
from games.forms import RulesForm
from games.models import Match, Seat
from games.private import (
    clean_guest_name,
    hash_key,
    key_matches,
    name_field,
    new_key,
    set_key_cookie,
)
from games.states import load_state
from ginsite.names import key as name_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest, HttpResponse

OWNER_COOKIE = "gin_local"
OWNER_COOKIE_MAX_AGE = 60 * 60 * 24 * 365


class LocalMatchForm(RulesForm):
    first = name_field(gettext_lazy("First player (plays first)"))
    second = name_field(gettext_lazy("Second player"))
    # The players' names come before the rules on the page.
    field_order = ["first", "second", "preset", "target"]

    def clean_first(self) -> str:
        return clean_guest_name(self.cleaned_data["first"])

    def clean_second(self) -> str:
        return clean_guest_name(self.cleaned_data["second"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        # Names that only look alike ("alice" and "аlice") would be as hard to tell apart.
        if first and second and name_key(first) == name_key(second):
            raise forms.ValidationError(_("Give the two players different names."))
        return data


def start(
    owner: AbstractBaseUser | None,
    owner_key: str,
    first: str,
    second: str,
    preset: str = "standard",
    target: int = 100,
    *,
    deck: list[str] | None = None,
) -> Match:
    """A pass-and-play match; ``owner`` (signed in) or else ``owner_key`` (this browser)."""
    key_hash = "" if owner is not None else hash_key(owner_key)
    specs = tuple(
        services.SeatSpec(Seat.Kind.LOCAL, user=owner, name=name, guest_key_hash=key_hash)
        for name in (first, second)
    )
    one, two = specs
    rules = services.ruleset(preset, target)
    return services.create_match(Match.Kind.LOCAL, rules, (one, two), deck=deck)


def owner_key(request: HttpRequest) -> tuple[str, bool]:
    """This browser's owner key, and whether it is new (then it must be set as a cookie)."""
    key = request.COOKIES.get(OWNER_COOKIE, "")
    if key and len(key) <= 64:
        return key, False
    return new_key(), True


def set_owner_cookie(response: HttpResponse, request: HttpRequest, key: str) -> None:
    set_key_cookie(response, request, OWNER_COOKIE, key, OWNER_COOKIE_MAX_AGE)


def owns(match: Match, request: HttpRequest) -> bool:
    """Is the sender the owner: the account that started it, or the browser holding its key?"""
    if match.kind != Match.Kind.LOCAL:
        return False
    seat = next(iter(match.seats.all()), None)
    if seat is None:
        return False
    if seat.user_id is not None:
        return bool(request.user.is_authenticated and request.user.pk == seat.user_id)
    return key_matches(request.COOKIES.get(OWNER_COOKIE), seat.guest_key_hash)


def seat_shown(match: Match) -> int | None:
    """Whose hand a revealed page shows: the player to act. None once the hand is over (both
    hands are public then) or the match has ended; the page then shows the table from seat 0,
    whose own hand region is empty at hand end."""
    state = load_state(match)
    if not match.is_active or state.phase in ("hand_over", "match_over"):
        return None
    return state.to_act


def names(match: Match) -> dict[int, str]:
    return {s.number: s.display_name for s in match.seats.all()}
