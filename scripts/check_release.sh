#!/usr/bin/env bash
# The release artefacts install: builds the sdist, and the wheel from it (`python -m build`),
# then installs each into a fresh venv and checks it there (scripts/check_install.py: version,
# LICENSE, py.typed, the compiled kernels, a real server answering a search); the sdist once
# more with no C compiler (CC=false), where kibitz must install and search in pure Python.
# Needs network access to PyPI (the build's and the installs' dependencies). Run by .ci/run.
source "$(dirname "$0")/setup.sh" dev
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; echo "release: python -m build failed" >&2; exit 1; }
sdist=$(echo "$work"/dist/kibitz-*.tar.gz)
wheel=$(echo "$work"/dist/kibitz-*.whl)
echo "release: built $(basename "$sdist") and $(basename "$wheel")"

check() {  # check NAME ARTEFACT compiled|pure [ENV...]
  local name=$1 artefact=$2 expected=$3
  shift 3
  python -m venv "$work/$name"
  env "$@" "$work/$name/bin/python" -m pip install --quiet --disable-pip-version-check \
    "$artefact" >"$work/$name.log" 2>&1 \
    || { cat "$work/$name.log"; echo "release: installing the $name failed" >&2; exit 1; }
  echo "release: the $name in a fresh venv"
  (cd "$work" && PATH="$work/$name/bin:$PATH" "$work/$name/bin/python" \
    "$root/scripts/check_install.py" "$expected")
}

check sdist "$sdist" compiled
check wheel "$wheel" compiled
check sdist-without-compiler "$sdist" pure CC=false
