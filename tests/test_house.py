"""The house: a new game is its own package plus one registry line, and every layer plays
it unchanged; no layer above the games imports a game.

Three toy games are such packages, registered only by this module's fixture: a 12-card
fishing game written from scratch on the State API (tests/toy_fishing/); Hana-kazoe
(tests/toy_flowers/), an interpreted subclass of the hanafuda engine's FishingState (the
compiled class, when the engine is compiled) with its own options, scoring and words; and
Tsuki-awase (tests/toy_yaku/), a two-player FishingState with yaku of its own and a rule
page. The conformance suite, the server (HTTP and WebSocket), the rule pages, the score
pad, the bots, the hints, the RL environments, the arena and the CLI then run each, and
none of them was changed for it.
"""

from __future__ import annotations

import ast
import importlib
import json
import logging
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import cardtable
from cardtable.arena import run, schedule
from cardtable.cli import app as cli
from cardtable.core.errors import OptionError
from cardtable.core.game import GameSpec, register, spec_of, unregister
from cardtable.core.record import GameRecord
from cardtable.server.app import create_app

from .server_helpers import FAST, eventually
from .test_conformance import play_checked

SOURCE = Path(cardtable.__file__).parent


#: each toy game's package: importing one registers nothing (the fixture does)
TOYS = {"toy-fishing": "toy_fishing", "hana-kazoe": "toy_flowers", "tsuki-awase": "toy_yaku"}
#: the toys of the hanafuda family (its capabilities: the pad, the strategist, the hints)
FISHING_TOYS = ["hana-kazoe", "tsuki-awase"]


def toy_spec(game: str) -> GameSpec:
    spec: GameSpec = importlib.import_module(f"tests.{TOYS[game]}.game").SPEC
    return spec


@contextmanager
def registered(game: str) -> Iterator[str]:
    """A toy game registered while the block runs (the registry line a real game adds)."""
    spec = toy_spec(game)
    register(spec)
    try:
        yield spec.id
    finally:
        unregister(spec.id)


@pytest.fixture(params=list(TOYS))
def toy(request: pytest.FixtureRequest) -> Iterator[str]:
    """A toy game registered for one test (the registry line a real game adds once)."""
    with registered(request.param) as game_id:
        yield game_id


@pytest.fixture(params=FISHING_TOYS)
def fishing_toy(request: pytest.FixtureRequest) -> Iterator[str]:
    with registered(request.param) as game_id:
        yield game_id


@pytest.fixture
def toy_fishing() -> Iterator[str]:
    with registered("toy-fishing") as game_id:
        yield game_id


def test_the_conformance_suite_passes_for_the_new_game(toy: str) -> None:
    for preset in ("default", "match"):
        for seed in range(20):
            play_checked(cardtable.load(toy, preset=preset), seed, deep=seed % 4 == 0)


