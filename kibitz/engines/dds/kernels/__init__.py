"""The double-dummy solver's compiled kernel (`_solver.pyx`, built by setup.py)."""
