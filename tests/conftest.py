from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Put a SQLite test database in a file of this run's own, never in memory.

    Django's in-memory test database is shared between connections in SQLite's shared-cache
    mode, which locks whole tables across connections, so a server thread reading while the
    test writes fails with "database table is locked". In a file (with the WAL journal and
    busy timeout from settings) each thread has its own connection, as in production. The
    directory is new for every run (and every xdist worker), so runs never share a file.
    """
    from django.conf import settings

    for alias, db in settings.DATABASES.items():
        if db["ENGINE"] == "django.db.backends.sqlite3":
            db.setdefault("TEST", {})
            db["TEST"]["NAME"] = str(tmp_path_factory.mktemp("db") / f"test_{alias}.sqlite3")
            # A throwaway database needs no fsync on every commit, which costs the suite minutes.
            options = db.setdefault("OPTIONS", {})
            pragmas = [options["init_command"]] if options.get("init_command") else []
            options["init_command"] = "; ".join([*pragmas, "PRAGMA synchronous=OFF"])


def _make_user(django_user_model: type[User], username: str) -> User:
    return django_user_model.objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def password() -> str:
    """The password every fixture user logs in with."""
    return PASSWORD


@pytest.fixture
def alice(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "carol")
