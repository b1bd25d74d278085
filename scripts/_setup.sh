# Shared by scripts/run and scripts/test: sourced, not executed.
# Creates .venv if missing, installs the project (skipped while pyproject.toml is unchanged)
# and compiles translations when there are any.

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
STAMP="$VENV/.pyproject-stamp"

if [[ ! -x "$VENV/bin/python" ]]; then
    say "Creating virtual environment in .venv"
    python3 -m venv "$VENV"
fi
export PATH="$VENV/bin:$PATH"
export VIRTUAL_ENV="$VENV"

apt_updated=0
apt_install() {
    if [[ $apt_updated -eq 0 ]]; then
        say "Updating Debian package lists"
        apt-get update -qq
        apt_updated=1
    fi
    say "Installing Debian packages: $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
have="$(cat "$STAMP" 2>/dev/null || true)"
if [[ "$want" != "$have" ]]; then
    # PyICU (the confusables skeleton of players' names) is built against the system's ICU.
    if ! pkg-config --exists icu-i18n 2>/dev/null || ! command -v c++ >/dev/null; then
        if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
            apt_install libicu-dev pkg-config g++
        else
            say "PyICU needs libicu-dev, pkg-config and a C++ compiler; install them first"
        fi
    fi
    say "Installing dependencies (pip install -e '.[dev]'); this takes a minute the first time"
    python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
    echo "$want" > "$STAMP"
else
    say "Dependencies up to date (pyproject.toml unchanged)"
fi

# DejaVu Sans sets the results card's picture (games/results_card/image.py); without it the
# picture falls back on Pillow's own font, which has Latin letters only.
if [[ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] && [[ $(id -u) -eq 0 ]] \
    && command -v apt-get >/dev/null; then
    apt_install fonts-dejavu-core
fi

# nginx, in front of the workers in production (scripts/serve, docs/deploy.md) and in the tests
# that run the site through it (tests/browser/test_rolling_restart.py, test_behind_nginx.py,
# tests/site/test_nginx_config.py); openssl makes its self-signed certificate.
if { ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; } || ! command -v openssl >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        apt_install nginx openssl
    fi
fi

# Pyodide, for Bea offline: from the npm registry into static/vendor/pyodide/ (gitignored).
"$ROOT/scripts/vendor_pyodide.sh" || say "Pyodide not installed: Bea offline is unavailable"

compile_messages() {
    if [[ ! -d locale ]]; then
        return 0
    fi
    # The German catalogue needs gettext's msgfmt; install it where we may.
    if ! command -v msgfmt >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        apt_install gettext
    fi
    if ! command -v msgfmt >/dev/null; then
        say "Skipping compilemessages: gettext (msgfmt) is not installed; pages stay in English"
        return 0
    fi
    say "Compiling translations"
    python manage.py compilemessages --ignore=.venv --ignore=node_modules --verbosity 0
}
