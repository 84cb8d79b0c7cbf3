"""Chat that needs no moderator (issue 47): phrases reach everyone, free text only the
seats of a private invited table, never a quick-match table; spectators send nothing;
rate and length are limited."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import chat
from cardtable.server.app import create_app
from cardtable.server.chat import BURST, HISTORY, MAX_TEXT, clean, phrases
from cardtable.server.hub import TableRequest

from .server_helpers import FAST, seat_keys


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'chat.db'}", FAST)) as served:
        yield served


def without_epoch(line: dict[str, Any]) -> dict[str, Any]:
    """A chat line without its table copy's epoch (checked to be there)."""
    line = dict(line)
    if line.get("type") == "chat":
        assert isinstance(line.pop("epoch"), str)
    return line


def next_of(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        frame = socket.receive_json()
        if frame["type"] == kind:
            return without_epoch(frame)


def sockets(
    client: TestClient, stack: ExitStack, table: str, keys: dict[int, str]
) -> dict[int | None, Any]:
    opened: dict[int | None, Any] = {
        seat: stack.enter_context(
            client.websocket_connect(f"/ws/tables/{table}?seat={seat}&key={key}")
        )
        for seat, key in keys.items()
    }
    opened[None] = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
    for socket in opened.values():
        next_of(socket, "state")
    return opened


def quick_table(client: TestClient) -> tuple[str, dict[int, str]]:
    tickets = [
        client.post("/api/match", json={"game": "koi-koi", "player": c * 32}).json()["ticket"]
        for c in "ab"
    ]
    seen = [client.get(f"/api/match/{t}").json() for t in tickets]
    return seen[0]["table"], {s["seat"]: s["key"] for s in seen}


def test_the_phrases_are_the_games_data() -> None:
    koi_koi, ohanami = phrases("koi-koi"), phrases("ohanami")
    common = ("common.good_luck", "common.well_played", "common.thanks", "common.oops",
              "common.rematch")  # fmt: skip
    assert koi_koi[:5] == common and ohanami[:5] == common
    assert "koi-koi.nice_yaku" in koi_koi and "koi-koi.nice_yaku" not in ohanami


def test_phrases_reach_everyone_free_text_refused_at_quick_match(client: TestClient) -> None:
    table, keys = quick_table(client)
    assert client.get(f"/api/tables/{table}/chat").json()["free_text"] is False
    with ExitStack() as stack:
        opened = sockets(client, stack, table, keys)
        opened[0].send_json({"type": "chat", "phrase": "common.good_luck"})
        for socket in opened.values():  # the other seat, the spectator, the sayer
            assert next_of(socket, "chat") == {"type": "chat", "n": 1, "seat": 0,
                                               "phrase": "common.good_luck"}  # fmt: skip
        opened[1].send_json({"type": "chat", "text": "hi, call me at ..."})
        assert next_of(opened[1], "error")["code"] == "no_free_text"
        opened[1].send_json({"type": "chat", "phrase": "ohanami.nice_garden"})
        assert next_of(opened[1], "error")["code"] == "bad_phrase"
        opened[None].send_json({"type": "chat", "phrase": "common.oops"})
        assert next_of(opened[None], "error")["code"] == "spectator"


def test_free_text_between_invited_people_only_to_the_seats(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "public": False}
    ).json()
    keys = seat_keys(created)
    table = created["id"]
    assert client.get(f"/api/tables/{table}/chat").json()["free_text"] is True
    with ExitStack() as stack:
        opened = sockets(client, stack, table, keys)
        opened[0].send_json({"type": "chat", "text": " <b>hi</b>\u202e\x07  there "})
        said = next_of(opened[1], "chat")
        assert said["text"] == "<b>hi</b> there"  # no control or bidi characters
        opened[0].send_json({"type": "chat", "phrase": "common.thanks"})
        # the spectator's next chat frame is the phrase: the free text never reached it
        assert next_of(opened[None], "chat")["phrase"] == "common.thanks"
        opened[0].send_json({"type": "chat", "text": "x" * (MAX_TEXT + 1)})
        assert next_of(opened[0], "error")["code"] == "bad_text"
        for _ in range(BURST):
            opened[1].send_json({"type": "chat", "phrase": "common.oops"})
        said_now = []
        while len(said_now) < BURST:  # (seat 0's own words come first)
            frame = next_of(opened[1], "chat")
            said_now += [frame["phrase"]] if frame["seat"] == 1 else []
        assert said_now == ["common.oops"] * BURST  # a burst goes through, then one in 3 s
        opened[1].send_json({"type": "chat", "phrase": "common.oops"})
        assert next_of(opened[1], "error")["code"] == "rate_limited"


