"""/oauth/: the consent page (ours) and the toolkit's token and revocation endpoints."""

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
]
