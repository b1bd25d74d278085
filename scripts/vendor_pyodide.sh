#!/usr/bin/env bash
# Pyodide for playing Bea offline (docs/offline.md): CPython compiled to WebAssembly, from the
# npm registry, pinned and checked against the registry's integrity digest, unpacked into
# static/vendor/pyodide/ (gitignored: 13 MB that the repository need not carry) with its
# licence. Only the files a browser needs to run the engine are kept. The browser fetches them
# only when a player first chooses offline play (static/js/offline-bea.js). Idempotent: does
# nothing when that version is there already. Needs npm (Debian's, or any).
set -euo pipefail

PYODIDE_VERSION=314.0.8
PYODIDE_INTEGRITY="sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/static/vendor/pyodide"
FILES=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json)

if [[ "$(cat "$DEST/VERSION" 2>/dev/null || true)" == "$PYODIDE_VERSION" ]] \
    && ! grep -q "cdn.jsdelivr.net" "$DEST/pyodide.mjs" 2>/dev/null; then
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "==> npm is missing: Bea offline needs Pyodide (apt-get install npm), skipped" >&2
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "==> Fetching Pyodide $PYODIDE_VERSION from the npm registry (about 6 MB)"
(cd "$work" && npm pack --silent "pyodide@$PYODIDE_VERSION" >/dev/null)
tarball="$work/pyodide-$PYODIDE_VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [[ "$got" != "$PYODIDE_INTEGRITY" ]]; then
    echo "==> Pyodide's tarball does not match its pinned integrity digest: not installed" >&2
    exit 1
fi
tar -xzf "$tarball" -C "$work"
rm -rf "$DEST"
mkdir -p "$DEST"
for name in "${FILES[@]}"; do
    cp "$work/package/$name" "$DEST/$name"
done
# The loader's fallback for packages is jsDelivr's CDN. The page passes packageBaseUrl (its
# own copy) and loads no package, but no run-time path may lead to a CDN: the fallback is made
# the loader's own folder.
sed -i 's#https://cdn.jsdelivr.net/pyodide/v${U}/full/#./#' "$DEST/pyodide.mjs"
if grep -q "cdn.jsdelivr.net" "$DEST/pyodide.mjs"; then
    echo "==> Pyodide's loader still names a CDN: not installed" >&2
    rm -rf "$DEST"
    exit 1
fi
# Pyodide is under the Mozilla Public License 2.0 (its package.json says so; the package has
# no copy of the text, Debian has). CPython, inside python_stdlib.zip and the WebAssembly, is
# under the PSF License Agreement: Debian's copyright file of the standard library holds it.
cp /usr/share/common-licenses/MPL-2.0 "$DEST/LICENSE" 2>/dev/null \
    || echo "Mozilla Public License 2.0: https://mozilla.org/MPL/2.0/" > "$DEST/LICENSE"
python_copyright="$(ls /usr/share/doc/libpython3*-stdlib/copyright 2>/dev/null | tail -n 1 || true)"
if [[ -n "$python_copyright" ]]; then
    cp "$python_copyright" "$DEST/LICENSE.python"
else
    echo "CPython: PSF License Agreement, https://docs.python.org/3/license.html" \
        > "$DEST/LICENSE.python"
fi
cat > "$DEST/README" <<NOTE
Pyodide $PYODIDE_VERSION (https://pyodide.org), the npm package "pyodide", licence MPL-2.0
(LICENSE). Installed by scripts/vendor_pyodide.sh; integrity $PYODIDE_INTEGRITY.
NOTE
echo "$PYODIDE_VERSION" > "$DEST/VERSION"
echo "==> Pyodide $PYODIDE_VERSION in static/vendor/pyodide/ ($(du -sh "$DEST" | cut -f1))"
