"""7 słów rules (games/siedem_slow/pages/siedem-slow.md): the worked examples and every listed
edge case."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.agents import make_agent
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.record import GameRecord
from cardtable.games.siedem_slow import (
    CLOCK,
    Accept,
    Area,
    Challenge,
    Dictionary,
    Flip,
    LetterCard,
    Lock,
    SiedemSlowState,
    Submit,
    TimeUp,
    Vote,
    score_word,
    solve,
)
from cardtable.games.siedem_slow.area import deck_cards
from cardtable.games.siedem_slow.tables import (
    BONUS_BY_ROUND,
    CHALLENGE_PENALTY,
    DECKS,
    LETTER_CARDS,
    MAX_RARE_IN_AREA,
    MAX_SAME_LETTER_IN_AREA,
    RARE_CARDS,
    SOLO_TARGET,
)
from tests.siedem_helpers import fixed_points, new_game, play_round, word_list

__all__ = ["fixed_points"]  # the fixture, imported for pytest


# -- §1 components ---------------------------------------------------------------------------
@pytest.mark.parametrize("language", list(DECKS))
def test_decks_are_consonant_cards_as_the_rulebook_counts(language: str) -> None:
    deck = DECKS[language]
    cards = deck_cards(deck)
    assert len(cards) == deck.size == LETTER_CARDS
    assert sum(c.rare for c in cards) == deck.rare_count == RARE_CARDS
    assert {c.bonus for c in cards if c.rare} == {1, 2}
    assert all(c.letter.lower() not in deck.vowels for c in cards)
    assert deck.provisional


def test_polish_deck_deals_the_rulebook_example_area(tmp_path: Path) -> None:
    # the example needs two rare L cards: dealing it from the Polish deck proves they exist
    deck = ["L+1", "R", "W", "M", "N", "S", "L+1", "K"]
    state = new_game(deck, players=2, dictionary=word_list(tmp_path))
    assert str(state.area) == "L+1K|NS|WM|L+1R"
    assert state.word_score(0, "wyselekcjonowany").points == 22
    with pytest.raises(OptionError, match="the pl deck has no Y card"):
        LetterCard.parse("Y", DECKS["pl"])  # Y is a vowel in Polish (§1)


# -- §4 scoring ------------------------------------------------------------------------------
def test_worked_examples_22_and_26() -> None:
    first = Area.parse("L+1K|NS|WM|L+1R")
    scored = score_word("WYSELEKCJONOWANY", first)
    assert scored.points == 22
    assert sorted(str(c.card) for c in scored.cards) == ["K", "L+1", "N", "S", "W"]
    second = score_word("LUMPENPROLETARIAT", Area.parse("L+1P|TN|ML+1|DB"))
    assert second.points == 26
    assert sum(c.card.bonus for c in second.cards) == 2


def test_one_card_scores_once_and_two_cards_score_for_two_letters() -> None:
    area = Area.parse("K_|K_|__|__")
    assert score_word("kot", area).points == 5  # the better K
    assert score_word("kajak", area).points == 9
    assert score_word("kkkkk", area).points == 9
    assert score_word("ala", area).points == 0


def test_better_card_by_value_or_by_column() -> None:
    # an L in the 4 column (4) and a rare L+2 in the 3 column (5): which one scores?
    area = Area([None, None, LetterCard("L"), None, LetterCard("L", 2), None, None, None])
    assert score_word("las", area).points == 5
    assert score_word("las", area, better="column").points == 4
    assert score_word("lala", area).points == 9


def test_better_card_by_column_takes_the_better_copy_within_a_column() -> None:
    # both Ń cards in the 3 column, the lower one rarer: "koń" scores the Ń+2 (5), not 4
    area = Area.parse("__|__|Ń+1Ń+2|__")
    assert score_word("koń", area, better="column").points == 5
    assert score_word("koń", area, better="value").points == 5
    assert score_word("koń", area, better="column").cards[0].card == LetterCard("Ń", 2)


def test_case_and_letter_identity() -> None:
    area = Area.parse("ZŻ|ŁL|__|__")
    assert score_word("ŻABA", area).points == 6  # the rare Ż+1, not the Z
    assert score_word("łoś", area).points == 4
    assert score_word("czy", area).points == 5  # the Z of the digraph CZ is a Z


def test_veteran_handicap_keeps_the_best_four() -> None:
    area = Area.parse("KD|RZ|NW|TP")
    full = score_word("kdrznwtp", area)
    assert full.points == area.total == 28
    veteran = score_word("kdrznwtp", area, veteran_letters=4)
    assert veteran.points == 5 + 5 + 4 + 4 + 1 + 1 + 1 + 1
    two_k = Area.parse("KK|RZ|__|__")
    uses = score_word("kkrz", two_k, veteran_letters=2)
    letters = score_word("kkrz", two_k, veteran_letters=2, veteran_counts="letters")
    assert uses.points == 5 + 5 + 1 + 1
    assert letters.points == 5 + 5 + 4 + 1  # K-K counts as one letter choice


def test_area_parse_errors_name_the_problem() -> None:
    with pytest.raises(OptionError, match="4 columns"):
        Area.parse("DS|PH")
    with pytest.raises(OptionError, match="no H\\+3"):
        Area.parse("DS|PH+3|LN|KR")
    with pytest.raises(OptionError, match="holds 2 cards"):
        Area.parse("DSK|PH|LN|KR")
    assert str(Area.parse("ds|p h+2|ln|kr")) == "DS|PH+2|LN|KR"


# -- §2 setup and the 2-on-2 rule ------------------------------------------------------------
def test_setup_fills_from_the_right_and_refuses_a_third_rare_or_letter() -> None:
    state = new_game(["K", "K", "K", "H+1", "F+1", "Ż+1", "N", "M", "T", "P"], players=2)
    area = state.area
    assert str(area) == "TP|NM|H+1F+1|KK"
    assert [str(c) for c in state.pile.discard] == ["K", "Ż+1"]
    rare = sum(c.rare for _, c in area.cards())
    assert rare <= MAX_RARE_IN_AREA
    assert max(Counter(c.letter for _, c in area.cards()).values()) <= MAX_SAME_LETTER_IN_AREA


def test_end_of_round_slides_left_columns_right_and_fills_4_then_5(tmp_path: Path) -> None:
    deck = ["B", "C", "D", "G", "J", "K", "M", "N", "P", "R", "S", "T"]
    state = new_game(deck, players=2, dictionary=word_list(tmp_path))
    assert str(state.area) == "MN|JK|DG|BC"
    play_round(state, {0: "kot", 1: "dom"}, fastest=0)
    # 5 -> 3 and 4 -> 2 keep their rows; the 4 column is filled first (P R), then 5 (S T)
    assert str(state.area) == "ST|PR|MN|JK"
    assert sorted(str(c) for c in state.pile.discard) == ["B", "C", "D", "G"]


def test_empty_deck_reshuffles_the_discards_and_leaves_a_slot_empty_when_nothing_fits(
    tmp_path: Path,
) -> None:
    state = new_game(
        ["B", "C", "D", "G", "J", "K", "M", "N"], players=2, dictionary=word_list(tmp_path)
    )
    play_round(state, {0: "kot", 1: "dom"}, fastest=0)
    assert state.pile.reshuffles == 1
    assert sorted(c.letter for _, c in state.area.cards()) == list("BCDGJKMN")
    stuck = new_game(
        ["K", "K", "K", "N", "N", "M", "M", "T"], players=2, dictionary=word_list(tmp_path)
    )
    assert stuck.area.slots[1] is None  # the third K fits nowhere
    assert str(stuck.area) == "T_|MM|NN|KK"
    assert score_word("kot", stuck.area).points == 2 + 5


def test_a_rigged_deck_is_checked_against_the_real_deck() -> None:
    with pytest.raises(OptionError, match="more Ć\\+2 cards"):
        new_game(["Ć+2"] * 3, players=2)
    with pytest.raises(OptionError, match="one deal"):
        cardtable.load("siedem-slow").new_state(seed=1, deals=[{"hands": []}])


# -- §3 a round: flipping, the don't-flip card, time ------------------------------------------
def test_flip_locks_the_word_and_time_up_locks_every_word() -> None:
    state = new_game(["K", "T", "N", "S", "R", "L", "D", "C"], players=3, deck="en")
    with pytest.raises(IllegalAction, match="write your word before you flip"):
        state.apply(0, Flip())
    state.apply(0, Submit("cardinals"))
    state.apply(1, Submit("cat"))
    state.apply(0, Flip())
    assert state.fastest == 0 and state.timer == ("hourglass", 30)
    with pytest.raises(IllegalAction):
        state.apply(0, Submit("cars"))
    with pytest.raises(IllegalAction, match="already running"):
        state.apply(1, Flip())
    with pytest.raises(IllegalAction, match="only the clock"):
        state.apply(1, TimeUp())
    state.apply(1, Submit("cards"))  # may still change it before the sand runs out
    state.apply(CLOCK, TimeUp())
    words = {w.seat: (w.word, w.points) for w in state.played[0]}
    assert words == {0: ("cardinals", 24), 1: ("cards", 17), 2: ("", 0)}
    assert state.holder == 0


def test_dont_flip_holder_may_write_and_lock_but_not_flip() -> None:
    state = new_game(players=3, deck="en", seed=4)
    play_round(state, {0: "cat", 1: "dog", 2: "tree"}, fastest=1)
    assert state.holder == 1
    state.apply(1, Submit("house"))
    with pytest.raises(IllegalAction, match="don't-flip card"):
        state.apply(1, Flip())
    assert Flip() not in state.legal_actions(1)
    state.apply(2, Submit("river"))
    state.apply(2, Flip())
    state.apply(1, Lock())
    state.apply(CLOCK, TimeUp())
    assert state.holder == 2


def test_two_players_never_use_the_dont_flip_card() -> None:
    state = new_game(players=2, deck="en", seed=4)
    play_round(state, {0: "cat", 1: "dog"}, fastest=0)
    assert state.holder is None
    state.apply(0, Submit("tree"))
    state.apply(0, Flip())


def test_nobody_flips_the_soft_cap_starts_a_countdown_with_no_fastest() -> None:
    state = new_game(players=3, deck="en", seed=4)
    assert state.timer == ("cap", 180)
    state.apply(0, Submit("cat"))
    state.apply(CLOCK, TimeUp())
    assert state.phase == "hourglass" and state.fastest is None
    state.apply(1, Submit("house"))
    state.apply(CLOCK, TimeUp())
    result = state.results[0]
    assert result.outcome == "no-flip"
    assert not any(line.rule.startswith("bonus") for line in result.lines)
    assert state.holder is None


# -- §5 bonuses ------------------------------------------------------------------------------
def test_bonus_values_follow_the_round_table(fixed_points: dict[str, int]) -> None:
    fixed_points.update({"cat": 10, "dog": 12, "tree": 5})
    state = new_game(players=2, deck="en", seed=2, family_rule="word", validation="challenge")
    for number in range(1, 8):
        words = {0: f"cat{'s' * number}", 1: f"dog{'s' * number}"}
        fixed_points.update({words[0]: 10, words[1]: 12})
        play_round(state, words, fastest=0)
        first, _ = BONUS_BY_ROUND[number]
        bonus = [line for line in state.results[number - 1].lines if line.rule == "bonus:1"]
        assert [(b.seat, b.points) for b in bonus] == [(1, first)]


def test_second_box_needs_the_best_score_with_up_to_four_players(
    fixed_points: dict[str, int],
) -> None:
    fixed_points.update({"aa": 20, "bb": 20, "cc": 21, "dd": 5})
    state = new_game(players=4, deck="en", family_rule="word", validation="challenge")
    play_round(state, {0: "aa", 1: "bb", 2: "dd", 3: "dd"}, fastest=0)  # a tie is enough
    assert {(line.seat, line.rule) for line in state.results[0].lines if "bonus" in line.rule} == {
        (0, "bonus:2")
    }
    play_round(state, {0: "aa", 1: "cc", 2: "dd", 3: "dd"}, fastest=2)
    marks = {(line.seat, line.rule) for line in state.results[1].lines if "bonus" in line.rule}
    assert marks == {(0, "bonus:1"), (1, "bonus:1")}  # nobody ties the fastest's 5 upward


@pytest.mark.parametrize(
    ("others", "earns"), [((30, 30, 10, 10, 10), True), ((30, 30, 30, 10, 10), False)]
)
def test_second_box_with_six_players_needs_three_opponents_beaten(
    fixed_points: dict[str, int], others: tuple[int, ...], earns: bool
) -> None:
    words = {}
    for seat, points in enumerate((20, *others)):
        word = "w" * (seat + 1)
        fixed_points[word] = points
        words[seat] = word
    state = new_game(players=6, deck="en", family_rule="word", validation="challenge")
    play_round(state, words, fastest=0)
    assert any(line.rule == "bonus:2" for line in state.results[0].lines) is earns


def test_fastest_threshold_is_an_option(fixed_points: dict[str, int]) -> None:
    words = {}
    for seat, points in enumerate((20, 30, 30, 30, 10, 10)):
        words[seat] = "w" * (seat + 1)
        fixed_points[words[seat]] = points
    state = new_game(
        players=6, deck="en", family_rule="word", validation="challenge", fastest_needs=2
    )
    play_round(state, words, fastest=0)
    assert any(line.rule == "bonus:2" for line in state.results[0].lines)


def test_three_player_score_sheet_rounds(fixed_points: dict[str, int]) -> None:
    """The rulebook's 3-player sheet: Sławek (seat 0) fastest in rounds 1 and 3."""
    fixed_points.update({"snop": 18, "euro": 19, "marek": 10})  # round 1
    fixed_points.update({"one": 12, "two": 15, "three": 11})  # round 2, Ania flips
    fixed_points.update({"antro": 21, "ania": 19, "marka": 21})  # round 3
    state = new_game(players=3, deck="en", family_rule="word", validation="challenge")
    play_round(state, {0: "snop", 1: "euro", 2: "marek"}, fastest=0)
    marks = {(line.seat, line.rule) for line in state.results[0].lines if "bonus" in line.rule}
    assert marks == {(1, "bonus:1")}  # Ania beat the fastest: 1st box
    play_round(state, {0: "one", 1: "two", 2: "three"}, fastest=1)
    play_round(state, {0: "antro", 1: "ania", 2: "marka"}, fastest=0)
    marks = {(line.seat, line.rule) for line in state.results[2].lines if "bonus" in line.rule}
    assert marks == {(0, "bonus:2")}  # a tie with the best still earns the 2nd box


