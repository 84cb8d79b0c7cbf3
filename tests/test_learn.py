"""Guided first games (``cardtable.learn``): each lesson's deal brings up each idea in
order when the pointed moves are played, the engine referees every move, the coach's lines
exist in every language, and ``cardtable learn GAME`` runs in a real terminal (tmux)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.record import GameRecord
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.learn import (
    ScriptedBot,
    expected,
    games_with_lessons,
    guide,
    lesson_of,
    refusal,
)
from cardtable.locales import LANGUAGES, catalogue

from .server_helpers import eventually

#: the ideas each game's guided game brings up, in this order
IDEAS = {
    "koi-koi": ["match", "choice", "draw", "threat", "ribbons", "plains", "yaku", "risk"],
    "bakappana": ["match", "choice", "draw", "points"],
    "hana-awase": ["match", "choice", "draw", "yaku"],
    "hana-awase-88": ["match", "choice", "draw", "steal", "yaku"],
    "ohanami": ["keep", "grow", "colours", "stages"],
    "siedem-slow": ["word", "columns", "hourglass", "challenge"],
}
LESSONS = sorted(IDEAS)


def test_every_game_with_a_lesson_is_listed() -> None:
    assert sorted(games_with_lessons()) == LESSONS


def play_through(game_id: str) -> tuple[State, list[str], list[str]]:
    """Play the lesson as a learner who follows the coach: the ideas that fired, in order,
    and the coach's line at each of the learner's moves."""
    lesson = lesson_of(game_id)
    state = lesson.new_state()
    bots = {n: ScriptedBot(lesson, n) for n in range(state.num_players) if n != lesson.learner}
    fired: list[str] = []
    lines: list[str] = []
    for _ in range(2000):
        if state.is_over:
            break
        seat = min(state.to_move)
        if seat == lesson.learner:
            said = guide(lesson, state, "en")
            action = expected(lesson, state, seat)
            assert action is not None and said["target"] == action.to_json()
            assert refusal(lesson, state, seat, action) is None
            lines.append(said["key"])
            if said["idea"]:
                condition = lesson.ideas[said["idea"]]
                assert condition(state, seat, action), f"{said['idea']} did not come up"
                fired.append(said["idea"])
        else:
            assert (
                expected(lesson, state, lesson.learner) is None or lesson.learner in state.to_move
            )
            action = bots[seat].choose(state, seat)
        state.apply(seat, action)
    assert state.is_over
    return state, fired, lines


@pytest.mark.parametrize("game_id", LESSONS)
def test_each_idea_comes_up_in_order(game_id: str) -> None:
    state, fired, _lines = play_through(game_id)
    assert fired == IDEAS[game_id]
    assert guide(lesson_of(game_id), state, "en")["key"] == lesson_of(game_id).done


def at_first_idea(game_id: str) -> State:
    """The lesson's state when the learner is first to move at a step with an idea."""
    lesson = lesson_of(game_id)
    state = lesson.new_state()
    bots = {n: ScriptedBot(lesson, n) for n in range(state.num_players) if n != lesson.learner}
    while True:
        seat = min(state.to_move)
        if seat == lesson.learner:
            step = lesson.step(state, seat)
            assert step is not None
            if step.idea:
                return state
            action = expected(lesson, state, seat)
            assert action is not None
        else:
            action = bots[seat].choose(state, seat)
        state.apply(seat, action)


@pytest.mark.parametrize("game_id", LESSONS)
def test_an_idea_does_not_fire_on_every_move(game_id: str) -> None:
    """The conditions can fail: each idea is false for some move of the learner's in the
    lesson (another scripted move, or another legal move at its own step)."""
    lesson = lesson_of(game_id)
    state = lesson.new_state()
    bots = {n: ScriptedBot(lesson, n) for n in range(state.num_players) if n != lesson.learner}
    silent: set[str] = set()
    while not state.is_over and lesson.step(state, lesson.learner) is not None:
        seat = min(state.to_move)
        if seat == lesson.learner:
            action = expected(lesson, state, seat)
            assert action is not None
            for other in state.legal_actions(seat)[:40]:
                silent |= {i for i, fires in lesson.ideas.items() if not fires(state, seat, other)}
        else:
            action = bots[seat].choose(state, seat)
        state.apply(seat, action)
    assert set(IDEAS[game_id]) <= silent


