"""Koi-koi scores yaku only, so no explanation of a koi-koi move cites card points: not a
hint, a coach's note, a review entry nor the terminal's list of moves, in any language.
Where card points do score (Bakappana, Hana-awase) the same explanations still cite them.
The koi-koi reasons speak of yaku instead: made, brought nearer, denied, and the risk of a
koi-koi call. The guided koi-koi round teaches every family of yaku, a threat stopped and
a call under risk, and calls the learner by name."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.coach import judge, review_steps
from cardtable.agents.hints import Hint, Reason, explainer, hint
from cardtable.core.record import GameRecord
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import cards, codes
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.terminal import HanafudaRenderer
from cardtable.games.hanafuda.yaku import koikoi_table
from cardtable.learn import ScriptedBot, expected, guide, lesson_of
from cardtable.locales import catalogue

LANGS = ("en", "pl", "ru")
NAMES = ["Ala", "Bob"]
#: the terminal's gain of a capture in card points: " (+21)"
PLUS_POINTS = re.compile(r"\(\+\d+\)")
#: a card code in running text, " (08-2)": the terminal's, never the browser's
CARD_CODE = re.compile(r"\(\d\d-\d\)")


def card_point_words(lang: str) -> str:
    """The words a reason uses for card points: ``points of cards``, ``pkt w kartach``."""
    template = catalogue(lang)["hint.captures_worth"]
    return template.split("{points}", 1)[1].strip(" ()")


def card_values(lang: str) -> re.Pattern[str]:
    """A card's own points as the terminal's menu says them: ``20 pts``, ``1 pkt``."""
    words = catalogue(lang)
    forms = {words[f"hanafuda.term.point_{n}"].replace("{value}", "") for n in ("one", "many")}
    return re.compile(r"\b\d+(" + "|".join(re.escape(f) for f in forms) + r")\b")


def cites_card_points(text: str, lang: str, menu: bool = False) -> bool:
    """Card points in an explanation: ``(11 points of cards)``, ``(+21)``; a line of the
    terminal's menu (``menu``) also a card's own value (``— pine light, 20 pts``)."""
    if card_point_words(lang) in text or PLUS_POINTS.search(text):
        return True
    return menu and bool(card_values(lang).search(text))


def positions(game_id: str, count: int, seed: int) -> Iterator[tuple[State, int]]:
    """Seeded positions of one-round games, after a random number of random moves."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = cardtable.load(game_id, rounds=1).new_state(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 34)):
            if state.is_over:
                break
            mover = min(state.to_move)
            state.apply(mover, rng.choice(state.legal_actions(mover)))
        if not state.is_over:
            made += 1
            yield state, min(state.to_move)


def explanations(state: State, seat: int) -> Iterator[tuple[str, str, bool]]:
    """Every legal move's explanation (the reasons a hint or the coach gives for it) and
    its line in the terminal's list of moves (``True``: a menu line), in each language."""
    game = explainer(state.game.id)
    assert game is not None
    renderer = HanafudaRenderer(NAMES)
    for action in state.legal_actions(seat):
        said = Hint(state.game.id, action, tuple(game.explain(state, seat, action)))
        for lang in LANGS:
            renderer.lang = lang
            yield lang, said.text(lang, NAMES), False
            yield lang, renderer.describe(state, seat, action).plain, True


def test_no_koikoi_explanation_cites_card_points() -> None:
    said = 0
    for state, seat in positions("koi-koi", 150, seed=11):
        for lang, text, menu in explanations(state, seat):
            assert not cites_card_points(text, lang, menu), text
            said += 1
        found = hint(state, seat, bot="medium", seed=1)
        assert all(r.kind != "captures_worth" and "points" not in r.values
                   for r in found.reasons if r.kind == "captures")  # fmt: skip
    assert said > 3000


