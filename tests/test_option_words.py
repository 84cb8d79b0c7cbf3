"""Every option, rule set and bot is explained in plain words, in every language.

The words live in each game package's catalogue (``games/NAME/locales/LANG.json``, merged
into ``cardtable.locales.catalogue``); the groups in the options models (``x-group``). A
test here fails when an option, a choice, a preset or a bot has no words in a language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.agents import LEVELS, advanced_agents, agent_names, bot_levels
from cardtable.core.game import GameSpec, game_ids, spec_of
from cardtable.core.options import OptionInfo, describe
from cardtable.learn import ScriptedBot
from cardtable.locales import LANGUAGES, bot_help_key, catalogue
from cardtable.server.app import create_app

from .server_helpers import FAST


def _real_games() -> list[str]:
    """The games of the package (the tests' toy game brings no words)."""
    return [
        game_id
        for game_id in game_ids()
        if spec_of(game_id).options_model.__module__.startswith("cardtable.games.")
    ]


GAMES = _real_games()


def _shown(spec: GameSpec) -> list[OptionInfo]:
    """The options a new-table form shows: not the seats, not the machine-only ones."""
    return [
        info
        for info in describe(spec.options_model)
        if info.name != "players" and not info.local_only
    ]


def _word_values(info: OptionInfo) -> list[str]:
    """The choices an option needs words for (names, not numbers or on/off)."""
    return [value for value in info.choices or () if isinstance(value, str)]


def _missing(keys: list[str]) -> dict[str, list[str]]:
    missing = {lang: [key for key in keys if not catalogue(lang).get(key)] for lang in LANGUAGES}
    return {lang: keys for lang, keys in missing.items() if keys}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_has_a_group_the_model_declares(game_id: str) -> None:
    model = spec_of(game_id).options_model
    schema = model.model_json_schema()
    for info in _shown(spec_of(game_id)):
        assert info.group in model.GROUPS, (game_id, info.name, info.group)
        assert schema["properties"][info.name]["x-group"] == info.group
    used = {info.group for info in _shown(spec_of(game_id))}
    assert schema["x-groups"] == [group for group in model.GROUPS if group in used]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_and_choice_has_words_in_every_language(game_id: str) -> None:
    keys = [f"option.{game_id}.players", f"option.{game_id}.players.help"]  # the docs say it
    for info in _shown(spec_of(game_id)):
        base = f"option.{game_id}.{info.name}"
        keys += [base, f"{base}.help", f"group.{info.group}"]
        keys += [f"{base}.{value}" for value in _word_values(info)]
    assert not _missing(keys)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_preset_and_bot_has_words_in_every_language(game_id: str) -> None:
    keys = []
    for name in spec_of(game_id).presets:
        keys += [f"preset.{game_id}.{name}", f"preset.{game_id}.{name}.help"]
    for name in agent_names(game_id):
        keys += [f"bot.{name}", bot_help_key(game_id, name)]
    assert not _missing(keys)


def test_no_words_for_options_presets_or_bots_that_do_not_exist() -> None:
    """A renamed option or a typo leaves no orphan entry behind."""
    known: set[str] = set()
    for game_id in GAMES:
        spec = spec_of(game_id)
        for info in describe(spec.options_model):
            base = f"option.{game_id}.{info.name}"
            known |= {base, f"{base}.help"} | {f"{base}.{v}" for v in _word_values(info)}
        known |= {f"preset.{game_id}.{p}{end}" for p in spec.presets for end in ("", ".help")}
        known |= {f"bot.{game_id}.{name}.help" for name in agent_names(game_id)}
    bots = {name for game_id in GAMES for name in agent_names(game_id)}
    known |= {f"bot.{name}{end}" for name in bots for end in ("", ".help")}
    known.add(f"bot.{ScriptedBot.name}")  # a lesson's other seats: named, never chosen
    for lang in LANGUAGES:
        words = [k for k in catalogue(lang) if k.split(".")[0] in ("option", "preset", "bot")]
        assert sorted(set(words) - known) == [], lang


def test_the_words_are_translated() -> None:
    """Polish and Russian say an option's help in their own words, not in English."""
    english = catalogue("en")
    for lang in ("pl", "ru"):
        same = [
            key
            for key, text in catalogue(lang).items()
            if key.split(".")[0] in ("option", "preset", "bot", "group")
            and key.endswith(".help")
            and text == english[key]
        ]
        assert same == [], lang


def test_choices_are_words_not_raw_values() -> None:
    """What a player reads for a choice is never its raw value (``count_all``)."""
    for game_id in GAMES:
        for info in _shown(spec_of(game_id)):
            for value in _word_values(info):
                for lang in LANGUAGES:
                    text = catalogue(lang)[f"option.{game_id}.{info.name}.{value}"]
                    assert text != value and "_" not in text, (game_id, info.name, value)


def test_the_default_rule_set_is_not_called_default() -> None:
    for game_id in GAMES:
        for lang in LANGUAGES:
            name = catalogue(lang)[f"preset.{game_id}.default"].lower()
            assert "default" not in name and "standard" not in name, (game_id, lang)


def test_levels_are_plain_and_the_rest_advanced() -> None:
    for game_id in GAMES:
        # every level; 7 słów has no expert (its hard bot already writes the best word),
        # koi-koi a master above it
        top = {"siedem-slow": [], "koi-koi": ["expert", "master"]}.get(game_id, ["expert"])
        assert bot_levels(game_id) == ["easy", "medium", "hard", *top]
        advanced = advanced_agents(game_id)
        assert set(advanced) == set(agent_names(game_id)) - set(LEVELS)
        assert {"random", "greedy", "ismcts"} <= set(advanced)
    assert "strategist" in advanced_agents("koi-koi")


def test_a_game_may_explain_its_own_bot() -> None:
    assert bot_help_key("siedem-slow", "easy") == "bot.siedem-slow.easy.help"
    assert bot_help_key("koi-koi", "medium") == "bot.koi-koi.medium.help"
    assert bot_help_key("ohanami", "medium") == "bot.medium.help"


def test_the_lobby_gets_groups_levels_and_advanced_bots(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        words = client.get("/api/locales/pl").json()
    koikoi = games["koi-koi"]
    assert koikoi["schema"]["properties"]["koikoi_multiplier"]["x-group"] == "scoring"
    assert koikoi["schema"]["x-groups"][:3] == ["match", "scoring", "yaku"]
    assert koikoi["bot_levels"] == ["easy", "medium", "hard", "expert", "master"]
    assert koikoi["bot_help"]["expert"] == "bot.koi-koi.expert.help"
    assert koikoi["bot_help"]["master"] == "bot.koi-koi.master.help"
    assert games["ohanami"]["bot_help"]["strategist"] == "bot.ohanami.strategist.help"
    assert koikoi["bots_advanced"] == ["greedy", "ismcts", "random", "strategist"]
    assert koikoi["bot_help"]["medium"] == "bot.koi-koi.medium.help"
    assert koikoi["bot_help"]["hard"] == "bot.hard.help"
    for game in games.values():
        assert set(game["bots_advanced"]) | set(game["bot_levels"]) == set(game["bots"])
    assert words["option.koi-koi.koikoi_multiplier.count_all"].startswith("×2 po jednym wezwaniu")
    assert words["preset.koi-koi.nintendo"] == "Zasady Nintendo"
