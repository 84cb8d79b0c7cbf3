"""``cardtable play GAME --online URL``: quick match on a cardtable server from the terminal.

The terminal's play loop reads a whole game state (legal moves, the board, hints) in this
process; a server sends each seat only its view, so the remote table is not played here:
once matched, the table's address is printed for the browser. The queue is the server's
public quick-match API (``POST /api/match``, ``GET`` and ``DELETE /api/match/T``,
``POST /api/match/T/bot``), asked with the standard library only, so the base install
needs nothing more.

The player key (ratings hang on it) is made once and kept in the user's config folder,
``$XDG_CONFIG_HOME/cardtable/player-key`` (``~/.config`` without it), readable by its
owner only; ``--player-key`` gives another (the one a browser shows in "Continue on
another device").
"""

from __future__ import annotations

import json
import os
import secrets
import select
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.core.errors import CardtableError
from cardtable.core.terminal import console
from cardtable.locales import message

#: seconds between two looks at the ticket (the server forgets one not looked at for 30 s)
POLL_SECONDS = 1.0
JSON = dict[str, Any]


class ServerError(CardtableError):
    """The server refused (``code``: the refusal's own code, such as ``no_seat``), or
    could not be reached (``code`` empty)."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


def key_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cardtable" / "player-key"


def player_key(given: str | None = None) -> str:
    """``given``, else the key kept in the config folder (made there on first use: 128
    random bits, as the browser makes one)."""
    if given:
        return given.strip().lower()
    path = key_file()
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(16)
    path.touch(mode=0o600)  # nobody else reads it: it is the player's identity
    path.write_text(key + "\n")
    return key


@dataclass(frozen=True)
class Server:
    url: str

    def ask(self, method: str, path: str, body: JSON | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise ServerError(*_refusal(error)) from None
        except (OSError, ValueError) as error:
            raise ServerError(f"{self.url}: {error}") from None


def _refusal(error: urllib.error.HTTPError) -> tuple[str, str]:
    """What the server said, and its refusal's code ("" where it gave none)."""
    try:
        said = json.loads(error.read() or b"null")
    except ValueError:
        said = None
    detail = said.get("detail") if isinstance(said, dict) else None
    code = ""
    if isinstance(detail, dict):  # a refusal: {"code": ..., "message": ...}
        code = str(detail.get("code") or "")
        detail = detail.get("message")
    return str(detail or f"HTTP {error.code}"), code


def wants_bot() -> bool:
    """Whether the person typed ``b`` and Enter within a poll's pause (a terminal on POSIX;
    elsewhere the pause is only a pause)."""
    if os.name != "posix" or not sys.stdin.isatty():
        time.sleep(POLL_SECONDS)
        return False
    ready, _, _ = select.select([sys.stdin], [], [], POLL_SECONDS)
    return bool(ready) and sys.stdin.readline().strip().lower() in ("b", "bot")


def quick_match(
    server: Server,
    request: JSON,
    lang: str,
    take_bot: Callable[[], bool] = wants_bot,
) -> str:
    """Wait in the queue, saying how many wait and when a bot is offered; the table's
    address once seated (with a person, or with the bot if asked for)."""
    ticket = server.ask("POST", "/api/match", request)["ticket"]
    said: tuple[int, bool] | None = None
    try:
        while True:
            seen = server.ask("GET", f"/api/match/{ticket}")
            if seen["status"] == "matched":
                console.print(message("online.matched", lang), style="bold green", markup=False)
                return server.url.rstrip("/") + str(seen["url"])
            if seen["status"] != "waiting":
                raise ServerError(f"the ticket is {seen['status']}")
            now = (int(seen["waiting"]), bool(seen["bot_offer"]))
            if now != said:
                key = "online.bot_offer" if now[1] else "online.waiting"
                console.print(message(key, lang, count=now[0]), markup=False)
                said = now
            if take_bot() and now[1]:
                try:
                    seated = server.ask("POST", f"/api/match/{ticket}/bot")
                except ServerError as error:
                    if error.code != "no_seat":
                        raise
                    continue  # a person took the other seat first: the next look says where
                return server.url.rstrip("/") + str(seated["url"])
    except KeyboardInterrupt:
        server.ask("DELETE", f"/api/match/{ticket}")  # out of the queue, not left to lapse
        console.print(message("online.left", lang), style="yellow", markup=False)
        raise


def play_online(
    url: str, game: str, *, preset: str | None, rated: bool, name: str, key: str | None, lang: str
) -> None:
    request = {
        "game": game, "preset": preset, "rated": rated, "name": name, "player": player_key(key),
    }  # fmt: skip
    console.print(message("online.asking", lang, url=url), style="bold", markup=False)
    try:
        address = quick_match(Server(url), request, lang)
    except KeyboardInterrupt:
        return
    console.print(message("online.open", lang), markup=False)
    console.print(address, style="bold cyan", markup=False, soft_wrap=True)
