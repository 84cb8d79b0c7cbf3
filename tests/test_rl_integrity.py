"""What a researcher must be able to trust before publishing numbers (issue 40): nothing the
learner is handed rebuilds hidden cards, every game is an episode of its own with the right
return, snapshots restore the bots too, and the standard API suites pass."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cardtable.rl import SingleAgentEnv, env, parallel_env


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # PettingZoo suggests Box observations; masked games use the Dict convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        yield


def numbers_in(value: Any) -> Iterator[int]:
    """Every int anywhere inside ``value`` (dicts, lists, arrays): a candidate seed."""
    if isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from numbers_in(item)
    elif isinstance(value, np.ndarray):
        yield from (int(v) for v in value.ravel() if float(v).is_integer())
    elif isinstance(value, int | np.integer) and not isinstance(value, bool):
        yield int(value)


# -- defect 1: the single-agent env must not hand the learner the deal ---------------------
@pytest.mark.parametrize("game_id", ["koi-koi", "bakappana", "ohanami"])
def test_nothing_a_reset_hands_the_learner_rebuilds_the_hidden_cards(game_id: str) -> None:
    options: dict[str, Any] = {} if game_id == "ohanami" else {"rounds": 1}
    single = SingleAgentEnv(game_id, opponents="greedy", render_mode="ansi", **options)
    infos = []
    for seed in range(12):
        _, info = single.reset(seed=seed)
        hidden = single.state.view(1).get("hand")  # the opponent's cards, unseen by seat 0
        for number in numbers_in(info):
            rebuilt = single.game.new_state(seed=number).view(1).get("hand")
            assert rebuilt != hidden, f"info rebuilds the deal from {number}"
        if not info.get("over"):
            infos.append(info)
    # the deals differ, so whatever the info says must not depend on them
    assert all(info == infos[0] for info in infos[1:]), infos


# -- defect 6: render modes belong to the class ---------------------------------------------
def test_render_modes_are_declared_on_the_classes() -> None:
    for kind in (SingleAgentEnv, type(env("koi-koi")), type(parallel_env("koi-koi"))):
        assert "ansi" in kind.metadata["render_modes"], kind
