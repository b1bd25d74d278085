"""The arenas the site makes by itself, and the private arenas players make.

The schedule: every rule set (preset) gets an arena a few times a day, rated, at fixed hours
in UTC (``SLOTS``), made a day ahead by whichever worker's sweep gets there first (the unique
slot of a scheduled arena makes a second making of it a no-op), at most once a minute on each
worker.

Private arenas (docs/arenas.md, "Abuse"): a signed-in player makes one with an invitation link
(the arena's unguessable page), rated or casual. A player holds at most OPEN_PRIVATE arenas
not yet over and makes at most PRIVATE_PER_DAY a day; a rated one needs its maker to pass
rated play's entry rules, and every player who joins a rated arena passes them too
(``service.join``): throw-away accounts farm nothing rated. A private arena is never listed;
its places are shown on a profile as private.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.labels import PRESET_NAMES
from ginsite.lib import numbers
from ginsite.lib.refusals import Refused, TooMany
from lobby.ratings import eligibility
from lobby.services.pairing import check_rules

from .models import Arena
from .push import list_changed

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# (preset, target, minutes, hours of the day in UTC): three or four arenas a day per rule set.
SLOTS: tuple[tuple[str, int, int, tuple[int, ...]], ...] = (
    ("standard", 100, 60, (0, 6, 12, 18)),
    ("standard", 50, 30, (3, 9, 15, 21)),
    ("classic", 100, 60, (2, 10, 19)),
    ("simple", 50, 30, (4, 13, 20)),
)
AHEAD = timedelta(days=1)
_MADE_KEY = "arena:schedule:made"

# Private arenas.
MINUTES = (20, 30, 45, 60, 90)
LATEST_START = timedelta(days=7)
OPEN_PRIVATE = 3
PRIVATE_PER_DAY = 10
NAME_MAX = 40


def scheduled_name(preset: str, target: int, minutes: int) -> str:
    """The name stored with a scheduled arena (in English; pages say it in their reader's
    language from its rules, ``title``)."""
    return f"{preset.title()} {target} arena, {minutes} min"


def make_scheduled(now: datetime | None = None) -> int:
    """Make every scheduled arena starting within the next AHEAD that is not made yet: how
    many were made (at most once a minute on each worker unless ``now`` is given)."""
    if now is None:
        if not cache.add(_MADE_KEY, 1, timeout=60):
            return 0
        now = timezone.now()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    wanted = []
    for offset in (0, 1):
        for preset, target, minutes, hours in SLOTS:
            for hour in hours:
                start = day + timedelta(days=offset, hours=hour)
                if now <= start + timedelta(minutes=minutes) and start <= now + AHEAD:
                    wanted.append((preset, target, minutes, start))
    have = set(
        Arena.objects.filter(kind=Arena.Kind.SCHEDULED, starts_at__gte=day).values_list(
            "preset", "target", "starts_at"
        )
    )
    new = [
        Arena(
            kind=Arena.Kind.SCHEDULED,
            name=scheduled_name(preset, target, minutes),
            preset=preset,
            target=target,
            rated=True,
            starts_at=start,
            ends_at=start + timedelta(minutes=minutes),
        )
        for preset, target, minutes, start in wanted
        if (preset, target, start) not in have
    ]
    # Two workers at once: the slot's unique constraint keeps one of each.
    Arena.objects.bulk_create(new, ignore_conflicts=True)
    if new:
        list_changed()
    return len(new)


def title(arena: Arena) -> str:
    """What a page calls the arena, in its reader's language."""
    if arena.kind == Arena.Kind.PRIVATE:
        return arena.name
    minutes = round((arena.ends_at - arena.starts_at).total_seconds() / 60)
    return _("%(rules)s to %(target)s, %(minutes)s-minute arena") % {
        "rules": PRESET_NAMES.get(arena.preset, arena.preset),
        "target": arena.target,
        "minutes": minutes,
    }


def create_private(
    user: AbstractBaseUser,
    name: Any,
    preset: Any,
    target: Any,
    *,
    minutes: Any,
    starts_in: Any = 5,
    rated: bool = False,
    allow_bots: bool = False,
    now: datetime | None = None,
) -> Arena:
    """A private arena by ``user`` with these rules, ``minutes`` long, starting in
    ``starts_in`` minutes: refused with nothing made for bad input, a rated one by a player
    who may not play rated, and past the limits (see the module)."""
    now = now or timezone.now()
    name = " ".join(str(name or "").split())
    if not name or len(name) > NAME_MAX:
        raise Refused(_("Give the arena a name of up to %(n)s characters.") % {"n": NAME_MAX})
    target = check_rules(str(preset), target)
    length = numbers.parse(minutes)
    if length not in MINUTES:
        raise Refused(_("An arena lasts 20, 30, 45, 60 or 90 minutes."))
    wait = numbers.parse(starts_in)
    if wait is None or wait < 0 or timedelta(minutes=wait) > LATEST_START:
        raise Refused(_("An arena starts within a week."))
    if rated:
        eligibility.check(user.pk)
    mine = Arena.objects.filter(kind=Arena.Kind.PRIVATE, created_by_id=user.pk)
    with transaction.atomic():
        if mine.filter(created_at__gte=now - timedelta(days=1)).count() >= PRIVATE_PER_DAY:
            raise TooMany(
                ngettext(
                    "You made %(n)s arena today: make the next one tomorrow.",
                    "You made %(n)s arenas today: make the next one tomorrow.",
                    PRIVATE_PER_DAY,
                )
                % {"n": PRIVATE_PER_DAY},
                retry_after=3600,
            )
        if mine.filter(finished_at=None, ends_at__gt=now).count() >= OPEN_PRIVATE:
            raise TooMany(
                _("You have %(n)s arenas still to play: let one end first.") % {"n": OPEN_PRIVATE},
                retry_after=600,
            )
        start = now + timedelta(minutes=wait)
        return Arena.objects.create(
            kind=Arena.Kind.PRIVATE,
            name=name,
            preset=str(preset),
            target=target,
            rated=bool(rated),
            allow_bots=bool(allow_bots),
            created_by_id=user.pk,
            starts_at=start,
            ends_at=start + timedelta(minutes=length),
        )
