# Shared by scripts/serve and scripts/test (sourced, run from the repository root).

# Fonts for printed sheets, so every name prints with real glyphs (Installed-Size, Debian 12):
#   fonts-dejavu-core     2.9 MB  Latin, Greek, Cyrillic, Hebrew, Arabic
#   fonts-lohit-deva      0.2 MB  Devanagari
#   fonts-tlwg-garuda-otf 0.3 MB  Thai
#   fonts-ipafont-gothic 12.2 MB  Japanese kanji and kana
#   fonts-wqy-microhei    5.1 MB  Chinese (simplified and traditional) and Hangul
#   fonts-symbola         3.1 MB  emoji and symbols, in black and white like the sheets
# (fonts-noto-core + fonts-noto-cjk would cover the same in 134 MB.) libharfbuzz-subset0 embeds only the
# glyphs a sheet uses.
SHEET_PACKAGES=(fonts-dejavu-core fonts-lohit-deva fonts-tlwg-garuda-otf fonts-ipafont-gothic fonts-wqy-microhei
                fonts-symbola libharfbuzz-subset0)

# What PyICU (names sorted as people sort them: ICU's collation) is built from on install: ICU's headers, pkg-config
# and a C++ compiler (Debian's libicu-dev, pkg-config, g++); only needed while .venv is being installed.
BUILD_PACKAGES=(libicu-dev pkg-config g++)

# missing_packages PKG... → prints the Debian packages not installed yet.
missing_packages() {
  local p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || printf '%s\n' "$p"; done
}

# apt_install MODE PKG...: install with apt-get as root or through sudo. MODE "must" fails without them;
# MODE "may" (scripts/serve) asks no password and only warns, since the app runs without them.
apt_install() {
  local mode=$1 sudo=""
  shift
  [ $# -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "warning: no apt-get here; install these (or the same fonts) by hand: $*" >&2
    [ "$mode" = may ] && return 0 || return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if [ "$mode" = may ]; then sudo="sudo -n"; else sudo="sudo"; fi
    if ! command -v sudo >/dev/null 2>&1 || { [ "$mode" = may ] && ! sudo -n true 2>/dev/null; }; then
      echo "warning: $* missing and no root: sheets still print, but some names may show as empty boxes." >&2
      echo "         Install them with: sudo apt-get install $*" >&2
      return 0
    fi
  fi
  echo "Installing Debian packages: $*"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null; }; then
    echo "warning: could not install $*." >&2
    [ "$mode" = may ] && return 0 || return 1
  fi
}

# venv_python → the Python a new .venv is made from: REFEREE_PYTHON when set; otherwise the distribution's own
# /usr/bin/python3 when it is 3.11 or newer, can make a virtual environment and has its headers (PyICU is built
# against them); otherwise python3. Debian and Ubuntu build their Python with profile-guided and link-time
# optimisation; on one built from source without them (pyenv's default) the tests' own Python ran 13-20 % slower
# and the whole suite took 409 s against 362 s (docs/performance.md, eleventh session). An existing .venv is kept as
# it was made (remove it to make it from another Python).
venv_python() {
  if [ -n "${REFEREE_PYTHON:-}" ]; then
    printf '%s\n' "$REFEREE_PYTHON"
  elif [ -x /usr/bin/python3 ] && /usr/bin/python3 -c '
import ensurepip, os, sys, sysconfig, venv
sys.exit(sys.version_info < (3, 11) or not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))
' 2>/dev/null; then
    printf '%s\n' /usr/bin/python3
  else
    printf '%s\n' python3
  fi
}

# python_env LOCK [LOCK...]: .venv with exactly the pinned packages of the first LOCK (hashes checked) and
# Referee itself (editable). Installs only when pyproject.toml or the lock changed since the last install
# (a stamp in .venv); otherwise it does nothing, so a start needs no network. Every further LOCK is one the
# first already satisfies (requirements-test.lock holds all of requirements.lock).
python_env() {
  local lock=$1 stamp=.venv/.referee-installed l missing=()
  key() { printf '%s %s\n' "$(cat pyproject.toml "$1" | sha256sum | cut -d' ' -f1)" "$1"; }
  if [ -x .venv/bin/python ] && [ -f "$stamp" ] && grep -qxF "$(key "$lock")" "$stamp"; then
    return 0
  fi
  if [ ! -x .venv/bin/python ]; then
    local python
    python=$(venv_python)
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "Referee needs Python 3.11 or newer as python3 or REFEREE_PYTHON (found: $("$python" --version 2>&1))." >&2
      exit 1
    fi
    rm -rf .venv
    "$python" -m venv .venv || {
      rm -rf .venv
      echo "$python cannot make a virtual environment: on Debian or Ubuntu, apt-get install python3-venv" >&2
      exit 1
    }
  fi
  mapfile -t missing < <(missing_packages "${BUILD_PACKAGES[@]}")
  apt_install must "${missing[@]}" || {
    echo "PyICU is built from ICU's headers: install ${missing[*]} (apt-get install ${missing[*]}), then start again." >&2
    exit 1
  }
  echo "Installing the Python packages of $lock into .venv/ ..."
  rm -f "$stamp"
  # The lock's own pip first, by its hashes: the pip a new venv of Python 3.11 comes with (23.2) cannot match a
  # dependency's extras (weasyprint's fonttools[woff]) with the lock's pin in --require-hashes mode once a newer
  # release of that package is out, and refuses the whole install.
  local pins
  pins=$(mktemp)
  awk '/^pip==/ { on = 1 } on { print; if ($0 !~ /\\$/) exit }' "$lock" > "$pins"
  if [ -s "$pins" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r "$pins"
  fi
  rm -f "$pins"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock"
  # The build backend (hatchling) is in the lock: no isolated build environment, nothing else fetched.
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
  for l in "$@"; do key "$l"; done > "$stamp"
}

# Pyodide (CPython for WebAssembly): the phone runs the rules (referee/games) with it, in a Web Worker
# (static/rules-worker.js, issue 49). The npm package, pinned exactly (its tarball's SHA-256), is fetched once into
# vendor/pyodide/<version>/ (ignored by git: 13 MB unpacked) — only the files it needs at run time — and each is
# compressed once here (brotli, quality 11: the wasm 9.6 MB → about 2.7 MB on the wire), so Referee serves it as is
# (referee/web/phone_files.py). Without it (no network on the first start) the entry form works through the server,
# as it always did.
PYODIDE_VERSION=314.0.8
PYODIDE_SHA256=9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb
PYODIDE_FILES=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json)

