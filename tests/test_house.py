"""The house: a new game is its own package plus one registry line, and every layer plays
it unchanged; no layer above the games imports a game.

The toy fishing game (tests/toy_fishing/) is such a package: importing it registers it.
The conformance suite, the server (HTTP and WebSocket), the RL environments, the arena
and the CLI then run it, and none of them was changed for it.
"""

from __future__ import annotations

import ast
import json
import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import cardtable
from cardtable.arena import run, schedule
from cardtable.cli import app as cli
from cardtable.core.game import register, unregister
from cardtable.server.app import create_app

from .server_helpers import FAST
from .test_conformance import play_checked

SOURCE = Path(cardtable.__file__).parent
GAME = "toy-fishing"


@pytest.fixture
def toy() -> Iterator[str]:
    """The toy game registered for one test (the registry line a real game adds once)."""
    from tests.toy_fishing.game import SPEC

    register(SPEC)
    yield GAME
    unregister(GAME)


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
        assert record["game"] == toy and len(record["log"]) == 6


@pytest.mark.parametrize("fails", [False, True])
def test_the_server_prepares_it_as_it_starts(
    toy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    fails: bool,
) -> None:  # fmt: skip
    """A game's PREPARE work runs in the background when the server starts; a game whose
    preparation fails is logged and the server serves all the same."""
    from tests.toy_fishing import game

    monkeypatch.setattr(game, "PREPARE_FAILS", fails)
    game.PREPARED.clear()
    caplog.set_level(logging.INFO, logger="cardtable.server")
    expected = "toy-fishing: preparing failed" if fails else "toy-fishing ready: nothing slow"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        deadline = time.monotonic() + 10
        while expected not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert expected in caplog.text
        assert bool(game.PREPARED) is not fails
        response = client.post("/api/tables", json={"game": toy, "seats": ["human", "human"]})
        assert response.status_code == 201, response.text


def test_the_rl_environments_run_it(toy: str) -> None:
    from pettingzoo.test import api_test

    from cardtable import rl

    api_test(rl.env(toy), num_cycles=40)
    single = rl.SingleAgentEnv(toy, opponents="greedy")
    observation, _ = single.reset(seed=3)
    done, steps = False, 0
    while not done:
        action = int(observation["action_mask"].argmax())
        observation, _reward, terminated, truncated, _ = single.step(action)
        done, steps = terminated or truncated, steps + 1
    assert steps == 3


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


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_no_layer_imports_a_game() -> None:
    """Outside games/, only the registry (cardtable/__init__ importing cardtable.games)
    names the games package; a game module imports no server, CLI or RL layer."""
    offenders = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        in_games = relative.startswith("games/")
        for module in imported_modules(path):
            registry = relative == "__init__.py" and module == "cardtable.games"
            if not in_games and module.startswith("cardtable.games") and not registry:
                offenders.append(f"{relative} imports {module}")
            layers = (
                "cardtable.server", "cardtable.cli", "cardtable.rl", "cardtable.arena",
                "cardtable.learn",
            )  # fmt: skip
            if in_games and module.startswith(layers):
                offenders.append(f"{relative} imports {module}")
            if relative.startswith("core/") and module.startswith("cardtable.agents"):
                offenders.append(f"{relative} imports {module}")
    assert offenders == []
