"""Ohanami's RL encoding (the ``ENCODER`` capability): keeps as card pairs, placements,
and an observation of the seat's view."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, BaseEncoder, Vector, one_hot, relative
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.ohanami.game import Keep, OhanamiState, Place, Target, cards_in

TARGETS: tuple[Target, ...] = (0, 1, 2, "new", "discard")
OHANAMI_PAIRS = {pair: i for i, pair in enumerate(combinations(range(1, 121), 2))}


class OhanamiEncoder(BaseEncoder):
    """Keep a pair of cards (7 140), or place the kept pair: which card first (lower or
    higher) and where each goes (row 0-2, a new row, the discard): 50; 7 190 actions."""

    SEATS = 4
    KEEP = 0
    PLACE = len(OHANAMI_PAIRS)
    action_size = len(OHANAMI_PAIRS) + 2 * len(TARGETS) ** 2
    score_scale = 150.0
    observation_size = 120 * 3 + 3 * 4 + SEATS * 4 + SEATS + 3 + 4
    LAYOUT = (
        ("hand", 120, 0.0, 1.0, "cards in the hand, one value per card number 1-120"),
        ("kept", 120, 0.0, 1.0, "the pair kept this pick"),
        ("garden", 120, 0.0, 1.0, "cards in the viewer's garden"),
        (
            "rows",
            12,
            0.0,
            1.0,
            "per row of the garden: present, first / 120, last / 120, size / 15",
        ),
        (
            "colours",
            SEATS * 4,
            0.0,
            2.0,
            "blue, green, grey, pink cards per seat / 15 (viewer first)",
        ),
        ("scores", SEATS, -10.0, 10.0, "scores / 150 (viewer first)"),
        ("stage", 3, 0.0, 1.0, "stage 1-3 (one-hot)"),
        ("pick", 1, 0.0, 2.0, "pick number / 5"),
        ("placing", 1, 0.0, 1.0, "1 while placing the kept pair"),
        ("pass_left", 1, 0.0, 1.0, "1 when hands pass to the left"),
        ("players", 1, 0.0, 1.0, "players / 4"),
    )

    def index_of(self, state: State, seat: int, action: Action) -> int:
        if isinstance(action, Keep):
            return self.KEEP + OHANAMI_PAIRS[action.cards]
        if isinstance(action, Place):
            cards = [card for card, _ in action.placements]
            targets = [TARGETS.index(target) for _, target in action.placements]
            targets += [4] * (2 - len(targets))
            higher_first = int(len(cards) == 2 and cards[0] > cards[1])
            return self.PLACE + higher_first * 25 + targets[0] * 5 + targets[1]
        raise IllegalAction(f"no number for {action!r}")

    def observe(self, view: JSON) -> Vector:
        seat, players = int(view["seat"]), int(view["players"])
        cards = np.zeros((3, 120), dtype=np.float32)
        for row, key in enumerate(("hand", "kept")):
            for card in view.get(key, ()):
                cards[row, card - 1] = 1.0
        rows = np.zeros((3, 4), dtype=np.float32)
        for index, row in enumerate(view["gardens"][seat][:3]):
            for card in row:
                cards[2, card - 1] = 1.0
            rows[index] = (1.0, row[0] / 120, row[-1] / 120, len(row) / 15)
        colours = np.zeros((self.SEATS, 4), dtype=np.float32)
        for offset in range(players):
            counts = view["colour_counts"][(seat + offset) % players]
            colours[offset] = [counts[c] / 15 for c in ("blue", "green", "grey", "pink")]
        parts = [
            cards.ravel(),
            rows.ravel(),
            colours.ravel(),
            relative(view["scores"], seat, self.SEATS, self.score_scale),
            one_hot(int(view["stage"]) - 1, 3),
            np.array(
                [
                    float(view["pick"]) / 5,
                    float(view["phase"] == "place"),
                    float(view["pass_to"] == "left"),
                    float(players) / self.SEATS,
                ],
                dtype=np.float32,
            ),
        ]
        return np.concatenate(parts)

    def decode(self, state: State, seat: int, index: int) -> Action:
        if isinstance(state, OhanamiState) and index >= self.PLACE:
            # any order of placements the rules allow, not only the listed representative
            offset = index - self.PLACE
            kept = cards_in(state.kept[seat])
            if len(kept) == 2 and offset // 25:
                kept = kept[::-1]
            targets = (TARGETS[offset % 25 // 5], TARGETS[offset % 5])
            action = Place(tuple(zip(kept, targets, strict=False)))
            if state.illegal_reason(seat, action) is None:
                return action
        return super().decode(state, seat, index)


# -- 7 słów ---------------------------------------------------------------------------------
