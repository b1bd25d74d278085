"""``manage.py register_app NAME --redirect-uri URI [...]``: register an app that signs players
in, and print its client id.

Staff register apps on the command line (or in the admin, under "Django OAuth Toolkit"), not the
developers themselves: the consent page shows the app's name to players, so a name is taken
by someone the site trusts, and a public client has no secret to hand over, only the client id
printed here. Every app is a public client (no secret; PKCE proves it is the same app at both
ends) with the authorization code grant. Its redirect URIs follow RFC 8252
(``lobby.oauth.redirects``): https, http to a loopback address, or a private-use scheme such as
``com.example.gin:/oauth/callback`` for a phone app, whose scheme no other app registered.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from oauth2_provider.models import Application

from lobby.oauth import redirects


class Command(BaseCommand):
    help = "Register an app that signs players in (OAuth 2.0, PKCE); prints its client id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The app's name, as the consent page shows it.")
        parser.add_argument(
            "--redirect-uri",
            action="append",
            required=True,
            dest="redirect_uris",
            help="Where the player's browser returns with the code (repeat for several): "
            "https://..., http://127.0.0.1/callback (any port: RFC 8252 loopback), or a phone "
            "app's private-use scheme, com.example.gin:/oauth/callback (RFC 8252 7.1).",
        )
        parser.add_argument(
            "--client-id",
            help='A fixed client id (the terminal client is "ginclient"); default: a random one.',
        )

    def handle(
        self,
        *args: Any,
        name: str,
        redirect_uris: list[str],
        client_id: str | None = None,
        **options: Any,
    ) -> None:
        name = name.strip()
        if not name:
            raise CommandError("Give the app a name.")
        for uri in redirect_uris:
            if (wrong := redirects.problem(uri)) is not None:
                raise CommandError(f"{uri}: {wrong}.")
        for uri in redirect_uris:
            if (scheme := redirects.private_scheme(uri)) and (owner := _holder(scheme)):
                raise CommandError(f"{uri}: the scheme {scheme}: is {owner.name!r}'s.")
        if Application.objects.filter(name=name).exists():
            raise CommandError(f"An app named {name!r} is registered already.")
        app = Application(
            name=name,
            client_type=Application.CLIENT_PUBLIC,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris=" ".join(redirect_uris),
            skip_authorization=False,
            algorithm="",
        )
        if client_id:
            if Application.objects.filter(client_id=client_id).exists():
                raise CommandError(f"The client id {client_id!r} is taken.")
            app.client_id = client_id
        try:
            # Not full_clean: the toolkit's clean() knows only ALLOWED_REDIRECT_URI_SCHEMES,
            # one list for every app, and would refuse a phone app's own scheme; the URIs
            # were checked above, and the other fields are set here.
            app.clean_fields(exclude=["client_secret", "user"])
            app.validate_unique()
        except ValidationError as wrong:
            raise CommandError("; ".join(wrong.messages)) from wrong
        app.save()
        self.stdout.write(app.client_id)


def _holder(scheme: str) -> Application | None:
    """The app that registered a redirect URI with the private-use ``scheme``, if any."""
    for app in Application.objects.filter(redirect_uris__icontains=f"{scheme}:"):
        if any(redirects.private_scheme(uri) == scheme for uri in app.redirect_uris.split()):
            return app
    return None
