"""The consent page an app sends a player to, and revoking an app in Settings.

The token endpoints are the toolkit's own (``urls.py``); the consent page is its
``AuthorizationView`` in the site's layout and language. A player who is not signed in is
sent to the site's sign-in page with ``next=`` back here, and from there to sign-up: an app
never sees a password.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from oauth2_provider.views import AuthorizationView

from lobby.oauth import access, scopes


class AuthorizeView(AuthorizationView):
    template_name = "oauth/authorize.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # PKCE with S256 only: "plain" sends the verifier itself through the browser.
        method = request.GET.get("code_challenge_method")
        if request.GET.get("code_challenge") and method != "S256":
            return self.render_to_response(
                {
                    "error": {
                        "error": "invalid_request",
                        "description": _('Use PKCE with code_challenge_method "S256".'),
                    }
                }
            )
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        asked = context.get("scopes") or []
        context["scope_descriptions"] = [
            (name, scopes.DESCRIPTIONS[name]) for name in scopes.ALL if name in asked
        ]
        return context


@require_POST
@login_required
def revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Settings' "Revoke" beside an app: its tokens end, its open streams close."""
    if access.revoke(request.user, pk):
        messages.success(request, _("App revoked: it can no longer play or read as you."))
    else:
        messages.error(request, _("That app holds no access of yours."))
    return redirect(reverse("lobby:settings") + "#apps")
