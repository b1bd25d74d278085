"""The results card: its link (a signed token for a match), its page and its picture (a PNG
at the same token, for sharing and for link previews: ``image``)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import readers
from games.labels import PRESET_NAMES
from games.models import Match
from games.table import add_ons as extras
from games.table.results import history

from .image import card_png
from .links import public_id_of

# A finished match's card does not change; its picture is kept a day per language.
IMAGE_SECONDS = 24 * 60 * 60


def _match_of(token: str) -> Match:
    public_id = public_id_of(token)
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
    context["image_url"] = request.build_absolute_uri(
        reverse("games:results_card_image", args=[token])
    )
    return render(request, "games/results_card/card.html", context)


@require_GET
def results_card_image(request: HttpRequest, token: str) -> HttpResponse:
    """The card as a PNG (``image.card_png``), in the reader's language; 404 as the page."""
    match = _match_of(token)
    key = f"results-card-png:{match.pk}:{match.updated_at.timestamp()}:{get_language()}"
    png = cache.get(key)
    if png is None:
        png = card_png(card_context(match))
        cache.set(key, png, IMAGE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # in the reader's language
    response["Content-Disposition"] = f'inline; filename="gin-rummy-{match.public_id}.png"'
    return response
