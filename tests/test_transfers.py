"""Continue on another device, over HTTP (issue 39, item 11): a transfer link works once
and expires, is limited per address and capped in size, and no seat key reaches a log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app

from .server_helpers import FAST
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


def test_a_link_hands_over_the_seats_and_record_once(client: TestClient) -> None:
    made = hand_over(client)
    assert made.status_code == 201, made.text
    link = made.json()
    assert link["url"] == f"/continue#{link['token']}" and link["seconds"] == 600
    assert len(link["token"]) >= 24  # random, not guessable
    page = client.get(link["url"])  # the page (and any link preview) spends nothing
    assert page.status_code == 200 and "continue.js" in page.text
    taken = take(client, link["token"])
    assert taken.status_code == 200
    assert taken.json() == {"seats": SEATS, "record": RECORD}
    again = take(client, link["token"])
    assert again.status_code == 404 and again.json()["detail"]["code"] == "transfer_gone"


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
