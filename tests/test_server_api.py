"""The web server's HTTP API and WebSocket protocol, in-process (FastAPI TestClient)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.games.hanafuda.deck import CODES
from cardtable.server.app import create_app
from cardtable.server.errors import TableError
from cardtable.server.fairness import Commitment, digest_of, verify
from cardtable.server.hub import LOBBY_GRACE_SECONDS
from cardtable.server.roster import SeatInfo
from cardtable.server.seat_names import seat_labels

from .server_helpers import FAST, eventually, seat_keys
from .socket_play import Frame, next_reply, next_state, play_game, play_seat


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as test_client:
        yield test_client


def create(client: TestClient, **body: object) -> dict[str, object]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_catalogue_lists_every_game_with_its_options_schema(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) == {
        "bakappana",
        "koi-koi",
        "hana-awase",
        "hana-awase-88",
        "ohanami",
        "siedem-slow",
    }
    koikoi = games["koi-koi"]
    assert "rounds" in koikoi["schema"]["properties"]
    assert "nintendo" in koikoi["presets"]
    assert {"easy", "medium", "hard", "random"} <= set(koikoi["bots"])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess", "seats": ["human"]}, "unknown game;"),
        ({"game": "koi-koi", "seats": ["human", "bot:wizard"]}, "unknown bot"),
        ({"game": "koi-koi", "seats": ["human", "human", "human"]}, "players is not valid"),
        ({"game": "koi-koi", "seats": ["bot:easy", "bot:easy"]}, "at least one human"),
        ({"game": "koi-koi", "seats": ["human", "human"], "options": {"rounds": 5}}, "rounds is"),
    ],
)
def test_bad_table_requests_say_why(
    client: TestClient, body: dict[str, object], message: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert message in response.json()["detail"]["message"]


def test_lobby_invites_and_claims(client: TestClient) -> None:
    created = create(client, game="bakappana", seats=["human", "human", "bot:easy"])
    table_id = created["id"]
    lobby = client.get("/api/tables").json()
    assert [t["free_seats"] for t in lobby if t["id"] == table_id] == [[1]]
    claimed = client.post(f"/api/tables/{table_id}/claim", json={}).json()
    assert claimed["seat"] == 1
    # the invite link made at creation died with the claim; the claimed key works
    old_key = seat_keys(created)[1]
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={old_key}") as ws:
        assert ws.receive_json()["code"] == "forbidden"
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={claimed['key']}") as ws:
        assert ws.receive_json()["seat"] == 1
    again = client.post(f"/api/tables/{table_id}/claim", json={})
    assert again.status_code == 409
    # every seat taken: listed, with no free seat, while a person sits there
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={claimed['key']}") as ws:
        ws.receive_json()
        lobby = client.get("/api/tables").json()
        assert [t["free_seats"] for t in lobby if t["id"] == table_id] == [[]]


def listed(client: TestClient) -> set[str]:
    return {table["id"] for table in client.get("/api/tables").json()}


def test_the_lobby_lists_no_game_its_person_left(client: TestClient) -> None:
    """A game against bots whose person has gone is not an open table: nobody can join it
    and nobody plays there (issue 39: "Open tables" filled with abandoned bot games)."""
    created = create(client, game="koi-koi", seats=["human", "bot:easy"])
    table_id = str(created["id"])
    seat, key = created["seat"], created["key"]
    with client.websocket_connect(f"/ws/tables/{table_id}?seat={seat}&key={key}") as ws:
        ws.receive_json()
        assert table_id in listed(client)  # a person plays there: worth watching
    # the person left (the server hears the socket close a moment later): bots alone
    eventually(lambda: table_id not in listed(client), what="the left game leaves the lobby")
    # a table waiting for a friend is listed while its host waits there (its free seat can
    # be taken), and just after it was made, before the host's page has connected ...
    waiting = create(client, game="koi-koi", seats=["human", "human"])
    waiting_id, host, host_key = str(waiting["id"]), waiting["seat"], waiting["key"]
    assert waiting_id in listed(client)
    with client.websocket_connect(f"/ws/tables/{waiting_id}?seat={host}&key={host_key}") as ws:
        ws.receive_json()
        assert waiting_id in listed(client)
    # ... but not once its host has gone: nobody would start it
    client.app.state.hub.tables[waiting_id].row.created_at -= LOBBY_GRACE_SECONDS  # type: ignore[attr-defined]
    eventually(lambda: waiting_id not in listed(client), what="the left waiting table goes")


def test_the_seed_stays_secret_until_the_end_then_verifies(client: TestClient) -> None:
    rng = random.Random(3)
    created = create(client, game="koi-koi", seats=["human", "human"], options={"rounds": 1})
    table_id = str(created["id"])
    assert client.get(f"/api/tables/{table_id}/record").status_code == 409
    assert "reveal" not in client.get(f"/api/tables/{table_id}").json()
    # play a different (new) table to the end through the sockets
    table_id, replica = play_game(client, "koi-koi", {"rounds": 1}, 2, rng)
    meta = client.get(f"/api/tables/{table_id}").json()
    assert meta["status"] == "finished"
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert digest_of(record["fairness"]["seed"], record["fairness"]["salt"]) == meta["commitment"]
    verdict = client.post("/api/verify", json=record).json()
    assert verdict["ok"] and verdict["moves"] == len(record["log"])
    assert verdict["scores"] == list(replica.scores())
    # a record whose seed was swapped after the fact fails
    forged = json.loads(json.dumps(record))
    forged["seed"] = forged["fairness"]["seed"] = forged["seed"] + 1
    bad = verify(forged)
    assert not bad.commitment_ok and "do not match" in bad.problems[0]
    replay = client.get(f"/api/tables/{table_id}/replay?seat=0").json()
    assert len(replay["views"]) == len(record["log"]) + 1
    assert replay["views"][-1]["scores"] == list(replica.scores())


def test_cardtable_verify_command(client: TestClient, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardtable.cli import app as cli

    table_id, _ = play_game(client, "bakappana", {"rounds": 1, "players": 2}, 2, random.Random(8))
    record = client.get(f"/api/tables/{table_id}/record").json()
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    server_key = client.get("/api/signing-key").json()["key"]
    result = CliRunner().invoke(cli, ["verify", str(good), "--key", server_key])
    assert result.exit_code == 0, result.output
    assert f"{len(record['log'])} moves replay legally" in result.output
    record["log"] = record["log"][:-3] + record["log"][-2:]  # a move went missing
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["verify", str(bad), "--key", server_key])
    assert result.exit_code == 1
    assert "does not replay" in result.output


@contextmanager
def two_seats(
    client: TestClient, game: str = "koi-koi"
) -> Iterator[tuple[str, tuple[Any, Frame], tuple[Any, Frame]]]:
    """A table of ``game`` for two people, both connected: its id, and each seat's socket
    with its first frame."""
    created = create(client, game=game, seats=["human", "human"])
    table_id, keys = created["id"], seat_keys(created)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0,
        client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={keys[1]}") as s1,
    ):
        yield table_id, (s0, next_state(s0, 0)), (s1, next_state(s1, 0))


@contextmanager
def two_people(client: TestClient) -> Iterator[tuple[str, int, Any, Frame, Any]]:
    """A koi-koi table of two people, both connected: its id, the seat to move, that seat's
    socket and first frame, and the other seat's socket."""
    with two_seats(client) as (table_id, (s0, f0), (s1, f1)):
        mover, socket, frame = (0, s0, f0) if f0["view"]["legal_actions"] else (1, s1, f1)
        yield table_id, mover, socket, frame, (s1 if mover == 0 else s0)