@pytest.mark.parametrize("game_id", LESSONS)
def test_a_move_the_coach_did_not_ask_for_is_refused_with_a_reason(game_id: str) -> None:
    lesson = lesson_of(game_id)
    state = at_first_idea(game_id)
    seat = lesson.learner
    wanted = expected(lesson, state, seat)
    assert wanted is not None
    other = next(a for a in state.legal_actions(seat) if a.to_json() != wanted.to_json())
    why = refusal(lesson, state, seat, other)
    assert why is not None and getattr(why, "key", "") == "lesson.not_now"
    # a move the rules refuse gets the engine's own reason (another seat's move here)
    bot_seat = next(n for n in range(state.num_players) if n != seat)
    if state.illegal_reason(bot_seat, wanted) is None:
        # everyone writes at once (7 słów): the learner's own move the rules refuse
        bot_seat, wanted = seat, state.game.parse_action({"type": "flip"})
    engine = refusal(lesson, state, bot_seat, wanted)
    assert engine is not None and engine == state.illegal_reason(bot_seat, wanted)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_wrong_word_in_the_siedem_lesson_gets_the_dictionarys_reason(lang: str) -> None:
    """The lesson's table checks words only when challenged, yet the learner's wrong word
    is explained at once, with the reason the dictionary gives (not the coach's "not
    now"); a real word other than the one asked for gets "not now"."""
    from cardtable.games.siedem_slow.game import Submit
    from cardtable.locales import reason_text

    lesson = lesson_of("siedem-slow")
    state = lesson.new_state()
    assert state.illegal_reason(0, Submit("gdyx")) is None  # the rules let it be written
    why = refusal(lesson, state, 0, Submit("gdyx"))
    assert why is not None and getattr(why, "key", "") == "illegal.siedem.word.not_in_dictionary"
    assert "GDYX" in reason_text(why, lang)
    other = refusal(lesson, state, 0, Submit("dom"))
    assert other is not None and getattr(other, "key", "") == "lesson.not_now"
    assert refusal(lesson, state, 0, Submit("gdy")) is None
    assert refusal(lesson, state, 0, Submit(" GDY ")) is None  # in any case


def test_the_siedem_coach_names_the_words_the_area_allows() -> None:
    """Each line that asks for a word names it, in every language, and the area holds the
    letters it scores."""
    from cardtable.games.siedem_slow.game import Submit

    lesson = lesson_of("siedem-slow")
    state = lesson.new_state()
    bots = {1: ScriptedBot(lesson, 1)}
    asked = 0
    while not state.is_over:
        seat = min(state.to_move)
        if seat == lesson.learner:
            action = expected(lesson, state, seat)
            assert action is not None
            if isinstance(action, Submit) and lesson.step(state, seat) is not None:
                key = guide(lesson, state, "en")["key"]
                for lang in LANGUAGES:
                    assert action.word.upper() in catalogue(lang)[key], (key, lang)
                assert state.word_score(seat, action.word).points > 0
                asked += 1
        else:
            assert not bots[seat].waits(state)  # the opponent waits for the learner
            action = bots[seat].choose(state, seat)
        state.apply(seat, action)
    assert asked == 2


@pytest.mark.parametrize("game_id", LESSONS)
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_line_of_the_coach_is_written_in_each_language(game_id: str, lang: str) -> None:
    _state, _fired, lines = play_through(game_id)
    lesson = lesson_of(game_id)
    words = catalogue(lang)
    for key in {*lines, lesson.play_on, lesson.done, "lesson.not_now", "lesson.wrong"}:
        assert key in words, f"{key} is missing in {lang}"
        if lang != "en":
            assert words[key] != catalogue("en")[key], f"{key} is left in English in {lang}"


def said_through(game_id: str, lang: str) -> list[tuple[str, str, str]]:
    """The coach's (key, idea, text) at each of the learner's moves and at the end, for a
    learner who follows the coach in ``lang``."""
    lesson = lesson_of(game_id)
    state = lesson.new_state()
    bots = {n: ScriptedBot(lesson, n) for n in range(state.num_players) if n != lesson.learner}
    out: list[tuple[str, str, str]] = []
    while not state.is_over:
        seat = lesson.learner if lesson.learner in state.to_move else min(state.to_move)
        if seat == lesson.learner:
            said = guide(lesson, state, lang)
            out.append((said["key"], said["idea"], said["text"]))
            action = expected(lesson, state, seat)
            assert action is not None
        else:
            action = bots[seat].choose(state, seat)
        state.apply(seat, action)
    said = guide(lesson, state, lang)
    return [*out, (said["key"], said["idea"], said["text"])]


PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")
#: lessons whose lines name the position's values (koi-koi's and 7 słów's are written for
#: their fixed deals, and a test checks those name the deal's words)
VALUED = [game_id for game_id in LESSONS if game_id not in ("koi-koi", "siedem-slow")]


@pytest.mark.parametrize("game_id", VALUED)
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_line_is_filled_in_from_the_position(game_id: str, lang: str) -> None:
    """Each line the coach says is filled in: no ``{placeholder}`` left, no empty value
    (two spaces, a space before a colon), and it names what is on the board: a hanafuda
    line names a card in the player's language, an Ohanami line a card's number."""
    lesson = lesson_of(game_id)
    lines = said_through(game_id, lang)
    scripted = len(lesson.steps_of(lesson.learner))
    for key, _idea, text in lines:
        assert not PLACEHOLDER.search(text), f"{key}: {text}"
        assert "  " not in text and " :" not in text and " ." not in text, f"{key}: {text}"
        assert "()" not in text, f"{key}: {text}"
    for key, _idea, text in lines[:scripted]:
        if game_id == "ohanami":
            assert re.search(r"\d+ \(", text), f"{key}: {text}"
        else:
            from cardtable.games.hanafuda.deck import CARDS

            names = {card.name(lang) for card in CARDS}
            assert any(name in text for name in names), f"{key}: {text}"
    # the end says how the round or game was counted, with the learner's own numbers
    end_key, _idea, end = lines[-1]
    assert end_key == lesson.done and end_key != "lesson.done"
    assert re.search(r"\d+ [−+] \d+|\d+", end), end


@pytest.mark.parametrize("game_id", VALUED)
def test_the_frame_carries_the_values_for_the_browsers_language(game_id: str) -> None:
    """The browser says the line itself (``t(key, values[lang])``): the coach's values in
    each language fill that language's line completely, as the server would."""
    lesson = lesson_of(game_id)
    state = at_first_idea(game_id)
    said = guide(lesson, state, "en")
    for lang in sorted(LANGUAGES):
        text = catalogue(lang)[said["key"]]
        values = said["values"][lang]
        filled = PLACEHOLDER.sub(lambda m, v=values: v[m.group(0)[1:-1]], text)
        assert filled == guide(lesson, state, lang)["text"]
        assert not PLACEHOLDER.search(filled)


@pytest.mark.parametrize("game_id", VALUED)
def test_each_idea_has_its_own_line_in_order(game_id: str) -> None:
    """Each idea's step says a line of that idea (the family's ``...idea.NAME``), in the
    order of the ideas; the learner's other moves say what their move does, not a plain
    "play the marked card"."""
    lines = said_through(game_id, "en")
    ideas = [(key, idea) for key, idea, _text in lines if idea]
    assert [idea for _key, idea in ideas] == IDEAS[game_id]
    for key, idea in ideas:
        assert f".idea.{idea}" in key, (key, idea)
    lesson = lesson_of(game_id)
    texts = [text for _key, _idea, text in lines][: len(lesson.steps_of(lesson.learner))]
    assert len(set(texts)) == len(texts), "the coach repeats a line word for word"
    assert not any("marked card" in text for text in texts)


@pytest.mark.parametrize("game_id", VALUED)
@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_polish_and_russian_lines_are_not_english(game_id: str, lang: str) -> None:
    english = said_through(game_id, "en")
    said = said_through(game_id, lang)
    assert [key for key, _i, _t in said] == [key for key, _i, _t in english]
    common = {"the", "and", "your", "play", "take", "takes", "points", "card", "row", "keep"}
    for (_key, _idea, text), (_k, _i, text_en) in zip(said, english, strict=True):
        assert text != text_en
        words = set(re.findall(r"[a-z]+", text.lower()))
        assert not words & common, (text, words & common)


