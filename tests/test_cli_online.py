"""``cardtable play GAME --online URL``: quick match from the terminal against a real
server, with a second person asking through the HTTP API."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.cli.online import Server, quick_match
from tests.server_helpers import ServerProcess, http

BOT_OFFER_SECONDS = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("online") / "cardtable.db"
    served = ServerProcess(
        f"sqlite:///{db}",
        options=("--no-address-limits", "--limit", f"match_bot_offer_seconds={BOT_OFFER_SECONDS}"),
    )
    served.start()
    try:
        yield served
    finally:
        served.stop()


def online(url: str, config: Path, *more: str) -> subprocess.Popen[str]:
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "CARDTABLE_LANG": "pl",
           "XDG_CONFIG_HOME": str(config), "PYTHONUNBUFFERED": "1"}  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "cardtable", "play", "koi-koi", "--online", url, *more],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=env,
    )  # fmt: skip


def test_the_terminal_meets_a_browser_and_prints_its_seat(
    server: ServerProcess, tmp_path: Path
) -> None:
    terminal = online(server.url, tmp_path, "--name", "Ola", "--rated")
    assert terminal.stdout is not None
    said = [terminal.stdout.readline() for _ in range(2)]  # asking, then waiting
    assert "czekających na tę grę: 1" in said[1], said  # the waiting count, in Polish
    status, joined = http("POST", f"{server.url}/api/match",
                          {"game": "koi-koi", "rated": True, "name": "Ala",
                           "player": "ab" * 16})  # fmt: skip
    assert status == 202, joined
    status, seen = http("GET", f"{server.url}/api/match/{joined['ticket']}")
    assert seen["status"] == "matched", seen
    out, _ = terminal.communicate(timeout=60)
    assert terminal.returncode == 0, out
    assert "Masz przeciwnika!" in out
    printed = re.search(r"(http://\S+)/t/(\w+)\?seat=(\d)&key=([\w-]+)", out)
    assert printed, out
    assert printed[1] == server.url and printed[2] == seen["table"]
    assert int(printed[3]) == 1 - seen["seat"]  # the other seat of the same table
    # the printed key opens that seat: the table answers its view
    status, view = http("GET", f"{server.url}/api/tables/{printed[2]}")
    assert status == 200, view
    # the player key was made once, kept for its owner only, and is used again
    key_file = tmp_path / "cardtable" / "player-key"
    assert re.fullmatch(r"[0-9a-f]{32}\n", key_file.read_text())
    assert key_file.stat().st_mode & 0o077 == 0
    status, ratings = http("POST", f"{server.url}/api/players/ratings",
                           {"player": key_file.read_text().strip()})  # fmt: skip
    assert status == 200, ratings


def test_the_bot_offered_after_the_wait_seats_the_terminal(server: ServerProcess) -> None:
    answers = iter(range(1000))
    started = time.monotonic()

    def take_bot() -> bool:  # the person types b at each pause
        next(answers)
        time.sleep(0.2)
        return True

    address = quick_match(
        Server(server.url), {"game": "koi-koi", "name": "Ola"}, "en", take_bot=take_bot
    )
    assert time.monotonic() - started >= BOT_OFFER_SECONDS  # not before the offer
    table = re.search(r"/t/(\w+)\?seat=0&key=[\w-]+$", address)
    assert table, address
    status, view = http("GET", f"{server.url}/api/tables/{table[1]}")
    assert status == 200
    assert any(seat.get("kind", "").startswith("bot") for seat in view["seats"]), view


def test_a_refusal_is_a_message_not_a_traceback(server: ServerProcess, tmp_path: Path) -> None:
    terminal = online(server.url, tmp_path, "--preset", "no-such-preset")
    out, _ = terminal.communicate(timeout=60)
    assert terminal.returncode == 2
    assert "no-such-preset" in out and "Traceback" not in out


def test_a_person_met_while_the_bot_is_asked_for_wins_the_seat(server: ServerProcess) -> None:
    """The race: the person types b, but somebody joins the queue first and the pair is
    seated; the bot's seat is refused (no_seat) and the terminal prints the person's
    table instead of a traceback."""
    started, joined = time.monotonic(), []

    def take_bot() -> bool:
        time.sleep(0.2)
        if time.monotonic() - started < BOT_OFFER_SECONDS + 0.3:
            return False
        if not joined:  # somebody else asks now, and meets the terminal at once
            body = {"game": "koi-koi", "name": "Iza", "preset": "koikoi_japan"}
            status, answer = http("POST", f"{server.url}/api/match", body)
            assert status == 202, answer
            joined.append(answer["ticket"])
        return True

    request = {"game": "koi-koi", "name": "Ola", "preset": "koikoi_japan"}
    address = quick_match(Server(server.url), request, "en", take_bot=take_bot)
    assert joined, "the bot was never asked for"
    table = re.search(r"/t/(\w+)\?seat=(\d)&key=[\w-]+$", address)
    assert table, address
    status, view = http("GET", f"{server.url}/api/tables/{table[1]}")
    assert status == 200
    assert [seat["kind"] for seat in view["seats"]] == ["human", "human"], view
