"""Private tables: a match between two friends reached by an invitation link.

The host opens a table (``open_table``); the first visitor of the link takes the second seat
(``take_seat``). Nobody needs an account: a guest's seat is held by a random seat key kept in an
HttpOnly cookie named after the table, of which the server stores only a hash (the key, its
cookie and whom it seats are ``games.access``'s). A signed-in player's seat follows their
account instead. Tables nobody has used for ``EXPIRE_AFTER_DAYS`` are deleted by
``manage.py expire_tables``, leaving a tombstone so the link can say so.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import access, events, outbox, services
from games.models import Match, PrivateTable, Seat
from games.web.forms import RulesForm
from ginsite.lib import names
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

EXPIRE_AFTER_DAYS = 7


class TableFull(Refused):
    status = 409
    code = "table_full"


class TableExpired(Refused):
    status = 410
    code = "table_expired"


# --- Guest names --------------------------------------------------------------------------------

_PROBLEMS = {
    "too_short": gettext_lazy("A name needs at least %(min)d characters."),
    "too_long": gettext_lazy("A name can have at most %(max)d characters."),
    "invisible": gettext_lazy("A name cannot contain invisible, blank or control characters."),
    "marks": gettext_lazy(
        "A name cannot contain a mark that makes no letter with the one before it "
        "(such as a dot above an i)."
    ),
    "no_letters": gettext_lazy("A name needs at least one letter or digit."),
    "reserved": gettext_lazy("“%(name)s” is reserved. Please choose another name."),
}


def clean_guest_name(value: str) -> str:
    """A guest's display name: the rules of account display names, except that a guest's name
    need not be unique (it is shown at one table only)."""
    name = names.normalise(value)
    code = names.problem(name)
    if code is not None:
        params = {"min": names.MIN_CHARS, "max": names.MAX_CHARS, "name": name}
        raise forms.ValidationError(str(_PROBLEMS[code]) % params)
    return name


def _name_rule() -> str:
    return _("What the other player sees: %(min)d to %(max)d characters.") % {
        "min": names.MIN_CHARS,
        "max": names.MAX_CHARS,
    }


# Translated when the form is shown, in the visitor's language.
_name_help = lazy(_name_rule, str)


def name_field(label: Any = None) -> forms.CharField:
    return forms.CharField(
        label=label or gettext_lazy("Your name"),
        help_text=_name_help(),
        strip=False,
        widget=forms.TextInput(attrs={"maxlength": names.MAX_CHARS, "autocomplete": "nickname"}),
    )


class GuestNameForm(forms.Form):
    name = name_field()

    def clean_name(self) -> str:
        return clean_guest_name(self.cleaned_data["name"])


class PrivateTableForm(RulesForm):
    """The host's choices. ``name`` is asked of a host without an account only."""

    allow_spectators = forms.BooleanField(
        label=gettext_lazy("Anyone with the link may watch once both seats are taken"),
        required=False,
    )

    def __init__(self, *args: Any, guest: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if guest:
            self.fields = {"name": name_field(), **self.fields}

    def clean_name(self) -> str:
        return clean_guest_name(self.cleaned_data["name"])


# --- Opening a table and taking its second seat ----------------------------------------------


def open_table(
    host: AbstractBaseUser | None,
    *,
    name: str = "",
    preset: str = "standard",
    target: int = 100,
    allow_spectators: bool = False,
    deck: list[str] | None = None,
) -> tuple[PrivateTable, Match, str | None]:
    """A new table with its match: the host at seat 0 (first to play), seat 1 open for the
    first visitor of the link. Returns the host's seat key when the host is a guest."""
    rules = services.ruleset(preset, target)
    key = None
    if host is not None:
        host_spec = services.SeatSpec(Seat.Kind.PLAYER, user=host)
    else:
        key = access.new_key()
        host_spec = services.SeatSpec(
            Seat.Kind.GUEST, name=clean_guest_name(name), guest_key_hash=access.hash_key(key)
        )
    with transaction.atomic():
        table = PrivateTable.objects.create(allow_spectators=allow_spectators)
        match = services.create_match(
            Match.Kind.PRIVATE,
            rules,
            (host_spec, services.SeatSpec(Seat.Kind.GUEST)),
            table_id=table.pk,
            deck=deck,
        )
    return table, match, key


def current_match(table: PrivateTable) -> Match | None:
    """The match now played at the table: the newest (a restart or rematch replaces it)."""
    return (
        Match.objects.filter(table=table)
        .select_related("table")
        .prefetch_related("seats__user")
        .order_by("-pk")
        .first()
    )


def open_seat(match: Match) -> int | None:
    for seat in match.seats.all():
        if seat.is_open:
            return seat.number
    return None


def take_seat(match: Match, user: AbstractBaseUser | None, name: str = "") -> str | None:
    """The first visitor takes the open seat: as their account, or as a guest named ``name``
    (then the new seat key is returned). Raises ``TableFull`` when someone was first."""
    if match.table is not None and match.table.expired_at is not None:
        raise TableExpired(_("This table has expired."))
    if user is not None and access.seat_of(match, user) is not None:
        raise Refused(_("You already have a seat at this table."))
    key = None
    if user is not None:
        change: dict[str, Any] = {"kind": Seat.Kind.PLAYER, "user": user}
    else:
        key = access.new_key()
        change = {"name": clean_guest_name(name), "guest_key_hash": access.hash_key(key)}
    # One conditional UPDATE: of two visitors racing for the seat, exactly one changes the row.
    taken = Seat.objects.filter(
        match=match, kind=Seat.Kind.GUEST, user__isnull=True, guest_key_hash=""
    ).update(**change)
    if not taken:
        raise TableFull(_("This table is full: both seats are taken."))
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now())
    outbox.announce(match, events.SEATED)
    return key


# --- Expiry -----------------------------------------------------------------------------------


def expire_tables(now: Any = None, days: int = EXPIRE_AFTER_DAYS) -> list[PrivateTable]:
    """Delete the matches of every table with no activity (a move, an offer, a seat taken, an
    open page's heartbeat) for ``days`` days; keep each table's row as a tombstone."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=days)
    candidates = PrivateTable.objects.filter(
        expired_at__isnull=True, created_at__lt=cutoff
    ).annotate(
        last_change=Max("matches__updated_at"),
        last_seen=Max("matches__seats__last_seen"),
    )
    expired = []
    for table in candidates:
        recent = [t for t in (table.last_change, table.last_seen) if t is not None]  # type: ignore[attr-defined]
        if any(t >= cutoff for t in recent):
            continue
        with transaction.atomic():
            Match.objects.filter(table=table).delete()
            table.expired_at = now
            table.save(update_fields=["expired_at"])
        expired.append(table)
    return expired
