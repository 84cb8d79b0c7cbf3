"""The compiled engine (cardtable.compiled): it plays exactly the games the Python source
plays, it is used only when built from the sources on disk, and the source still runs."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable import compiled
from cardtable.agents import make_agent
from cardtable.core.game import Game, game_ids, spec_of
from cardtable.core.record import GameRecord
from cardtable.core.rng import Rng
from tests.counts import count

ROOT = Path(__file__).resolve().parent.parent
#: every hanafuda game and the rule sets that take other paths through the engine
RULE_SETS: list[tuple[str, dict[str, object]]] = [
    ("koi-koi", {}),
    ("koi-koi", {"preset": "nintendo"}),
    ("koi-koi", {"preset": "koikoi_japan"}),
    ("koi-koi", {"preset": "battle_hanafuda"}),
    ("koi-koi", {"lightning": "wild", "turn_variant": "keep_unmatched_draw"}),
    ("koi-koi", {"turn_variant": "draw_then_two_hand_plays", "lucky_hands": "win"}),
    ("bakappana", {"players": 2}),
    ("bakappana", {"players": 4, "scoring": "simple"}),
    ("hana-awase", {"players": 2}),
    ("hana-awase", {"players": 3, "rounds": 3}),
    ("hana-awase-88", {}),
]
#: and Ohanami's (the hanafuda sets alone are what tests/test_rl_vector.py steps)
COMPILED_RULE_SETS = [
    *RULE_SETS,
    ("ohanami", {"players": 2}),
    ("ohanami", {"players": 4, "pink_tiebreak": "capped"}),
]


#: the bounds the draws are checked with: the compiled engine draws below 2**31 in
#: machine words, above in Python ints
BOUNDS = (1, 2, 3, 7, 48, 1000, 2**31 - 1, 2**31, 2**40 + 3, 2**64)


def state_drawing(word: int) -> int:
    """The generator state whose next 64-bit draw is ``word`` (SplitMix64 run backwards:
    each xor-shift and odd multiplier of its mix undone)."""
    mask = (1 << 64) - 1
    word = word ^ word >> 31 ^ word >> 62
    word = word * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    word = word ^ word >> 27 ^ word >> 54
    word = word * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    word = word ^ word >> 30 ^ word >> 60
    return (word - 0x9E3779B97F4A7C15) & mask


def drawn() -> list[int]:
    """Draws below every bound from many seeds, and from states whose first word needs
    the rejection test (low product bits below the bound) or fails it."""
    out = [Rng(seed).below(bound) for seed in range(300) for bound in BOUNDS]
    for bound in BOUNDS[1:-1]:
        for word in (0, -(-(1 << 64) // bound), -(-(5 << 64) // bound)):
            rng = Rng(state=state_drawing(word))
            out += [rng.below(bound), rng.below(bound), rng.state]
    return out


def test_the_rejection_states_draw_the_words_they_are_built_for() -> None:
    for word in (0, 1, 2**63, 2**64 - 1, 0x1234_5678_9ABC_DEF0):
        assert Rng(state=state_drawing(word)).next_u64() == word


def played(seeds: int = count(12, 3)) -> str:
    """A digest of random games of every rule set: each seat's view after every move, the
    scores, the records, and search copies (clone, determinize, random playout)."""
    digest = hashlib.sha256(repr(drawn()).encode())
    for game_id, rules in COMPILED_RULE_SETS:
        options = dict(rules)
        preset = options.pop("preset", None)
        game = cardtable.load(game_id, preset, **options)  # type: ignore[arg-type]
        for seed in range(seeds):
            state, rng = game.new_state(seed=seed), Rng(seed)
            while not state.is_over:
                seat = min(state.to_move)
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.below(len(actions))])
                digest.update(json.dumps(state.view(seat), sort_keys=True).encode())
                if len(state.log) % 7 == 0:
                    copy = state.determinize(seat, Rng(len(state.log)))
                    copy.end_at_round()
                    if game_id != "ohanami":  # Ohanami's searches play its greedy bot
                        copy.random_playout(Rng(seed), copy.rounds_finished)  # type: ignore[attr-defined]
                    digest.update(json.dumps(copy.view(None), sort_keys=True).encode())
            digest.update(json.dumps(GameRecord.of(state).to_json(), sort_keys=True).encode())
            digest.update(repr(state.scores()).encode())
        # the greedy bot (Ohanami's is compiled: every search's playouts)
        state, greedy = game.new_state(seed=seeds), make_agent("greedy", game_id, seed=seeds)
        while not state.is_over:
            seat = min(state.to_move)
            state.apply(seat, greedy.choose(state, seat))
        digest.update(json.dumps(GameRecord.of(state).to_json(), sort_keys=True).encode())
    return digest.hexdigest()


def run_python(code: str, *, pure: bool, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, compiled.PURE_ENV: "1" if pure else "0"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )


needs_build = pytest.mark.skipif(
    compiled.ENGINE != "compiled", reason=f"the engine is not compiled here: {compiled.ENGINE}"
)


def test_the_engine_runs_compiled_wherever_make_test_ran() -> None:
    """make test builds the compiled engine (CI included): a build that failed quietly
    would leave every other test running the Python source."""
    if os.environ.get("CI") or compiled.MANIFEST.exists():
        assert compiled.ENGINE == "compiled"
    if compiled.ENGINE == "compiled":
        from cardtable.games.hanafuda import fishing

        assert compiled.extension_of(fishing.__name__) == Path(fishing.__file__ or "")


@needs_build
def test_the_compiled_engine_plays_the_same_games_as_the_source() -> None:
    here = played()
    source = run_python(
        "from tests.test_compiled import played; import cardtable.compiled as c; "
        "print(c.ENGINE); print(played())",
        pure=True,
    ).stdout.split()
    assert source[0] == "source" and source[-1] == here


class SeatCountingGame(Game):
    """A game that counts how often it is asked its number of seats (a fishing state's
    ``__init__`` asks once)."""

    __slots__ = ("asked",)

    def __init__(self, game: Game) -> None:
        super().__init__(game.spec, game.options)
        self.asked = 0

    @property
    def num_players(self) -> int:
        self.asked += 1
        return super().num_players


@needs_build
def test_a_compiled_state_class_runs_its_init_once_per_state() -> None:
    """A compiled class's ``__new__`` runs ``__init__``, and Python's call of the type
    must not run it again: a game class under an open base without an ``__init__`` of
    its own inherited the base's ``tp_init`` and dealt every new state twice (issue 50)."""
    checked = []
    for game_id in game_ids():
        start = spec_of(game_id).start
        if not isinstance(start, type) or compiled.extension_of(start.__module__) is None:
            continue  # an interpreted class: Python's own __new__ and __init__
        constructed, only_new = (SeatCountingGame(cardtable.load(game_id)) for _ in range(2))
        start(constructed, 1, ())
        start.__new__(start, only_new, 1, ())  # the compiled __new__: __init__ once
        assert constructed.asked == only_new.asked > 0, start
        checked.append(game_id)
    assert {"koi-koi", "bakappana", "hana-awase", "hana-awase-88", "ohanami"} <= set(checked)


