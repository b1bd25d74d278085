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
from oauth2_provider.http import OAuth2ResponseRedirect
from oauth2_provider.models import Application
from oauth2_provider.views import AuthorizationView

from lobby.oauth import access, redirects, scopes


class AuthorizeView(AuthorizationView):
    template_name = "oauth/authorize.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # PKCE with S256 only: "plain" sends the verifier itself through the browser.
        method = request.GET.get("code_challenge_method")
        if request.GET.get("code_challenge") and method != "S256":
            return self._refuse(_('Use PKCE with code_challenge_method "S256".'))
        if (wrong := _redirect_problem(request.GET)) is not None:
            return self._refuse(wrong)
        return super().get(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if (wrong := _redirect_problem(request.POST)) is not None:
            return self._refuse(wrong)
        return super().post(request, *args, **kwargs)

    def redirect(self, redirect_to: str, application: Application | None) -> HttpResponse:
        # The toolkit allows the schemes of ALLOWED_REDIRECT_URI_SCHEMES, one list for every
        # app; a phone app's own scheme (com.example.gin:) is allowed for its own redirect,
        # which oauthlib has matched against the app's registered URIs by now.
        if application is None:
            return super().redirect(redirect_to, application)
        return OAuth2ResponseRedirect(redirect_to, redirects.schemes(redirect_to))

    def _refuse(self, description: str) -> HttpResponse:
        error = {"error": "invalid_request", "description": description}
        return self.render_to_response({"error": error}, status=400)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        asked = context.get("scopes") or []
        context["scope_descriptions"] = [
            (name, scopes.DESCRIPTIONS[name]) for name in scopes.ALL if name in asked
        ]
        return context


def _redirect_problem(params: Any) -> str | None:
    """Why the redirect URI of this request may not be used (``lobby.oauth.redirects``), even
    if the app registered it (the admin's form lets staff store an http URI to any host), or
    None. Whether the app registered it is the toolkit's check, after this one."""
    app = Application.objects.filter(client_id=params.get("client_id", "")).first()
    if app is None:
        return None  # the toolkit says so
    uri = params.get("redirect_uri") or app.default_redirect_uri
    if not uri:
        return None
    wrong = redirects.problem(uri, public=app.client_type == Application.CLIENT_PUBLIC)
    return (
        None
        if wrong is None
        else _("This app's redirect URI is not allowed: %(why)s.") % {"why": wrong}
    )


@require_POST
@login_required
def revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Settings' "Revoke" beside an app: its tokens end, its open streams close."""
    if access.revoke(request.user, pk):
        messages.success(request, _("App revoked: it can no longer play or read as you."))
    else:
        messages.error(request, _("That app holds no access of yours."))
    return redirect(reverse("lobby:settings") + "#apps")