def test_bakappana_shows_how_it_scores() -> None:
    """Bakappana has no yaku: a step says what each card is worth and the end how the
    round is counted (the pile's card points against the par, 264 shared)."""
    lines = said_through("bakappana", "en")
    points = next(text for key, idea, text in lines if idea == "points")
    assert "lights 20" in points and "264" in points
    end = lines[-1][2]
    found = re.search(r"holds (\d+), the par is (\d+) .* (\d+) − (\d+) = (-?\d+)", end)
    assert found, end
    cards, par, _c, _p, score = (int(n) for n in found.groups())
    assert par == 132 and score == cards - par


def test_koikoi_ends_by_saying_what_the_round_brought() -> None:
    """Koi-koi scores only yaku: the end names the round's points (the yaku the learner
    stopped with), not the game's running total."""
    state, _fired, _lines = play_through("koi-koi")
    made = sum(line["points"] for line in state.view(0)["last_round"]["lines"] if line["seat"] == 0)
    end = said_through("koi-koi", "en")[-1][2]
    assert f"brought you {made}." in end and made > 0


def test_ohanami_explains_colours_and_stages_with_the_learners_numbers() -> None:
    lines = dict((idea, text) for _key, idea, text in said_through("ohanami", "en") if idea)
    colours = lines["colours"]
    for word in ("blue (water) 3", "green (trees) 4", "grey (stones) 7", "Pink (sakura)"):
        assert word in colours
    assert re.search(r"high end of row \d|low end of row \d|new row", colours)
    assert "only grow at the ends" in lines["grow"]
    assert re.search(r"only your blue cards counted, \d+ points", lines["stages"])


def test_the_hanafuda_values_read_nothing_hidden() -> None:
    """The line's values come from what the learner sees: re-dealing the cards the
    learner cannot see (the opponents' hands, the stock) changes no line."""
    from cardtable.games.hanafuda import lessons as hanafuda_lessons

    lesson = lesson_of("hana-awase")
    state = at_first_idea("hana-awase")
    seat = lesson.learner
    action = expected(lesson, state, seat)
    assert action is not None
    before = hanafuda_lessons.values(state, seat, action, "en")
    assert before["card"] and before["taken"]
    for number in range(4):
        other = state.determinize(seat, Rng(number))
        assert hanafuda_lessons.values(other, seat, action, "en") == before


# -- the terminal, in tmux -------------------------------------------------------------
TMUX = shutil.which("tmux")
CARDTABLE = str(Path(sys.executable).with_name("cardtable"))
# what the coach says to type: a menu's number ("→ 5. play ...") or a game's own form
# ("→ [50 62] keep ...", Ohanami's two cards to keep)
POINTED = re.compile(r"→ (?:(\d+)\. |\[([^\]]+)\] )")


def tmux(session: str, *args: str, check: bool = True) -> None:
    """A tmux command on the session's own server (named after it: no other tmux is
    touched)."""
    subprocess.run(["tmux", "-L", session, *args], check=check)


