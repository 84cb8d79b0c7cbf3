"""Hints: the suggested move is legal, its reasons say what the move really does, they read
nothing the seat cannot see, and they are said in the player's language."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.agents.hints import explainer, hint
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import Play, Take
from cardtable.games.hanafuda.deck import codes
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.server.app import create_app

from .server_helpers import FAST, seat_keys
from .socket_play import next_reply, next_state
from .test_cli import cardtable as run_cli

HANAFUDA = [
    ("koi-koi", {}),
    ("hana-awase", {"players": 3}),
    ("hana-awase-88", {}),
    ("bakappana", {}),
]


def random_positions(count: int, seed: int) -> Iterator[tuple[State, int]]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        game_id, options = HANAFUDA[made % len(HANAFUDA)]
        state = cardtable.load(game_id, rounds=1, **options).new_state(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 30)):
            if state.is_over:
                break
            seat = min(state.to_move)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over:
            made += 1
            yield state, min(state.to_move)


#: the reasons that say what a capture takes
CAPTURES = ("captures", "captures_worth", "captures_nothing_better")
#: the reasons that say why a capture is worth making: a yaku made, brought nearer or
#: denied, cards taken from a pile, the cards' points, or that nothing does better
WHY = {"makes", "near", "progress", "denies", "steals", "captures_worth", "captures_nothing_better"}


def test_every_capture_says_why_it_is_worth_making() -> None:
    """Never a bare "play X — captures Y": a capture's reasons say what it does for a yaku,
    its cards' points, a denial, or that nothing better is there."""
    game = explainer("koi-koi")
    assert game is not None
    for state, seat in random_positions(200, seed=7):
        for action in state.legal_actions(seat):
            reasons = {r.kind for r in game.explain(state, seat, action)}
            if reasons & set(CAPTURES):
                assert reasons & WHY, (action, reasons)


def test_reasons_say_what_the_move_captures_and_makes() -> None:
    kinds: set[str] = set()
    for state, seat in random_positions(400, seed=1):
        found = hint(state, seat, bot="medium", seed=3)
        assert found.action in state.legal_actions(seat)
        reasons = {r.kind: r for r in found.reasons}
        kinds |= set(reasons)
        if not isinstance(found.action, Play | Take):
            continue
        after = state.clone()
        after.apply(seat, found.action)
        # the turn may go on with the stock card: the move's own capture is part of the gain
        gained = set(codes(after.piles[seat] & ~state.piles[seat]))  # type: ignore[attr-defined]
        played = found.action.to_json()["card"]
        capture = next((reasons[k] for k in CAPTURES if k in reasons), None)
        if capture is not None:  # with its card points only where they score
            assert ("points" in capture.values) == (capture.kind == "captures_worth")
            said = set(capture.values["cards"]["card_codes"])
            assert said <= gained and (played in said or isinstance(found.action, Take))
        else:  # nothing matched it (the stock card may still take it afterwards)
            kind = (reasons.keys() & {"discard", "discard_safe"}).pop()
            assert reasons[kind].values["card"]["card_codes"] == [played]
            month = played[:2]
            assert not any(code.startswith(month) for code in codes(state.table))  # type: ignore[attr-defined]
        if isinstance(state, KoiKoiState) and "makes" in reasons:
            assert after.yaku_total(seat) > state.yaku_total(seat)  # type: ignore[attr-defined]
    assert {"captures", "captures_worth", "discard", "makes", "near", "denies"} <= kinds


def test_hints_read_nothing_the_seat_cannot_see() -> None:
    for number, (state, seat) in enumerate(random_positions(200, seed=2)):
        found = hint(state, seat, bot="medium", seed=5)
        for k in range(2):
            other = state.determinize(seat, Rng(number * 10 + k))
            again = hint(other, seat, bot="medium", seed=5)
            assert again.action == found.action
            assert again.text("en") == found.text("en")