def test_a_refused_move_carries_its_message_key_and_values(client: TestClient) -> None:
    """The error frame of a move the rules refuse says it by key, for the page's language."""
    with two_people(client) as (_table_id, mover, socket, frame, waiter):
        waiter.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
        refused = next_reply(waiter)
        assert refused["code"] == "illegal" and refused["key"] == "illegal.not_to_move"
        assert refused["values"] == {"seat": 1 - mover, "waiting": str(mover)}
        assert (
            refused["message"] == f"seat {1 - mover} is not to move now (waiting for seat {mover})"
        )
        hand = {action["card"] for action in frame["view"]["legal_actions"]}
        missing = next(code for code in CODES if code not in hand)
        socket.send_json({"type": "action", "action": {"type": "play", "card": missing}})
        refused = next_reply(socket)
        assert refused["key"] == "illegal.not_in_hand" and refused["values"] == {"card": missing}
        socket.send_json({"type": "action", "action": {"type": "nonsense"}})
        malformed = next_reply(socket)  # not the rules' words: no key
        assert malformed["code"] == "illegal" and "key" not in malformed


def test_commitment_hides_and_binds() -> None:
    sealed = Commitment.draw()
    assert sealed.matches(sealed.digest)
    assert not Commitment(sealed.seed + 1, sealed.salt).matches(sealed.digest)
    assert not Commitment(sealed.seed, sealed.salt + "0").matches(sealed.digest)
    assert Commitment.draw().seed != sealed.seed  # drawn from the CSPRNG, not a counter
    assert all(Commitment.draw().seed < 2**53 for _ in range(100))  # exact in JavaScript