@needs_build
def test_a_build_older_than_its_sources_runs_the_source(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "cardtable", copy / "cardtable")
    for library in (ROOT / "src").glob(f"{compiled.GROUP}__mypyc*"):
        shutil.copy(library, copy)
    fishing = copy / "cardtable" / "games" / "hanafuda" / "fishing.py"
    fishing.write_text(fishing.read_text() + "\n# a change since the build\n")
    code = (
        "import cardtable, cardtable.compiled as c, cardtable.games.hanafuda.fishing as f; "
        "print(c.ENGINE); print(f.__file__); "
        "s = cardtable.load('koi-koi').new_state(seed=1); print(type(s).__module__)"
    )
    ran = run_python(code, pure=False, cwd=copy)
    engine, module_file, _ = ran.stdout.splitlines()
    assert engine.startswith("source (compiled before a change to")
    assert "cardtable.games.hanafuda.fishing" in engine
    assert module_file.endswith("fishing.py")
    assert "the compiled engine is older than" in ran.stderr
    fishing.write_text(fishing.read_text().replace("\n# a change since the build\n", ""))
    assert run_python(code, pure=False, cwd=copy).stdout.startswith("compiled")


@needs_build
def test_the_doctests_of_the_compiled_modules_pass_on_their_source() -> None:
    sources = [str(compiled.source_of(module)) for module in compiled.HOT_PATH]
    env = {**os.environ, compiled.PURE_ENV: "1"}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
         *sources],
        check=False, cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert " passed" in ran.stdout
