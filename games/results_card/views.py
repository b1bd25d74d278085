"""The results card: its link (a signed token for a match) and its page."""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import readers
from games.labels import PRESET_NAMES
from games.models import Match
from games.table import add_ons as extras
from games.table.results import history

SALT = "games.results_card"


def card_url(match: Match) -> str:
    """The path of ``match``'s results card: a token signed for it, stable across requests."""
    token = signing.dumps(match.public_id, salt=SALT, compress=True)
    return reverse("games:results_card", args=[token])


def _match_of(token: str) -> Match:
    try:
        public_id = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        raise Http404(_("No such results card.")) from None
    match = Match.objects.filter(public_id=public_id).prefetch_related("seats").first()
    # A match still in play has no results yet: its card is not there (and says nothing).
    if match is None or match.is_active:
        raise Http404(_("No such results card."))
    return match


def card_context(match: Match) -> dict[str, Any]:
    """What the card shows, from the match as both players and any watcher may see it now."""
    view = readers.view_for(match, readers.WATCHER)
    seats = {s.number: s for s in match.seats.all()}
    names = {n: s.display_name for n, s in seats.items()}
    scores = list(match.scores or [0, 0])
    winner = match.winner_seat
    return {
        "match": match,
        "players": [
            {"name": names.get(n, ""), "score": scores[n], "winner": n == winner} for n in (0, 1)
        ],
        "winner": names.get(winner) if winner is not None else None,
        "rules": PRESET_NAMES.get(match.rules.get("name"), match.rules.get("name", "")),
        "target": match.rules.get("target"),
        "hands": history(view, names),
        "status": match.status,
        "rating_lines": extras.lines_for(match, None),
    }


@require_GET
def results_card(request: HttpRequest, token: str) -> HttpResponse:
    match = _match_of(token)
    context = card_context(match)
    context["share_url"] = request.build_absolute_uri(request.path)
    return render(request, "games/results_card/card.html", context)
