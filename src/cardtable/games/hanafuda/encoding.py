"""The hanafuda games' RL encoding (the ``ENCODER`` capability): 290 numbered actions and
an observation of the seat's view.

>>> import cardtable
>>> state = cardtable.load("koi-koi").new_state(seed=1)
>>> seat = min(state.to_move)
>>> encoder = HanafudaEncoder()
>>> mask = encoder.mask(state, seat)
>>> int(mask.sum()) == len(state.legal_actions(seat))
True
>>> encoder.decode(state, seat, int(mask.argmax())) in state.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, BaseEncoder, Vector
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KOIKOI, SHOBU, KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import CODES, INDEX_OF_CODE, NUM_CARDS


def _bits(codes: Sequence[str] | None) -> Vector:
    out = np.zeros(NUM_CARDS, dtype=np.float32)
    if codes:
        out[[INDEX_OF_CODE[code] for code in codes]] = 1.0
    return out


# -- hanafuda -------------------------------------------------------------------------------
PHASES = ("play", "take", "decide", "over")


class HanafudaEncoder(BaseEncoder):
    """Play a card (48), play a card taking one of its month's cards (48 x 4), take a card
    for the flipped stock card (48), koi-koi, shōbu: 290 actions.

    Observation: own hand, table, flipped card, every pile (the viewer's first), hand
    sizes, stock, scores, dealer, round, koi-koi calls and yaku totals; ``LAYOUT`` names
    the blocks (per-seat blocks start with the viewer and go round the table).
    """

    SEATS = 4
    PLAY, PLAY_TAKE, TAKE = 0, NUM_CARDS, NUM_CARDS * 5
    KOIKOI, SHOBU = NUM_CARDS * 6, NUM_CARDS * 6 + 1
    action_size = NUM_CARDS * 6 + 2
    observation_size = NUM_CARDS * (3 + SEATS) + SEATS * 6 + 4 + 4
    LAYOUT = (
        ("hand", NUM_CARDS, 0.0, 1.0, "the viewer's hand, one value per card (deck order)"),
        ("table", NUM_CARDS, 0.0, 1.0, "the cards on the table"),
        ("flipped", NUM_CARDS, 0.0, 1.0, "the stock card just flipped, waiting for a take"),
        *(
            (f"pile_{k}", NUM_CARDS, 0.0, 1.0, f"captured cards of seat viewer+{k}")
            for k in range(SEATS)
        ),
        ("hand_sizes", SEATS, 0.0, 2.0, "cards in each hand / 8"),
        ("scores", SEATS, -10.0, 10.0, "match scores / 100, clipped"),
        ("koikoi_calls", SEATS, 0.0, 10.0, "koi-koi calls this round / 3"),
        ("yaku_totals", SEATS, 0.0, 10.0, "points of the yaku each pile holds / 10"),
        ("pile_values", SEATS, 0.0, 10.0, "card points of each pile / 100"),
        ("dealer", SEATS, 0.0, 1.0, "who deals (one-hot, viewer first)"),
        ("phase", len(PHASES), 0.0, 1.0, "play, take, decide, over (one-hot)"),
        ("stock", 1, 0.0, 2.0, "cards in the stock / 24"),
        ("round", 1, 0.0, 2.0, "round number / rounds"),
        ("to_move", 1, 0.0, 1.0, "1 when the viewer is to act"),
        ("players", 1, 0.0, 1.0, "players / 4"),
    )

    def index_of(self, state: State, seat: int, action: Action) -> int:
        if isinstance(action, Play):
            if action.take is None:
                return self.PLAY + action.card
            return self.PLAY_TAKE + action.card * 4 + action.take % 4
        if isinstance(action, Take):
            return self.TAKE + action.card
        if isinstance(action, KoiKoi):
            return self.KOIKOI
        if isinstance(action, Shobu):
            return self.SHOBU
        raise IllegalAction(f"no number for {action!r}")

    def decode(self, state: State, seat: int, index: int) -> Action:
        # Built straight from the number; the engine's apply checks it is legal.
        action: Action
        if not 0 <= index < self.action_size:
            raise IllegalAction(f"there is no action {index} (0..{self.action_size - 1})")
        if index < self.PLAY_TAKE:
            action = Play(index)
        elif index < self.TAKE:
            card, kind = divmod(index - self.PLAY_TAKE, 4)
            action = Play(card, card - card % 4 + kind)
        elif index < self.KOIKOI:
            action = Take(index - self.TAKE)
        else:
            action = KOIKOI if index == self.KOIKOI else SHOBU
        if state.illegal_reason(seat, action) is not None:
            raise IllegalAction(f"action {index} ({action}) is not legal for seat {seat} now")
        return action

    def observe(self, view: JSON) -> Vector:
        # One array filled in place: this runs on every step of a learner.
        seat, players = int(view["seat"]), int(view["players"])
        index = INDEX_OF_CODE
        ones = [index[code] for code in view.get("hand") or ()]
        ones += [NUM_CARDS + index[code] for code in view["table"]]
        flipped = view.get("flipped")
        if isinstance(flipped, str):
            ones.append(2 * NUM_CARDS + index[flipped])
        for offset in range(players):
            base = (3 + offset) * NUM_CARDS
            ones += [base + index[code] for code in view["piles"][(seat + offset) % players]]
        seats = self.SEATS
        tail = [0.0] * (seats * 6 + len(PHASES) + 4)
        scale = self.score_scale
        zeros = [0] * players
        position = 0
        for values, divisor in (
            (view["hand_sizes"], 8.0),
            (view["scores"], scale),
            (view.get("koikoi_calls", zeros), 3.0),
            (view.get("yaku_totals", zeros), 10.0),
            (view.get("pile_values", zeros), scale),
        ):
            for offset in range(players):
                value = values[(seat + offset) % players] / divisor
                tail[position + offset] = min(max(value, -10.0), 10.0)
            position += seats
        tail[position + (int(view["dealer"]) - seat) % players] = 1.0
        position += seats
        tail[position + PHASES.index(view["phase"])] = 1.0
        position += len(PHASES)
        tail[position : position + 4] = (
            view["stock_size"] / 24.0,
            view["round"] / max(view["rounds"], 1),
            float(seat in view["to_move"]),
            players / seats,
        )
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[ones] = 1.0
        out[(3 + seats) * NUM_CARDS :] = tail
        return out

    def deal_cards(self) -> tuple[str, ...]:
        return CODES

    def deal(self, probe: State, dealer: int, order: Sequence[str]) -> JSON:
        """Hands in seat order, then the table, then the stock (top first), in the sizes
        of ``probe``'s deal."""
        view = probe.view(None)
        hands, start = [], 0
        for size in view["hand_sizes"]:
            hands.append(list(order[start : start + size]))
            start += size
        table = list(order[start : start + len(view["table"])])
        start += len(table)
        return {"dealer": dealer, "hands": hands, "table": table, "stock": list(order[start:])}