# -- §7 end of game --------------------------------------------------------------------------
def test_full_game_sheet_totals_102(fixed_points: dict[str, int]) -> None:
    """The rulebook's full-game sheet: 5 counted words 97, bonuses 7, one failed challenge."""
    mine = ["abc", "abd", "abe", "abf", "abg", "abh", "abi"]
    points = [13, 21, 17, 17, 15, 23, 19]
    theirs = ["cat", "dog", "house", "tree", "river", "car", "book"]
    their_points = [20, 18, 20, 20, 14, 22, 25]
    fixed_points.update(dict(zip(mine, points, strict=True)))
    fixed_points.update(dict(zip(theirs, their_points, strict=True)))
    state = new_game(players=2, deck="en", validation="challenge")
    fastest = [1, 0, 1, 1, 1, 0, 1]
    for number in range(7):
        challenges = [(0, 1)] if number == 2 else []  # "house" is a word: the challenge fails
        play_round(
            state, {0: mine[number], 1: theirs[number]}, fastest[number], challenges=challenges
        )
    assert [(m.round, m.box, m.value) for m in state.marks[0]] == [(2, 2, 2), (5, 1, 2), (6, 2, 3)]
    assert state.penalties[0] == 1
    assert state.scores()[0] == 102
    assert state.counted_words(0) == [23, 21, 19, 17, 17]
    assert sum(r.scores[0] for r in state.results) == 102  # the breakdown adds up


