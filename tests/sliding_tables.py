"""Cheap stand-ins for the 15-puzzle's cached 6-6-3 pattern databases, for tests.

The real tables take too long to build for a test (`python -m kibitz.games.sliding_pdb
build`). `write_tiny_663` writes files of the same names and sizes instead: the 3-tile
table built for real, the two 6-tile tables all zeros (sparse files, no disk used).
Zero tables keep the sum admissible and consistent, only weaker, so everything but the
tables' strength is exercised: finding them in $KIBITZ_PDB_DIR, mapping them, searching.
"""

from __future__ import annotations

from pathlib import Path

from kibitz.games import sliding_pdb as pdb


def write_tiny_663(directory: Path) -> None:
    """The 6-6-3 partition's files in `directory` (made if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    for pattern in pdb.PARTITIONS["663"]:
        path = pdb.table_path(4, 4, pattern, directory)
        if len(pattern) == 3:
            path.write_bytes(pdb.build_pattern(4, 4, pattern))
        else:
            with path.open("wb") as handle:
                handle.truncate(pdb.table_size(16, len(pattern)))
