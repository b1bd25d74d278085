"""A site started with nothing set shows no tracebacks: DEBUG is on only when asked for."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.envsettings import NAMES, load_settings


def test_it_reads_the_variables_the_settings_use() -> None:
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"} <= set(NAMES)


def test_it_runs_with_debug_off_when_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch)
    assert settings["DEBUG"] is False
    # Still starts: a generated secret, and only this machine's host names.
    assert len(settings["SECRET_KEY"]) >= 50
    assert settings["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]


def test_it_turns_debug_on_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(monkeypatch, DEBUG="1")["DEBUG"] is True


def test_it_wants_a_real_secret_once_it_serves_other_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, ALLOWED_HOSTS="gin.example")
    settings = load_settings(monkeypatch, ALLOWED_HOSTS="gin.example", SECRET_KEY="s" * 60)
    assert settings["SECRET_KEY"] == "s" * 60


def test_the_development_server_script_asks_for_debug() -> None:
    from tests.envsettings import SETTINGS_FILE

    script = (SETTINGS_FILE.parents[1] / "scripts" / "run").read_text()
    assert "export DEBUG=1" in script
    assert "DEVELOPMENT server" in script