def test_tie_break_compares_the_best_counted_words(fixed_points: dict[str, int]) -> None:
    mine = {"aa": 20, "ab": 10, "ac": 10, "ad": 10, "ae": 10, "af": 0, "ag": 0}
    theirs = {"ba": 16, "bb": 12, "bc": 12, "bd": 10, "be": 10, "bf": 0, "bg": 0}
    fixed_points.update(mine | theirs)
    state = new_game(players=2, deck="en", family_rule="word", validation="challenge")
    for a, b in zip(mine, theirs, strict=True):
        play_round(state, {0: a, 1: b}, fastest=None)  # no flips: no bonuses
    result = state.result()
    assert result.scores == (60, 60)
    assert result.winners == (0,)  # 20 beats 16


def test_a_full_tie_shares_the_win(fixed_points: dict[str, int]) -> None:
    state = new_game(players=2, deck="en", family_rule="word", validation="challenge", rounds=3)
    for number in range(3):
        fixed_points.update({f"a{'a' * number}": 7, f"b{'b' * number}": 7})
        play_round(state, {0: f"a{'a' * number}", 1: f"b{'b' * number}"})
    assert state.result().winners == (0, 1)


# -- §8 challenges and word restrictions ------------------------------------------------------
def test_refused_words_say_why(tmp_path: Path) -> None:
    state = new_game(players=2, dictionary=word_list(tmp_path))
    cases = {
        "Kraków": "proper noun",
        "warszawa": "proper noun (Warszawa)",
        "np": "abbreviation",
        "pkp": "abbreviation",
        "e-mail": "hyphen",
        "rock'n'roll": "apostrophe",
        "kotx": "not in the dictionary",
        "two words": "one word",
        "k0t": "letters only",
    }
    for word, reason in cases.items():
        with pytest.raises(IllegalAction, match=re.escape(reason)):
            state.apply(0, Submit(word))
    assert state.entries[0] is None and state.log == []