def test_the_server_plays_it_over_http_and_websocket(toy: str, tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        assert toy in {g["id"] for g in client.get("/api/games").json()}
        response = client.post(
            "/api/tables", json={"game": toy, "seats": ["human", "bot:hard"], "public": False}
        )
        assert response.status_code == 201, response.text
        table = response.json()
        rng = random.Random(1)
        url = f"/ws/tables/{table['id']}?seat={table['seat']}&key={table['key']}"
        with client.websocket_connect(url) as socket:
            while True:
                frame = socket.receive_json()
                if frame["type"] != "state":
                    continue
                if frame["table"]["status"] == "finished":
                    break
                view = frame["view"]
                if table["seat"] in view["to_move"]:
                    action = rng.choice(view["legal_actions"])
                    message = {"type": "action", "action": action, "version": frame["version"]}
                    socket.send_text(json.dumps(message))
        record = client.get(f"/api/tables/{table['id']}/record").json()
        assert record["game"] == toy and record["log"]
        assert GameRecord.from_json(record).replay().is_over  # every move was kept


@pytest.mark.parametrize("fails", [False, True])
def test_the_server_prepares_it_as_it_starts(
    toy_fishing: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    fails: bool,
) -> None:
    """A game's PREPARE work runs in the background when the server starts; a game whose
    preparation fails is logged and the server serves all the same."""
    from tests.toy_fishing import game

    monkeypatch.setattr(game, "PREPARE_FAILS", fails)
    game.PREPARED.clear()
    caplog.set_level(logging.INFO, logger="cardtable.server")
    expected = "toy-fishing: preparing failed" if fails else "toy-fishing ready: nothing slow"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        eventually(lambda: expected in caplog.text, 10, expected)
        assert bool(game.PREPARED) is not fails
        seats = ["human", "human"]
        response = client.post("/api/tables", json={"game": toy_fishing, "seats": seats})
        assert response.status_code == 201, response.text


def test_the_rl_environments_run_it(toy: str) -> None:
    from pettingzoo.test import api_test

    from cardtable import rl

    api_test(rl.env(toy), num_cycles=40)
    single = rl.SingleAgentEnv(toy, opponents="greedy")
    observation, _ = single.reset(seed=3)
    done, steps, returned = False, 0, 0.0
    while not done:
        action = int(observation["action_mask"].argmax())
        observation, reward, terminated, truncated, _ = single.step(action)
        done, steps, returned = terminated or truncated, steps + 1, returned + float(reward)
    assert terminated and not truncated
    # the episode's return is the learner's score change, and every hand card was played
    assert returned == pytest.approx(single.state.scores()[single.seat])
    assert steps >= HAND_CARDS[toy]


#: the cards a two-player hand holds in each toy: the learner plays every one
HAND_CARDS = {"toy-fishing": 3, "hana-kazoe": 8, "tsuki-awase": 8}


def test_the_arena_plays_it_on_a_process_pool(toy: str) -> None:
    jobs = schedule(toy, ["greedy", "random", "hard"], games=4, seed=2)
    outcomes = run(jobs, workers=2)
    assert len(outcomes) == len(jobs) == 24
    assert all(sum(o.scores) > 0 for o in outcomes)


def test_the_cli_plays_and_lists_it(toy: str, tmp_path: Path) -> None:
    runner = CliRunner()
    assert toy in runner.invoke(cli, ["games"]).output
    saved = tmp_path / "toy.json"
    played = runner.invoke(
        cli, ["play", toy, "--seats", "greedy,random", "--seed", "4", "--save", str(saved)]
    )
    assert played.exit_code == 0, played.output
    assert "Game over" in played.output
    replayed = runner.invoke(cli, ["replay", str(saved), "--no-step"])
    assert replayed.exit_code == 0 and "Game over" in replayed.output


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_a_game_without_a_lesson_says_so(toy: str, tmp_path: Path, lang: str) -> None:
    """Every real game has a guided first game; a new one may not yet, and says so."""
    from cardtable.locales import message

    learned = CliRunner().invoke(cli, ["learn", toy, "--lang", lang])
    assert learned.exit_code == 2
    assert message("lesson.none", lang) in " ".join(learned.output.split())
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[toy]["lesson"] is False  # the lobby offers no "Learn to play"
        answer = client.post(f"/api/learn/{toy}", json={})
        assert answer.status_code == 400, answer.text
        assert "no guided first game" in answer.json()["detail"]["message"]


def test_its_rule_page_or_a_clear_word_that_it_has_none(toy: str, tmp_path: Path) -> None:
    """A game with a page of its own shows it at /rules/ID and in ``cardtable rules``; one
    without (a family's DOCS capability, no page of its own yet) gets a 404 page and a
    plain message, never a 500 or a traceback."""
    has_page = spec_of(toy).has_rule_page()
    assert has_page is (toy == "tsuki-awase")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        for lang in ("en", "pl"):
            page = client.get(f"/rules/{toy}?lang={lang}")
            assert page.status_code == (200 if has_page else 404), page.text
            assert page.headers["content-type"].startswith("text/html")
    shown = CliRunner().invoke(cli, ["rules", toy, "--lang", "en"])
    assert isinstance(shown.exception, SystemExit | None)  # no traceback
    if has_page:
        assert shown.exit_code == 0, shown.output
        assert "Tsukimi" in shown.output and "Hikari" in shown.output  # its own yaku
        assert 'id="yaku"' in page.text and "Moon viewing" in page.text  # its table
    else:
        assert shown.exit_code == 2
        assert "has no rule page yet" in " ".join(shown.output.split())


def test_its_page_is_what_make_docs_writes(toy: str) -> None:
    """The page's generated blocks (its yaku table, options, presets) are up to date."""
    from cardtable.cli.docs import page_path, render

    if not spec_of(toy).has_rule_page():  # nothing for make docs to write: it says why
        with pytest.raises(OptionError, match="has no rule page yet"):
            page_path(toy)
        return
    text = page_path(toy).read_text(encoding="utf-8")
    assert render(toy, text) == text, "run make docs with the toy registered"


def test_the_score_pad_scores_its_rounds(fishing_toy: str, tmp_path: Path) -> None:
    """The hanafuda pad offers a fishing toy and scores its rounds by the toy's own scoring."""
    state = cardtable.load(fishing_toy).new_state(seed=5)
    while not state.is_over:
        (seat,) = state.to_move
        state.apply(seat, state.legal_actions(seat)[0])
    (played,) = state.results
    piles = [list(state.view(None)["piles"][seat]) for seat in range(2)]
    entered = {"piles": piles, "dealer": played.dealer}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games[fishing_toy]["pad"]["kind"] == "hanafuda"
        body = {"kind": "hanafuda", "game": fishing_toy, "options": {"players": 2}}
        made = client.post("/api/companion", json=body)
        assert made.status_code == 201, made.text
        pad = client.put(f"/api/companion/{made.json()['id']}", json={"rounds": [entered]})
        assert pad.status_code == 200, pad.text
        (scored,) = pad.json()["results"]["rounds"]
    assert scored["scores"] == list(played.scores)


def test_a_game_without_a_pad_is_not_offered_one(toy_fishing: str, tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert "pad" not in games[toy_fishing]
        body = {"kind": "hanafuda", "game": toy_fishing, "options": {}}
        refused = client.post("/api/companion", json=body)
        assert refused.status_code == 400, refused.text


def test_every_bot_level_plays_it(toy: str) -> None:
    """easy, medium and hard, the game's own where it has them, play it to the end."""
    from cardtable.agents import bot_levels, make_agent

    levels = bot_levels(toy)
    assert {"easy", "medium", "hard"} <= set(levels)
    for seed, (first, second) in enumerate([("medium", "hard"), ("easy", "medium")]):
        state = cardtable.load(toy).new_state(seed=seed)
        bots = [make_agent(first, toy, seed=1), make_agent(second, toy, seed=2)]
        while not state.is_over:
            (seat,) = state.to_move
            state.apply(seat, bots[seat].choose(state.clone(), seat))


def test_the_medium_bot_weighs_its_yaku_and_every_level_plays_it(fishing_toy: str) -> None:
    """The strategist reads the toy's own yaku (Tsuki-awase scores only yaku: a capture
    that makes one is worth the most); medium, hard and the hints play it to the end."""
    from cardtable.agents import make_agent
    from cardtable.agents.hints import hint
    from cardtable.games.hanafuda.bots.strategist import StrategistAgent
    from cardtable.games.hanafuda.deck import cards

    state = cardtable.load(fishing_toy).new_state(seed=2)
    moon_and_cup = cards("08-1 09-1")
    worth = StrategistAgent(0).worth(state, 0, moon_and_cup, 0)  # type: ignore[arg-type]
    assert (worth > 0) is (fishing_toy == "tsuki-awase")
    bots = [make_agent(level, fishing_toy, seed=1) for level in ("medium", "hard")]
    reasons = []
    while not state.is_over:
        (seat,) = state.to_move
        if seat == 0:
            given = hint(state, seat, bot="medium")
            assert given.action in state.legal_actions(seat)
            reasons += given.reasons
        state.apply(seat, bots[seat].choose(state.clone(), seat))
    assert reasons  # the hints said why


# The layers of the package, lowest first (docs/house.md, "Layers"): a module imports its
# own package and packages of lower layers only, never one beside it or above it. "cardtable"
# is the package's root: the registry and the public API (cardtable.load), beside the games.
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer.split())
    for layer in (
        "locales compiled",
        "core",
        "agents",
        "games cardtable",
        "arena",
        "rl learn training companion",
        "server",
        "cli",
        "__main__",
    )
)
# The registry imports the games to register them, and a game may use the public API.
REGISTRY = {("cardtable", "games"), ("games", "cardtable")}


