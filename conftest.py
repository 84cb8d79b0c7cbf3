"""Collection rules for `pytest --doctest-modules src tests` (make test)."""

import importlib.util

# cardtable.rl.openspiel needs the openspiel extra: without it, its doctests are skipped
# (its tests skip themselves).
collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["src/cardtable/rl/openspiel.py"]