def test_word_family_rule_blocks_lemmas_and_warns_on_roots(tmp_path: Path) -> None:
    state = new_game(players=3, dictionary=word_list(tmp_path))
    play_round(state, {0: "śmiech", 1: "dom", 2: "śmiech"}, fastest=0)  # same round: fine
    with pytest.raises(IllegalAction, match="same family as ŚMIECH used in round 1"):
        state.apply(1, Submit("śmiechy"))
    with pytest.raises(IllegalAction, match="same family as DOM"):
        state.apply(1, Submit("domy"))
    with pytest.raises(IllegalAction, match="same family as ŚMIECH"):
        state.apply(2, Submit("śmiech"))  # one's own earlier word too (§8 REC)
    state.apply(1, Submit("przydomowy"))
    assert state.warnings[1] is not None and "DOM" in state.warnings[1]
    state.apply(2, Submit("kot"))
    state.apply(2, Flip())
    state.apply(0, Submit("las"))
    state.apply(CLOCK, TimeUp())
    assert state.phase == "review"  # a warned word: the others may challenge it
    assert state.challengeable(0) == [1] and state.challengeable(1) == []
    state.apply(0, Challenge(1))
    assert state.phase == "vote" and state.to_move == frozenset({2})
    # the warning goes to the front ends in every language, not in English alone
    why = {lang: state.warnings[1].text(lang) for lang in ("en", "pl", "ru")}
    assert why["pl"] == "wspólny rdzeń DOM- z DOM (runda 1): inni mogą je zakwestionować"
    assert state.view(2)["vote"] == {
        "challenger": 0, "target": 1, "word": "przydomowy", "why": why, "voted": []
    }  # fmt: skip
    state.apply(2, cardtable.games.siedem_slow.Vote(True))
    words = {w.seat: w for w in state.played[1]}
    assert words[1].struck and words[1].points == 0
    (struck,) = [line for line in state.results[1].lines if line.rule == "challenge:upheld"]
    assert struck.text("pl") == (
        "PRZYDOMOWY skreślone: wspólny rdzeń DOM- z DOM (runda 1): inni mogą je"
        " zakwestionować; za tą samą rodziną głosów: 2 z 2"
    )
    assert not any(line.seat == 1 and "bonus" in line.rule for line in state.results[1].lines)


