"""/oauth/: the consent page (ours), the toolkit's token and revocation endpoints, and the
server's metadata (RFC 8414)."""

from __future__ import annotations

from django.urls import path
from oauth2_provider import views as toolkit

from lobby.oauth import views

app_name = "oauth2_provider"  # the toolkit's views reverse their own names in this namespace

urlpatterns = [
    path("oauth/authorize/", views.AuthorizeView.as_view(), name="authorize"),
    path("oauth/token/", toolkit.TokenView.as_view(), name="token"),
    path("oauth/revoke/", toolkit.RevokeTokenView.as_view(), name="revoke-token"),
    path("settings/apps/<int:pk>/revoke", views.revoke, name="revoke_app"),
    # RFC 8414: where an app's library finds the endpoints, scopes and PKCE methods by itself.
    path(
        ".well-known/oauth-authorization-server",
        toolkit.OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
]