def test_illegal_and_out_of_turn_actions_change_nothing(client: TestClient) -> None:
    with two_people(client) as (table_id, _mover, socket, frame, waiter):
        waiter.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
        assert next_reply(waiter)["code"] == "illegal"
        socket.send_json({"type": "action", "action": {"type": "play", "card": "13-1"}})
        assert next_reply(socket)["code"] == "illegal"
        socket.send_json(
            {"type": "action", "action": frame["view"]["legal_actions"][0], "version": 9}
        )
        assert next_reply(socket)["code"] == "stale"
        socket.send_json({"type": "ping"})
        assert next_reply(socket) == {"type": "pong"}
        assert client.get(f"/api/tables/{table_id}").json()["moves"] == 0
        socket.send_json(
            {"type": "action", "action": frame["view"]["legal_actions"][0], "version": 0}
        )
        assert next_state(socket, 1)["version"] == 1


def test_a_move_sent_while_another_seat_chose_at_once_is_not_stale(client: TestClient) -> None:
    """Ohanami's keeping is simultaneous: a seat's keep sent from the frame before another
    seat kept is still its choice and is played (it used to be refused as stale and lost
    without a word); the same keep sent again from that frame is a stale double click. A
    move the rules refuse, chosen on an older frame, is a race (stale: the page says
    nothing), on the latest frame the player's mistake (illegal: the page says why)."""
    with two_seats(client, "ohanami") as (table_id, (s0, f0), (s1, f1)):
        assert f0["version"] == f1["version"] == 0
        keep0, keep1 = f0["view"]["legal_actions"][0], f1["view"]["legal_actions"][0]
        s1.send_json({"type": "action", "action": keep1, "version": 0})
        assert next_state(s0, 1)["version"] == 1
        wrong = {**keep0, "cards": keep1["cards"]}  # the other seat's cards
        s0.send_json({"type": "action", "action": wrong, "version": 0})
        assert next_reply(s0)["code"] == "stale"
        s0.send_json({"type": "action", "action": wrong, "version": 1})
        assert next_reply(s0)["code"] == "illegal"
        s0.send_json({"type": "action", "action": keep0, "version": 0})  # chosen from frame 0
        assert next_state(s0, 2)["version"] == 2
        s0.send_json({"type": "action", "action": keep0, "version": 1})
        assert next_reply(s0)["code"] == "stale"
        s0.send_json({"type": "action", "action": keep0, "version": 7})  # a frame never sent
        assert next_reply(s0)["code"] == "stale"
        # placing is simultaneous too: seat 0 places; seat 1's placing worked out on frame 2
        # is still seat 1's choice, but the move clock's move for a person needs the very
        # frame it was worked out on (seat 0's move restarted seat 1's clock)
        table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
        place0 = table.state.legal_actions(0)[0].to_json()
        s0.send_json({"type": "action", "action": place0, "version": 2})
        assert next_state(s0, 3)["version"] == 3
        place1 = table.state.legal_actions(1)[0]
        assert client.portal is not None
        with pytest.raises(TableError, match="moved on"):
            client.portal.call(lambda: table.act(1, place1, expect_version=2, exact=True))
        client.portal.call(lambda: table.act(1, place1, expect_version=2))
    assert client.get(f"/api/tables/{table_id}").json()["moves"] == 4


