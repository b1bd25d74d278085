"""Pass-and-play: two people sharing one screen.

The match is stored like any other (kind LOCAL, both seats LOCAL with their own names). Its
owner is the signed-in user who started it, or else this browser, known by an owner key kept in
an HttpOnly cookie (the seats store only its hash; ``games.access`` says who owns a match).
The page never holds both hands: between turns it shows a pass screen, and only a press of
Reveal renders the hand of the player to act.

The match has one address, ``/games/local/<id>/``, and what it shows is decided there: the pass
screen, or the hand of the player to act if this browser revealed it at this very position
(``remember_reveal``). With JavaScript a Reveal or a move swaps the page's main part in place;
without it each POST is answered with a redirect to the address (post/redirect/get), so a
reload never re-posts, is never a 405, and shows a hand only while its player is still to act.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import services
from games.access import hash_key
from games.models import Match, Seat
from games.private.tables import clean_guest_name, name_field
from games.state_cache import load_state
from games.web.forms import RulesForm
from ginsite.lib.names import key as name_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest, HttpResponse

# Which seat revealed its hand at which version: signed, for the match's own address only. It
# says what the address shows, not who is asking (that is games.access).
REVEALED_COOKIE = "gin_revealed"
REVEALED_MAX_AGE = 15 * 60


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


# --- Which hand this browser revealed -------------------------------------------------------------
#
# A marker "seat S revealed at version V", set by Reveal and renewed by each move of the same
# turn (a draw leaves the same player to discard). The address shows S's hand only while the
# match is still at V: any move that passes the turn, or one made elsewhere, changes the version
# and the address falls back to the pass screen, whoever reloads it. The marker is short-lived
# (a device left alone shows the pass screen again), signed (so its age cannot be forged) and
# sent only to this match's own paths; it grants nothing: moves are checked by the server
# as always, for the player to act.


def _reveal_salt(match: Match) -> str:
    return f"games.local.play.revealed:{match.public_id}"


def remember_reveal(response: HttpResponse, request: HttpRequest, match: Match, seat: int) -> None:
    """This browser has revealed ``seat``'s hand at ``match``'s current version."""
    response.set_signed_cookie(
        REVEALED_COOKIE,
        f"{seat}:{match.version}",
        salt=_reveal_salt(match),
        max_age=REVEALED_MAX_AGE,
        path=reverse("games:local", args=[match.public_id]),
        httponly=True,
        samesite="Strict",
        secure=request.is_secure(),
    )


def forget_reveal(response: HttpResponse, match: Match) -> None:
    """The pass screen is up: no hand of this match is revealed in this browser any more."""
    response.delete_cookie(
        REVEALED_COOKIE,
        path=reverse("games:local", args=[match.public_id]),
        samesite="Strict",
    )


def revealed_seat(request: HttpRequest, match: Match) -> int | None:
    """The seat whose hand this browser revealed at the match's current version, or None."""
    value = request.get_signed_cookie(
        REVEALED_COOKIE, default=None, salt=_reveal_salt(match), max_age=REVEALED_MAX_AGE
    )
    seat, _sep, version = (value or "").partition(":")
    if seat not in ("0", "1") or version != str(match.version):
        return None
    return int(seat)
