"""The house rules of the hanafuda games, declared once: every option with its default,
its words (``description``), its group and the checks between options.

The engine reads them into plain attributes when a match starts (``configure``); they live
apart from the engine's modules because those are compiled (the pydantic models stay
interpreted Python).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal, Self

from pydantic import Field, create_model, field_validator, model_validator
from pydantic.fields import FieldInfo

from cardtable.core.options import GameOptions, option
from cardtable.games.hanafuda.yaku import YakuTable, hana_awase_table, koikoi_table


class FishingOptions(GameOptions):
    """Base of the fishing games' options; each declares ``rounds`` with
    :func:`rounds_field` (koi-koi allows 8 rounds besides the rulebook's 1, 3, 6, 12).

    Each option names its group (``x-group``); the words of an option are the game's own
    (``option.GAME.FIELD``, games/hanafuda/locales), as one option can differ by game."""

    GROUPS: ClassVar[tuple[str, ...]] = ("match", "scoring", "yaku", "lucky_hands", "turn_flow")
    #: whether captured card values score (Bakappana, Hana-awase) or only yaku (koi-koi):
    #: what every explanation of a move (hints, the coach, the terminal) may cite
    CARD_POINTS_SCORE: ClassVar[bool] = False
    #: what a round's scoring reads beyond the captured piles and the dealer (the fields of
    #: ``scoring.FinishedRound`` a score pad asks the table for): the dealt ``hands``
    #: (teyaku, lucky hands), the ``table`` left (the weather), koi-koi ``calls`` and who
    #: called ``shobu``
    ROUND_FACTS: ClassVar[tuple[str, ...]] = ()


def card_points_score(options: GameOptions | type[GameOptions]) -> bool:
    """Whether captured card values score under these options (or this options model):
    Bakappana and Hana-awase count them, koi-koi scores yaku only."""
    return bool(getattr(options, "CARD_POINTS_SCORE", False))


def rounds_field() -> Any:
    return option(
        12,
        description="Rounds in the match: a year of 12, or fewer.",
        group="match",
    )


class CardValueOptions(FishingOptions):
    """Options of the games scored by captured card values (Bakappana, Hana-awase)."""

    CARD_POINTS_SCORE: ClassVar[bool] = True

    rounds: Literal[1, 3, 6, 12] = rounds_field()
    players: int = Field(2, ge=2, le=4, description="Number of players, 2 to 4.")
    scoring: Literal["traditional", "simple"] = option(
        "traditional",
        description=(
            "traditional: captured card values minus par (264 / players), zero-sum; "
            "simple: captured card values."
        ),
        group="scoring",
    )
    two_player_stop_when_hands_empty: bool = option(
        False,
        description=(
            "Two players: end the round when the hands are empty instead of playing "
            "stock-only turns until the stock is empty (simple scoring only)."
        ),
        group="turn_flow",
    )

    @model_validator(mode="after")
    def _simplified_end_needs_simple_scoring(self) -> Self:
        if self.two_player_stop_when_hands_empty and self.scoring == "traditional":
            raise ValueError(
                "two_player_stop_when_hands_empty leaves 8 cards uncaptured, so traditional "
                "scoring would not be zero-sum: use scoring=simple with it"
            )
        return self


class BakappanaOptions(CardValueOptions):
    """Bakappana's options are exactly the card-value games' options."""


class HanaAwaseOptions(CardValueOptions):
    ROUND_FACTS: ClassVar[tuple[str, ...]] = ("hands",)

    players: int = Field(3, ge=2, le=4, description="Number of players, 2 to 4.")
    scoring: Literal["traditional", "simple"] = option(
        "traditional",
        description=(
            "traditional: (cards - par) + own yaku x (players - 1) - the others' yaku, "
            "zero-sum; simple: cards + own yaku x (players - 1)."
        ),
        group="scoring",
    )
    forced_hand_match: bool = option(
        False,
        description="A player who can capture with a hand card must play such a card.",
        group="turn_flow",
    )
    capture_from_opponent_piles: bool = option(
        False,
        description="A played card may also take a card of its month from an opponent's pile.",
        group="turn_flow",
    )
    teyaku: bool = option(
        False,
        description="Hands dealt with 7 plains collect 30 from each player, with 6 plains 20.",
        group="lucky_hands",
    )
    willow_is_plain_for_teyaku: bool = option(
        False,
        description="Teyaku count every willow card as a plain.",
        group="lucky_hands",
    )
    special_payments: bool = option(
        False,
        description=(
            "3 players: a deal where someone captured under 20 in card values is drawn; "
            "otherwise the dealer or the player after him with at most 8 captured cards, and "
            "the third player with at most 10, collect 30 from each."
        ),
        group="scoring",
    )
    fuke_threshold_inclusive: bool = option(
        False,
        description="The drawn-deal rule uses 20 or less instead of under 20.",
        group="scoring",
    )
    willow_row_cancels_yaku: bool = option(
        False,
        description="If anyone holds all four willow cards, nobody scores yaku.",
        group="yaku",
    )
    rain_spoils_drinking: bool = option(
        False,
        description="The rain man's holder scores no Nomi, Hanami or Tsukimi.",
        group="yaku",
    )
    sugawara_excluded_by_lights: bool = option(
        False,
        description="Gokō and Shikō replace Omote-sugawara.",
        group="yaku",
    )

    @cached_property
    def yaku_table(self) -> YakuTable:
        """The yaku rows these house rules score with (built once: every round reads it)."""
        return hana_awase_table(self)

    @model_validator(mode="after")
    def _special_payments_need_three(self) -> Self:
        if self.special_payments and self.players != 3:
            raise ValueError("special_payments name the three seats of a 3-player game")
        return self


#: the Russian rules that Hana-awase 88 plays by default (each an option of both games)
RUSSIAN_RULES = {
    "forced_hand_match": True,
    "capture_from_opponent_piles": True,
    "teyaku": True,
    "special_payments": True,
}

_PAR_88_FIELDS: dict[str, Any] = {
    "players": (Literal[3], Field(3, description="Exactly 3 players (par 88).")),
    "scoring": (
        Literal["traditional"],
        option(
            "traditional",
            description="(cards - 88) + own yaku x 2 - the others' yaku + teyaku and specials.",
            group="scoring",
        ),
    ),
    **{
        name: (bool, FieldInfo.merge_field_infos(HanaAwaseOptions.model_fields[name], default=on))
        for name, on in RUSSIAN_RULES.items()
    },
}
#: Hana-awase 88's options: the same fields with the Russian rules on by default, for
#: exactly 3 players and the zero-sum par of 88 (the rules keep the base's descriptions).
HanaAwase88Options = create_model(
    "HanaAwase88Options", __base__=HanaAwaseOptions, __module__=__name__, **_PAR_88_FIELDS
)


KoikoiMultiplier = Literal[
    "none", "own_x2", "opponent_x2", "any_x2", "count_opponent", "count_all", "japan_bonus"
]


LuckyHands = Literal["void", "win", "off"]
Lightning = Literal["plain", "wild", "wild_if_grass"]
TurnVariant = Literal["standard", "draw_then_two_hand_plays", "keep_unmatched_draw"]

#: draw rules that cannot both be on (the dealer's oya-ken keeps the deal and scores
#: alone); the other exclusive rules are one option each
EXCLUSIVE = (
    ("draw_passes_deal", "oya_ken_points"),
    ("draw_last_yaku_scores", "oya_ken_points"),
)


@dataclass(frozen=True, slots=True)
class FormerFlags:
    """Two exclusive flags of records saved before they became one option: each flag
    that is on chooses its value; neither on chooses ``neither``."""

    option: str
    flags: Mapping[str, str]  # flag -> the value it chose
    neither: str


#: records and house rules from before the choices were options still load
FORMER_FLAGS = (
    FormerFlags("lucky_hands", {"lucky_hands_void": "void", "lucky_hands_win": "win"}, "off"),
    FormerFlags(
        "lightning", {"lightning_wild": "wild", "lightning_wild_if_grass": "wild_if_grass"}, "plain"
    ),
    FormerFlags(
        "turn_variant",
        {
            "draw_then_two_hand_plays": "draw_then_two_hand_plays",
            "keep_unmatched_draw": "keep_unmatched_draw",
        },
        "standard",
    ),
)


def from_former_flags(data: dict[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each pair of former flags replaced by the option that replaced it.

    A flag left out had its old default: on only for the choice that is the option's
    default (``lucky_hands_void``), and then off when the other flag was asked for.

    >>> from_former_flags({"lucky_hands_win": True}, {"lucky_hands": "void"})
    {'lucky_hands': 'win'}
    >>> from_former_flags({"lucky_hands_void": False}, {"lucky_hands": "void"})
    {'lucky_hands': 'off'}
    """
    data = dict(data)
    for former in FORMER_FLAGS:
        given = {flag: data.pop(flag) for flag in former.flags if flag in data}
        if not given:
            continue
        if former.option in data:
            raise ValueError(f"{', '.join(given)}: an older name of {former.option}; give one")
        on = [flag for flag, value in given.items() if value]
        if len(on) > 1:
            raise ValueError(f"{' and '.join(on)} exclude each other: choose one")
        default = defaults[former.option]
        if on:
            data[former.option] = former.flags[on[0]]
        elif any(former.flags[flag] == default for flag in given):
            data[former.option] = former.neither  # the default's own flag was switched off
        else:
            data[former.option] = default
    return data


class KoiKoiOptions(FishingOptions):
    ROUND_FACTS: ClassVar[tuple[str, ...]] = ("hands", "table", "calls", "shobu")
    GROUPS: ClassVar[tuple[str, ...]] = (
        "match",
        "scoring",
        "yaku",
        "koikoi_calls",
        "lucky_hands",
        "turn_flow",
        "draws",
    )

    players: Literal[2] = Field(2, description="Koi-koi is for exactly 2 players.")
    rounds: Literal[1, 3, 6, 8, 12] = rounds_field()
    zero_sum: bool = option(
        True,
        description="★ Both start with zero_sum_start points; the loser pays the winner.",
        group="match",
    )
    zero_sum_start: int = option(
        30,
        ge=1,
        le=1000,
        description="Starting points (zero-sum).",
        group="match",
    )
    # deal
    lucky_hands: LuckyHands = option(
        "void",
        description=(
            "★ void: teshi or kuttsuki in a hand and the cards are dealt again; win: it wins "
            "the round at once (6 points); off: nothing happens."
        ),
        group="lucky_hands",
    )
    kuttsuki_enabled: bool = option(
        True,
        description="Kuttsuki (four pairs) counts as a lucky hand besides teshi.",
        group="lucky_hands",
    )
    table_lucky_void: bool = option(
        True,
        description="★ Four pairs on the table: the cards are dealt again.",
        group="lucky_hands",
    )
    table_triple_void: bool = option(
        False,
        description="Three cards of one month on the table: the cards are dealt again.",
        group="lucky_hands",
    )
    deal_ten_cards: bool = option(
        False,
        description="10 cards per hand (table 8, stock 20).",
        group="turn_flow",
    )
    # yaku
    chofuku_mode: Literal["replace", "add", "none"] = option(
        "replace",
        description=(
            "Akatan + Aotan: replace = 10 instead of 5 + 5; add = 10 plus both 5s; "
            "none = no extra yaku."
        ),
        group="yaku",
    )
    set_yaku_extra_bonus: bool = option(
        False,
        description=(
            "+1 per extra animal on Ino-shika-chō and per extra ribbon on Akatan/Aotan; "
            "Tane/Tanzaku then do not count those cards again."
        ),
        group="yaku",
    )
    inoshikacho_enabled: bool = option(True, description="Ino-shika-chō is a yaku.", group="yaku")
    sake_viewing: Literal["normal", "disabled", "needs_other_yaku"] = option(
        "normal",
        description="Hanami/Tsukimi: normal, disabled, or only with another yaku.",
        group="yaku",
    )
    weather_ruins_viewing: bool = option(
        True,
        description="★ No Hanami while a November card is on the table, no Tsukimi while "
        "a December card is.",
        group="yaku",
    )
    sake_cup_mode: Literal["both", "one_of", "animal_only"] = option(
        "both",
        description="The sake cup counts as animal and plain, as either, or animal only.",
        group="yaku",
    )
    viewing_value: Literal["standard", "low"] = option(
        "standard",
        description="low: Hanami/Tsukimi are worth 1, or 3 after own koi-koi.",
        group="yaku",
    )
    double_plain: tuple[Literal["sake_cup", "lightning", "yellow_paulownia"], ...] = option(
        (),
        description="Cards that count as two plains for Kasu (comma separated).",
        group="yaku",
    )
    # extra card properties
    lightning: Lightning = option(
        "plain",
        description=(
            "The lightning (11-4): a plain card, wild (matches any card), or wild_if_grass "
            "(wild when an August plain is on the first table)."
        ),
        group="turn_flow",
    )
    # turn variants
    continue_with_stock_after_hands: bool = option(
        False,
        description="After the hands are empty, play stock-only turns.",
        group="turn_flow",
    )
    turn_variant: TurnVariant = option(
        "standard",
        description=(
            "draw_then_two_hand_plays: a turn takes the top stock card into hand, then plays "
            "two cards; keep_unmatched_draw: a flipped card that matches nothing goes to "
            "hand, and another card is played."
        ),
        group="turn_flow",
    )
    # draws
    oya_ken_points: int = option(
        0,
        ge=0,
        le=50,
        description="On a draw the dealer collects this and keeps the deal.",
        group="draws",
    )
    draw_passes_deal: bool = option(
        False,
        description="On a draw the other player deals.",
        group="draws",
    )
    draw_last_yaku_scores: bool = option(
        False,
        description="On a draw the last player to form or raise a yaku scores it.",
        group="draws",
    )
    # koi-koi declaration
    koikoi_min_points: int = option(
        0,
        ge=0,
        le=50,
        description="Koi-koi only with at least this many points.",
        group="koikoi_calls",
    )
    koikoi_only_on_new_yaku: bool = option(
        False,
        description="Only a new yaku (not a raised one) allows a koi-koi call.",
        group="koikoi_calls",
    )
    koikoi_once_per_round: bool = option(
        False,
        description="At most one koi-koi call per round; after it, yaku win at once.",
        group="koikoi_calls",
    )
    # multipliers
    double_if_seven_plus: bool = option(
        False,
        description="×2 when the base is 7 or more.",
        group="scoring",
    )
    koikoi_multiplier: KoikoiMultiplier = option(
        "count_all",
        description=(
            "★ count_all: ×(1 + all calls); count_opponent: ×(1 + opponent's calls); "
            "own_x2 / opponent_x2 / any_x2: ×2 after such a call; japan_bonus: +1..+3 for "
            "1-3 own calls, then ×2..×5; none."
        ),
        group="scoring",
    )
    table_lights_multiplier: Literal["none", "x2", "count"] = option(
        "none",
        description="Lights on the first table: x2 = ×2; count = ×(lights + 1).",
        group="scoring",
    )
    # scoring
    best_yaku_only: bool = option(
        False,
        description="The winner scores only his best yaku.",
        group="scoring",
    )
    score_opponent_yaku: bool = option(
        False,
        description="The winner also adds the value of the opponent's yaku.",
        group="scoring",
    )

    @cached_property
    def yaku_table(self) -> YakuTable:
        """The yaku rows these house rules score with (built once: every round reads it)."""
        return koikoi_table(self)

    @field_validator("double_plain", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @model_validator(mode="before")
    @classmethod
    def _former_flags(cls, data: Any) -> Any:
        """Options saved before an exclusive pair of flags became one option still load."""
        if not isinstance(data, dict):
            return data
        return from_former_flags(
            data, {f.option: cls.model_fields[f.option].default for f in FORMER_FLAGS}
        )

    @model_validator(mode="after")
    def _exclusive(self) -> Self:
        for first, second in EXCLUSIVE:
            if getattr(self, first) and getattr(self, second):
                raise ValueError(f"{first} and {second} exclude each other: choose one")
        default_start = type(self).model_fields["zero_sum_start"].default
        if not self.zero_sum and self.zero_sum_start != default_start:
            raise ValueError("zero_sum_start needs zero_sum=true")
        return self
