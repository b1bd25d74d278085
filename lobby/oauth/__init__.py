"""Apps that sign a player in: OAuth 2.0 authorization code with PKCE (django-oauth-toolkit).

A player sends an app to ``/oauth/authorize/``, signs in (or signs up) on the site's own pages,
and grants it scopes (``read``, ``play``, ``lobby``) on a consent page; the app exchanges the
code (with its PKCE verifier) at ``/oauth/token/`` for an access token (``gina_...``) and a
refresh token (``ginr_...``). The API takes the access token as it takes a personal token
(``lobby.accounts.tokens.authenticate``), limited to its scopes (``scopes.required``). The player
sees and revokes the apps in Settings. Apps are registered by the site's staff (``manage.py
register_app``): docs/api.md, "For app developers".
"""