def pane(session: str) -> str:
    """Everything the terminal showed since the start (its whole history)."""
    done = subprocess.run(
        ["tmux", "-L", session, "capture-pane", "-p", "-J", "-S", "-", "-t", session],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def wait_for(session: str, ready: Callable[[str], bool], timeout: float = 30) -> str:
    shown = [""]

    def arrived() -> str | None:
        shown[0] = pane(session)
        return shown[0] if ready(shown[0]) else None

    try:
        return eventually(arrived, timeout, "the terminal gets there")
    except AssertionError:
        raise AssertionError(f"the terminal did not get there:\n{shown[0][-3000:]}") from None


@pytest.mark.slow  # a terminal each, in tmux
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
@pytest.mark.parametrize("game_id", LESSONS)
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_cardtable_learn_in_tmux(game_id: str, lang: str, tmp_path: Path) -> None:
    """A person types the number the coach points at, each time, until the game ends."""
    session = f"learn-{uuid.uuid4().hex[:8]}"
    command = f"{CARDTABLE} learn {game_id} --lang {lang}; echo LESSON-EXIT-$?; sleep 30"
    config = tmp_path / "tmux.conf"  # the whole game stays in the pane's history
    config.write_text("set -g history-limit 100000\n")
    tmux(session, "-f", str(config), "new-session", "-d", "-s", session, "-x", "160", "-y", "60")
    tmux(session, "respawn-pane", "-k", "-t", session, command)
    coach_word = catalogue(lang)["lesson.coach"]
    done_line = catalogue(lang)[lesson_of(game_id).done]
    try:
        typed, seen = 0, 0

        def asked(text: str, since: int) -> bool:
            """The coach spoke after ``since`` and the prompt waits, or the game ended."""
            fresh = text.rstrip()[since:]
            return "LESSON-EXIT" in text or (f"{coach_word}:" in fresh and fresh.endswith(":"))

        while True:
            text = wait_for(session, lambda t, since=seen: asked(t, since))
            if "LESSON-EXIT" in text:
                break
            pointed = POINTED.findall(text.rstrip()[seen:])
            assert pointed, text[seen:]
            seen = len(text.rstrip())
            number, form = pointed[-1]
            tmux(session, "send-keys", "-t", session, number or form, "Enter")
            typed += 1
        assert "LESSON-EXIT-0" in text
        assert "✗" not in text  # the coach never had to refuse a move
        assert done_line.split()[0] in text
        # every scripted step, then the coach's pointed moves to the end of the game
        assert typed >= len(lesson_of(game_id).steps_of(lesson_of(game_id).learner))
    finally:
        tmux(session, "kill-server", check=False)


@pytest.mark.parametrize("game_id", LESSONS)
def test_a_finished_lesson_is_a_record_that_verifies(game_id: str) -> None:
    """A lesson table commits to the lesson's seed: its record replays and verifies like
    any game's (the fixed deals travel in the record)."""
    from cardtable.server.fairness import Commitment, Signer, seal, verify

    state, _fired, _lines = play_through(game_id)
    sealed = Commitment(seed=lesson_of(game_id).seed, salt="ab" * 16)
    signer = Signer(Signer.new_key())
    data = seal(GameRecord.of(state).to_json(), sealed, signer)
    assert verify(data, trusted_key=signer.public_key).ok


def test_a_lesson_survives_a_server_restart(tmp_path: Path) -> None:
    """A lesson table is stored like any other: killed and started again, the server
    rebuilds it with its deal, its scripted opponent and its coach, where it was left."""
    import json

    from websockets.sync.client import connect

    from .server_helpers import ServerProcess, http

    server = ServerProcess(f"sqlite:///{tmp_path / 'learn.db'}")
    server.start()
    try:
        status, created = http("POST", f"{server.url}/api/learn/koi-koi", {"names": ["Ann"]})
        assert status == 201
        ws_url = server.url.replace("http", "ws")
        socket_url = f"{ws_url}/ws/tables/{created['id']}?seat=0&key={created['key']}"

        def frame_at_least(socket: Any, version: int) -> dict[str, Any]:
            while True:
                frame = json.loads(socket.recv(timeout=30))
                assert frame["type"] != "error", frame
                if frame["type"] == "state" and frame["version"] >= version:
                    return frame

        with connect(socket_url) as socket:
            frame = frame_at_least(socket, 0)
            first = frame["lesson"]["target"]
            socket.send(json.dumps({"type": "action", "action": first, "version": 0}))
            # the learner's move, then the scripted opponent's
            frame = frame_at_least(socket, 2)
            assert frame["lesson"]["key"] == "lesson.koi-koi.choice"
        server.kill9()
        server.start()
        with connect(socket_url) as socket:
            frame = frame_at_least(socket, 2)
        assert frame["lesson"]["key"] == "lesson.koi-koi.choice"
        assert frame["lesson"]["target"] == {"type": "play", "card": "09-4", "take": "09-1"}
        assert frame["table"]["preset"] == "lesson"
    finally:
        server.kill9()


def test_the_siedem_lesson_data_is_what_its_search_finds() -> None:
    """``lessons/siedem-slow.json`` is the search's result (run it again after a rules,
    dictionary or deck change), and its areas are the lesson's."""
    import json
    from importlib.resources import files

    from cardtable.games.siedem_slow.lesson_search import search

    stored = json.loads(
        (files("cardtable.games.siedem_slow") / "lessons" / "siedem-slow.json").read_text("utf-8")
    )
    assert search() == stored
    assert str(lesson_of("siedem-slow").new_state().area) == stored["areas"][0]
