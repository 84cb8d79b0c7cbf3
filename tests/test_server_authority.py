"""The attack suite, part two (issue 37): authority over seats, limits that hold under
races, endpoints with bounds, settings that refuse nonsense, records that prove their
moves. Loopback only, bounded in count and time."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardtable.cli import app as cli
from cardtable.server.app import create_app
from cardtable.server.settings import Settings

from .server_helpers import FAST, eventually, http, seat_keys, server_thread
from .socket_play import next_state

#: the limits a public server runs with, but bots that move at once
GUARDED = Settings(bot_delay=0.0, think_scale=0.02, socket_idle_seconds=3600, compute="threads")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'auth.db'}", GUARDED)) as test_client:
        yield test_client


def private_table(client: TestClient, seats: int = 3, game: str = "hana-awase") -> dict[str, Any]:
    body = {"game": game, "seats": ["human"] * seats, "public": False}
    if game == "hana-awase":
        body["options"] = {"players": seats}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


# -- 1. invited seats ----------------------------------------------------------------------
def test_a_stranger_cannot_claim_an_invited_seat(client: TestClient) -> None:
    created = private_table(client)
    keys = seat_keys(created)
    table_id = created["id"]
    for body in ({}, {"seat": 1}, {"seat": 2}):
        answer = client.post(f"/api/tables/{table_id}/claim", json=body)
        assert answer.status_code == 403, answer.text
        assert "key" not in answer.json()
    # the invitees' links still work
    for seat in (1, 2):
        ok = client.post(f"/api/tables/{table_id}/key", json={"seat": seat, "key": keys[seat]})
        assert ok.status_code == 200


def test_a_public_tables_free_seat_is_still_taken_from_the_lobby(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "public": True}
    ).json()
    taken = client.post(f"/api/tables/{created['id']}/claim", json={})
    assert taken.status_code == 200
    assert taken.json()["seat"] == 1


def test_only_the_host_fills_seats_and_only_empty_ones(client: TestClient) -> None:
    created = private_table(client)
    keys = seat_keys(created)
    table_id = created["id"]
    host = created["seat"]
    invitee = next(seat for seat in keys if seat != host)
    refused = client.post(
        f"/api/tables/{table_id}/fill", json={"seat": invitee, "key": keys[invitee]}
    )
    assert refused.status_code == 403, refused.text
    assert all(s["kind"] == "human" for s in client.get(f"/api/tables/{table_id}").json()["seats"])
    # an invitee who sat down keeps the seat when the host fills the others
    with client.websocket_connect(f"/ws/tables/{table_id}?seat={invitee}&key={keys[invitee]}"):
        filled = client.post(
            f"/api/tables/{table_id}/fill", json={"seat": host, "key": keys[host], "bot": "easy"}
        )
        assert filled.status_code == 200, filled.text
        assert invitee not in filled.json()["filled"]
    kinds = [s["kind"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]
    assert kinds[host] == kinds[invitee] == "human"
    assert kinds.count("bot:easy") == 1


def test_only_the_host_hands_a_left_seat_to_a_bot(client: TestClient) -> None:
    """A friend who left mid-game: the host alone may give that seat to a bot, and only a
    seat whose person is gone; the game then goes on with the bot in it (issue 39)."""
    created = private_table(client)
    keys, table_id, host = seat_keys(created), created["id"], created["seat"]
    gone, stays = (seat for seat in sorted(keys) if seat != host)
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def hand(by: int, left: int, key: str | None = None) -> Any:
        body = {"seat": by, "key": key or keys[by], "left": left, "bot": "easy"}
        return client.post(f"/api/tables/{table_id}/hand-to-bot", json=body)

    def socket(seat: int) -> Any:
        return client.websocket_connect(f"/ws/tables/{table_id}?seat={seat}&key={keys[seat]}")

    with socket(host) as host_ws, socket(stays) as stays_ws:
        with socket(gone) as gone_ws:
            gone_ws.receive_json()
            assert hand(host, gone).status_code == 409  # still at the table: not gone
        eventually(lambda: hub.tables[table_id].seats[gone].connected == 0)
        # just gone (a reload?): not yet, and the answer says how long is left
        early = hand(host, gone)
        assert early.status_code == 409
        assert early.json()["detail"]["code"] == "too_early"
        assert "in 60 s" in early.json()["detail"]["message"]
        hub.settings = replace(hub.settings, hand_to_bot_seconds=0.2)
        eventually(lambda: hub.tables[table_id].roster.empty_for(gone) > 0.2)
        assert hand(stays, gone).status_code == 403  # an invitee is not the host
        assert hand(host, gone, key="not-the-key").status_code == 403
        assert hand(host, host).status_code == 409  # never the host's own seat
        assert hand(host, stays).status_code == 409  # a person still sits there
        assert [s["kind"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]] == [
            "human"
        ] * 3
        handed = hand(host, gone)
        assert handed.status_code == 200, handed.text
        assert handed.json() == {"seat": gone, "kind": "bot:easy"}
        assert hand(host, gone).status_code == 409  # a bot's seat now
        # the left person's key opens the seat no more: it is the bot's
        with socket(gone) as late:
            assert late.receive_json()["code"] == "forbidden"
        stays_ws.close()
        eventually(lambda: hub.tables[table_id].roster.empty_for(stays) > 0.2)
        assert hand(host, stays).status_code == 200
        # the game goes on: the host plays, the bots answer in the left seats
        rng = random.Random(4)
        frame = next_state(host_ws, hub.tables[table_id].version)  # past the frames queued
        while not any(move.seat == gone for move in hub.tables[table_id].state.log):
            assert frame["table"]["status"] != "finished"
            pause = frame["table"]["round_break"]
            if pause and host in pause["waiting"]:
                host_ws.send_json({"type": "next_round"})
                frame = next_state(host_ws, frame["version"])
                continue
            if frame["view"].get("legal_actions"):
                action = rng.choice(frame["view"]["legal_actions"])
                host_ws.send_json({"type": "action", "action": action, "version": frame["version"]})
            frame = next_state(host_ws, frame["version"] + 1)


# -- 3. limits under races ------------------------------------------------------------------
def test_simultaneous_creates_hold_the_unstarted_table_limit(tmp_path: Path) -> None:
    settings = Settings(bot_delay=0.0, tables_burst=100, tables_per_minute=100.0)
    body = {"game": "koi-koi", "seats": ["human", "bot:random"]}
    with (
        server_thread(f"sqlite:///{tmp_path / 'race.db'}", settings) as (url, _app),
        ThreadPoolExecutor(20) as pool,
    ):
        answers = list(pool.map(lambda _: http("POST", f"{url}/api/tables", body), range(20)))
    made = [status for status, _ in answers if status == 201]
    assert len(made) == settings.unstarted_tables, sorted(status for status, _ in answers)
    assert all(status in (201, 429) for status, _ in answers)


def finished_koikoi(
    client: TestClient, seen: list[dict[str, Any]] | None = None
) -> tuple[str, str]:
    """A finished one-round koi-koi table against a bot: its id and the person's key
    (``seen``: every state frame the person got, in order)."""
    created = client.post(
        "/api/tables",
        json={"game": "koi-koi", "seats": ["human", "bot:random"], "options": {"rounds": 1}},
    ).json()
    table_id, key = created["id"], created["key"]
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={key}") as socket:
        while True:
            frame = socket.receive_json()
            if frame["type"] != "state":
                continue
            if seen is not None:
                seen.append(frame)
            if frame["table"]["status"] == "finished":
                break
            legal = frame["view"].get("legal_actions") or []
            if 0 in frame["view"]["to_move"] and legal:
                socket.send_json(
                    {"type": "action", "action": legal[0], "version": frame["version"]}
                )
    return table_id, key


def test_simultaneous_rematches_make_one_table(tmp_path: Path) -> None:
    settings = FAST
    with server_thread(f"sqlite:///{tmp_path / 'rematch.db'}", settings) as (url, app):
        with TestClient(app) as client:
            table_id, key = finished_koikoi(client)
        body = {"seat": 0, "key": key}
        with ThreadPoolExecutor(10) as pool:
            answers = list(
                pool.map(
                    lambda _: http("POST", f"{url}/api/tables/{table_id}/rematch", body), range(10)
                )
            )
        assert {status for status, _ in answers} == {200}
        assert len({answer["id"] for _, answer in answers}) == 1
        # asked again after the new table left memory: still the same one
        hub = app.state.hub
        rematch_id = answers[0][1]["id"]
        hub.tables.pop(rematch_id)
        status, again = http("POST", f"{url}/api/tables/{table_id}/rematch", body)
        assert (status, again["id"]) == (200, rematch_id)


# -- 4. the lesson preset -------------------------------------------------------------------
@pytest.mark.parametrize("game", ["koi-koi", "bakappana", "hana-awase"])
def test_the_lesson_preset_makes_no_ordinary_table(client: TestClient, game: str) -> None:
    for public in (True, False):
        body = {"game": game, "seats": ["human", "human"], "preset": "lesson", "public": public}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"]["code"] == "bad_preset"
    assert client.get("/api/tables").json() == []


def test_a_lesson_is_never_listed(client: TestClient) -> None:
    made = client.post("/api/learn/koi-koi", json={})
    assert made.status_code == 201
    assert client.get("/api/tables").json() == []
    assert client.get(f"/api/tables/{made.json()['id']}").json()["public"] is False


# -- 5. endpoints without bounds -------------------------------------------------------------
def test_rating_refuses_what_is_not_a_game(client: TestClient) -> None:
    one_seat = {"games": [{"game": "koi-koi", "seats": ["you"], "scores": [3]}]}
    assert client.post("/api/rating", json=one_seat).status_code == 422
    for bad in ("NaN", "Infinity", "-Infinity", "1e400"):
        text = '{"games": [{"game": "koi-koi", "seats": ["you", "hard"], "scores": [%s, 1]}]}'
        answer = client.post(
            "/api/rating", content=text % bad, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 422, (bad, answer.text)
    # games not against the ladder are left out (tests/test_rating.py), not a 500
    unknown = {"games": [{"game": "chess", "seats": ["you", "hard"], "scores": [1, 0]}]}
    assert client.post("/api/rating", json=unknown).json() == {"ratings": {}}


def until_refused(ask: Callable[[], int], most: int) -> list[int]:
    """Statuses of ``ask`` until the first 429 (each refusal in a row is held longer)."""
    statuses: list[int] = []
    while len(statuses) < most and 429 not in statuses:
        statuses.append(ask())
    return statuses


def test_rating_and_qr_are_rate_limited(client: TestClient) -> None:
    game = {"game": "koi-koi", "seats": ["you", "hard"], "scores": [5, 1]}
    statuses = until_refused(
        lambda: client.post("/api/rating", json={"games": [game]}).status_code, 40
    )
    assert statuses[0] == 200 and statuses[-1] == 429
    codes = until_refused(
        lambda: client.get("/api/qr", params={"text": "http://x/t/1"}).status_code, 80
    )
    assert codes[0] == 200 and codes[-1] == 429


def test_the_rating_of_a_huge_record_is_capped(client: TestClient) -> None:
    game = {"game": "koi-koi", "seats": ["you", "hard"], "scores": [5, 1]}
    answer = client.post("/api/rating", json={"games": [game] * 5000})
    assert answer.status_code == 422  # more games than the cap on seat-games


@pytest.mark.parametrize(
    "name",
    [
        "\u200b",
        "\u202eevil",
        "\u200b\u200b ",
        "\u3164",
        "Bot (hard)",
        "Бот (сложный)",
        "Bot (trudny) 2",
        "\uff22\uff4f\uff54 (hard)",
    ],
)
def test_a_name_must_be_a_persons_name(client: TestClient, name: str) -> None:
    created = private_table(client, seats=2, game="koi-koi")
    keys = seat_keys(created)
    answer = client.post(
        f"/api/tables/{created['id']}/name", json={"seat": 1, "key": keys[1], "name": name}
    )
    if name.startswith("\u202e"):  # the override is dropped, the letters kept
        assert answer.status_code == 200
        assert answer.json()["name"] == "evil"
    else:
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"]["code"] == "bad_name"


def test_renames_are_rate_limited_and_only_before_the_game(client: TestClient) -> None:
    created = private_table(client, seats=2, game="koi-koi")
    keys = seat_keys(created)
    table_id = created["id"]

    def rename(n: int) -> int:
        body = {"seat": 1, "key": keys[1], "name": f"Anna {n}"}
        return client.post(f"/api/tables/{table_id}/name", json=body).status_code

    names = iter(range(30))
    statuses = until_refused(lambda: rename(next(names)), 30)
    assert statuses[0] == 200 and statuses[-1] == 429
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={keys[1]}"):
        pass  # both seats taken: the game has started
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    assert not table.roster.waiting_for()
    client.app.state.limits.renames.buckets.clear()  # type: ignore[attr-defined]
    assert rename(99) == 409


def test_reviews_share_the_hint_budget_and_leave_hints_for_players(tmp_path: Path) -> None:
    """A stranger asking for reviews of public games spends the address's hint budget,
    and the reviews that run leave the hint queue to players elsewhere."""
    settings = Settings(
        bot_delay=0.0, hint_workers=1, hint_queue=4, hints_burst=2, hints_per_minute=0.0,
        tables_burst=100, unstarted_tables=100, coach_iterations=200, compute="threads",
    )  # fmt: skip
    with TestClient(create_app(f"sqlite:///{tmp_path / 'rv.db'}", settings)) as client:
        finished = [finished_koikoi(client)[0] for _ in range(3)]
        statuses = [
            client.get(f"/api/tables/{table_id}/review?seat=0").status_code
            for table_id in finished
            for _ in range(3)  # asking again for a review under way costs nothing
        ]
        assert statuses == [200] * 6 + [429] * 3
        hub = client.app.state.hub  # type: ignore[attr-defined]
        limits = client.app.state.limits  # type: ignore[attr-defined]
        limits.hints.buckets.clear()  # the player below shares the test client's address
        created = client.post(
            "/api/tables", json={"game": "koi-koi", "seats": ["human", "bot:random"]}
        ).json()
        url = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
        with client.websocket_connect(url) as socket:
            for _ in range(2):
                socket.send_json({"type": "hint", "lang": "en"})
            answers = []
            while len(answers) < 2:
                reply = socket.receive_json()
                if reply["type"] not in ("state", "presence"):
                    answers.append(reply)
                assert hub.workers.hints_taken <= 1 + 2  # one review step and the two hints
        assert all(a.get("code") != "busy" for a in answers), answers


# -- 6. limit values --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "limit",
    ["max_body_bytes=-1", "bot_workers=0", "hint_workers=0", "rate_per_second=nan",
     "tables_burst=-5", "request_seconds=inf", "lobby_size=0"],
)  # fmt: skip
def test_nonsense_limits_are_refused_at_start(tmp_path: Path, limit: str) -> None:
    command = [sys.executable, "-m", "cardtable", "serve", "--db", f"sqlite:///{tmp_path}/x.db",
               "--port", "1", "--limit", limit]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert limit.split("=", maxsplit=1)[0] in done.stderr + done.stdout


# -- 8. records prove the moves ----------------------------------------------------------------
def last_frame(client: TestClient, table_id: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        return dict(socket.receive_json())


def test_every_frame_carries_the_head_of_the_moves_chain(client: TestClient) -> None:
    table_id, _key = finished_koikoi(client)
    frame = last_frame(client, table_id)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert frame["chain"] == {"moves": len(record["log"]), "head": record["fairness"]["links"][-1]}
    links = record["fairness"]["links"]
    assert len(set(links)) == len(links) == len(record["log"])
    assert record["signature"]["key"] == client.get("/api/signing-key").json()["key"]


def forgeries(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], int]]:
    """Each way of lying about the moves, with the first move (from 1) it changes."""
    log = record["log"]
    plays = [n for n, move in enumerate(log) if move["action"]["type"] == "play"]
    swapped = json.loads(json.dumps(record))
    first, last = plays[0], plays[-1]
    swapped["log"][first], swapped["log"][last] = log[last], log[first]
    yield "swapped", swapped, first + 1
    dropped = json.loads(json.dumps(record))
    del dropped["log"][-1]
    yield "dropped", dropped, len(log)
    altered = json.loads(json.dumps(record))
    altered["log"][plays[1]]["seat"] = 1 - altered["log"][plays[1]]["seat"]
    yield "altered", altered, plays[1] + 1


def test_a_reordered_dropped_or_altered_move_is_found_and_named(
    client: TestClient, tmp_path: Path
) -> None:
    """Swapping a koi-koi game's first and last plays still replayed legally and verified;
    now the chain and the signature reject it, and say which move."""
    from cardtable.server.fairness import Signer

    table_id, _key = finished_koikoi(client)
    record = client.get(f"/api/tables/{table_id}/record").json()
    honest = client.post("/api/verify", json=record).json()
    assert honest["ok"] and honest["chain_ok"] and honest["signature_ok"], honest
    for kind, forged, move in forgeries(record):
        verdict = client.post("/api/verify", json=forged).json()
        assert not verdict["ok"] and not verdict["signature_ok"], kind
        assert verdict["altered_move"] == move, (kind, verdict)
        assert any(f"move {move} " in problem for problem in verdict["problems"]), verdict
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(forged))
        said = CliRunner().invoke(cli, ["verify", str(path), "--key", record["signature"]["key"]])
        assert said.exit_code == 1
        assert f"at move {move}" in " ".join(said.output.split()), said.output
    from cardtable.server.fairness import Commitment, seal

    fairness = record["fairness"]
    sealed = Commitment(seed=fairness["seed"], salt=fairness["salt"])
    unsigned = {k: v for k, v in next(forgeries(record))[1].items() if k != "fairness"}
    resigned = seal(unsigned, sealed, Signer(Signer.new_key()))
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(resigned))
    server_key = client.get("/api/signing-key").json()["key"]
    said = CliRunner().invoke(cli, ["verify", str(path), "--key", server_key])
    assert said.exit_code == 1 and "signed by another key" in " ".join(said.output.split())
    verdict = client.post("/api/verify", json=resigned).json()
    # a forgery made consistent, chain and all, is signed by another key than the server's
    assert not verdict["ok"] and verdict["chain_ok"]
    assert "signed by another key than this server" in verdict["problems"]
    stripped = {k: v for k, v in record.items() if k != "signature"}
    assert (
        "the record is not signed by a server"
        in client.post("/api/verify", json=stripped).json()["problems"]
    )


def test_the_chain_in_frames_is_keyed_by_the_secret_salt(client: TestClient) -> None:
    """Mid-game, a frame's head cannot be recomputed without the deal's salt (a player
    could otherwise try the few moves a hidden one could be); at the end the revealed salt
    recomputes every head the frames showed."""
    from cardtable.server.fairness import chain_links

    frames: list[dict[str, Any]] = []
    table_id, _key = finished_koikoi(client, frames)
    heads = {frame["chain"]["moves"]: frame["chain"]["head"] for frame in frames}
    record = client.get(f"/api/tables/{table_id}/record").json()
    fairness = record["fairness"]
    links = chain_links(fairness["commitment"], fairness["salt"], record["log"])
    assert all(heads[n] == links[n - 1] for n in heads if n), heads
    for guess in ("", "00" * 16):  # without the salt the heads are not to be had
        assert chain_links(fairness["commitment"], guess, record["log"])[-1] != links[-1]


# -- 9. small ---------------------------------------------------------------------------------
def test_a_played_card_or_a_table_id_is_not_echoed(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]})
    table = created.json()
    missing = client.get("/api/tables/zz<b>x</b>")
    assert missing.status_code == 404 and "<b>" not in missing.text
    url = f"/ws/tables/{table['id']}?seat={table['seat']}&key={table['key']}"
    with client.websocket_connect(url) as socket:
        socket.receive_json()
        socket.send_json({"type": "action", "action": {"type": "play", "card": "<b>x</b>"}})
        while (reply := socket.receive_json())["type"] != "error":
            pass
    assert "<b>" not in json.dumps(reply), reply
    forged = {"format": "cardtable-game/1", "game": "koi-koi", "seed": 1, "log": [],
              "fairness": {"salt": "\ud800", "seed": 1, "commitment": "x"},
              "signature": {"algorithm": "Ed25519", "key": "\ud800", "value": "<b>"}}  # fmt: skip
    answer = client.post(
        "/api/verify", content=json.dumps(forged), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 200 and not answer.json()["ok"]
    assert "<b>" not in answer.text and answer.json()["signed_by"] is None


def test_a_trusted_proxy_must_be_an_address(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "cardtable", "serve", "--db", f"sqlite:///{tmp_path}/x.db",
               "--port", "1", "--trusted-proxy", "localhost"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--trusted-proxy" in done.stdout + done.stderr


@pytest.mark.parametrize(
    "body",
    [
        {"game": "koi-koi", "seats": ["human", "bot:<b>x</b>"]},
        {"game": "koi-koi", "seats": ["human", "human"], "preset": "<b>x</b>"},
        {"game": "koi-koi", "seats": ["human", "human"], "options": {"<b>x</b>": 1}},
        {"game": "<b>x</b>", "seats": ["human", "human"]},
    ],
)
def test_error_answers_never_echo_the_input(client: TestClient, body: dict[str, Any]) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert "<b>x</b>" not in answer.text
    assert answer.json()["detail"]["message"]


# -- issue 38: a table nobody joined does not think ------------------------------------------
def test_bots_think_only_while_a_person_sits_at_the_table(client: TestClient) -> None:
    """Ohanami's first step is simultaneous: the bot would keep its cards at once. Made
    and left alone, the table schedules no bot move; a person sitting down starts it."""
    created = client.post(
        "/api/tables", json={"game": "ohanami", "seats": ["human", "bot:easy", "bot:easy"]}
    ).json()
    table = client.app.state.hub.tables[created["id"]]  # type: ignore[attr-defined]
    assert {1, 2} <= set(table.state.to_move)
    assert table.driver.next_event() == (None, None)
    url = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
    with client.websocket_connect(url) as socket:
        while True:  # until both bots have kept their cards
            frame = socket.receive_json()
            if frame["type"] == "state" and not {1, 2} & set(frame["view"]["to_move"]):
                break
    assert frame["version"] == 2


# -- issue 39, item 12: an unknown game's pages -------------------------------------------------
@pytest.mark.parametrize("path", ["/learn/nosuchgame", "/rules/nosuchgame"])
def test_an_unknown_games_page_is_a_page(client: TestClient, path: str) -> None:
    """/learn/nosuchgame answered raw JSON: now the 404 page every address has, in the
    reader's language, with the way back to the lobby."""
    answer = client.get(path, headers={"accept-language": "pl-PL,pl;q=0.9"})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert 'lang="pl"' in answer.text and 'id="lobby-link"' in answer.text
    assert "nosuchgame" not in answer.text
