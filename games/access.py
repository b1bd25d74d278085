"""Who is asking: the one answer to "who is this request, socket or API client at this match".

An asker is a seat (0 or 1), a watcher, the owner of a pass-and-play match, or nobody. It is
known by the account signed in, or by a key its browser holds in an HttpOnly cookie:

- the guest key (``gin_guest``), one per browser, for its matches against Bea without an
  account (``games.bea.guests``);
- a seat key (``gin_seat_<token>``), a guest's seat at one private table (``games.private.tables``);
- the owner key (``gin_local``), the browser's pass-and-play matches (``games.local.play``).

On a site served over HTTPS each of these cookies carries the ``__Host-`` prefix
(``__Host-gin_guest``...; ``cookie_for``), and only the prefixed one is read there.

Every key is 256 random bits made here; a seat stores only its SHA-256, compared in constant
time. The guest and owner keys are kept signed, so a value the browser was not given here
opens nothing, and both are replaced at sign-up and sign-out (``rotate_keys``): a copy of the
old one opens nothing after, and the table sockets opened with it close. Only this module
reads or sets those cookies (``tests/site/test_access_door.py`` holds
every other module to that). Pages, the API and the sockets turn "nobody" into their own 404,
403 or close code. What an asker may see is ``games.readers``; what it may change,
``games.services``: with this module, the three doors of DESIGN.md (principle 10).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.db.models import Q
from django.dispatch import Signal

from games import lookups
from games.models import Match, PrivateTable, Seat, seats_with_players
from ginsite.lib.after_commit import group_send_after_commit

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

GUEST_COOKIE = "gin_guest"
OWNER_COOKIE = "gin_local"
# token_urlsafe(32) gives 43 characters; anything much longer is not one of ours.
MAX_KEY_CHARS = 64
# A guest's key (a seat's, or for Bea) outlives any table or match still in use: tables expire
# after 7 idle days, guest matches against Bea after 30; each visit of its table renews it.
KEY_MAX_AGE = 60 * 60 * 24 * 30
# A device's pass-and-play matches stay its own for a year.
OWNER_KEY_MAX_AGE = 60 * 60 * 24 * 365
# Only keys this site issued count. A guest's and a device's key used to be whatever the
# browser sent (even "a"): planted in a victim's browser, it let the planter open the victim's
# table and take the matches by signing up first. They are now kept signed (Django's cookie
# signer: SECRET_KEY, the cookie's name, the time it was set), and a value whose signature
# does not check out is read as no key: it opens nothing, and the next key the browser needs
# is a fresh one. A signature rather than a table of issued keys: nothing to store, expire or
# look up on each request, and what a key opens is already recorded server-side (the seats'
# hashes), which is where a rotation takes effect. The seat keys of private tables were never
# taken from the browser (taking the seat makes one), so they are kept as they were.
SIGNED_KEYS = {GUEST_COOKIE: KEY_MAX_AGE, OWNER_COOKIE: OWNER_KEY_MAX_AGE}
_SIGNING_SALT = "games.access.key"
# A key the site issued, planted in someone else's browser, still opens what that browser then
# plays: a review took one (one POST /games/lesson/), set it in a victim's browser, and saw the
# victim's ten cards. Planting takes a response that sets a cookie for this site: from another
# subdomain (Domain=.example), or over plain HTTP (a network attacker answers for
# http://gin.example). Browsers take a cookie named ``__Host-...`` only if it is Secure, comes
# from an HTTPS response, has Path=/ and no Domain: neither can set one. So a site served over
# HTTPS names its key cookies so and reads no other name; a key in a plain-named cookie there
# is no key. A site without HTTPS (development, the tests) cannot use the prefix (browsers
# refuse Secure cookies over plain HTTP) and keeps the plain names.
HOST_ONLY = "__Host-"
# A signed key: the key, the time and the signature (about 95 characters).
MAX_COOKIE_CHARS = 200


@dataclass(frozen=True)
class Caller:
    """Who sent a request or opened a socket, before any match: the account (or none) and the
    browser's cookies, of which this module reads the keys alone."""

    user: Any
    cookies: Mapping[str, str] = field(default_factory=dict, repr=False)


def of_request(request: HttpRequest) -> Caller:
    return Caller(request.user, request.COOKIES)


def of_account(user: Any) -> Caller:
    """An API client: known by its account (a token or the session) alone."""
    return Caller(user)


