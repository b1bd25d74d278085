"""Bea's review in the JSON API (docs/api.md, "Bea's review"): beside a hand's replay
(``ReplayOut.review``) and for a whole match (``GET /matches/{id}/review``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games.api import asker as api_asker
from ginsite.lib.apikit import ERRORS, Error, user_of
from ginsite.lib.refusals import NotAllowed, TooMany

from . import budget, context
from .schemas import MatchReviewOut

router = Router()


@router.get(
    "/matches/{match_id}/review",
    response={200: MatchReviewOut, ERRORS: Error},
    tags=["matches"],
)
def match_review(request: HttpRequest, match_id: str) -> dict[str, Any]:
    """Bea's review of a match's finished hands: accuracy per player, per hand, and the worst
    decisions. While the match runs, for its players only (each their own decisions) and only
    where the hint is offered (against Bea, or both players agreed to hints); once it is over,
    for whoever may watch it. Judging hands costs a budget (docs/review.md): past it,
    429 with Retry-After; a long match may take a few requests (`complete`)."""
    user = user_of(request)
    asker = api_asker.reader(user, match_id)
    found = context.for_match(asker, budget.reader_of(request, user))
    if found["status"] == "hidden":
        raise NotAllowed(
            _(
                "While a match is played, Bea's review is for its players where her hint is "
                "offered: against her, or when both players agreed to hints."
            )
        )
    if found["status"] == "later":
        raise TooMany(_("Too many reviews were asked for just now."), found["retry_after"])
    found.pop("decisions")
    return found
