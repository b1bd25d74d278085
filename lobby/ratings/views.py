"""The leaderboards' pages: the top players of each preset, a page at a time."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.forms import PRESET_NAMES

from .reads import MIN_RECENT, PAGE, PRESET_ORDER, leaders_page


@require_GET
def leaderboard(request: HttpRequest, preset: str) -> HttpResponse:
    if preset not in PRESET_ORDER:
        raise Http404(_("There are no such rules."))
    page = request.GET.get("page", "1")
    if not page.isdigit() or int(page) < 1:
        raise Http404(_("There is no such page."))
    rows, pages = leaders_page(preset, int(page))
    if int(page) > pages:
        raise Http404(_("There is no such page."))
    return render(
        request,
        "lobby/leaderboard.html",
        {
            "preset": preset,
            "label": PRESET_NAMES[preset],
            "presets": [(p, PRESET_NAMES[p]) for p in PRESET_ORDER],
            "rows": rows,
            "page": int(page),
            "pages": pages,
            "first_rank": (int(page) - 1) * PAGE + 1,
            "min_recent": MIN_RECENT,
        },
    )
