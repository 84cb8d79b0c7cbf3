"""Quick match and ratings over HTTP (issue 47): two tickets meet at one table, nobody
meets themself or sits in two matches, a ticket nobody polls drops out, the bot is
offered after its wait, and a rated game moves both players' Glicko-2 ratings."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import match_store as kept
from cardtable.server.app import create_app
from cardtable.server.player_keys import player_hash
from cardtable.server.store import Store

from .server_helpers import FAST
from .test_server_restart import postgres

SETTINGS = replace(FAST, match_bot_offer_seconds=1.0, match_drop_seconds=1.5)
ALA, OLGA = "a1" * 16, "b2" * 16
__all__ = ["postgres"]  # a fixture, used by name


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path / "match.db"
    with TestClient(create_app(f"sqlite:///{db}", SETTINGS)) as client:
        yield client, db


def ticket(client: TestClient, player: str | None, rated: bool = True, **more: Any) -> str:
    body = {"game": "koi-koi", "rated": rated, "name": "x", "player": player, **more}
    answer = client.post("/api/match", json=body)
    assert answer.status_code == 202, answer.json()
    return str(answer.json()["ticket"])


def look(client: TestClient, ticket_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/match/{ticket_id}")
    assert answer.status_code == 200, answer.json()
    return dict(answer.json())


def test_two_tickets_meet_at_one_table_both_seated(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    first = ticket(client, ALA)
    waiting = look(client, first)
    assert waiting["status"] == "waiting" and waiting["waiting"] == 1
    assert not waiting["bot_offer"]
    assert client.get("/api/match").json() == {"waiting": {"koi-koi": 1}}
    second = ticket(client, OLGA)
    one, two = look(client, first), look(client, second)  # paired by the second POST
    assert one["status"] == two["status"] == "matched"
    assert one["table"] == two["table"] and {one["seat"], two["seat"]} == {0, 1}
    meta = client.get(f"/api/tables/{one['table']}").json()
    assert meta["public"] is False and meta["waiting"] == []  # nobody else takes a seat
    for seen in (one, two):
        with client.websocket_connect(
            f"/ws/tables/{seen['table']}?seat={seen['seat']}&key={seen['key']}"
        ) as socket:
            assert socket.receive_json()["seat"] == seen["seat"]
    assert client.get("/api/match").json() == {"waiting": {}}


def test_never_yourself_never_two_matches_at_once(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    first = ticket(client, ALA)
    second = ticket(client, ALA)  # the same browser again (another tab)
    assert look(client, first)["status"] == "left"  # the newer ticket took its place
    assert look(client, second)["status"] == "waiting"
    assert look(client, second)["waiting"] == 1
    casual = ticket(client, OLGA, rated=False)  # a casual ticket never meets a rated one
    assert look(client, casual)["status"] == "waiting"
    other_preset = ticket(client, "c3" * 16, preset="koikoi_japan")
    assert look(client, other_preset)["status"] == "waiting"


def test_a_ticket_nobody_polls_drops_out(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    gone = ticket(client, ALA)
    time.sleep(SETTINGS.match_drop_seconds + 0.2)  # the drop is time itself: nothing to wait on
    fresh = ticket(client, OLGA)
    assert look(client, fresh)["status"] == "waiting"
    assert look(client, fresh)["waiting"] == 1  # only the fresh one counts
    client.delete(f"/api/match/{fresh}")
    assert look(client, fresh)["status"] == "left"
    assert look(client, gone)["status"] == "waiting"  # it polls again: back in the queue


def test_the_bot_is_offered_after_the_wait(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    alone = ticket(client, ALA)
    assert client.post(f"/api/match/{alone}/bot", json={}).status_code == 409  # not yet
    time.sleep(SETTINGS.match_bot_offer_seconds)
    assert look(client, alone)["bot_offer"]
    table = client.post(f"/api/match/{alone}/bot", json={}).json()
    meta = client.get(f"/api/tables/{table['table']}").json()
    assert [s["kind"] for s in meta["seats"]] == ["human", "bot:medium"]
    assert look(client, alone)["status"] == "bot"
    assert look(client, ticket(client, OLGA))["status"] == "waiting"  # it left the queue


def test_refusals(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    rated_without_key = client.post("/api/match", json={"game": "koi-koi", "rated": True})
    assert rated_without_key.json()["detail"]["code"] == "bad_player"
    short_key = client.post("/api/match", json={"game": "koi-koi", "player": "abc"})
    assert short_key.json()["detail"]["code"] == "bad_player"
    no_game = client.post("/api/match", json={"game": "chess", "player": ALA})
    assert no_game.status_code == 400
    no_preset = client.post("/api/match", json={"game": "koi-koi", "preset": "x", "player": ALA})
    assert no_preset.json()["detail"]["code"] == "bad_preset"
    assert client.get("/api/match/nope").status_code == 404
    three = client.post("/api/match", json={"game": "hana-awase-88", "player": ALA})
    assert three.json()["detail"]["code"] == "bad_game"  # played by three: not two


def finish(client: TestClient, table_id: str) -> list[int]:
    """Play the table to its end with random legal moves, in the server's own loop; the
    winners."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    rng = random.Random(47)

    async def play() -> list[int]:
        table = hub.tables[table_id]
        while not table.finished:
            if table.round_break is not None:
                for seat in table.roster.humans():
                    await table.next_round(seat)
                continue
            seat = min(s for s in table.state.to_move if s >= 0)
            await table.act(seat, rng.choice(table.state.legal_actions(seat)))
        return list(table.state.result().winners)

    return client.portal.call(play)  # type: ignore[union-attr, no-any-return]