@dataclass(frozen=True)
class Asker:
    """Who a caller is at one match."""

    match: Match
    seat: int | None = None  # the seat held, by account or by key
    watcher: bool = False  # holds no seat, and may watch
    owner: bool = False  # owns this pass-and-play match (games.local.play says whose hand shows)
    # The cookie whose key gave the seat, "" when the account did (``renew``).
    by_key: str = field(default="", repr=False)

    @property
    def at_table(self) -> bool:
        """A seat or a watcher: whom a table's page, its socket and the API show the match."""
        return self.seat is not None or self.watcher

    @property
    def nobody(self) -> bool:
        return not self.at_table and not self.owner


# --- Who is asking ----------------------------------------------------------------------------


def find(public_id: str, caller: Caller, *, kind: str | None = None) -> Asker | None:
    """The match ``public_id`` (of ``kind``, if given) and who ``caller`` is at it; None when
    there is no such match. Two queries: the match with its table, and its seats with their
    accounts and profiles (the names every answer shows)."""
    matches = Match.objects.select_related("table").prefetch_related(seats_with_players())
    if kind is not None:
        matches = matches.filter(kind=kind)
    match = matches.filter(public_id=public_id).first()
    return None if match is None else at(match, caller)


def at(match: Match, caller: Caller) -> Asker:
    """Who ``caller`` is at ``match``: the seat of its account; else the guest seat whose key
    its browser holds (a private table's seat key, the guest key against Bea); else the owner
    of a pass-and-play match, or not; else a watcher if it may watch; else nobody."""
    seat = seat_of(match, caller.user)
    if seat is not None:
        return Asker(match, seat=seat)
    cookie = _key_cookie(match)
    seat = _guest_seat(match, _key(caller.cookies, cookie)) if cookie else None
    if seat is not None:
        return Asker(match, seat=seat, by_key=cookie)
    if match.kind == Match.Kind.LOCAL:
        return Asker(match, owner=_owns(match, caller))
    return Asker(match, watcher=can_watch(match, caller.user))


def held_seat(user: Any, public_id: str) -> Asker | None:
    """The seat an account holds at ``public_id``, with its match, in one query: a move's hot
    path (``lookups.held_seat``). The match comes without its seats, which the door reads again
    under its lock. None when the account holds no seat there: ``find`` then says who it is."""
    if user is None or not user.is_authenticated:
        return None
    held = lookups.held_seat(public_id, user.pk)
    return None if held is None else Asker(held.match, seat=held.number)


def seat_of(match: Match, user: Any) -> int | None:
    """The seat ``user`` holds in ``match`` by their account, or None."""
    if user is None or not user.is_authenticated:
        return None
    return seat_of_account(match, user.pk)


def seat_of_account(match: Match, user_id: int) -> int | None:
    """The seat the account ``user_id`` holds in ``match`` as a player, or None."""
    for seat in match.seats.all():
        if seat.user_id == user_id and seat.kind == Seat.Kind.PLAYER:
            return seat.number
    return None


def can_watch(match: Match, user: Any) -> bool:
    """Anyone signed in may watch a lobby match; a private table only if its host allowed
    watchers (then anyone with the link, account or not); a match against Bea is only for
    the people in it. Never an account kept apart from a player of the match (``kept_apart``)."""
    signed_in = bool(user is not None and user.is_authenticated)
    if match.kind == Match.Kind.PRIVATE:
        allowed = match.table is not None and match.table.allow_spectators
    else:
        allowed = signed_in and match.kind == Match.Kind.LOBBY
    if not allowed or not signed_in:
        return allowed
    players = {seat.user_id for seat in match.seats.all() if seat.user_id is not None}
    return not players & kept_apart(user.pk)


# Who is kept apart from whom is the lobby's to say (a block: neither side sees the other's
# seeks or matches), and games imports nothing of the lobby. So games asks, as it announces,
# through a signal the lobby answers (``lobby.subscribers``): each receiver returns the user
# ids kept apart from ``user_id``; without receivers, nobody is.
keeping_apart = Signal()  # kwargs: user_id; each receiver returns a set of user ids


def kept_apart(user_id: int) -> set[int]:
    """The accounts ``user_id`` may not watch, nor see the matches of."""
    found: set[int] = set()
    for _receiver, ids in keeping_apart.send(sender=Match, user_id=user_id):
        found |= set(ids or ())
    return found


