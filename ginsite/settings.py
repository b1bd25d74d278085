"""Settings for the Gin Rummy site, read from the environment.

With nothing set the site runs embedded: DEBUG on, SQLite, the in-memory channel layer and a
local-memory cache, all in one process. DATABASE_URL and REDIS_URL switch it to PostgreSQL and
Redis so that any number of ASGI workers can share one lobby.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.translation import gettext_lazy as _

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
    """A secret generated once per checkout and kept in a git-ignored file, for DEBUG only."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = get_random_secret_key()
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key


DEBUG = envbool("DEBUG", True)

if _raw("SECRET_KEY") is not None:
    SECRET_KEY = envstr("SECRET_KEY")
elif DEBUG:
    SECRET_KEY = _dev_secret_key(BASE_DIR / ".dev-secret")
else:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

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
    "games",
    "lobby",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After authentication: a repeated Idempotency-Key is answered per player.
    "lobby.idempotency.IdempotencyMiddleware",
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
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            # Django advises against persistent connections under ASGI (each request may run
            # on a different thread), so the default is 0; raise CONN_MAX_AGE deliberately.
            conn_max_age=envint("CONN_MAX_AGE", 0),
            conn_health_checks=True,
        )
    }
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
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: in-process by default, Redis from REDIS_URL.
REDIS_URL = envstr("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
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
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# Accounts: username and password only; no e-mail needed to play.
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
# Sign-up also asks for the display name other players see.
ACCOUNT_FORMS = {"signup": "lobby.forms.SignupForm"}
ACCOUNT_USER_DISPLAY = "lobby.models.display_name_of"
# Throttle password guessing (allauth counts failures in the cache: per IP and per username).
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# The JSON API: requests per token (or signed-in player) in each window of seconds.
API_RATE_LIMIT = envint("API_RATE_LIMIT", 300)
API_RATE_WINDOW = envint("API_RATE_WINDOW", 60)

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
STATIC_ROOT = BASE_DIR / "staticfiles"
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
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    # Django's default "django" handler would print every record a second time via the root.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
