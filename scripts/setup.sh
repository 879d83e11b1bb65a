# Sourced by the other scripts: makes .venv and installs kibitz with the given extras.
# Usage: source scripts/setup.sh [EXTRAS]   e.g. "dev" or "dev,bench"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
extras=${1:-}
spec="."
[ -n "$extras" ] && spec=".[$extras]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
export PATH="$PWD/.venv/bin:$PATH"
