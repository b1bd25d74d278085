"""Who moderates: a staff account with the ``moderation.moderate`` permission (given by the
"Moderators" group the first migration makes, or one by one in the admin), or a superuser.
Everyone else gets 404 from the moderators' pages: they are not told the pages exist."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

PERMISSION = "moderation.moderate"
GROUP = "Moderators"


def is_moderator(user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_superuser or (user.is_staff and user.has_perm(PERMISSION)))


def moderator_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_moderator(request.user):
            raise Http404
        return view(request, *args, **kwargs)

    return checked
