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

# python_env LOCK [LOCK...]: .venv with exactly the pinned packages of the first LOCK (hashes checked) and
# Referee itself (editable). Installs only when pyproject.toml or the lock changed since the last install
# (a stamp in .venv); otherwise it does nothing, so a start needs no network. Every further LOCK is one the
# first already satisfies (requirements-test.lock holds all of requirements.lock).
python_env() {
  local lock=$1 stamp=.venv/.referee-installed l
  key() { printf '%s %s\n' "$(cat pyproject.toml "$1" | sha256sum | cut -d' ' -f1)" "$1"; }
  if [ -x .venv/bin/python ] && [ -f "$stamp" ] && grep -qxF "$(key "$lock")" "$stamp"; then
    return 0
  fi
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Referee needs Python 3.11 or newer as python3 (found: $(python3 --version 2>&1))." >&2
    exit 1
  fi
  if [ ! -x .venv/bin/python ]; then
    rm -rf .venv
    python3 -m venv .venv || {
      rm -rf .venv
      echo "python3 cannot make a virtual environment: on Debian or Ubuntu, apt-get install python3-venv" >&2
      exit 1
    }
  fi
  echo "Installing the Python packages of $lock into .venv/ ..."
  rm -f "$stamp"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock"
  # The build backend (hatchling) is in the lock: no isolated build environment, nothing else fetched.
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
  for l in "$@"; do key "$l"; done > "$stamp"
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
