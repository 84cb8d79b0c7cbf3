"""Every kind of score line the engines produce links to a section of its game's rule page
that exists, so a player can read why a line scored."""

from __future__ import annotations

import random
import re

import pytest

import cardtable
from cardtable.server.rules_pages import SECTIONS, page_html, section_for

GAMES = [
    ("bakappana", {"players": 3}),
    ("koi-koi", {"lucky_hands_win": True, "oya_ken_points": 6}),
    (
        "hana-awase",
        {"players": 3, "teyaku": True, "special_payments": True, "willow_row_cancels_yaku": True},
    ),
    ("hana-awase-88", {"teyaku": True, "special_payments": True}),
    ("ohanami", {"players": 2}),
    ("siedem-slow", {"players": 2, "deck": "en", "validation": "challenge"}),
]


def rule_prefixes(game_id: str, options: dict[str, object], games: int) -> set[str]:
    rng = random.Random(1)
    seen: set[str] = set()
    for seed in range(games):
        state = cardtable.load(game_id, **options).new_state(seed=seed)
        while not state.is_over:
            seat = min(s for s in state.to_move if s >= 0)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for result in state.results:
            seen.update(line.rule.split(":", 1)[0] for line in result.lines)
    return seen


@pytest.mark.parametrize(("game_id", "options"), GAMES)
def test_every_score_line_links_to_an_existing_section(
    game_id: str, options: dict[str, object]
) -> None:
    page = page_html(game_id)
    ids = set(re.findall(r'id="([^"]+)"', page))
    prefixes = rule_prefixes(game_id, options, games=1 if game_id == "siedem-slow" else 8)
    assert prefixes, "no score lines seen"
    for prefix in prefixes | set(SECTIONS[game_id]):
        anchor = section_for(game_id, f"{prefix}:x")
        assert anchor, f"{game_id}: score lines '{prefix}' link to no section"
        assert anchor in ids, f"{game_id}: section '{anchor}' is not a heading of docs/{game_id}.md"