def players_kept_apart(match: Match) -> bool:
    """Are the two players of ``match`` kept apart (a block either way, since they sat
    down)? Then neither reaches the other through it: no quick message, no offer."""
    users = [seat.user_id for seat in match.seats.all() if seat.user_id is not None]
    return len(users) == 2 and users[1] in kept_apart(users[0])


def open_to_guests(public_id: str) -> bool:
    """May a visitor without an account hold a seat at ``public_id``: a private table's, or a
    guest's against Bea or in a lesson? (The pages ask first, to send anyone else to sign in.)"""
    return Match.objects.filter(
        Q(kind=Match.Kind.PRIVATE)
        | Q(kind__in=(Match.Kind.BEA, Match.Kind.LESSON), seats__kind=Seat.Kind.GUEST),
        public_id=public_id,
    ).exists()


def _key_cookie(match: Match) -> str:
    """The cookie whose key may hold a guest seat at ``match``; "" where none may."""
    if match.kind == Match.Kind.PRIVATE and match.table is not None:
        return seat_cookie(match.table)
    if match.kind in (Match.Kind.BEA, Match.Kind.LESSON):
        # A lesson's learner holds it by the guest key, signed in or not (games.lesson).
        return GUEST_COOKIE
    return ""


def _guest_seat(match: Match, key: str | None) -> int | None:
    if key is None:
        return None
    digest = hash_key(key)
    for seat in match.seats.all():
        if seat.kind == Seat.Kind.GUEST and _same(digest, seat.guest_key_hash):
            return seat.number
    return None


def _owns(match: Match, caller: Caller) -> bool:
    """Is ``caller`` the owner of a pass-and-play match: the account that started it, or the
    browser holding its owner key?"""
    seat = next(iter(match.seats.all()), None)
    if seat is None:
        return False
    if seat.user_id is not None:
        user = caller.user
        return bool(user is not None and user.is_authenticated and user.pk == seat.user_id)
    return key_matches(_key(caller.cookies, OWNER_COOKIE), seat.guest_key_hash)


# --- Keys -------------------------------------------------------------------------------------


def new_key() -> str:
    """A guest's (or a device's) key: 256 bits of randomness, shown to nobody but its browser."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    # A plain SHA-256 suffices: the key is random and long, not a password to brute-force.
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(key: str | None, stored: str) -> bool:
    """Does ``key`` open a seat whose key hash is ``stored``? In constant time."""
    if not key or len(key) > MAX_KEY_CHARS:
        return False
    return _same(hash_key(key), stored)


def _same(digest: str, stored: str) -> bool:
    return bool(stored) and hmac.compare_digest(digest, stored)


def seat_cookie(table: PrivateTable) -> str:
    """The key that holds a guest's seat at this table, and only this one (its cookie is
    ``cookie_for`` this name)."""
    return f"gin_seat_{table.token}"


def served_over_https() -> bool:
    """Does this site answer over HTTPS (README, "Configuration")? The settings that say so
    already make the session's cookies (``SECURE_COOKIES``) or the keys' (a TLS proxy's
    header) Secure; either gives the keys' cookies their prefix."""
    return bool(settings.SECURE_COOKIES or settings.SECURE_PROXY_SSL_HEADER)


def cookie_for(name: str) -> str:
    """The cookie that holds the key ``name`` (``GUEST_COOKIE``, ``OWNER_COOKIE`` or a
    ``seat_cookie``): ``__Host-`` before it on a site served over HTTPS, the name alone
    elsewhere. One name per site, for reading and writing alike."""
    return HOST_ONLY + name if served_over_https() else name


def holds_a_key(cookies: Mapping[str, str]) -> bool:
    """Does a browser sending (or being sent) ``cookies`` hold a key of this site's, a guest's,
    a device's or a seat's: may what it is shown be its own (``ginsite.middleware``)?"""
    names = (cookie_for(GUEST_COOKIE), cookie_for(OWNER_COOKIE))
    seats = cookie_for("gin_seat_")
    return any(name in names or name.startswith(seats) for name in cookies)


def _key(cookies: Mapping[str, str], name: str) -> str | None:
    """The key in the cookie for ``name``, if it can be one of ours (issued here, if signed)."""
    key = cookies.get(cookie_for(name), "")
    if not key or len(key) > MAX_COOKIE_CHARS:
        return None
    if name in SIGNED_KEYS:
        try:
            key = _signer(name).unsign(key, max_age=SIGNED_KEYS[name])
        except signing.BadSignature:  # also an expired one
            return None
    return key if key and len(key) <= MAX_KEY_CHARS else None