def test_own_families_can_be_switched_off(tmp_path: Path) -> None:
    state = new_game(players=2, dictionary=word_list(tmp_path), own_families=False)
    play_round(state, {0: "kot", 1: "las"}, fastest=0)
    state.apply(0, Submit("koty"))  # own earlier word: allowed with the option off
    with pytest.raises(IllegalAction, match="same family as LAS"):
        state.apply(0, Submit("lasy"))


def test_challenge_mode_a_false_word_is_struck_and_a_true_one_costs_the_challenger(
    tmp_path: Path,
) -> None:
    deck = ["D", "R", "Z", "W", "L", "S", "K", "T"]
    state = new_game(deck, players=3, dictionary=word_list(tmp_path), validation="challenge")
    assert str(state.area) == "KT|LS|ZW|DR"
    play_round(
        state,
        {0: "kotopies", 1: "drzewo", 2: "las"},
        fastest=0,
        challenges=[(1, 0), (2, 1)],
    )
    words = {w.seat: w for w in state.played[0]}
    assert words[0].struck and words[0].points == 0
    assert not words[1].struck
    assert state.penalties == [0, 0, 1]
    lines = {(line.seat, line.rule): line.points for line in state.results[0].lines}
    assert lines[2, "challenge:failed"] == -CHALLENGE_PENALTY
    assert (0, "bonus:2") not in lines  # a struck fastest word earns nothing
    assert lines[1, "bonus:1"] == 1  # and the others compare with 0 (§5 REC)
    assert lines[2, "bonus:1"] == 1


