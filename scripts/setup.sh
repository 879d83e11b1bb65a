# Sourced by the other scripts: makes .venv and installs kibitz with the given extras.
# Usage: source scripts/setup.sh [EXTRAS]   e.g. "dev" or "dev,bench"
# The install (which compiles the Cython kernels, ~20 s) is skipped when nothing it depends on
# has changed since the last one (pyproject.toml, setup.py, the version in kibitz/__init__.py,
# the kernel sources and the .pxd files they cimport, the built kernels) and the extras asked
# for are installed. Python sources need no reinstall: the install is editable.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
extras=${1:-}
spec="."
[ -n "$extras" ] && spec=".[$extras]"

install_stamp() {
  {
    cat pyproject.toml setup.py kibitz/__init__.py kibitz/engines/*/kernels/*.pyx kibitz/engines/*/kernels/*.pxd \
      kibitz/games/*.pyx kibitz/games/*.pxd kibitz/games/*/*.pyx kibitz/games/*/*.pxd
    ls kibitz/engines/*/kernels/*.so kibitz/games/*.so kibitz/games/*/*.so 2>/dev/null || true
  } | sha256sum | cut -d' ' -f1
}

# .venv/.kibitz-install: "<stamp> <extras installed with it>"
installed_stamp="" installed_extras=""
if [ -f .venv/.kibitz-install ]; then  # absent before the first install
  read -r installed_stamp installed_extras < .venv/.kibitz-install || true
fi
needed=""
for extra in ${extras//,/ }; do
  [[ ",${installed_extras:-}," == *",$extra,"* ]] || needed=yes
done
if [ "${installed_stamp:-}" != "$(install_stamp)" ]; then
  needed=yes
  installed_extras=""
fi
if [ -n "$needed" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
  all_extras=$(echo "${installed_extras:-},$extras" | tr ',' '\n' | { grep -v '^$' || true; } | sort -u | paste -sd,)
  echo "$(install_stamp) ${all_extras:-}" > .venv/.kibitz-install
fi
export PATH="$PWD/.venv/bin:$PATH"