def test_where_card_points_score_the_explanations_still_cite_them() -> None:
    cited = {lang: 0 for lang in LANGS}
    for game_id in ("bakappana", "hana-awase"):
        for state, seat in positions(game_id, 20, seed=12):
            for lang, text, menu in explanations(state, seat):
                cited[lang] += cites_card_points(text, lang, menu)
    assert all(count > 50 for count in cited.values()), cited


def assert_a_real_denial(state: State, seat: int, denial: Reason, taken: list[str]) -> None:
    """A denial names a yaku the opponent has half of, at most two cards short and still
    open to it, and the move captures (or plays) one of its cards."""
    assert isinstance(state, KoiKoiState)
    table = state.yaku_table
    row = next(row for row in table.rows if row.said() == denial.values["yaku"])
    theirs = state.piles[denial.values["player"]["seat"]]
    assert 2 * row.count(theirs) >= row.need and 0 < row.missing(theirs) <= 2
    assert not row.requires & state.piles[seat]
    assert set(codes(row.counts)) & set(taken)


def test_koikoi_reasons_speak_of_yaku_progress_denial_and_risk() -> None:
    kinds: set[str] = set()
    texts: dict[str, list[str]] = {lang: [] for lang in LANGS}
    for state, seat in positions("koi-koi", 300, seed=13):
        game = explainer(state.game.id)
        assert game is not None
        for action in state.legal_actions(seat):
            reasons = tuple(game.explain(state, seat, action))
            kinds |= {r.kind for r in reasons}
            taken = [
                c for r in reasons if r.kind == "captures" for c in r.values["cards"]["card_codes"]
            ]
            for denial in (r for r in reasons if r.kind == "denies"):
                assert_a_real_denial(state, seat, denial, taken)
            for lang in LANGS:
                texts[lang].append(Hint(state.game.id, action, reasons).text(lang, NAMES))
    assert {"captures", "makes", "near", "progress", "denies"} <= kinds
    assert "captures_worth" not in kinds
    # "2 of 3 for Ino-shika-chō" in each language, the numbers filled in
    progress = {"en": r"\d of \d+ for \w", "pl": r"\d z \d+ do \w", "ru": r"\d из \d+ для \w"}
    for lang, pattern in progress.items():
        assert any(re.search(pattern, text) for text in texts[lang])
        assert not any("{" in text for text in texts[lang])


def call_positions() -> Iterator[tuple[KoiKoiState, int]]:
    """Koi-koi positions where the seat to move must call koi-koi or stop."""
    rng = random.Random(14)
    bot = make_agent("greedy", "koi-koi", seed=2)
    for _ in range(60):
        state = cardtable.load("koi-koi", rounds=1).new_state(seed=rng.randrange(10**6))
        while not state.is_over:
            mover = min(state.to_move)
            legal = state.legal_actions(mover)
            if any(isinstance(a, KoiKoi) for a in legal):
                assert isinstance(state, KoiKoiState)
                yield state, mover
                break
            state.apply(mover, bot.choose(state.clone(), mover))


def test_a_koikoi_call_is_explained_by_its_risk() -> None:
    said: set[str] = set()
    for state, seat in call_positions():
        game = explainer("koi-koi")
        assert game is not None
        for action in state.legal_actions(seat):
            reasons = tuple(game.explain(state, seat, action))
            said |= {r.kind for r in reasons}
            threat = [r for r in reasons if r.kind == "threat"]
            if isinstance(action, KoiKoi):  # a risky call says whose yaku is near
                assert bool(threat) == any(r.kind == "koikoi_risky" for r in reasons)
            if threat:
                other = threat[0].values["player"]["seat"]
                table = state.yaku_table
                assert any(p.missing == 1 for p in table.progress(state.piles[other], 0))
            assert isinstance(action, KoiKoi | Shobu)
    assert {"koikoi", "shobu", "threat"} <= said