def test_bots_play_server_side_and_rematch_keeps_the_seats(client: TestClient) -> None:
    created = create(
        client, game="koi-koi", seats=["human", "bot:random"], options={"rounds": 3}, names=["Ann"]
    )
    table_id, key = created["id"], created["key"]
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={key}") as ws:
        play_seat(ws, 0, lambda frame: rng.choice(frame["view"]["legal_actions"]))
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["log"] and any(move["seat"] == 1 for move in record["log"])  # the bot played
    new = client.post(f"/api/tables/{table_id}/rematch", json={"seat": 0, "key": key}).json()
    assert new["id"] != table_id
    assert client.get(f"/api/tables/{table_id}").json()["rematch_id"] == new["id"]
    with client.websocket_connect(f"/ws/tables/{new['id']}?seat=0&key={key}") as ws:
        seats = next_state(ws, 0)["table"]["seats"]
    assert [(s["kind"], s["name"], s["chosen"]) for s in seats] == [
        ("human", "Ann", True), ("bot:random", "Bot (random)", False)
    ]  # the bot is still called in each reader's language  # fmt: skip
    wrong = client.post(f"/api/tables/{table_id}/rematch", json={"seat": 0, "key": "nope"})
    assert wrong.status_code == 403


def test_unnamed_seats_are_called_in_each_readers_language(client: TestClient) -> None:
    """A seat nobody named carries its kind, not the creator's words: each page and the
    coach call it in their own language; a chosen name is everyone's."""
    # defaults in the creator's language, as pages sent them before (a cached one may)
    sent = ["Anna", "Gracz 2", "Bot (trudny)", "Бот (сложный) 2"]
    created = create(
        client, game="bakappana", seats=["human", "human", "bot:hard", "bot:hard"],
        names=sent, public=False,
    )  # fmt: skip
    table_id = created["id"]
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["chosen"]) for s in seats] == [
        ("Anna", True), ("Player 2", False), ("Bot (hard)", False), ("Bot (hard) 2", False)
    ]  # fmt: skip
    tables = client.app.state.hub.tables  # type: ignore[attr-defined]
    assert seat_labels(tables[table_id].seats, "ru") == [
        "Anna", "Игрок 2", "Бот (сложный)", "Бот (сложный) 2"
    ]  # fmt: skip
    guest = {"seat": 1, "key": seat_keys(created)[1]}
    renamed = client.post(f"/api/tables/{table_id}/name", json={**guest, "name": " Anna  "})
    assert renamed.json()["name"] == "Anna 2"  # a chosen name is numbered apart too
    posing = client.post(f"/api/tables/{table_id}/name", json={**guest, "name": " Bot  (hard) "})
    assert posing.json()["detail"]["code"] == "bad_name"  # a person may not pass for a bot
    back = client.post(f"/api/tables/{table_id}/name", json={**guest, "name": "Игрок 2"})
    assert back.json()["name"] == "Player 2" and not tables[table_id].seats[1].chosen
    # a table saved before names were per reader: its defaults follow each reader again
    saved = [{"kind": "human", "name": "Gracz 1", "key": None, "claimed": True},
             {"kind": "bot:hard", "name": "Bot (trudny)", "key": None, "claimed": False},
             {"kind": "human", "name": "Ola", "key": None, "claimed": True}]  # fmt: skip
    seats = [SeatInfo.from_row(row, n) for n, row in enumerate(saved)]
    assert seat_labels(seats, "ru") == ["Игрок 1", "Бот (сложный)", "Ola"]


