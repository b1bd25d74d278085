"""Settings for the Gin Rummy site, read from the environment.

With nothing set the site runs embedded: SQLite, the in-memory channel layer and a local-memory
cache, all in one process, answering only this machine's host names, with DEBUG off (``DEBUG=1``
is for development: ``./scripts/run`` sets it). DATABASE_URL and REDIS_URL switch it to
PostgreSQL and Redis so that any number of ASGI workers can share one lobby.
"""

from __future__ import annotations

import ipaddress
import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.translation import gettext_lazy as _

from ginsite import email_url

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    # An empty value counts as unset, so `FOO=` in an env file means "use the default".
    value = os.environ.get(name, "").strip()
    return value or None


def envstr(name: str, default: str = "") -> str:
    """The variable's value, or `default` when it is unset or empty."""
    value = _raw(name)
    return default if value is None else value


def envbool(name: str, default: bool) -> bool:
    """A boolean variable (1/0, true/false, yes/no, on/off); anything else is an error."""
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {value!r}"
    )


def envint(name: str, default: int) -> int:
    """An integer variable; anything that is not an integer is an error."""
    value = _raw(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around items are ignored."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def _dev_secret_key(path: Path) -> str:
    """A secret generated once per checkout and kept in a git-ignored file, for a site that
    serves only this machine."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = get_random_secret_key()
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key


# Off unless asked for: DEBUG shows tracebacks and the URL patterns to anyone who can reach the
# site, so only `./scripts/run` (a development server) turns it on.
DEBUG = envbool("DEBUG", False)

# Without ALLOWED_HOSTS the site answers only this machine's names, so a secret generated once
# for this checkout is enough. A site serving other hosts needs a real one, the same in every
# worker.
LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", LOCAL_HOSTS)
if _raw("SECRET_KEY") is not None:
    SECRET_KEY = envstr("SECRET_KEY")
elif DEBUG or _raw("ALLOWED_HOSTS") is None:
    SECRET_KEY = _dev_secret_key(BASE_DIR / ".dev-secret")
else:
    raise ImproperlyConfigured("SECRET_KEY must be set when ALLOWED_HOSTS is (and DEBUG is off)")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])


def envheader(name: str) -> tuple[str, str] | None:
    """SECURE_PROXY_SSL_HEADER from ``X-Forwarded-Proto`` (the value defaults to ``https``) or
    ``X-Forwarded-Ssl=on``: the header a TLS proxy sets on every request it forwarded over TLS."""
    value = _raw(name)
    if value is None:
        return None
    header, _, secure = value.partition("=")
    header, secure = header.strip(), secure.strip() or "https"
    if not re.fullmatch(r"[A-Za-z0-9-]+", header):
        raise ImproperlyConfigured(f"{name} must be a header name, e.g. X-Forwarded-Proto")
    return "HTTP_" + header.upper().replace("-", "_"), secure


# HTTPS. Behind a TLS proxy, SECURE_PROXY_SSL_HEADER tells Django which requests came over TLS
# (request.is_secure(): Secure seat-key cookies, the websockets' origin scheme); set it only if
# the proxy always sets or strips that header, since a client could send it too.
SECURE_PROXY_SSL_HEADER = envheader("SECURE_PROXY_SSL_HEADER")


def envnetworks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """A comma-separated list of addresses or networks (``127.0.0.1``, ``10.0.0.0/8``)."""
    try:
        return [ipaddress.ip_network(item, strict=False) for item in envlist(name, [])]
    except ValueError as bad:
        raise ImproperlyConfigured(f"{name} must list addresses or networks: {bad}") from None


# The reverse proxies in front of the workers (nginx: scripts/serve, docs/deploy.md). Once set,
# only a request from one of them has its client's address read from X-Forwarded-For, and only
# they may send the X-Forwarded-* headers at all (ginsite.serving.proxy); unset, X-Forwarded-For
# is never read and the headers pass as they came.
TRUSTED_PROXIES = envnetworks("TRUSTED_PROXIES")
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
# Load balancers probe the health check over plain HTTP, straight at a worker.
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
# The session, CSRF and language cookies are sent over HTTPS only.
SECURE_COOKIES = envbool("SECURE_COOKIES", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SECURE_COOKIES

INSTALLED_APPS = [
    # daphne first, so that `manage.py runserver` serves ASGI (http and websockets).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    # The JSON API; listed for its vendored Swagger UI (no CDN at run time).
    "ninja",
    "allauth",
    "allauth.account",
    # Counts failed sign-ins per name, for the site's form and the admin's alike.
    "axes",
    # /health/ (its page template; the checks are listed in ginsite.health).
    "health_check",
    "games",
    "lobby",
    # Reports and moderation (docs/moderation.md): an app of its own, label "moderation".
    "lobby.moderation",
    # Bea while you wait in the pool (docs/playnow.md): label "playnow".
    "lobby.playnow",
    # Arenas, tournaments with a start time (docs/arenas.md): label "arena".
    "lobby.arena",
    # Apps that sign a player in (OAuth 2.0 with PKCE): the toolkit's models and endpoints,
    # and the room that puts them to use (lobby/oauth: consent page, Settings, register_app).
    "oauth2_provider",
    "lobby.oauth",
]

MIDDLEWARE = [
    # Outermost: one line per request with the final status and the whole time taken.
    "ginsite.serving.requestlog.RequestLogMiddleware",
    # A stream (the NDJSON events) holds no database connection: second, so that nothing but
    # the request log sees the response after it.
    "ginsite.middleware.StreamingConnectionsMiddleware",
    # A request that found no free database connection is told to retry (503), not failed.
    "ginsite.middleware.BusyDatabaseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every answer under /api/ is JSON; no NUL character gets as far as a view (or a query).
    "ginsite.middleware.ApiErrorsMiddleware",
    "ginsite.middleware.NulGuardMiddleware",
    # Outside the session's: sees the cookies it and the key rotation set on the answer.
    "ginsite.middleware.PrivateAnswersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The guest and owner keys replaced at sign-up and sign-out go out with the answer.
    "games.access.RotatedKeysMiddleware",
    # After authentication: a repeated Idempotency-Key is answered per player.
    "lobby.events.idempotency.IdempotencyMiddleware",
    # Last, as axes asks: turns a locked-out sign-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ginsite.urls"
ASGI_APPLICATION = "ginsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% partialdef %} everywhere without {% load partials %}, as in Django 6 core.
            "builtins": ["template_partials.templatetags.partials"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite by default, PostgreSQL (or anything dj-database-url knows) from DATABASE_URL.
DATABASE_URL = envstr("DATABASE_URL")
# PostgreSQL connections per worker process. Every request in flight holds one, so without a cap
# a burst of requests (or of workers) runs into PostgreSQL's max_connections and fails with
# "too many clients". The pool keeps at most DB_POOL_MAX per process; a request that finds none
# free waits up to DB_POOL_TIMEOUT seconds. DB_POOL_MAX=0 turns the pool off (one connection per
# request, kept for CONN_MAX_AGE seconds).
DB_POOL_MIN = envint("DB_POOL_MIN", 2)
DB_POOL_MAX = envint("DB_POOL_MAX", 20)
DB_POOL_TIMEOUT = envint("DB_POOL_TIMEOUT", 10)
# HTTP requests each process runs at once, each on a long-lived thread (ginsite.serving.lanes); more
# wait their turn, on the event loop, holding no thread. Few: one interpreter runs one thread at a
# time, and twenty lanes sharing it with the loop made every request slow under load instead of
# some wait (pg2 at 150 matches, a move's push p95 51 ms with 4 lanes, 243 ms with 20; 500 players
# pressing "Play now" paired in 6.5 s, 8.8 s with 20; docs/performance.md, issue 45). Fewer than
# the pool's connections, which the sockets' and the sweep's threads use too.
HTTP_LANES = envint("HTTP_LANES", min(4, DB_POOL_MAX or 4))
# Requests that hash a password (signing in or up, a new password, an app's token, the admin's
# sign-in) take lanes of their own, so that a burst of them never holds the moves' lanes.
HTTP_SLOW_LANES = envint("HTTP_SLOW_LANES", 2)
HTTP_SLOW_PATHS = ("/accounts/", "/oauth/token/", "/admin/login/", "/settings/sign-out-elsewhere")
if min(HTTP_LANES, HTTP_SLOW_LANES) < 1:
    raise ImproperlyConfigured("HTTP_LANES and HTTP_SLOW_LANES must be at least 1")
if DATABASE_URL:
    _db = dj_database_url.parse(
        DATABASE_URL,
        # Django advises against persistent connections under ASGI (each request may run on a
        # different thread), so the default is 0; the pool, when on, needs 0.
        conn_max_age=envint("CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
    if _db["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX > 0:
        if _db["CONN_MAX_AGE"]:
            raise ImproperlyConfigured(
                "CONN_MAX_AGE must be 0 with the connection pool (or set DB_POOL_MAX=0)"
            )
        if not 0 <= DB_POOL_MIN <= DB_POOL_MAX or DB_POOL_TIMEOUT <= 0:
            raise ImproperlyConfigured(
                "DB_POOL_MIN must be 0 to DB_POOL_MAX, and DB_POOL_TIMEOUT more than 0"
            )
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": DB_POOL_MIN,
            "max_size": DB_POOL_MAX,
            "timeout": DB_POOL_TIMEOUT,
        }
    DATABASES = {"default": _db}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "db.sqlite3"),
            # ASGI serves requests from several threads, each with its own connection. WAL lets
            # them read while one writes; IMMEDIATE takes the write lock when a transaction
            # begins, so a second writer waits (up to the timeout, in seconds) instead of
            # failing with "database is locked" when it tries to upgrade a read lock.
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
            # Opening a SQLite connection (and its pragmas) was a tenth of a move's server
            # time: each thread keeps its own (the sync thread and the sockets' pool threads).
            "CONN_MAX_AGE": envint("CONN_MAX_AGE", 60),
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: in-process by default, Redis from REDIS_URL.
REDIS_URL = envstr("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group send is one PUBLISH, and each process holds one
            # subscription for all its sockets. The core layer spent four round trips on each
            # group send (expiry sweeps, the members, a script) and a blocking pop per process
            # on the receiving side (docs/performance.md, 2026-12-02 morning). Delivery is at
            # most once and in order, which is all a push is here: every event is stored first,
            # and a stream that misses a wake-up reads what it missed at its next one or at its
            # keep-alive. ``ginsite.lib.channel_reader`` keeps a waiting stream's channel
            # subscribed, and ``ginsite.serving.channel_layer`` sends a commit's messages in one
            # pipeline.
            "BACKEND": "ginsite.serving.channel_layer.PubSubChannelLayer",
            # Reads may wait longer than redis-py's 5 s default; a dead server still shows
            # through the health checks and TCP keepalive.
            "CONFIG": {
                # Redis's pub/sub channels are one namespace for the whole server, whatever the
                # database in REDIS_URL: two sites (or test workers) on one Redis need prefixes
                # of their own, or each hears the other's pushes to its players' groups.
                "prefix": envstr("CHANNEL_PREFIX", "asgi"),
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                        "health_check_interval": 15,
                    }
                ],
            },
        }
    }
    CACHES = {
        "default": {
            # One connection pool per process, not one per request (ginsite.serving.rediscache).
            "BACKEND": "ginsite.serving.rediscache.SharedRedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out name before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# Accounts: a username to sign in with, and an e-mail address (required at sign-up, added in
# Settings by older accounts) verified by a link. An unverified account plays casual matches at
# once ("optional"); rated play, reports and arenas ask for a verified address
# (lobby.accounts.emails.has_verified_email). docs/accounts.md says who could misuse e-mail
# and what stops each.
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# One address per account; a change takes effect when the new address confirms its link, and
# the old address is told (ACCOUNT_EMAIL_NOTIFICATIONS), as it is of a new password.
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_MAX_EMAIL_ADDRESSES = 2
ACCOUNT_EMAIL_NOTIFICATIONS = True
# Adding or changing the address asks for the password again once a sign-in is 5 minutes old.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
# "strict": sign-up and Settings accept an address another account holds unverified, and say
# nothing of it, so neither tells anyone which addresses have accounts; only one account can
# ever verify an address (allauth refuses the second), so nobody can squat on someone's address.
ACCOUNT_PREVENT_ENUMERATION = "strict"
# A reset or sign-in code asked for an address without an account sends nothing at all.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
# The link shows a page with a button: a mail scanner that opens links confirms nothing.
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_EMAIL_CONFIRMATION_AUTHENTICATED_REDIRECT_URL = "/settings/"
# Sign-in by a code mailed to the account's verified address: the way in for a player whose
# name is locked against password guessing (ginsite.logins, templates/account/lockout.html).
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SECURE_SSL_REDIRECT else "http"
ACCOUNT_ADAPTER = "lobby.accounts.adapter.AccountAdapter"
# Sign-up also asks for the display name other players see; a reset or a sign-in code goes
# only to a verified address.
ACCOUNT_FORMS = {
    "signup": "lobby.accounts.profile_forms.SignupForm",
    "reset_password": "lobby.accounts.forms.ResetPasswordForm",
    "request_login_code": "lobby.accounts.forms.RequestLoginCodeForm",
}
ACCOUNT_USER_DISPLAY = "lobby.models.display_name_of"
# New accounts one client address may make per window (allauth counts an IPv6 client's /64):
# a throw-away account per rated win is what made rating farms cheap (issue 39).
SIGNUP_LIMIT_PER_ADDRESS = envint("SIGNUP_LIMIT_PER_ADDRESS", 3)
SIGNUP_LIMIT_WINDOW = envint("SIGNUP_LIMIT_WINDOW", 3600)
if SIGNUP_LIMIT_PER_ADDRESS < 1 or SIGNUP_LIMIT_WINDOW < 1:
    raise ImproperlyConfigured(
        "SIGNUP_LIMIT_PER_ADDRESS and SIGNUP_LIMIT_WINDOW must be at least 1"
    )
# allauth's rate limits, in its own notation (amount/window/per ip, user or key = the address).
# Password guessing: allauth limits failures per address on the site's form; its per-name limit
# is left out, because its key includes the Host header (a new port per attempt evaded it).
# Mail to one address (a reset, a sign-in code, the link sent again) is limited per address, so
# nobody can flood someone's mailbox through the site.
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip",
    "signup": "20/m/ip",
    "new_account": f"{SIGNUP_LIMIT_PER_ADDRESS}/{SIGNUP_LIMIT_WINDOW}s/ip",
    "reset_password": "20/m/ip,3/h/key",
    "request_login_code": "20/m/ip,3/h/key",
    "confirm_email": "1/3m/key,10/d/key",
    "manage_email": "10/m/user",
}
# django-axes locks a name out on the site's form and the admin's, counted in the shared cache
# per normalised name: after LOGIN_FAILURE_LIMIT failures from one client address (there only),
# and after LOGIN_NAME_FAILURE_LIMIT from anywhere (ginsite.logins), for LOGIN_LOCKOUT_MINUTES
# after the last failure (a failure while locked out starts the wait again). A lockout per name
# alone at 5 let anyone lock any player out.
AXES_HANDLER = "ginsite.logins.NameAndAddressLockout"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "ginsite.logins.username"
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
LOGIN_NAME_FAILURE_LIMIT = envint("LOGIN_NAME_FAILURE_LIMIT", 50)
if AXES_FAILURE_LIMIT < 1 or LOGIN_NAME_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    raise ImproperlyConfigured(
        "LOGIN_FAILURE_LIMIT must be at least 1 and LOGIN_NAME_FAILURE_LIMIT at least as high"
    )
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_CALLABLE = "ginsite.logins.lockout_response"
# The cache handler keeps nothing in the database for the admin to show.
AXES_ENABLE_ADMIN = False
# No start-up banner on every management command.
AXES_VERBOSE = False
# Its log lines leave out the key of a verification or password reset link.
AXES_CLIENT_STR_CALLABLE = "ginsite.logins.client_str"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# Apps signing players in (lobby/oauth, docs/api.md "For app developers"): authorization code
# with PKCE only (public clients, no secret), the scopes lobby.oauth.scopes describes, tokens
# the API tells apart by their prefix. An access token lasts an hour; the refresh token, rotated
# at each use, until the player revokes the app. A refresh token used twice ends the whole
# family (it leaked). A loopback redirect (http://127.0.0.1/...) may name any port (RFC 8252).
# Which redirect URIs an app may have (https, a loopback, a phone app's private-use scheme) is
# lobby.oauth.redirects, checked by register_app and the consent page; the toolkit's one list of
# schemes below is what its admin form accepts.
OAUTH2_PROVIDER = {
    "SCOPES": {"read": "read", "play": "play", "lobby": "lobby"},
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": envint("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ACCESS_TOKEN_GENERATOR": "lobby.oauth.access.access_token",
    "REFRESH_TOKEN_GENERATOR": "lobby.oauth.access.refresh_token",
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    # Each time: the player sees what an app asks for before it gets a token.
    "REQUEST_APPROVAL_PROMPT": "force",
    # RFC 9700 (OAuth 2.0 Security BCP) now rather than in the toolkit's 4.0: no implicit or
    # password grant, PKCE "S256" only, tokens never from a query string, the issuer in the
    # authorization response, tokens stored by checksum.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    # What the metadata (/.well-known/oauth-authorization-server) tells an app's OAuth library:
    # the two grants an app uses, and no client secret (a public client sends its client_id).
    # The toolkit's defaults name grants and secrets no app here has.
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none"],
}
# "http" redirect URIs stay allowed for the loopback callbacks of native apps and ginclient
# (http://127.0.0.1:<port>/..., RFC 8252 §7.3, which RFC 9700 keeps); the toolkit warns of any.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

# Mail: EMAIL_URL (ginsite.email_url) says where it goes; ./scripts/run prints it (console://),
# the tests keep it in memory (locmem://). A public site sets an SMTP URL.
EMAIL_URL = envstr("EMAIL_URL", "console://")
_mail = email_url.parse(EMAIL_URL)
EMAIL_BACKEND = _mail["EMAIL_BACKEND"]
EMAIL_HOST, EMAIL_PORT = _mail["EMAIL_HOST"], _mail["EMAIL_PORT"]
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _mail["EMAIL_HOST_USER"], _mail["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS, EMAIL_USE_SSL = _mail["EMAIL_USE_TLS"], _mail["EMAIL_USE_SSL"]
# A mail server that stops answering holds up only the request sending, and not for long.
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Gin Rummy <gin@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The JSON API: requests per player (all their tokens and their session together) in each
# window of seconds; and invalid tokens per client address in the same window, after which
# that address may send no token until the window ends.
API_RATE_LIMIT = envint("API_RATE_LIMIT", 300)
API_RATE_WINDOW = envint("API_RATE_WINDOW", 60)
API_AUTH_FAILURE_LIMIT = envint("API_AUTH_FAILURE_LIMIT", 20)
# Challenges (site and API alike) one player may send, and one player may receive from
# everyone, in each window of seconds: a challenge and its cancellation reach the challenged
# player as two events, so without a cap one script can flood a player's lobby and streams.
CHALLENGE_LIMIT_PER_SENDER = envint("CHALLENGE_LIMIT_PER_SENDER", 5)
CHALLENGE_LIMIT_PER_TARGET = envint("CHALLENGE_LIMIT_PER_TARGET", 10)
CHALLENGE_LIMIT_WINDOW = envint("CHALLENGE_LIMIT_WINDOW", 60)
# New matches against Bea (site and API) one player (an account, or a guest's key) may start,
# and guests may start from one client address, in each window of seconds: each is stored for
# as long as its player may come back (30 days for a guest), and every fresh browser is a new
# guest (games.bea.limits).
BEA_MATCH_LIMIT_PER_PLAYER = envint("BEA_MATCH_LIMIT_PER_PLAYER", 10)
BEA_MATCH_LIMIT_PER_ADDRESS = envint("BEA_MATCH_LIMIT_PER_ADDRESS", 20)
BEA_MATCH_LIMIT_WINDOW = envint("BEA_MATCH_LIMIT_WINDOW", 600)
# "Play now" with nobody to pair: Bea is offered after this many seconds (docs/playnow.md).
PLAYNOW_BEA_AFTER = envint("PLAYNOW_BEA_AFTER", 8)
# Reports one player may send a day (site and API; docs/moderation.md, "Reports").
REPORT_LIMIT_PER_DAY = envint("REPORT_LIMIT_PER_DAY", 5)
if REPORT_LIMIT_PER_DAY < 1:
    raise ImproperlyConfigured("REPORT_LIMIT_PER_DAY must be at least 1")
# Lessons (games.lesson) one browser may start, and visitors without an account from one client
# address, in each window of seconds: each is a match stored for a day (games.bea.limits).
LESSON_LIMIT_PER_BROWSER = envint("LESSON_LIMIT_PER_BROWSER", 10)
LESSON_LIMIT_PER_ADDRESS = envint("LESSON_LIMIT_PER_ADDRESS", 20)
LESSON_LIMIT_WINDOW = envint("LESSON_LIMIT_WINDOW", 600)
# Player searches (page, lobby box and API together) one player, and one client address, may
# make in each window of seconds: without a cap a script lists every account by walking the
# two-letter prefixes (lobby.people.friends).
SEARCH_LIMIT_PER_PLAYER = envint("SEARCH_LIMIT_PER_PLAYER", 20)
SEARCH_LIMIT_PER_ADDRESS = envint("SEARCH_LIMIT_PER_ADDRESS", 60)
SEARCH_LIMIT_WINDOW = envint("SEARCH_LIMIT_WINDOW", 60)
# Bea's reviews of finished hands (games.review.budget): hands judged for one reader (an
# account, else an address) in each window of seconds, at most per request, and at once on
# the whole site. Each judged hand is a second or so of one core; a judged hand is stored.
REVIEW_LIMIT_PER_READER = envint("REVIEW_LIMIT_PER_READER", 30)
REVIEW_LIMIT_WINDOW = envint("REVIEW_LIMIT_WINDOW", 600)
REVIEW_HANDS_PER_REQUEST = envint("REVIEW_HANDS_PER_REQUEST", 6)
# After its first hand, a request judges no more once it has judged for this many seconds.
REVIEW_SECONDS_PER_REQUEST = envint("REVIEW_SECONDS_PER_REQUEST", 2)
REVIEW_AT_ONCE = envint("REVIEW_AT_ONCE", 1)
if min(REVIEW_LIMIT_PER_READER, REVIEW_HANDS_PER_REQUEST, REVIEW_AT_ONCE) < 1:
    raise ImproperlyConfigured(
        "REVIEW_LIMIT_PER_READER, REVIEW_HANDS_PER_REQUEST and REVIEW_AT_ONCE must be at least 1"
    )
_WINDOWS = (
    API_RATE_WINDOW,
    CHALLENGE_LIMIT_WINDOW,
    BEA_MATCH_LIMIT_WINDOW,
    LESSON_LIMIT_WINDOW,
    SEARCH_LIMIT_WINDOW,
    REVIEW_LIMIT_WINDOW,
)
if min(_WINDOWS) <= 0:
    raise ImproperlyConfigured(
        "API_RATE_WINDOW, CHALLENGE_LIMIT_WINDOW, BEA_MATCH_LIMIT_WINDOW, LESSON_LIMIT_WINDOW, "
        "SEARCH_LIMIT_WINDOW and REVIEW_LIMIT_WINDOW must be more than 0"
    )

# Web Push (README, "Configuration"): the site signs its pushes with this VAPID private key
# (base64url, from `python manage.py make_vapid_keys`); the public key browsers subscribe with
# is derived from it. Without one, no push is sent and Settings says notifications are off.
VAPID_PRIVATE_KEY = envstr("VAPID_PRIVATE_KEY")
VAPID_SUBJECT = envstr("VAPID_SUBJECT", "mailto:admin@localhost")
# Pushes go to these hosts only, the browsers' push services (lobby/webpush/endpoints.py: a
# subscriber chooses the URL the server posts to). "*.": any name below that domain.
PUSH_SERVICE_HOSTS = envlist(
    "PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "push.services.mozilla.com",
        "*.push.apple.com",
        "*.notify.windows.com",
    ],
)
_PUSH_HOST = r"(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]([a-z0-9-]*[a-z0-9])?"
if not all(re.fullmatch(_PUSH_HOST, host) for host in PUSH_SERVICE_HOSTS):
    raise ImproperlyConfigured(
        "PUSH_SERVICE_HOSTS must be host names in lower case, e.g. fcm.googleapis.com or "
        "*.notify.windows.com (no address, port or scheme)"
    )
# Only the tests set this (with 127.0.0.1 among the hosts): their push-service stand-in
# listens on plain http on loopback. Never from the environment, so no deployment can
# open loopback to pushes.
PUSH_ALLOW_LOOPBACK_HTTP = False
# Seconds to wait before each retry of a push the service answered 5xx, 429 or not at all.
PUSH_RETRY_DELAYS = (1.0, 5.0, 30.0)

# Bea's pause before each of her actions, in milliseconds: what a player sees as her thinking.
BEA_PAUSE_MS = envint("BEA_PAUSE_MS", 700)
# Each server process sweeps the outbox for changes whose process died before announcing them.
OUTBOX_SWEEP = envbool("OUTBOX_SWEEP", True)

# Internationalisation
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files: served by WhiteNoise; hashed and compressed once DEBUG is off (needs collectstatic).
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # When, which worker process, how bad, from where: lines of several workers can be told apart.
    "formatters": {
        "plain": {"format": "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"}
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "filters": {"cleanup_cut_short": {"()": "ginsite.serving.channel_layer.CleanupCutShort"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's default "django" handler would print every record a second time via the root.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # One line per request (ginsite.serving.requestlog); LOG_REQUESTS=0 turns them off.
        "ginsite.requests": {
            "handlers": [],
            "level": "NOTSET" if envbool("LOG_REQUESTS", True) else "WARNING",
            "propagate": True,
        },
        # A worker's stop cancels each socket's channel cleanup: one line, not a traceback each.
        "channels_redis.pubsub": {"filters": ["cleanup_cut_short"], "propagate": True},
    },
}