def imported_modules(path: Path) -> list[str]:
    """Every module ``path`` imports, wherever the import stands (in a function, under
    TYPE_CHECKING); ``from cardtable import rl`` counts as ``cardtable.rl``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "cardtable" and not node.level:
            names += [f"cardtable.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def package_of(module: str) -> str:
    """The top-level part of the package a module belongs to ("cardtable": the root)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "cardtable"
    return top if top in {name for layer in LAYERS for name in layer} else "cardtable"


def layer_of(package: str) -> int:
    return next(rank for rank, layer in enumerate(LAYERS) if package in layer)


def layer_offences(relative: str, modules: list[str]) -> list[str]:
    """The imports of the source file at ``relative`` (to the package's root) that go
    sideways or up the layers."""
    top = relative.split("/", maxsplit=1)[0].removesuffix(".py")
    package = "cardtable" if top == "__init__" else top
    offences = []
    for module in modules:
        if module != "cardtable" and not module.startswith("cardtable."):
            continue
        other = package_of(module)
        if other == package or (package, other) in REGISTRY:
            continue
        if layer_of(other) >= layer_of(package):
            offences.append(f"{relative} imports {module}")
    return offences


def test_layers_import_only_downward() -> None:
    """No package imports one of its own layer or a higher one: the bots play without the
    RL layer's gymnasium, the CLI's play without the server's FastAPI."""
    offenders = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        offenders += layer_offences(relative, imported_modules(path))
    assert offenders == []


