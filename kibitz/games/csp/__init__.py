"""Constraint puzzles: the constraint model (`model`), the one-player game every puzzle
is written as (`game`), and the puzzles (docs/games.md, "Constraint puzzles")."""
