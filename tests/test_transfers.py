"""Continue on another device, over HTTP (issue 39, item 11): a transfer link works once
and expires, is limited per address and capped in size, and no seat key reaches a log."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.record_proofs import is_proven, proof_of

from .server_helpers import FAST
from .socket_play import play_seat
from .test_server_authority import GUARDED

SEATS = [{"table": "abc123", "seat": 1, "key": "k" * 43}]
RECORD = {"format": "cardtable-record", "version": 1, "games": []}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'moves.db'}", FAST)) as test_client:
        yield test_client


def hand_over(client: TestClient, **body: Any) -> Any:
    return client.post("/api/transfers", json={"seats": SEATS, "record": RECORD, **body})


def take(client: TestClient, token: str) -> Any:
    return client.post("/api/transfers/take", json={"token": token})


def real_seat(client: TestClient) -> dict[str, Any]:
    made = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "bot:easy"]})
    return {"table": made.json()["id"], "seat": made.json()["seat"], "key": made.json()["key"]}


def proven_game(client: TestClient, table: str, **changes: Any) -> dict[str, Any]:
    """A record's game with this server's proof (as a finished table's frame gives it)."""
    entry = {"game": "koi-koi", "seats": ["you", "hard"], "scores": [36, 24], "outcome": "win"}
    proof = proof_of(client.app.state.hub.signer(), table, entry)  # type: ignore[attr-defined]
    return {"table": table, "date": "2026-11-20T10:00:00Z", "place": 1, **entry, "proof": proof,
            **changes}  # fmt: skip


def test_a_link_hands_over_the_seats_and_record_once(client: TestClient) -> None:
    seats = [real_seat(client)]
    record = {**RECORD, "games": [proven_game(client, "t1")]}
    made = client.post("/api/transfers", json={"seats": seats, "record": record})
    assert made.status_code == 201, made.text
    link = made.json()
    assert link["url"] == f"/continue#{link['token']}" and link["seconds"] == 600
    assert len(link["token"]) >= 24  # random, not guessable
    page = client.get(link["url"])  # the page (and any link preview) spends nothing
    assert page.status_code == 200 and "continue.js" in page.text
    taken = take(client, link["token"])
    assert taken.status_code == 200
    assert taken.json() == {"seats": seats, "record": record}
    again = take(client, link["token"])
    assert again.status_code == 404 and again.json()["detail"]["code"] == "transfer_gone"


def test_only_what_the_server_vouches_for_travels(client: TestClient) -> None:
    """A link from a stranger added 6 seats and 5 fake won games to whoever opened it
    (issue 44, 6): now a seat travels only with its key, at a table the server has, and a
    game only with the server's proof of its very result; a table id is an id."""
    mine = real_seat(client)
    someone_elses = {**real_seat(client), "key": "x" * 43}
    record = {
        **RECORD,
        "games": [
            proven_game(client, "t1"),
            proven_game(client, "t2", outcome="loss"),  # a loss the server proved...
            {**proven_game(client, "t3"), "outcome": "loss"},  # ...a proof for another result
            {**proven_game(client, "t4"), "table": "t5"},  # another table's proof
            {key: value for key, value in proven_game(client, "t6").items() if key != "proof"},
        ],
    }
    seats = [mine, someone_elses, {"table": "nosuchtable", "seat": 0, "key": "k" * 43}]
    made = client.post("/api/transfers", json={"seats": seats, "record": record})
    taken = take(client, made.json()["token"]).json()
    assert taken["seats"] == [mine]
    assert [game["table"] for game in taken["record"]["games"]] == ["t1"]
    for table in ("../api/signing-key", "a/b", "", "x" * 33):
        bad = [{"table": table, "seat": 0, "key": "k"}]
        answer = client.post("/api/transfers", json={"seats": bad})
        assert answer.status_code == 422
        assert "signing" not in answer.text and "a/b" not in answer.text  # never echoed


def test_a_link_expires(client: TestClient) -> None:
    box = client.app.state.transfers  # type: ignore[attr-defined]
    now = [1000.0]
    box.clock = lambda: now[0]
    token = hand_over(client).json()["token"]
    now[0] += 601  # ten minutes and a second later
    assert take(client, token).status_code == 404


def test_transfers_are_limited_and_capped(tmp_path: Path) -> None:
    settings = replace(GUARDED, transfers_burst=2, max_transfer_bytes=2000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'cap.db'}", settings)) as client:
        big = {"format": "cardtable-record", "version": 1, "games": [{"x": "y" * 3000}]}
        assert hand_over(client, record=big).status_code == 413
        assert hand_over(client).status_code == 201
        assert hand_over(client).status_code == 429  # the address's burst is spent
        too_many = client.post("/api/transfers", json={"seats": SEATS * 201})
        assert too_many.status_code in (422, 429)
        # wrong tokens spend the address's tries, as wrong seat keys do
        answers = [take(client, f"wrong{n}").status_code for n in range(12)]
        assert answers[0] == 404 and answers[-1] == 429


def test_no_seat_key_reaches_a_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    token = hand_over(client).json()["token"]
    take(client, token)
    take(client, token)
    # the server's own logs and its web server's (the test client logs its side apart)
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name != "httpx")
    assert SEATS[0]["key"] not in logged and token not in logged
    assert token not in caplog.text  # the token never is in an address the client asks


def test_a_finished_game_against_bots_comes_with_its_proof(client: TestClient) -> None:
    """The last frame of a game against bots carries the proof of the result as record.js
    writes it, so that game can travel; a changed score or outcome is not proven."""
    made = client.post(
        "/api/tables",
        json={"game": "koi-koi", "seats": ["human", "bot:random"], "options": {"rounds": 1}},
    ).json()
    address = f"/ws/tables/{made['id']}?seat={made['seat']}&key={made['key']}"
    rng = random.Random(8)
    with client.websocket_connect(address) as socket:
        last = play_seat(socket, made["seat"], lambda f: rng.choice(f["view"]["legal_actions"]))
    seat, table = last["seat"], last["table"]
    winners, scores = table["winners"], last["view"]["scores"]
    # what record.js entryOf keeps of it
    outcome = ("win" if len(winners) == 1 else "draw") if seat in winners else "loss"
    entry = {
        "table": table["id"],
        "game": table["game"],
        "seats": ["you" if n == seat else s["kind"][4:] for n, s in enumerate(table["seats"])],
        "scores": scores,
        "outcome": outcome,
        "proof": last["record_proof"],
    }
    signer = client.app.state.hub.signer()  # type: ignore[attr-defined]
    assert is_proven(signer, entry)
    other = "loss" if outcome != "loss" else "win"
    assert not is_proven(signer, {**entry, "outcome": other})
    assert not is_proven(signer, {**entry, "scores": [s + 1 for s in scores]})