# pyodide_files MODE: MODE "must" fails without them (CI), "may" warns and goes on.
pyodide_files() {
  local mode=$1 dir=vendor/pyodide/$PYODIDE_VERSION tmp f
  [ -f "$dir/.complete" ] && return 0
  tmp=$(mktemp -d)
  echo "Fetching Pyodide $PYODIDE_VERSION (the rules on the phone) ..."
  if ! curl -fsSL --retry 2 -o "$tmp/pyodide.tgz" "https://registry.npmjs.org/pyodide/-/pyodide-$PYODIDE_VERSION.tgz" ||
     ! echo "$PYODIDE_SHA256  $tmp/pyodide.tgz" | sha256sum -c --quiet - ||
     ! tar -xzf "$tmp/pyodide.tgz" -C "$tmp" "${PYODIDE_FILES[@]/#/package/}"; then
    rm -rf "$tmp"
    echo "warning: could not fetch Pyodide $PYODIDE_VERSION: deal entry asks the server at every tap." >&2
    [ "$mode" = may ] && return 0 || return 1
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  for f in "${PYODIDE_FILES[@]}"; do mv "$tmp/package/$f" "$dir/$f"; done
  rm -rf "$tmp"
  .venv/bin/python - "$dir" "${PYODIDE_FILES[@]}" <<'PY'
import sys
from pathlib import Path

import brotli

folder = Path(sys.argv[1])
for name in sys.argv[2:]:
    raw = (folder / name).read_bytes()
    packed = brotli.compress(raw, quality=11, lgwin=24)
    if len(packed) < len(raw):
        (folder / f"{name}.br").write_bytes(packed)
PY
  touch "$dir/.complete"
}

# compile_catalogues [--force]: every referee/translations/<lang>/LC_MESSAGES/messages.po → messages.mo (not
# committed), when the .mo is missing or older than its .po — also when nothing else needed installing, so an
# edited translation shows at the next start. Without them the app serves English and says so in its log.
compile_catalogues() {
  local po stale=0
  for po in referee/translations/*/LC_MESSAGES/messages.po; do
    [ -f "$po" ] || continue
    if [ "${1:-}" = --force ] || [ ! -f "${po%.po}.mo" ] || [ "$po" -nt "${po%.po}.mo" ]; then stale=1; fi
  done
  [ "$stale" = 1 ] || return 0
  .venv/bin/python - <<'PY'
from pathlib import Path
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

for po in sorted(Path("referee/translations").glob("*/LC_MESSAGES/messages.po")):
    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parts[-3])
    with po.with_suffix(".mo").open("wb") as target:
        write_mo(target, catalog)
PY
}

# A throwaway PostgreSQL cluster for the tests (scripts/test): Debian's postgresql (installed when missing),
# initdb into a new folder, trust authentication on 127.0.0.1 and a free port only, fsync off (nothing in it
# outlives the run). As root it runs as the postgres user (initdb refuses root).
# pg_bin → the folder of initdb and pg_ctl (the newest installed), or nothing.
pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

# pg_start DIR → starts a cluster in DIR (made here) and prints its maintenance database's URL.
pg_start() {
  local dir=$1 bin port as=()
  bin=$(pg_bin) || return 1
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$dir"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    return 1
  }
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null || {
    cat "$dir/server.log" >&2
    return 1
  }
  # the role Referee connects as in the tests (tests/conftest.py makes it too, on a server of your own): no
  # superuser, no BYPASSRLS, so that row-level security holds it
  "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE referee_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE" >/dev/null 2>>"$dir/server.log" || {
    cat "$dir/server.log" >&2
    return 1
  }
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

# pg_stop DIR: stops the cluster pg_start made there and removes the folder.
pg_stop() {
  local dir=$1 bin as=()
  bin=$(pg_bin) || return 0
  [ "$(id -u)" -eq 0 ] && as=(runuser -u postgres --)
  [ -d "$dir/data" ] && "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