def _signer(name: str) -> signing.Signer:
    # What HttpResponse.set_signed_cookie signs with: one signer per cookie name.
    return signing.get_cookie_signer(salt=name + _SIGNING_SALT)


def key_cookie_value(name: str, key: str) -> str:
    """What the cookie ``name`` holds for ``key`` (signed where keys are): for tests and tools
    that hand a browser a key made here."""
    return _signer(name).sign(key) if name in SIGNED_KEYS else key


def guest_key(request: HttpRequest) -> str | None:
    """The guest key this browser holds (its matches against Bea without an account), if any."""
    return _key(request.COOKIES, GUEST_COOKIE)


def owner_key(request: HttpRequest) -> tuple[str, bool]:
    """This browser's pass-and-play owner key, and whether it is new (``keep_owner_key`` then)."""
    key = _key(request.COOKIES, OWNER_COOKIE)
    return (key, False) if key else (new_key(), True)


def keep_guest_key(response: HttpResponse, request: HttpRequest, key: str) -> None:
    _keep(response, request, GUEST_COOKIE, key, KEY_MAX_AGE)


def keep_seat_key(
    response: HttpResponse, request: HttpRequest, table: PrivateTable, key: str
) -> None:
    """The cookie's name ties the key to this one table."""
    _keep(response, request, seat_cookie(table), key, KEY_MAX_AGE)


def keep_owner_key(response: HttpResponse, request: HttpRequest, key: str) -> None:
    _keep(response, request, OWNER_COOKIE, key, OWNER_KEY_MAX_AGE)


def renew(response: HttpResponse, request: HttpRequest, asker: Asker) -> None:
    """A visit of the table renews the key that gave ``asker`` its seat: the match is in use."""
    key = _key(request.COOKIES, asker.by_key) if asker.by_key else None
    if key is not None:
        _keep(response, request, asker.by_key, key, KEY_MAX_AGE)


def _keep(response: HttpResponse, request: HttpRequest, name: str, key: str, max_age: int) -> None:
    """Keep a key in this browser: HttpOnly (no script reads it), SameSite=Lax (sent when a
    friend follows a link from a chat app, not with another site's requests), Secure behind
    TLS, and ``__Host-`` there (``HOST_ONLY``), which also wants it Secure, for the whole site
    and without a Domain. Its path is the whole site anyway: a table's socket and move URLs
    carry the match id."""
    response.set_cookie(
        cookie_for(name),
        key_cookie_value(name, key),
        max_age=max_age,
        path="/",
        domain=None,
        httponly=True,
        samesite="Lax",
        secure=served_over_https() or request.is_secure(),
    )


# --- Rotation at sign-up and sign-out --------------------------------------------------------

_ROTATED = "_gin_rotated_keys"


def rotate_keys(request: HttpRequest) -> None:
    """Sign-up and sign-out: this browser's guest and owner keys are replaced by new ones,
    which open what the old ones still opened (the seats' hashes move over; sign-up adopts the
    guest's matches against Bea first). The old keys open nothing any more, the table sockets
    opened with them close (4401, ``key_group``), and the new keys ride on this request's
    response (``RotatedKeysMiddleware``)."""
    fresh = getattr(request, _ROTATED, {})
    for name in SIGNED_KEYS:
        old = _key(request.COOKIES, name)
        if old is None:
            continue
        key = new_key()
        Seat.objects.filter(guest_key_hash=hash_key(old)).update(guest_key_hash=hash_key(key))
        group_send_after_commit(key_group(old), {"type": "key.ended"})
        fresh[name] = key
        request.COOKIES[cookie_for(name)] = key_cookie_value(name, key)  # the rest of it too
    setattr(request, _ROTATED, fresh)


class RotatedKeysMiddleware:
    """Keeps the keys ``rotate_keys`` made while answering a request in its browser (a
    signal's receiver has the request, not the response)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, key in getattr(request, _ROTATED, {}).items():
            _keep(response, request, name, key, SIGNED_KEYS[name])
        return response


def key_group(key: str) -> str:
    """The channel group of the table sockets opened with ``key``: told when it is replaced."""
    return f"key-{hash_key(key)[:48]}"


def socket_key_group(asker: Asker, caller: Caller) -> str | None:
    """The group a socket of ``asker`` listens on for the end of the key that gave it its
    seat; None when its account did."""
    key = _key(caller.cookies, asker.by_key) if asker.by_key else None
    return None if key is None else key_group(key)