@pytest.mark.parametrize("game_id", ["koi-koi", "bakappana"])
def test_the_coach_and_the_review_speak_what_scores(game_id: str) -> None:
    """The review's entries (the coach's notes, each with the better move and why) cite
    card points in Bakappana and never in koi-koi."""
    state = cardtable.load(game_id, rounds=1).new_state(seed=5)
    bots = [make_agent("random", game_id, seed=1), make_agent("greedy", game_id, seed=2)]
    while not state.is_over:
        mover = min(state.to_move)
        state.apply(mover, bots[mover].choose(state.clone(), mover))
    steps = review_steps(GameRecord.of(state), 0)
    judged = [judge(step.state, 0, step.action, iterations=60) for step in steps]
    better = [j for j in judged if j.loss > 0]  # what the review may list, each with why
    assert better, "the random player's game has moves to correct"
    cited = 0
    for note in better:
        for lang in LANGS:
            said = note.to_json(lang, NAMES)
            cited += cites_card_points(said["better_text"], lang)
            assert not CARD_CODE.search(said["better_text"] + said["played_text"]), said
    assert (cited > 0) == (game_id == "bakappana")


# -- the browser's words: cards by name, yaku in the reader's language --------------------
def hinted_moves(count: int, seed: int) -> Iterator[tuple[KoiKoiState, int, Hint]]:
    """Every legal move of seeded koi-koi positions, with the reasons a hint gives for it."""
    for state, seat in positions("koi-koi", count, seed):
        assert isinstance(state, KoiKoiState)
        game = explainer(state.game.id)
        assert game is not None
        for action in state.legal_actions(seat):
            yield state, seat, Hint(state.game.id, action, tuple(game.explain(state, seat, action)))


def test_the_browser_names_cards_without_codes_and_the_terminal_with_them() -> None:
    """A hint's JSON text (what the browser shows) says "Gęsi", not "Gęsi (08-2)"; the
    terminal, where the player types the codes, still gives them."""
    said = 0
    for _state, _seat, found in hinted_moves(60, seed=15):
        for lang in LANGS:
            browser = found.to_json(lang, NAMES)["text"]
            assert not CARD_CODE.search(browser), browser
            terminal = found.text(lang, NAMES, codes=True)
            names_a_card = isinstance(found.action, Play | Take)
            assert bool(CARD_CODE.search(terminal)) == names_a_card, terminal
            said += 1
    assert said > 600


def test_hints_say_yaku_in_the_readers_language() -> None:
    """Russian and Polish hints give a yaku's meaning from the catalogue beside its romaji
    ("Tsukimi-zake (сакэ под луной)"), Russian in Cyrillic."""
    table = koikoi_table({})
    named: dict[str, int] = {"pl": 0, "ru": 0}
    for _state, _seat, found in hinted_moves(80, seed=16):
        for r in (r for r in found.reasons if "yaku" in r.values):
            row = next(row for row in table.rows if row.said() == r.values["yaku"])
            for lang in named:
                text = found.text(lang, NAMES)
                assert f"{row.name} ({row.meaning(lang)})" in text, text
                named[lang] += 1
            assert re.search("[а-яё]", row.meaning("ru")), row.key
            assert row.meaning("ru") in found.to_json("ru", NAMES)["text"]
    assert all(count > 50 for count in named.values()), named


def test_the_yaku_a_hint_brings_near_is_within_reach_on_the_coach_panel() -> None:
    """The coach panel's "within reach" (the view's ``yaku_progress``) and a hint's "one
    card away" / "2 of 3" are one notion: with the move's capture in the pile (before the
    draw, which may capture more), the panel lists that yaku."""
    checked = 0
    for state, seat, found in hinted_moves(80, seed=17):
        nearer = [r for r in found.reasons if r.kind in ("near", "progress")]
        if not nearer:
            continue
        taken = next(r.values["cards"] for r in found.reasons if r.kind == "captures")
        captured = state.clone()
        captured.piles[seat] |= cards(" ".join(taken["card_codes"]))
        panel = {p["key"] for p in captured.yaku_progress(seat)}
        yaku = next(r.key for r in state.yaku_table.rows if r.said() == nearer[0].values["yaku"])
        assert yaku in panel, (yaku, panel)
        checked += 1
    assert checked > 50