def test_pages_cards_and_locales_are_served(client: TestClient) -> None:
    table_id = create(client, game="koi-koi", seats=["human", "human"])["id"]
    for path in (
        "/",
        f"/t/{table_id}",
        f"/replay/{table_id}",
        "/verify",
        "/static/js/table.js",
        "/static/css/app.css",
    ):
        assert client.get(path).status_code == 200, path
    for path in ("/t/abc", "/replay/abc"):  # no such table: a 404 page, not a page that waits
        assert client.get(path).status_code == 404, path
    cards = client.get("/api/cards").json()
    assert len(cards["hanafuda"]["cards"]) == 48
    assert len(cards["ohanami"]["colours"]) == 120
    english = client.get("/api/locales/en").json()
    for lang in ("pl", "ru"):
        assert set(client.get(f"/api/locales/{lang}").json()) == set(english)
    assert client.get("/api/locales/xx").status_code == 404


def test_options_naming_local_files_are_refused_over_the_web(client: TestClient) -> None:
    body = {
        "game": "siedem-slow",
        "seats": ["human", "human"],
        "options": {"dictionary": "/etc/passwd"},
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert "only be changed on the command line" in response.json()["detail"]["message"]
    schema = next(g for g in client.get("/api/games").json() if g["id"] == "siedem-slow")["schema"]
    assert schema["properties"]["dictionary"]["x-local-only"] is True


def test_companion_pads_keep_their_rounds_and_refuse_garbage(client: TestClient) -> None:
    pad = client.post("/api/companion", json={"kind": "hanafuda", "game": "koi-koi"}).json()
    facts = {"piles": [["08-1", "08-2", "09-1"], []], "shobu": 0}
    saved = client.put(f"/api/companion/{pad['id']}", json={"rounds": [facts], "current": facts})
    assert saved.status_code == 200
    again = client.get(f"/api/companion/{pad['id']}").json()  # from the database
    assert again["data"]["rounds"] == [facts]
    assert again["results"]["totals"] == [35, 25]  # zero-sum koi-koi from 30 each
    assert again["results"]["current"]["scores"] == [5, -5]
    for bad in ({"rounds": [{"piles": "x"}]}, {"rounds": [42]}, {"rounds": "nope"}):
        assert client.put(f"/api/companion/{pad['id']}", json=bad).status_code in (400, 422)
    odd = client.put(
        f"/api/companion/{pad['id']}", json={"rounds": [], "current": {"piles": [["13-1"], []]}}
    )
    assert "not a hanafuda card" in odd.json()["results"]["current_error"]
    ohanami = client.post(
        "/api/companion", json={"kind": "ohanami", "game": "ohanami", "options": {"players": 2}}
    ).json()
    stage = [{"counts": {"blue": 2}}, {"cards": [3, 6]}]
    answer = client.put(
        f"/api/companion/{ohanami['id']}", json={"rounds": [stage], "current": [7, 8]}
    ).json()
    assert answer["results"]["totals"] == [6, 0] and "current_error" in answer["results"]
    assert (
        client.post("/api/companion", json={"kind": "chess", "game": "koi-koi"}).status_code == 422
    )
    assert (
        client.post("/api/companion", json={"kind": "hanafuda", "game": "ohanami"}).status_code
        == 400
    )
    assert client.get("/api/companion/nope").status_code == 404


def test_a_finished_table_names_its_winners_with_the_games_tie_break(client: TestClient) -> None:
    # seed 43 played at random ends 68-68; seat 0 has more pink cards (Ohanami's tie-break)
    state = cardtable.load("ohanami", players=2).new_state(seed=43)
    policy = random.Random(43)
    while not state.is_over:
        for seat in sorted(state.to_move):
            state.apply(seat, policy.choice(state.legal_actions(seat)))
    assert state.scores() == (68, 68)
    table_id = create(client, game="ohanami", seats=["human", "bot:random"])["id"]
    live = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    live.state = state
    assert live.frames.frame(None)["table"]["winners"] == [0]