def test_every_package_has_a_layer() -> None:
    declared = {name for layer in LAYERS for name in layer}
    found = {path.relative_to(SOURCE).parts[0].removesuffix(".py") for path in SOURCE.rglob("*.py")}
    assert found - {"__init__"} <= declared


@pytest.mark.parametrize(
    ("relative", "module", "offends"),
    [
        ("agents/network.py", "cardtable.rl.encoding", True),  # issue 36: bots needed gymnasium
        ("agents/network.py", "cardtable.core.encoding", False),
        ("core/game.py", "cardtable.agents", True),
        ("games/koikoi.py", "cardtable.server.app", True),
        ("arena/plot.py", "cardtable.rl", True),
        ("rl/ppo.py", "cardtable.arena.tournament", False),  # a policy is rated in the arena
        ("learn/__init__.py", "cardtable.companion", True),  # beside it
        ("cli/play.py", "cardtable.server.app", False),
        ("games/hanafuda/lesson_search.py", "cardtable", False),
        ("agents/base.py", "cardtable", True),  # the root loads every game
        ("__init__.py", "cardtable.games", False),
    ],
)
def test_the_layer_check_finds_an_upward_import(relative: str, module: str, offends: bool) -> None:
    assert bool(layer_offences(relative, [module])) is offends


def test_no_layer_imports_a_game() -> None:
    """Outside games/, only the registry (cardtable/__init__ importing cardtable.games)
    names the games package."""
    offenders = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        in_games = relative.startswith("games/")
        for module in imported_modules(path):
            registry = relative == "__init__.py" and module == "cardtable.games"
            if not in_games and module.startswith("cardtable.games") and not registry:
                offenders.append(f"{relative} imports {module}")
    assert offenders == []


#: the layers that know no game by name: a game id written in them (outside docstrings)
#: is a rule or a default of one game's, which belongs in that game's package
GAME_BLIND = ("core", "agents", "arena", "rl", "training", "server", "cli")


def game_id_literals(source: str, ids: set[str]) -> list[tuple[int, str]]:
    """The string literals of ``source`` that are a game id in ``ids`` (line and id), its
    docstrings left out: ``"koi-koi"`` as a key or a default, not a word in a sentence."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in ids and id(node) not in docstrings
    ]


def test_no_layer_names_a_game() -> None:
    """core, agents, arena, rl, training, server and cli hold no game id: what differs by
    game is declared by the game (its spec, state, encoder or capabilities)."""
    ids = set(cardtable.game_ids())
    offenders = [
        f"{path.relative_to(SOURCE).as_posix()}:{line} names {game_id!r}"
        for layer in GAME_BLIND
        for path in sorted((SOURCE / layer).rglob("*.py"))
        for line, game_id in game_id_literals(path.read_text(encoding="utf-8"), ids)
    ]
    assert offenders == []


PLANTED = '''
"""A layer's module: koi-koi in a docstring is a word."""
OPTIONS = {"koi-koi": {"rounds": 1}}


def train(game: str = "bakappana") -> None:
    """Trains bakappana."""
    print(f"koi-koi {game}")
'''


def test_the_game_name_check_finds_a_planted_id() -> None:
    found = game_id_literals(PLANTED, {"koi-koi", "bakappana"})
    assert found == [(3, "koi-koi"), (6, "bakappana")]


def test_the_docs_name_real_capabilities_and_every_package() -> None:
    """docs/house.md's capability column names members of Capability only, and the
    README's layout table has a row for every package of the source tree."""
    from cardtable.core.game import Capability

    house = (SOURCE / "docs" / "house.md").read_text(encoding="utf-8")
    table = house.split("## What a game package holds", 1)[1].split("\n\n")[1]
    named = {
        name
        for row in table.splitlines()[2:]
        for name in re.findall(r"`([A-Z_]+)`", row.rsplit("|", 2)[1])
    }
    assert named and named <= {member.name for member in Capability}
    readme = (SOURCE.parent.parent / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1]
    packages = {path.parent.name for path in SOURCE.glob("*/__init__.py")}
    assert {p for p in packages if f"`src/cardtable/{p}/" not in layout} == set()
