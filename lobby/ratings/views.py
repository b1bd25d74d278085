"""The leaderboards' pages: the top players of each preset, a page at a time."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.labels import PRESET_NAMES
from ginsite.lib import numbers

from .reads import MIN_RECENT, PAGE, PRESET_ORDER, leaders_page


@require_GET
def leaderboard(request: HttpRequest, preset: str) -> HttpResponse:
    if preset not in PRESET_ORDER:
        raise Http404(_("There are no such rules."))
    page = numbers.parse(request.GET.get("page", "1"), low=1)
    if page is None:
        raise Http404(_("There is no such page."))
    rows, pages = leaders_page(preset, page)
    if page > pages:
        raise Http404(_("There is no such page."))
    return render(
        request,
        "lobby/leaderboard.html",
        {
            "preset": preset,
            "label": PRESET_NAMES[preset],
            "presets": [(p, PRESET_NAMES[p]) for p in PRESET_ORDER],
            "rows": rows,
            "page": page,
            "pages": pages,
            "first_rank": (page - 1) * PAGE + 1,
            "min_recent": MIN_RECENT,
        },
    )
