"""The hanafuda games' own command (the ``COMMANDS`` capability): the round calculator of
a game played with a real deck."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.core.errors import OptionError
from cardtable.core.game import spec_of
from cardtable.core.options import parse_rules
from cardtable.core.results import settlement
from cardtable.core.terminal import Command, console, score_table
from cardtable.games.hanafuda.companion import RoundFacts, score_round
from cardtable.locales import LANGUAGES, message


def companion_hanafuda(
    game: Annotated[str, typer.Argument(help="bakappana, koi-koi, hana-awase or hana-awase-88.")],
    pile: Annotated[
        list[str],
        typer.Option(help="One player's captured cards, e.g. '08-1 08-2 09-1' (once a player)."),
    ],
    dealer: Annotated[int, typer.Option(help="Who dealt (1 = the first player).")] = 1,
    shobu: Annotated[
        int | None, typer.Option(help="Koi-koi: who called shōbu (none: the stock ran out).")
    ] = None,
    calls: Annotated[
        str, typer.Option(help="Koi-koi: each player's koi-koi calls, e.g. '1,2'.")
    ] = "",
    table: Annotated[str, typer.Option(help="Cards left on the table (weather rules).")] = "",
    hand: Annotated[
        list[str] | None, typer.Option(help="A dealt hand, for teyaku (once a player).")
    ] = None,
    rule: Annotated[
        list[str] | None, typer.Option(help="A house rule KEY=VALUE (repeatable).")
    ] = None,
    preset: Annotated[str | None, typer.Option(help="A named rule set.")] = None,
    lang: Annotated[str, typer.Option(help="The language of the lines: en, pl or ru.")] = "en",
) -> None:
    """Score one round of a hanafuda game played at a real table: each yaku with its cards,
    multipliers, teyaku and special payments, and who pays whom."""

    def seat(number: int | None) -> int | None:
        return None if number is None else number - 1

    try:
        options = dict(spec_of(game).presets.get(preset, {})) if preset else {}
        options.update(parse_rules(rule or []))
        if "players" in spec_of(game).options_model.model_fields and "players" not in options:
            options["players"] = len(pile)
        facts = RoundFacts(
            piles=tuple(tuple(p.replace(",", " ").split()) for p in pile),
            dealer=seat(dealer) or 0,
            table=tuple(table.replace(",", " ").split()),
            hands=tuple(tuple(h.replace(",", " ").split()) for h in hand or ()),
            calls=tuple(int(c) for c in calls.split(",") if c.strip()),
            shobu=seat(shobu),
        )
        result = score_round(game, options, facts)
    except ValueError as error:
        raise OptionError(str(error)) from None
    if lang not in LANGUAGES:
        raise OptionError(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    names = [message("pad.player", lang, n=k + 1) for k in range(len(result.scores))]
    title = f"{spec_of(game).title}: {message('pad.round', lang)}"
    console.print(score_table(result, names, title, message("pad.totals", lang), lang))
    for payer, payee, amount in settlement(result.scores):
        # the one paid in the case "pays" asks for (Polish and Russian: "Graczowi 1")
        paid = message("pad.player_to", lang, n=payee + 1)
        console.print(message("pad.pays", lang, payer=names[payer], payee=paid, amount=amount))


COMMANDS = (Command("hanafuda", companion_hanafuda, group="companion"),)
