"""Collection rules for `pytest --doctest-modules src tests` (make test)."""

import importlib.util

import cardtable.compiled

# cardtable.rl.openspiel needs the openspiel extra: without it, its doctests are skipped
# (its tests skip themselves).
collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["src/cardtable/rl/openspiel.py"]

# A compiled module is not its source file: its doctests run on the source, in a process
# of their own (tests/test_compiled.py).
if cardtable.compiled.choose() == "compiled":
    collect_ignore += [
        str(cardtable.compiled.source_of(module)) for module in cardtable.compiled.HOT_PATH
    ]