def test_a_rated_game_moves_both_ratings(served: tuple[TestClient, Path]) -> None:
    client, db = served
    tickets = {ALA: ticket(client, ALA), OLGA: ticket(client, OLGA)}
    seats = {player: look(client, t)["seat"] for player, t in tickets.items()}
    table_id = look(client, tickets[ALA])["table"]
    before = client.get(f"/api/tables/{table_id}/ratings").json()
    assert before["rated"] and [s["shown"] for s in before["seats"]] == ["1 500 ± 350"] * 2
    winners = finish(client, table_id)
    after = {p: client.post("/api/players/ratings", json={"player": p}).json() for p in seats}
    for player, seat in seats.items():
        rating = after[player]["ratings"]["koi-koi"]
        assert rating["games"] == 1 and rating["provisional"]
        assert rating["deviation"] < 350  # one game made it surer
        moved = rating["rating"] - 1500
        assert moved > 0 if winners == [seat] else moved < 0 if len(winners) == 1 else True
        assert [h["table"] for h in after[player]["history"]] == [table_id]
    at_table = client.get(f"/api/tables/{table_id}/ratings").json()["seats"]
    assert [s["games"] for s in at_table] == [1, 1]
    # counted once, however often it is asked for
    again = client.post("/api/players/ratings", json={"player": ALA}).json()
    assert again["ratings"]["koi-koi"]["games"] == 1
    # the server keeps only the keys' hashes
    with sqlite3.connect(db) as kept:
        dump = "\n".join(kept.iterdump())
    assert ALA not in dump and OLGA not in dump and player_hash(ALA) in dump


def test_continue_on_another_device_carries_the_player_key(
    served: tuple[TestClient, Path],
) -> None:
    client, _ = served
    made = client.post("/api/transfers", json={"seats": [], "record": None, "player": ALA})
    taken = client.post("/api/transfers/take", json={"token": made.json()["token"]}).json()
    assert taken["player"] == ALA
    bad = client.post("/api/transfers", json={"seats": [], "player": "not-a-key"})
    assert bad.status_code == 422


