"""Lighthouse at a phone's size on the home page, the lobby and a table:
``python -m bench.lighthouse --lighthouse PATH [--runs N] [--write docs/lighthouse.md]``.

``./scripts/lighthouse`` installs Lighthouse (the npm package, an exact version) and runs this;
it is not part of ``./scripts/test``. It starts the site as a deploy runs it: DEBUG off, the
static files collected (WhiteNoise's hashed names), daphne on a loopback port, a SQLite file in
a temporary directory. It makes one player with a session and a match against Bea, then runs
Lighthouse (its default mobile emulation and simulated throttling, Debian's Chromium, headless)
``--runs`` times per page, signed in by a Cookie header, and keeps the run with the median
performance score. The lobby and the table are pages of a signed-in player, so the home page
is measured signed in too (what a returning player gets).

Lighthouse 12 has no PWA category any more (its installability audit went with it in 12.0),
so installability is asked of Chromium itself, as that audit did: ``Page.getInstallabilityErrors``
and ``Page.getAppManifest`` over the DevTools protocol, in a browser profile on disk (Chromium
never offers an install in a private one), once the service worker controls the page.

It prints a Markdown summary and, with ``--write``, puts it between the results markers of
that file. The reports go to ``test-artifacts/lighthouse/`` (git-ignored). It never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness.configs import SQLITE_OPTIONS, base_env
from bench.harness.pacing import say
from bench.harness.servers import Server
from tests.browser.conftest import CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "test-artifacts" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
# Headless, and the browser tests' flags: no sandbox as root, nothing calling home.
CHROMIUM_FLAGS = ["--headless", *CHROMIUM_ARGS]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    ("first-contentful-paint", "FCP"),
    ("largest-contentful-paint", "LCP"),
    ("total-blocking-time", "TBT"),
    ("cumulative-layout-shift", "CLS"),
    ("speed-index", "SI"),
)
START, END = "<!-- lighthouse results: start -->", "<!-- lighthouse results: end -->"


@dataclass
class Page:
    name: str
    path: str


@dataclass
class Measured:
    page: Page
    report: dict[str, Any]
    runs: list[float]
    installable: dict[str, Any]


# --- The site ------------------------------------------------------------------------------------


def site_env(workdir: Path) -> dict[str, str]:
    env = base_env()
    env["DATABASE_URL"] = f"sqlite:///{workdir}/db.sqlite3?{SQLITE_OPTIONS}"
    env.setdefault("CONN_MAX_AGE", "60")
    env["LOG_REQUESTS"] = "0"
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def make_player(env: dict[str, str]) -> tuple[str, str]:
    """A player signed in (their session cookie's value) with a match against Bea (its path).
    Run in this process with the server's settings, so the session is the server's too."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client

    from games import services
    from lobby.models import ensure_profile

    user = User.objects.create_user("lighthouse", password=os.urandom(16).hex())
    profile = ensure_profile(user)
    profile.display_name = "Lighthouse"
    profile.save()
    match = services.start_bea_match(user, "standard", 100, "easy", replace_running=True)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value, f"/games/{match.public_id}/"


@contextmanager
def served(env: dict[str, str], workdir: Path) -> Iterator[str]:
    server = Server.start("site", "ginsite.asgi:application", env, workdir)
    try:
        asyncio.run(server.wait_ready("/health/"))
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


# --- Lighthouse and Chromium ---------------------------------------------------------------------


def lighthouse(binary: str, url: str, profile: Path, output: Path) -> dict[str, Any]:
    command = [
        binary,
        url,
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        # The profile holding the player's session cookie: after chrome-launcher's own
        # --user-data-dir, so Chromium takes it.
        f"--chrome-flags={' '.join([*CHROMIUM_FLAGS, f'--user-data-dir={profile}'])}",
        "--quiet",
    ]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    return json.loads(output.read_text())


def signed_in_profile(profile: Path, base: str, cookie: str) -> None:
    """A Chromium profile on disk holding the player's session cookie. Lighthouse's
    ``--extra-headers`` would send it with every HTTP request but not with the websocket
    handshake, and a page whose socket is refused (403) is not the page a player gets.
    Lighthouse clears the origin's caches and service workers before each run, not cookies."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_FLAGS[1:]
        )
        context.add_cookies([session_cookie(base, cookie)])
        context.close()


def session_cookie(base: str, value: str) -> dict[str, Any]:
    # With an expiry, so that Chromium keeps it on disk (as Django's own cookie has one).
    return {"name": "sessionid", "value": value, "url": base, "expires": time.time() + 86400}


def score(report: dict[str, Any], category: str) -> int:
    return round(100 * (report["categories"][category]["score"] or 0))


def installability(base: str, paths: list[str], cookie: str) -> dict[str, dict[str, Any]]:
    """What Chromium says of each page: installability errors, manifest errors, whether the
    worker controls the page after a reload."""
    from playwright.sync_api import sync_playwright

    found = {}
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_FLAGS[1:],
            viewport={"width": 412, "height": 823},
            is_mobile=True,
        )
        context.add_cookies([session_cookie(base, cookie)])
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        for path in paths:
            page.goto(base + path)
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.reload()
            manifest = cdp.send("Page.getAppManifest")
            found[path] = {
                "errors": [
                    e["errorId"]
                    for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
                ],
                "manifest_errors": [e["message"] for e in manifest.get("errors", [])],
                "manifest": manifest.get("url", ""),
                "controlled": page.evaluate("!!navigator.serviceWorker.controller"),
            }
        context.close()
    return found


# --- The summary ---------------------------------------------------------------------------------


def failing_audits(report: dict[str, Any]) -> list[str]:
    """The audits of the measured categories that did not pass, with Lighthouse's title."""
    audits = report["audits"]
    seen: list[str] = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref.get("weight", 0) == 0 and category != "performance":
                continue
            if audit["scoreDisplayMode"] in ("binary", "numeric", "metricSavings") and (
                audit["score"] is not None and audit["score"] < 0.9
            ):
                label = f"{category}: `{ref['id']}` ({audit['title']})"
                if label not in seen:
                    seen.append(label)
    return seen


def summary(results: list[Measured], lighthouse_version: str, chromium: str, runs: int) -> str:
    lines = [
        f"Lighthouse {lighthouse_version}, {chromium}, mobile emulation (Lighthouse's default: "
        f"a mid-range phone, simulated slow 4G and a 4x slower CPU), the median of {runs} "
        f"run(s) per page by performance score; measured {time.strftime('%Y-%m-%d')}.",
        "",
        "| page | performance | accessibility | best practices | SEO | installable |"
        + "".join(f" {short} |" for _id, short in METRICS),
        "|---|---|---|---|---|---|" + "---|" * len(METRICS),
    ]
    for m in results:
        audits = m.report["audits"]
        ok = not m.installable["errors"] and not m.installable["manifest_errors"]
        installable = "yes" if ok and m.installable["controlled"] else "**no**"
        scores = " | ".join(str(score(m.report, c)) for c in CATEGORIES)
        metrics = "".join(f" {audits[i]['displayValue']} |" for i, _short in METRICS)
        lines.append(f"| {m.page.name} | {scores} | {installable} |{metrics}")
    lines += [
        "",
        "Performance scores of every run: "
        + "; ".join(f"{m.page.name} {', '.join(str(round(r)) for r in m.runs)}" for m in results)
        + ".",
    ]
    lines += ["", "Installability (Chromium's own check, `Page.getInstallabilityErrors`):", ""]
    for m in results:
        i = m.installable
        lines.append(
            f"- {m.page.name}: errors {i['errors'] or 'none'}, manifest errors "
            f"{i['manifest_errors'] or 'none'}, manifest `{i['manifest'].rsplit('/', 1)[-1]}`, "
            f"service worker controls the page: {'yes' if i['controlled'] else 'no'}"
        )
    lines += ["", "Audits below 90 (the median run):", ""]
    for m in results:
        failing = failing_audits(m.report)
        lines.append(f"- {m.page.name}: " + ("; ".join(failing) if failing else "none"))
    return "\n".join(lines)


def write_between_markers(path: Path, text: str) -> None:
    document = path.read_text()
    head, _, rest = document.partition(START)
    _, _, tail = rest.partition(END)
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}")


