"""The rules' refusals said in the player's language: every ``illegal_reason`` that random
games of every game reach is a :class:`~cardtable.locales.Reason` whose key every
catalogue has, and whose Polish and Russian differ from the English it still is; and no
seat's view on the way carries words in English alone."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import cardtable
from cardtable import IllegalAction
from cardtable.agents import make_agent
from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.protocols import Timed
from cardtable.core.state import CLOCK, State
from cardtable.games.hanafuda.actions import KOIKOI, SHOBU, Play, Take
from cardtable.games.hanafuda.fishing import action_said
from cardtable.games.ohanami.game import Keep, OhanamiState, Place, Target, cards_in
from cardtable.games.siedem_slow.actions import Accept, Challenge, Flip, Lock, Submit, Vote
from cardtable.locales import LANGUAGES, Reason, SeatRef, catalogue, reason, reason_text

#: 7 słów plays on the English list here (quick to index), as in test_conformance
OVERRIDES = {"siedem-slow": {"deck": "en", "rounds": 2}}
WORDS = ("", "e-mail", "don't", "two words", "kot2", "qqqq", "Paris", "ñandú", "cat", "cats")


def probes(state: State, seat: int, rng: random.Random) -> Iterator[Action]:
    """Moves of every kind a player might send, legal or not, for ``seat`` now."""
    game = state.game.id
    if game == "ohanami":
        for _ in range(6):
            a, b = rng.sample(range(0, 125), 2)
            yield Keep((min(a, b), max(a, b)))
            yield Keep((a, a))
            yield Place(((a, rng.choice(["new", "discard", 0, 1, 7])), (b, "new")))
        if isinstance(state, OhanamiState) and 0 <= seat < state.num_players:
            kept = cards_in(state.kept[seat])
            targets: list[Target] = ["new", 0, 1, 2, 3, 5]
            for _ in range(6):
                yield Place(tuple((card, rng.choice(targets)) for card in kept))
    elif game == "siedem-slow":
        yield from (Submit(word) for word in WORDS)
        yield from (Flip(), Lock(), Accept(), Vote(True), *(Challenge(s) for s in (-1, 0, 1, 9)))
    else:
        for card in rng.sample(range(48), 8):
            yield Play(card)
            yield Play(card, rng.randrange(48))
            yield Take(card)
        yield from (KOIKOI, SHOBU)


def check(why: str | None, reached: Counter[str]) -> None:
    if why is None:
        return
    assert isinstance(why, Reason), f"not said by key: {why!r}"
    for lang in LANGUAGES:
        assert why.key in catalogue(lang), (lang, why.key)
    english = why.text("en")
    assert english == str(why)
    assert why.text("pl") != english, why.key
    assert why.text("ru") != english, why.key
    json.dumps(why.to_json())
    reached[why.key] += 1


def sentences(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """(path, text) of each string in a view that reads as words (it has a space) and is
    not given in every language: what a front end would show a reader as it is."""
    if isinstance(value, dict):
        if set(LANGUAGES) <= set(value):
            return  # a value given in every language (a yaku's name, a reason)
        for name, item in value.items():
            if name == "label" and "labels" in value:
                continue  # a score line's English, beside its every-language labels
            yield from sentences(item, f"{path}.{name}")
    elif isinstance(value, list | tuple):
        for item in value:
            yield from sentences(item, f"{path}[]")
    elif isinstance(value, str) and " " in value.strip():
        yield path, value


def check_views_say_no_english(state: State) -> None:
    """No seat's view carries words in English alone (7 słów once sent its family
    warnings so, and a Polish page showed them)."""
    for seat in [None, *range(state.num_players)]:
        for path, text in sentences(state.view(seat)):
            if path == ".misdeals[].reason":  # a code: front ends say hanafuda.term.misdeal.*
                assert all(f"hanafuda.term.misdeal.{text}" in catalogue(lang) for lang in LANGUAGES)
                continue
            raise AssertionError(f"{state.game.id} view of seat {seat}: {path} = {text!r}")


def play_probing(game_id: str, preset: str, seed: int, reached: Counter[str]) -> None:
    game = cardtable.load(game_id, preset=preset, **OVERRIDES.get(game_id, {}))
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    writer = make_agent("random", game.id, seed) if game.spec.info.free_text else None
    seen: list[Action] = []
    steps = 0
    while not state.is_over and steps < 400:
        steps += 1
        movers = sorted(state.to_move)
        if isinstance(state, Timed) and state.timer is not None and (not movers or steps % 9 == 0):
            check(state.illegal_reason(0, state.time_up()), reached)
            state.apply(CLOCK, state.time_up())
            continue
        for seat in range(-1, state.num_players + 1):
            if seat in movers:
                for old in seen[-6:]:
                    check(state.illegal_reason(seat, old), reached)
            for action in probes(state, seat, rng):
                check(state.illegal_reason(seat, action), reached)
            for mover in movers:
                for action in state.legal_actions(mover)[:4]:
                    if seat != mover:
                        check(state.illegal_reason(seat, action), reached)
        check_views_say_no_english(state)
        seat = rng.choice(movers)
        actions = state.legal_actions(seat)
        action = rng.choice(actions) if actions else writer.choose(state, seat)  # type: ignore[union-attr]
        state.apply(seat, action)
        seen.append(action)
    check(state.illegal_reason(0, seen[-1]), reached)  # the game is over (or a step on)
    check_views_say_no_english(state)


def test_every_refusal_of_every_game_is_said_by_key_in_every_language() -> None:
    reached: Counter[str] = Counter()
    for game_id in cardtable.game_ids():
        for preset in spec_of(game_id).presets:
            for seed in range(2):
                play_probing(game_id, preset, seed, reached)
    keys = {key for key in catalogue("en") if key.startswith("illegal.")}
    assert set(reached) <= keys
    # the refusals random play reaches: nearly every key (the rest are rare positions)
    assert len(reached) >= 30, sorted(keys - set(reached))


def test_every_refusal_key_is_translated() -> None:
    english = {key: text for key, text in catalogue("en").items() if key.startswith("illegal.")}
    assert len(english) >= 49
    for lang in ("pl", "ru"):
        for key, text in english.items():
            assert catalogue(lang)[key] != text, (lang, key)


def test_a_reason_is_still_the_english_string() -> None:
    why = reason("illegal.not_to_move", seat=1, waiting="0")
    assert why == "seat 1 is not to move now (waiting for seat 0)"
    assert why.text("ru") == "место 1 сейчас не ходит (ждём место 0)"
    assert why.text("xx") == str(why)
    error = IllegalAction(why)
    assert str(error) == str(why) and error.reason.key == "illegal.not_to_move"  # type: ignore[attr-defined]
    assert reason_text(error.reason, "pl") == "miejsce 1 nie ma teraz ruchu (czekamy na miejsce 0)"
    assert reason_text("plain words", "pl") == "plain words"
    again = pickle.loads(pickle.dumps(IllegalAction(why))).reason
    assert again == why and again.key == why.key and again.text("ru") == why.text("ru")
    seat = reason("illegal.ohanami.already_chosen", seat=SeatRef(2))
    assert seat.to_json() == {
        "key": "illegal.ohanami.already_chosen",
        "values": {"seat": {"seat": 2}},
    }


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_an_illegal_apply_carries_its_reason(lang: str) -> None:
    state = cardtable.load("koi-koi").new_state(seed=1)
    seat = min(state.to_move)
    with pytest.raises(IllegalAction) as caught:
        state.apply(1 - seat, state.legal_actions(seat)[0])
    why = caught.value.reason
    assert isinstance(why, Reason) and why.key == "illegal.not_to_move"
    assert why.text(lang) != str(why)


def test_a_move_named_in_a_refusal_is_said_in_the_players_language() -> None:
    why = reason("illegal.hanafuda.koikoi", action=action_said(Play(4, 5)))
    assert why == "you made a yaku: answer koi-koi or shōbu (not play 02-1 taking 02-2)"
    assert (
        why.text("ru") == "у вас яку: ответьте «кои-кои» или «сёбу» (не сыграть 02-1 → берёт 02-2)"
    )
    assert (
        why.text("pl") == "masz yaku: odpowiedz koi-koi albo shōbu (nie zagraj 02-1 → bierze 02-2)"
    )
    assert action_said(KOIKOI).ru == "кои-кои" and action_said(Take(3)).pl == "weź 01-4"