def test_failed_fastest_option_no_first_box(tmp_path: Path) -> None:
    state = new_game(
        ["D", "R", "Z", "W", "L", "S", "K", "T"], players=2, dictionary=word_list(tmp_path),
        validation="challenge", failed_fastest="no-first-box",
    )  # fmt: skip
    play_round(state, {0: "kotopies", 1: "drzewo"}, fastest=0, challenges=[(1, 0)])
    assert not any("bonus" in line.rule for line in state.results[0].lines)


# -- §9 solo ---------------------------------------------------------------------------------
def solo_round(state: object, word: str, in_time: bool) -> None:
    from cardtable.games.siedem_slow import SiedemSlowState

    assert isinstance(state, SiedemSlowState)
    if not in_time:
        state.apply(CLOCK, TimeUp())
        assert state.phase == "overtime" and state.timer is None
    state.apply(0, Submit(word))
    state.apply(0, Lock())


@pytest.mark.parametrize("difficulty", ["normal", "medium", "hard", "brutal"])
def test_solo_moves_the_hourglass_and_marks_bonuses(
    fixed_points: dict[str, int], difficulty: str
) -> None:
    fixed_points.update({"aa": 22, "ab": 16, "ac": 16, "ad": 10, "ae": 25, "af": 12, "ag": 21})
    state = new_game(
        players=1, deck="en", difficulty=difficulty, family_rule="word", validation="challenge"
    )
    fields = ["1", "2", "red"] if difficulty != "brutal" else ["1", "red"]
    assert state.view(0)["solo"]["fields"] == fields
    solo_round(state, "aa", in_time=True)  # 22 in time on field 1: 2nd box, stays on 1
    assert state.field_name == "1" and state.marks[0][-1].box == 2
    solo_round(state, "ab", in_time=True)  # 16 < 20: down one; 15+ in time on 1: 2nd box
    assert state.marks[0][-1].box == 2
    assert state.field_name == fields[1]
    solo_round(state, "ac", in_time=True)  # 16 on a lower field: 1st box; down again
    assert state.marks[0][-1].box == 1
    if difficulty == "brutal":
        assert state.field_name == "red" and state.penalties[0] == 1  # stays on red
    else:
        assert state.field_name == "red" and state.penalties[0] == 0
    solo_round(state, "ad", in_time=True)  # under 20 on red: penalty
    assert state.field_name == ("red" if difficulty == "brutal" else "2")
    penalties = state.penalties[0]
    solo_round(state, "ae", in_time=False)  # 25 but late: no bonus, stays
    assert len(state.marks[0]) == 3 and state.penalties[0] == penalties
    solo_round(state, "af", in_time=True)
    solo_round(state, "ag", in_time=True)
    assert state.is_over
    assert state.solo_won == (state.scores()[0] >= SOLO_TARGET[difficulty])
    assert state.results[-1].outcome in ("solo-won", "solo-lost")


def test_solo_late_but_high_word_on_red_stays_without_penalty(fixed_points: dict[str, int]) -> None:
    fixed_points.update({"aa": 5, "ab": 5, "ac": 25})
    state = new_game(players=1, deck="en", family_rule="word", validation="challenge")
    solo_round(state, "aa", in_time=True)
    solo_round(state, "ab", in_time=True)
    assert state.field_name == "red"
    solo_round(state, "ac", in_time=False)
    assert state.field_name == "red" and state.penalties[0] == 0


def test_solo_turns_per_field_house_rule() -> None:
    state = new_game(players=1, deck="en", solo_turns_per_field=True)
    assert state.timer == ("hourglass", 30)
    state.field = 1
    assert state.timer == ("hourglass", 60)