# --- Main ----------------------------------------------------------------------------------------


def measure(
    binary: str, base: str, page: Page, profile: Path, runs: int
) -> tuple[dict[str, Any], list[float]]:
    reports = []
    for i in range(runs):
        say(f"lighthouse {page.name} ({base}{page.path}), run {i + 1} of {runs}")
        slug = page.name.split()[0].lower()
        reports.append(
            lighthouse(binary, base + page.path, profile, REPORTS / f"{slug}-{i + 1}.json")
        )
    performance = [100 * (r["categories"]["performance"]["score"] or 0) for r in reports]
    median = statistics.median_low(performance)
    return reports[performance.index(median)], performance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", required=True, help="the lighthouse command")
    parser.add_argument("--runs", type=int, default=3, help="runs per page (median kept)")
    parser.add_argument("--write", type=Path, help="a Markdown file with the results markers")
    args = parser.parse_args()
    REPORTS.mkdir(parents=True, exist_ok=True)
    version = subprocess.run(
        [args.lighthouse, "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()
    chromium = subprocess.run(
        [CHROMIUM, "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        workdir = Path(tmp)
        env = site_env(workdir)
        say("migrating and collecting the static files (DEBUG off: hashed names)")
        manage(env, "migrate", "-v0")
        manage(env, "collectstatic", "--noinput", "-v0")
        cookie, table = make_player(env)
        pages = [
            Page("Home (signed in)", "/"),
            Page("Lobby", "/lobby/"),
            Page("Table (against Bea)", table),
        ]
        with served(env, workdir) as base:
            profile = workdir / "profile"
            signed_in_profile(profile, base, cookie)
            measured = {
                p.path: measure(args.lighthouse, base, p, profile, args.runs) for p in pages
            }
            say("installability in Chromium")
            installable = installability(base, [p.path for p in pages], cookie)
    results = [Measured(p, *measured[p.path], installable[p.path]) for p in pages]
    text = summary(results, version, chromium, args.runs)
    print(text)
    if args.write:
        write_between_markers(args.write, text)
        say(f"wrote the results into {args.write}")


if __name__ == "__main__":
    main()