# -- the guided koi-koi round teaches the whole game --------------------------------------
#: each family of yaku, by the yaku keys any of which a line may name
FAMILIES = {
    "lights": ("sanko", "shiko", "goko"),
    "ribbons": ("tanzaku", "akatan", "aotan"),
    "animals": ("inoshikacho", "tane"),
    "plains": ("kasu",),
    "viewing": ("tsukimi", "hanami"),
}


def lesson_lines(lang: str, name: str = "") -> list[tuple[str, str, str]]:
    """The koi-koi coach's (idea, key, text) at each of the learner's moves and at the end,
    for a learner called ``name`` who follows the coach."""
    lesson = lesson_of("koi-koi")
    state = lesson.new_state()
    bot = ScriptedBot(lesson, 1)
    out = []
    while not state.is_over:
        seat = min(state.to_move)
        if seat == lesson.learner:
            said = guide(lesson, state, lang, name)
            out.append((said["idea"], said["key"], said["text"]))
            action = expected(lesson, state, seat)
            assert action is not None
        else:
            action = bot.choose(state, seat)
        state.apply(seat, action)
    said = guide(lesson, state, lang, name)
    return [*out, (said["idea"], said["key"], said["text"])]


@pytest.mark.parametrize("lang", LANGS)
def test_the_koikoi_lesson_names_every_family_of_yaku(lang: str) -> None:
    table = koikoi_table({})
    text = " ".join(line for _idea, _key, line in lesson_lines(lang))
    for family, keys in FAMILIES.items():
        assert any(table.row(key).name in text for key in keys), family
    assert not cites_card_points(text, lang)


def test_the_koikoi_lesson_stops_a_threat_and_calls_under_risk() -> None:
    lesson = lesson_of("koi-koi")
    ideas = [step.idea for step in lesson.steps_of(lesson.learner)]
    assert len(ideas) >= 8 and {"threat", "ribbons", "plains", "yaku", "risk"} <= set(ideas)
    state = lesson.new_state()
    bot = ScriptedBot(lesson, 1)
    table = koikoi_table({})
    seen: set[str] = set()
    while not state.is_over:
        seat = min(state.to_move)
        step = lesson.step(state, seat) if seat == lesson.learner else None
        action = expected(lesson, state, seat) if seat == lesson.learner else None
        action = action or bot.choose(state, seat)
        theirs = state.piles[1]  # type: ignore[attr-defined]
        if step is not None and step.idea == "threat":
            # the opponent is one card from Ino-shika-chō, and the move takes that card
            assert table.row("inoshikacho").missing(theirs) == 1
            state.apply(seat, action)
            assert table.row("inoshikacho").missing(state.piles[1] | state.table) > 0  # type: ignore[attr-defined]
            assert state.piles[0] & table.row("inoshikacho").counts  # type: ignore[attr-defined]
            seen.add("threat")
            continue
        if step is not None and step.idea == "risk":
            # the learner has a yaku to call on while the opponent is one card from one
            assert isinstance(action, Shobu) and state.pile_yaku(0)  # type: ignore[attr-defined]
            assert any(p.missing == 1 for p in table.progress(theirs, state.piles[0]))  # type: ignore[attr-defined]
            said = guide(lesson, state, "en")
            assert "Aotan" in said["text"] and said["values"]["pl"]["threat"].startswith("Aotan")
            seen.add("risk")
        state.apply(seat, action)
    assert seen == {"threat", "risk"}
    assert state.view(0)["last_round"]["scores"][0] > 0  # the stop scored the yaku


@pytest.mark.parametrize("lang", LANGS)
def test_the_koikoi_coach_calls_the_learner_by_name(lang: str) -> None:
    lines = lesson_lines(lang, name="Ala")
    named = [idea or "done" for idea, _key, text in lines if "Ala" in text]
    assert named == ["match", "risk", "done"]
    words = catalogue(lang)
    assert not any(words["lobby.default_name"].format(n=1) in text for _i, _k, text in lines)