def test_hints_speak_the_players_language() -> None:
    state, seat = next(random_positions(1, seed=3))
    found = hint(state, seat, bot="medium")
    texts = {lang: found.text(lang, ["Ann", "Bob"]) for lang in ("en", "pl", "ru")}
    assert len(set(texts.values())) == 3
    assert all("{" not in text for text in texts.values())


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hint.db'}", FAST)) as test_client:
        yield test_client


def test_hint_over_the_socket_is_for_the_seat_to_move_only(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
    ).json()
    table_id, keys = created["id"], seat_keys(created)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0,
        client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={keys[1]}") as s1,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        first, second = next_state(s0, 0), next_state(s1, 0)
        # a join sends the others a presence change, not the state again: each seat's first
        # frame is its view
        if first["view"]["legal_actions"]:
            (mover, view), waiter = (s0, first["view"]), s1
        else:
            (mover, view), waiter = (s1, second["view"]), s0
        mover.send_json({"type": "hint", "lang": "pl"})
        reply = next_reply(mover)
        assert reply["type"] == "hint" and reply["action"] in view["legal_actions"]
        assert reply["text"].startswith(("Zagraj", "Weź"))
        # every language too: a reader who switches while it comes reads it in the new one
        assert reply["texts"]["pl"] == reply["text"]
        assert reply["texts"]["en"].startswith(("Play", "Take"))
        assert reply["texts"]["ru"].startswith(("Сыграйте", "Возьмите")), reply["texts"]["ru"]
        waiter.send_json({"type": "hint"})
        assert next_reply(waiter)["code"] == "no_hint"
        spectator.send_json({"type": "hint"})
        assert next_reply(spectator)["code"] == "spectator"
        assert client.get(f"/api/tables/{table_id}").json()["moves"] == 0  # a hint plays nothing


def test_question_mark_asks_for_a_hint_in_the_terminal() -> None:
    done = run_cli(
        "play", "koi-koi", "--seats", "human,random", "--rounds", "1", "--seed", "3",
        "--delay", "0", typed="?\nq\n",
    )  # fmt: skip
    assert "Hint — " in done.stdout
    # the move, then why; in the terminal with the codes the player types
    assert re.search(r"Hint — (Play|Take) .+ \(\d\d-\d\) — ", done.stdout)


def test_seven_words_hints_only_to_a_player_practising_alone(client: TestClient) -> None:
    """7 słów has no hard-bot hints: asked at a table of bots, the solver's best words for
    the seat's letters, each one it may write, in every language; where another person
    plays, none (a hint would be the answer to a shared puzzle)."""
    alone = client.post(
        "/api/tables", json={"game": "siedem-slow", "seats": ["human", "bot:easy"]}
    ).json()
    with client.websocket_connect(
        f"/ws/tables/{alone['id']}?seat=0&key={seat_keys(alone)[0]}"
    ) as s0:
        next_state(s0, 0)
        s0.send_json({"type": "hint", "lang": "ru"})
        reply = next_reply(s0)
        assert reply["type"] == "hint" and reply["action"] is None and reply["words"]
        assert reply["texts"]["en"].startswith("Hint — the best words here: ")
        assert reply["texts"]["ru"].startswith("Подсказка")
        shown = ", ".join(f"{w['word'].upper()} {w['points']}" for w in reply["words"])
        assert reply["texts"]["pl"].endswith(shown)
    together = client.post(
        "/api/tables", json={"game": "siedem-slow", "seats": ["human", "human"]}
    ).json()
    keys = seat_keys(together)
    with (
        client.websocket_connect(f"/ws/tables/{together['id']}?seat=0&key={keys[0]}") as s0,
        client.websocket_connect(f"/ws/tables/{together['id']}?seat=1&key={keys[1]}") as s1,
    ):
        next_state(s0, 0)
        next_state(s1, 0)
        s0.send_json({"type": "hint"})
        assert next_reply(s0)["code"] == "no_hint"
