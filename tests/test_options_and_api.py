"""The public API of the design: load, game_ids, options, presets, errors."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import OptionError
from cardtable.core.options import describe


def test_game_ids_and_load() -> None:
    assert "bakappana" in cardtable.game_ids()
    game = cardtable.load("bakappana", players=3, rounds=6, scoring="simple")
    assert (game.num_players, game.options.rounds, game.options.scoring) == (3, 6, "simple")  # type: ignore[attr-defined]
    assert "players=3" in repr(game)


def test_unknown_game_names_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="unknown game 'bakapana'; valid games: bakappana"):
        cardtable.load("bakapana")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"player": 3}, "unknown option 'player' for bakappana; valid options: rounds, players"),
        ({"players": 5}, r"option players=5 is not valid for bakappana \(valid: 2..4\)"),
        ({"rounds": 5}, r"option rounds=5 is not valid for bakappana \(valid: 1, 3, 6, 12\)"),
        ({"scoring": "fancy"}, r"\(valid: traditional, simple\)"),
    ],
)
def test_bad_options_name_the_valid_choices(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardtable.load("bakappana", **options)


def test_presets_and_overrides() -> None:
    family = cardtable.load("bakappana", preset="family")
    assert family.options.scoring == "simple" and family.options.rounds == 3  # type: ignore[attr-defined]
    overridden = cardtable.load("bakappana", preset="family", rounds=12)
    assert overridden.options.rounds == 12  # type: ignore[attr-defined]
    with pytest.raises(OptionError, match="unknown preset 'nintendo' for bakappana; valid presets"):
        cardtable.load("bakappana", preset="nintendo")


def test_options_describe_themselves() -> None:
    spec = cardtable.core.spec_of("bakappana")
    infos = {info.name: info for info in describe(spec.options_model)}
    assert infos["players"].describe_values() == "2..4"
    assert infos["scoring"].choices == ("traditional", "simple")
    assert infos["two_player_stop_when_hands_empty"].choices == (False, True)
    assert all(info.description for info in infos.values())
    schema = spec.options_model.model_json_schema()
    assert set(schema["properties"]) == set(infos)


def test_every_preset_round_trips_through_its_full_dump() -> None:
    # Records store every option; loading them back must give the same options.
    for game_id in cardtable.game_ids():
        spec = cardtable.core.spec_of(game_id)
        for preset in spec.presets:
            options = cardtable.load(game_id, preset=preset).options
            again = cardtable.load(game_id, **options.model_dump(mode="json")).options
            assert again == options, (game_id, preset)


def test_options_are_frozen() -> None:
    game = cardtable.load("bakappana")
    with pytest.raises(Exception, match="frozen"):
        game.options.players = 3  # type: ignore[misc]


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(OptionError, match="seed must be an integer"):
        cardtable.load("bakappana").new_state(seed="x")  # type: ignore[arg-type]


def test_no_seed_draws_one_and_keeps_it() -> None:
    state = cardtable.load("bakappana").new_state()
    again = cardtable.load("bakappana").new_state(seed=state.seed)
    assert again.view(0) == state.view(0)


def test_game_pages_match_the_code() -> None:
    # `make docs` regenerates these blocks; a stale page fails here.
    from cardtable.cli.docs import page_path, render

    for game_id in cardtable.game_ids():
        text = page_path(game_id).read_text(encoding="utf-8")
        assert render(game_id, text) == text, f"docs/{game_id}.md is stale: run make docs"
        assert "<!-- generated:options -->" in text