# -- §10 variants ----------------------------------------------------------------------------
def test_veteran_seat_scores_with_the_handicap() -> None:
    deck = ["K", "T", "N", "S", "R", "L", "D", "C"]
    state = new_game(deck, players=2, deck="en", veterans=(1,))
    play_round(state, {0: "cardinals", 1: "cardinals"}, fastest=0)
    words = {w.seat: w.points for w in state.played[0]}
    assert words == {0: 24, 1: 5 + 5 + 4 + 4 + 1 + 1}


def test_no_hourglass_variant_main_player_rotation(fixed_points: dict[str, int]) -> None:
    state = new_game(
        players=3,
        deck="en",
        variant="no-hourglass",
        family_rule="word",
        validation="challenge",
        seed=3,
    )
    assert state.timer is None
    with pytest.raises(IllegalAction, match="no hourglass"):
        state.apply(0, Flip())
    main = state.main
    assert main is not None
    words = {seat: f"w{'x' * seat}" for seat in range(3)}
    fixed_points.update({words[main]: 30, words[(main + 1) % 3]: 10, words[(main + 2) % 3]: 10})
    play_round(state, words)
    assert [m.box for m in state.marks[main]] == [2]
    # the others tie on no marks: the nearest clockwise from the main player is next
    assert state.main == (main + 1) % 3


def test_options_refuse_bad_combinations() -> None:
    with pytest.raises(OptionError, match="veterans"):
        cardtable.load("siedem-slow", players=2, veterans=(3,))
    with pytest.raises(OptionError, match="no-hourglass"):
        cardtable.load("siedem-slow", players=1, variant="no-hourglass")
    with pytest.raises(OptionError, match=r"valid: 1\.\.6"):
        cardtable.load("siedem-slow", players=7)


# -- views, records, solver ------------------------------------------------------------------
def test_views_hide_words_being_written() -> None:
    state = new_game(players=3, deck="en", seed=9)
    state.apply(0, Submit("cat"))
    state.apply(1, Submit("dog"))
    view = state.view(1)
    assert view["entry"] == "dog"
    assert "cat" not in repr(view) and "cat" not in repr(state.view(None))


def test_a_game_replays_from_its_record() -> None:
    state = new_game(players=3, deck="en", seed=11)
    play_round(state, {0: "cat", 1: "house"}, fastest=1)
    play_round(state, {0: "tree", 2: "dog"}, fastest=None)
    record = GameRecord.from_json(GameRecord.of(state).to_json())
    again = record.replay()
    assert again.view(0) == state.view(0)
    assert again.scores() == state.scores()


def test_solver_finds_the_best_word_with_ties_to_shorter_words() -> None:
    words = Dictionary.from_words(["strong", "strongest", "stronghold", "tsar"], language="en")
    area = Area.parse("ST|RN|GH|LD", "en")
    best = solve(area, words, top=3)
    assert [(s.word, s.points) for s in best] == [
        ("stronghold", score_word("stronghold", area).points),
        ("strong", score_word("strong", area).points),
        ("strongest", score_word("strongest", area).points),
    ]
    assert best[0].points == area.total  # STRONGHOLD uses all 8 cards
    assert solve(area, words, top=2, allowed=lambda w: w != "stronghold")[0].word == "strong"


def test_letter_card_parse() -> None:
    assert LetterCard.parse("h", DECKS["pl"]) == LetterCard("H", 1)
    assert LetterCard.parse("L+1", DECKS["pl"]).rare
    with pytest.raises(OptionError):
        LetterCard.parse("7")


# -- "must flip" (§3.5): a finished word flips the hourglass while nobody has ------------------
def test_a_finished_word_must_flip_the_hourglass(tmp_path: Path) -> None:
    state = new_game(players=3, dictionary=word_list(tmp_path))
    for seat, word in enumerate(["kot", "dom", "las"]):
        state.apply(seat, Submit(word))
    assert state.legal_actions(0) == [Flip()]
    with pytest.raises(IllegalAction, match="must flip"):
        state.apply(0, Lock())
    assert state.locked == [False, False, False] and state.phase == "writing"
    state.apply(1, Flip())  # the first to finish flips: the others may now just finish
    assert state.fastest == 1 and state.phase == "hourglass"
    assert state.legal_actions(0) == [Lock()]
    state.apply(0, Lock())
    state.apply(2, Lock())
    assert state.results[0].dealer == 1 and state.results[0].outcome == "played"