def test_public_tables_say_phrases_only(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]})
    assert client.get(f"/api/tables/{created.json()['id']}/chat").json()["free_text"] is False
    assert clean("a\u200bb\tc") == "ab c"


def test_a_page_coming_late_reads_the_last_things_said(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat, "BURST", 2 * HISTORY)  # many things said at once
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "public": False}
    ).json()
    keys, table = seat_keys(created), created["id"]

    def lines(body: dict[str, Any]) -> list[dict[str, Any]]:
        answer = client.post(f"/api/tables/{table}/chat/lines", json=body)
        assert answer.status_code == 200, answer.text
        return [without_epoch(line) for line in answer.json()["lines"]]

    assert lines({}) == []
    with ExitStack() as stack:
        opened = sockets(client, stack, table, keys)
        opened[0].send_json({"type": "chat", "text": "see you at eight"})
        opened[1].send_json({"type": "chat", "phrase": "common.good_luck"})
        next_of(opened[None], "chat")  # the phrase reached the spectator: both were said
    said = [{"type": "chat", "n": 1, "seat": 0, "text": "see you at eight"},
            {"type": "chat", "n": 2, "seat": 1, "phrase": "common.good_luck"}]  # fmt: skip
    assert lines({"seat": 1, "key": keys[1]}) == said  # a seat reads the free text too
    assert lines({}) == said[1:]  # a spectator reads the phrases only
    assert lines({"seat": 1, "key": keys[0]}) == said[1:]  # so does a wrong key
    with ExitStack() as stack:
        opened = sockets(client, stack, table, keys)
        for _ in range(HISTORY):
            opened[0].send_json({"type": "chat", "phrase": "common.thanks"})
        while next_of(opened[1], "chat")["n"] < HISTORY + 2:
            pass
    kept = lines({"seat": 0, "key": keys[0]})
    assert len(kept) == HISTORY and [kept[0]["n"], kept[-1]["n"]] == [3, HISTORY + 2]


def test_a_rematch_of_a_quick_match_is_still_between_strangers(client: TestClient) -> None:
    """Free text needs people who invited each other: a rematch of a quick match (and its
    rematch) still says phrases only."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    quick, _keys = quick_table(client)
    first = hub.tables[quick]
    request = TableRequest(game="koi-koi", seats=("human", "human"), public=False)
    again, _ = client.portal.call(lambda: hub.create(request, rematch_of=first))  # type: ignore[union-attr]
    once_more, _ = client.portal.call(lambda: hub.create(request, rematch_of=again))  # type: ignore[union-attr]
    for table in (first, again, once_more):
        assert chat.chat_of(table).free_text is False
    invited, _ = client.portal.call(lambda: hub.create(request))  # type: ignore[union-attr]
    assert chat.chat_of(invited).free_text is True


def test_a_rebuilt_table_numbers_its_chat_in_a_new_epoch(client: TestClient) -> None:
    """After a restart (or a move to another process) a table's chat numbers from 1 again:
    its epoch changes, so a page that reconnects by itself starts afresh instead of taking
    the new lines for ones it has seen."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "public": False}
    ).json()
    table = hub.tables[created["id"]]
    first = chat.chat_of(table).keep({"seat": 0, "phrase": "common.thanks"})
    rebuilt = chat.TableChat(table)  # what a fresh process makes of the same table
    again = rebuilt.keep({"seat": 0, "phrase": "common.thanks"})
    assert first["n"] == again["n"] == 1 and first["epoch"] != again["epoch"]
