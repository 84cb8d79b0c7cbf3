"""`pip install .` alone plays: every game with every bot level, and in the terminal.

`make test` installs every extra, so an import of an optional package from the layers a
player needs (the engine, the bots, the CLI's play) would go unnoticed there. These tests
run a child Python in which every module that only the extras bring (pyproject's
optional-dependencies and what they pull in, less what the base dependencies pull in)
fails to import, as it would after a plain `pip install .`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import cardtable
from cardtable.agents import bot_levels

from .siedem_helpers import word_list

ROOT = Path(__file__).resolve().parent.parent

# Run first in the child: a finder ahead of every other that refuses the blocked modules.
PRELUDE = """
import importlib.abc, json, os, sys

class _Extras(importlib.abc.MetaPathFinder):
    blocked = frozenset(json.loads(os.environ["CARDTABLE_BLOCKED_MODULES"]))

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (an optional extra)", name=name)
        return None

sys.meta_path.insert(0, _Extras())
"""


def _closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements install, with what they require in turn, as
    installed here (markers evaluated for this interpreter and the extras asked for)."""
    environment = {str(k): str(v) for k, v in default_environment().items()}
    found: set[str] = set()
    seen: set[tuple[str, str]] = set()
    pending = [(Requirement(text), "") for text in requirements]
    while pending:
        requirement, asked_by = pending.pop()
        wanted = {**environment, "extra": asked_by}
        if requirement.marker and not requirement.marker.evaluate(wanted):
            continue
        name = canonicalize_name(requirement.name)
        new = {(name, extra) for extra in ("", *requirement.extras)} - seen
        if not new:
            continue
        seen |= new
        found.add(name)
        try:
            below = [Requirement(text) for text in metadata.requires(name) or []]
        except metadata.PackageNotFoundError:
            continue
        pending += [(r, extra) for _, extra in new for r in below]
    return found


@cache
def extra_only_modules() -> frozenset[str]:
    """Top-level modules that only the optional extras install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = _closure(project["dependencies"])
    extras = [text for group in project["optional-dependencies"].values() for text in group]
    only = _closure(extras) - base
    providers: dict[str, set[str]] = {}
    for module, distributions in metadata.packages_distributions().items():
        providers.setdefault(module, set()).update(canonicalize_name(d) for d in distributions)
    return frozenset(
        module
        for module, distributions in providers.items()
        if distributions <= only and re.fullmatch(r"[A-Za-z_]\w*", module)
    )


def without_extras(code: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python that cannot import the extras' modules."""
    env = {
        **os.environ,
        "CARDTABLE_BLOCKED_MODULES": json.dumps(sorted(extra_only_modules())),
        "PYTHONPATH": str(ROOT / "src"),
    }
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT, check=False,
    )  # fmt: skip


def test_the_child_cannot_import_the_extras() -> None:
    """The other tests here mean something only if the extras are really out of reach."""
    modules = extra_only_modules()
    assert {"gymnasium", "pettingzoo", "fastapi", "sqlalchemy", "torch", "ray"} <= modules
    assert not {"numpy", "pydantic", "rich", "typer", "markdown_it"} & modules  # base needs
    probe = "import importlib\nfor name in ('gymnasium', 'fastapi', 'torch', 'pyspiel'):\n"
    probe += "    try:\n        importlib.import_module(name)\n    except ImportError:\n"
    probe += "        print('blocked', name)\nimport cardtable.rl\n"
    child = without_extras(probe)
    assert child.stdout.split("\n")[:4] == [
        "blocked gymnasium", "blocked fastapi", "blocked torch", "blocked pyspiel",
    ]  # fmt: skip
    assert child.returncode != 0
    assert "cardtable.rl needs the rl extra (pip install 'cardtable[rl]')" in child.stderr


# Each level plays a few moves in every seat that is to move: enough to build the bot,
# load what it reads (the learned evaluator's network, a word list) and search.
PLAY = """
import cardtable
from cardtable.agents import make_agent

game_id, levels, options = {game_id!r}, {levels!r}, {options!r}
for level in levels:
    state = cardtable.load(game_id, **options).new_state(seed=5)
    seats = range(cardtable.load(game_id, **options).options.players)
    agents = [make_agent(level, game_id, seed=seat) for seat in seats]
    moves = 0
    while not state.is_over and moves < 3:
        for seat in sorted(state.to_move):
            state.apply(seat, agents[seat].choose(state, seat))
            moves += 1
    print(level, moves)
"""


@pytest.mark.slow  # the hard and expert bots search
@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_every_bot_level_plays_without_the_extras(game_id: str, tmp_path: Path) -> None:
    levels = bot_levels(game_id)
    options = {"dictionary": word_list(tmp_path)} if game_id == "siedem-slow" else {}
    child = without_extras(PLAY.format(game_id=game_id, levels=levels, options=options))
    assert child.returncode == 0, child.stderr
    played = dict(line.split() for line in child.stdout.splitlines())
    assert list(played) == levels and all(int(moves) >= 3 for moves in played.values())


def test_the_terminal_plays_without_the_extras(tmp_path: Path) -> None:
    """`cardtable play` with bots in every seat, as a player's fresh install runs it (any
    hanafuda bot reads the learned evaluator's network: the first thing that broke)."""
    saved = tmp_path / "game.json"
    argv = ["play", "koi-koi", "--seats", "greedy,easy", "--rule", "rounds=1", "--seed", "3"]
    argv += ["--save", str(saved)]
    code = (
        f"import sys\nfrom cardtable.cli import main\nsys.argv = ['cardtable', *{argv!r}]\nmain()"
    )
    child = without_extras(code)
    assert child.returncode == 0, child.stderr + child.stdout
    assert "Game over" in child.stdout
    assert json.loads(saved.read_text(encoding="utf-8"))["game"] == "koi-koi"