def test_who_may_finish_without_flipping(tmp_path: Path) -> None:
    state = new_game(players=3, dictionary=word_list(tmp_path))
    play_round(state, {0: "kot", 1: "dom", 2: "las"}, fastest=0)
    assert state.holder == 0
    state.apply(0, Submit("pies"))  # the don't-flip holder may not flip: Lock is its finish
    assert state.legal_actions(0) == [Lock()]
    state.apply(0, Lock())
    assert state.legal_actions(1) == [Lock()]  # no word yet: giving up is a lock
    state.apply(1, Lock())
    solo = new_game(players=1, dictionary=word_list(tmp_path))
    solo.apply(0, Submit("kot"))
    assert solo.legal_actions(0) == [Lock()]
    main = new_game(players=2, dictionary=word_list(tmp_path), variant="no-hourglass")
    main.apply(0, Submit("kot"))
    assert main.legal_actions(0) == [Lock()]


def test_only_the_soft_cap_ends_a_round_that_nobody_flipped(tmp_path: Path) -> None:
    state = new_game(players=2, dictionary=word_list(tmp_path))
    state.apply(0, Submit("kot"))
    state.apply(1, Submit("dom"))
    state.apply(CLOCK, TimeUp())  # the cap: a countdown with no fastest player
    assert state.phase == "hourglass" and state.fastest is None
    state.apply(0, Lock())
    state.apply(1, Lock())
    assert state.results[0].outcome == "no-flip"


# -- bots referee as careful players (§8) -------------------------------------------------------
def family_repeat_for_review(tmp_path: Path, players: int) -> SiedemSlowState:
    """Round 2 under review: seat 1 wrote PRZYDOMOWY after DOM of round 1 (a shared root)."""
    state = new_game(players=players, dictionary=word_list(tmp_path))
    play_round(state, {0: "kot", 1: "dom", **({2: "las"} if players > 2 else {})}, fastest=1)
    state.apply(1, Submit("przydomowy"))
    state.apply(0, Submit("pies"))
    state.apply(0, Flip())
    state.apply(CLOCK, TimeUp())
    assert state.phase == "review" and state.warnings[1] is not None
    return state


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_careful_bots_challenge_a_family_repeat_and_vote_by_the_checker(
    tmp_path: Path, level: str
) -> None:
    state = family_repeat_for_review(tmp_path, players=3)
    challenger, voter = make_agent(level, "siedem-slow", seed=1), make_agent(level, "siedem-slow")
    assert challenger.choose(state, 0) == Challenge(1)
    state.apply(0, Challenge(1))
    assert state.phase == "vote" and voter.choose(state, 2) == Vote(True)
    state.apply(2, Vote(True))
    struck = {w.seat: w.struck for w in state.played[1]}
    assert struck == {0: False, 1: True, 2: False}


def test_bots_accept_words_nobody_could_challenge(tmp_path: Path) -> None:
    state = new_game(players=2, dictionary=word_list(tmp_path), validation="challenge")
    state.apply(0, Submit("kot"))
    state.apply(1, Submit("dom"))
    state.apply(0, Flip())
    state.apply(CLOCK, TimeUp())
    assert state.phase == "review"
    for level in ("random", "easy", "medium", "hard"):
        assert make_agent(level, "siedem-slow", seed=3).choose(state, 1) == Accept()


def test_in_challenge_mode_bots_challenge_a_word_the_dictionary_refuses(tmp_path: Path) -> None:
    state = new_game(players=2, dictionary=word_list(tmp_path), validation="challenge")
    state.apply(0, Submit("kotopies"))
    state.apply(1, Submit("dom"))
    state.apply(0, Flip())
    state.apply(CLOCK, TimeUp())
    assert make_agent("hard", "siedem-slow").choose(state, 1) == Challenge(0)


def test_easy_bots_notice_about_half_of_the_repeats(tmp_path: Path) -> None:
    state = family_repeat_for_review(tmp_path, players=2)
    choices = Counter(
        type(make_agent("easy", "siedem-slow", seed=seed).choose(state, 0)).__name__
        for seed in range(60)
    )
    assert choices.keys() == {"Challenge", "Accept"} and 15 <= choices["Challenge"] <= 45
    bot = make_agent("easy", "siedem-slow", seed=5)
    assert len({type(bot.choose(state, 0)) for _ in range(10)}) == 1  # decided once a word
