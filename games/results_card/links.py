"""A results card's link: a token signed for a finished match, the same at every call."""

from __future__ import annotations

from functools import partial

from django.core import signing
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Match

SALT = "games.results_card"


def card_url(match: Match) -> str:
    """The path of ``match``'s results card: a token signed for it, the same at every call
    (no time in it: the link of a finished match never changes)."""
    token = signing.Signer(salt=SALT).sign_object(match.public_id, compress=True)
    return reverse("games:results_card", args=[token])


def public_id_of(token: str) -> str:
    """The match a card's token was signed for; 404 for any other token."""
    # The first links carried the time they were made (signing.dumps): still good. Each
    # signer refuses the other's token (a bad signature, or a value that is not its own form).
    for read in (signing.Signer(salt=SALT).unsign_object, partial(signing.loads, salt=SALT)):
        try:
            return str(read(token))
        except (signing.BadSignature, ValueError):
            continue
    raise Http404(_("No such results card."))