def test_an_abandoned_rated_game_is_lost_after_the_clock_and_grace(tmp_path: Path) -> None:
    """Olga never comes to the table: once the move clock and the grace period have run
    out she has lost it, and Ala, who stayed, has won it."""
    quick = replace(SETTINGS, match_move_seconds=1, abandon_grace_seconds=3.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gone.db'}", quick)) as client:
        tickets = {ALA: ticket(client, ALA), OLGA: ticket(client, OLGA)}
        ala = look(client, tickets[ALA])
        with client.websocket_connect(
            f"/ws/tables/{ala['table']}?seat={ala['seat']}&key={ala['key']}"
        ) as socket:
            socket.receive_json()
            rated = client.post("/api/players/ratings", json={"player": OLGA}).json()
            assert rated["ratings"] == {}  # not yet: she may still come
            time.sleep(quick.match_move_seconds + quick.abandon_grace_seconds + 0.2)
            lost = client.post("/api/players/ratings", json={"player": OLGA}).json()
            won = client.post("/api/players/ratings", json={"player": ALA}).json()
        assert lost["ratings"]["koi-koi"]["rating"] < 1500 < won["ratings"]["koi-koi"]["rating"]


def test_a_rated_game_left_first_by_one_is_theirs_lost_when_the_table_leaves_memory(
    tmp_path: Path,
) -> None:
    """Olga leaves, Ala plays on past the move clock and the grace, then leaves too, and
    nobody asks for a rating before the table leaves memory: it is still Olga's loss (it
    used to be stored as abandoned and counted as a draw)."""
    quick = replace(SETTINGS, match_move_seconds=1, abandon_grace_seconds=1.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'left.db'}", quick)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        tickets = {ALA: ticket(client, ALA), OLGA: ticket(client, OLGA)}
        seen = {who: look(client, tickets[who]) for who in (ALA, OLGA)}

        def socket(who: str) -> Any:
            at = seen[who]
            return client.websocket_connect(
                f"/ws/tables/{at['table']}?seat={at['seat']}&key={at['key']}"
            )

        with socket(ALA) as ala:
            ala.receive_json()
            with socket(OLGA) as olga:
                olga.receive_json()
            time.sleep(quick.match_move_seconds + quick.abandon_grace_seconds + 0.3)
        later = time.time() + quick.evict_after_seconds + 1
        gone = client.portal.call(hub.evict_abandoned, later)  # type: ignore[union-attr]
        assert seen[ALA]["table"] in gone
        lost = client.post("/api/players/ratings", json={"player": OLGA}).json()
        won = client.post("/api/players/ratings", json={"player": ALA}).json()
    assert lost["ratings"]["koi-koi"]["rating"] < 1500 < won["ratings"]["koi-koi"]["rating"]


def test_a_game_across_days_meets_only_its_pace(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    live = ticket(client, "c3" * 16)
    slow = ticket(client, ALA, days=2)
    assert look(client, slow)["status"] == "waiting"  # a live game is another pace
    other = ticket(client, OLGA, days=2)
    matched = look(client, other)
    assert matched["status"] == "matched" and look(client, live)["status"] == "waiting"
    meta = client.get(f"/api/tables/{matched['table']}").json()
    assert meta["move_seconds"] == 2 * 86_400
    refused = client.post("/api/match", json={"game": "koi-koi", "player": ALA, "days": 5})
    assert refused.json()["detail"]["code"] == "bad_days"


def store_checks(url: str) -> None:
    """The queue and the ratings on one database: a ticket is paired once, a table's
    result counted once, whichever threads (processes) ask at once."""
    store = Store(url)
    kept.make_tables(store)
    now = time.time()

    def queued(ticket_id: str, player: str) -> kept.TicketRow:
        row = kept.TicketRow(
            id=ticket_id, game="koi-koi", preset="", rated=True, move_seconds=0, name="",
            player=player, address="a", rating=1500.0, created_at=now, polled_at=now,
            status="waiting", table_id="", seat=-1, seat_key="",
        )  # fmt: skip
        kept.add_ticket(store, row)
        return row

    rows = [queued(f"t{n}", f"p{n}") for n in range(4)]
    queue = kept.Queue(30.0)
    with ThreadPoolExecutor(4) as pool:
        partners = list(pool.map(lambda r: kept.pair(store, r, now, queue, 100.0), rows))
    found = [(row.id, p.id) for row, p in zip(rows, partners, strict=True) if p is not None]
    paired = [ticket_id for pair in found for ticket_id in pair]
    assert len(paired) == len(set(paired)) == 4  # two pairs, nobody twice
    table = kept.QuickTableRow(table_id="x1", game="koi-koi", rated=True,
                               players=["p0", "p1"], settled=False, created_at=now)  # fmt: skip
    kept.add_quick_table(store, table)
    with ThreadPoolExecutor(3) as pool:
        counted = list(pool.map(lambda _: kept.settle(store, table, [1.0, 0.0]), range(3)))
    assert sorted(counted) == [False, False, True]
    ratings = {r.player: r for r in kept.ratings(store, ["p0", "p1"], "koi-koi")}
    assert ratings["p0"].games == ratings["p1"].games == 1
    assert ratings["p0"].rating > 1500 > ratings["p1"].rating
    assert [h.table_id for h in kept.history(store, "p0")] == ["x1"]
    store.close()


def test_the_queue_and_ratings_on_sqlite(tmp_path: Path) -> None:
    store_checks(f"sqlite:///{tmp_path / 'queue.db'}")


@pytest.mark.slow  # a PostgreSQL cluster
def test_the_queue_and_ratings_on_postgresql(postgres: str) -> None:
    store_checks(postgres)


def test_nearest_rating_first_the_window_widening_with_the_wait(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'window.db'}")
    queue, now = kept.Queue(30.0), time.time()

    def queued(ticket_id: str, rating: float, waited: float = 0.0) -> kept.TicketRow:
        row = kept.TicketRow(
            id=ticket_id, game="koi-koi", preset="", rated=True, move_seconds=0, name="",
            player=ticket_id, address="a", rating=rating, created_at=now - waited,
            polled_at=now, status="waiting", table_id="", seat=-1, seat_key="",
        )  # fmt: skip
        kept.add_ticket(store, row)
        return row

    far = queued("far", 1800.0)
    queued("near", 1560.0)
    queued("nearer", 1520.0)
    me = queued("me", 1500.0)
    partner = kept.pair(store, me, now, queue, kept.window_after(0))
    assert partner is not None and partner.id == "nearer"  # the nearest rating first
    assert kept.pair(store, far, now, queue, kept.window_after(0)) is None  # 240 apart
    queued("patient", 1500.0, waited=10.0)  # 300 apart, but 100 + 25 × 10 = 350 now
    partner = kept.pair(store, far, now, queue, kept.window_after(0))
    assert partner is not None and partner.id == "patient"  # near (240) waited no time
    store.close()


def test_a_seat_key_is_kept_only_while_the_page_goes_and_a_stuck_pair_waits_again(
    served: tuple[TestClient, Path],
) -> None:
    """A matched ticket hands out its seat's key for KEY_SECONDS, then says ``expired``
    and the database holds no key; a pair whose table was never seated (its process died
    between pairing and seating) goes back to the queue after PAIRING_SECONDS."""
    client, db = served
    first, second = ticket(client, ALA), ticket(client, OLGA)
    assert look(client, first)["status"] == "matched"
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    later = time.time() + kept.KEY_SECONDS + 1
    kept.tidy_tickets(store, later, 0.0)
    assert look(client, first) == look(client, second) == {"status": "expired"}
    with sqlite3.connect(db) as conn:
        keys = conn.execute("SELECT seat_key FROM match_tickets").fetchall()
    assert keys == [("",), ("",)]  # a stolen database names no live seat key

    third, fourth = ticket(client, "c3" * 16, rated=False), ticket(client, "d4" * 16)
    row = kept.ticket(store, third)
    assert row is not None
    kept.add_ticket(store, replace_row(row, id="dead", player="e5"))
    assert kept.pair(store, row, time.time(), kept.Queue(30.0), 100.0) is not None
    assert look(client, third)["status"] == "waiting"  # "pairing" is shown as waiting
    kept.tidy_tickets(store, time.time() + kept.PAIRING_SECONDS + 1, 0.0)
    assert kept.ticket(store, third).status == "waiting"  # type: ignore[union-attr]
    assert kept.ticket(store, "dead").status == "waiting"  # type: ignore[union-attr]
    assert look(client, fourth)["status"] == "waiting"  # a rated ticket: another queue


def replace_row(row: kept.TicketRow, **changes: Any) -> kept.TicketRow:
    """A new ticket row like ``row`` but for ``changes``."""
    columns = {c.name: getattr(row, c.name) for c in kept.TicketRow.__table__.columns}
    return kept.TicketRow(**{**columns, **changes})
