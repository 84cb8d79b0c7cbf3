"""The ``cardtable`` command: play, rules, replay.

cardtable play bakappana --players 3 --seats human,greedy,random --rounds 3 --seed 5
cardtable rules bakappana
cardtable replay game.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import cardtable
from cardtable.cli.common import console, default_language, parse_rules, parse_seats, seat_names
from cardtable.cli.hanafuda_view import HanafudaRenderer
from cardtable.cli.ohanami_view import OhanamiRenderer
from cardtable.cli.play import Renderer, run_match, score_table
from cardtable.cli.replay import replay_file
from cardtable.cli.rules import show_rules
from cardtable.cli.wordplay import play_words, replay_words
from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import spec_of
from cardtable.core.record import GameRecord
from cardtable.games.siedem_slow import Area, SiedemSlowState, load_dictionary, solve

app = typer.Typer(
    name="cardtable",
    help="Play, learn and study hanafuda fishing games, 7 słów and Ohanami.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


def renderer_for(game_id: str, names: list[str], lang: str) -> Renderer:
    family = spec_of(game_id).family
    if family == "hanafuda":
        return HanafudaRenderer(names, lang)
    if family == "ohanami":
        return OhanamiRenderer(names, lang)
    raise OptionError(f"{game_id} cannot be played in the terminal yet")


def fail(error: Exception) -> typer.Exit:
    console.print(f"[bold red]Error:[/] {error}")
    return typer.Exit(code=2)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id, e.g. bakappana (see: cardtable games).")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seats: Annotated[
        str, typer.Option(help="Who plays each seat: human or a bot name, comma separated.")
    ] = "human",
    rounds: Annotated[int | None, typer.Option(help="Rounds in the match.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible deal.")] = None,
    preset: Annotated[str | None, typer.Option(help="A named rule set.")] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="A house rule, KEY=VALUE (repeat).")
    ] = None,
    save: Annotated[Path | None, typer.Option(help="Save the game to this JSON file.")] = None,
    lang: Annotated[str | None, typer.Option(help="Card names: en or pl.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds between bot moves.")] = 0.3,
    solo: Annotated[bool, typer.Option(help="7 słów: play solo with the SOLO card.")] = False,
    difficulty: Annotated[
        str | None, typer.Option(help="7 słów solo: normal, medium, hard or brutal.")
    ] = None,
    dictionary: Annotated[
        str | None, typer.Option(help="7 słów: a word list file, one word a line.")
    ] = None,
    think: Annotated[
        float, typer.Option(help="7 słów: bots' thinking time, 1 = as a person (0.2 = fast).")
    ] = 1.0,
) -> None:
    """Play a game in the terminal against bots (or hot-seat with friends)."""
    try:
        options = parse_rules(rule or [])
        if solo:
            options["players"] = 1
        if difficulty is not None:
            options["difficulty"] = difficulty
        if dictionary is not None:
            options["dictionary"] = dictionary
        seat_list_given = [s for s in seats.split(",") if s.strip()]
        if players is not None:
            options["players"] = players
        elif "players" not in options and len(seat_list_given) > 1:
            options["players"] = len(seat_list_given)
        if rounds is not None:
            options["rounds"] = rounds
        chosen = cardtable.load(game, preset=preset, **options)
        seat_list = parse_seats(seats, chosen.players, game, seed)
        state = chosen.new_state(seed=seed)
    except CardtableError as error:
        raise fail(error) from None
    names = seat_names(seat_list)
    language = lang or default_language()
    if language not in ("en", "pl"):
        raise fail(OptionError(f"--lang must be en or pl, not {language!r}"))
    console.print(
        f"[bold]{chosen.spec.title}[/] for {chosen.players} · seed {state.seed} · "
        f"`cardtable rules {game}` explains the rules"
    )
    if isinstance(state, SiedemSlowState):
        try:
            play_words(state, seat_list, names, think_scale=think, save=save)
        except CardtableError as error:
            raise fail(error) from None
        return
    renderer = renderer_for(game, names, language)
    run_match(state, seats=seat_list, renderer=renderer, names=names, save=save, delay=delay)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Game id, e.g. bakappana.")]) -> None:
    """Print the rules of a game with every option, preset and bot."""
    try:
        show_rules(game)
    except CardtableError as error:
        raise fail(error) from None


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game saved with play --save.")],
    step: Annotated[bool, typer.Option(help="Step move by move (in a terminal).")] = True,
    lang: Annotated[str | None, typer.Option(help="Card names: en or pl.")] = None,
) -> None:
    """Step through a saved game, with every hand shown."""
    if not file.exists():
        raise fail(FileNotFoundError(f"no such file: {file}"))
    try:
        record = GameRecord.load_file(file)
        players = int(record.options.get("players", 2))
        names = [f"Player {i + 1}" for i in range(players)]
        if record.game == "siedem-slow":
            replay_words(record, names)
            return
        renderer = renderer_for(record.game, names, lang or default_language())
        replay_file(file, renderer, names, step=step)
    except (CardtableError, KeyError, ValueError) as error:
        raise fail(error) from None


@app.command()
def arena(
    game: Annotated[str, typer.Argument(help="Game id, e.g. koi-koi.")],
    bots: Annotated[str, typer.Option(help="Bots, comma separated.")] = "greedy,random",
    games: Annotated[int, typer.Option(help="Deals per pairing, each from every seat.")] = 20,
    mode: Annotated[str, typer.Option(help="round-robin, or gauntlet (first vs rest).")] = (
        "round-robin"
    ),
    players: Annotated[int | None, typer.Option(help="Players per game.")] = None,
    preset: Annotated[str | None, typer.Option(help="A named rule set.")] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="A house rule, KEY=VALUE (repeat).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole tournament.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes (CPUs of a local Ray).")] = 1,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster to join (with --backend ray).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for results.jsonl/.csv and plot.png.")] = (
        Path("arena-results")
    ),
    resume: Annotated[
        bool, typer.Option(help="Go on from the games an interrupted run left in --out.")
    ] = False,
) -> None:
    """Play bots against each other on mirrored deals; ratings, win rates and a plot."""
    from cardtable.cli.arena import run_arena  # noqa: PLC0415 - loads matplotlib, openskill

    try:
        options = parse_rules(rule or [])
        if preset is not None:
            base = cardtable.load(game, preset=preset).options.model_dump(mode="json")
            options = {**base, **options}
        if mode not in ("round-robin", "gauntlet"):
            raise OptionError(f"--mode is round-robin or gauntlet, not {mode!r}")
        if backend not in ("local", "ray"):
            raise OptionError(f"--backend is local or ray, not {backend!r}")
        names = [b.strip().removeprefix("bot:") for b in bots.split(",") if b.strip()]
        run_arena(
            game, names, games=games, mode=mode, players=players, options=options,
            seed=seed, workers=jobs, out=out, backend=backend, address=address, resume=resume,
        )  # fmt: skip
    except CardtableError as error:
        raise fail(error) from None


@app.command(name="solve")
def solve_command(
    area: Annotated[
        str, typer.Argument(help="The area, columns 5|4|3|2 left to right, e.g. DS|PH+2|LN|KR.")
    ],
    top: Annotated[int, typer.Option(help="How many words to show.")] = 10,
    deck: Annotated[str, typer.Option(help="Deck and language: pl or en.")] = "pl",
    dictionary: Annotated[
        str, typer.Option(help="A word list file (default: the language's system list).")
    ] = "default",
    veteran: Annotated[bool, typer.Option(help="Score with the veteran handicap.")] = False,
) -> None:
    """The best words of the dictionary for a 7 słów area."""
    try:
        parsed = Area.parse(area, deck)
        words = load_dictionary(dictionary, deck, progress=_building)
        found = solve(parsed, words, top=top, veteran_letters=4 if veteran else None)
    except CardtableError as error:
        raise fail(error) from None
    console.print(
        f"Area {parsed} · {len(words):,} words · the most a word can score: {parsed.total}"
    )
    for rank, solution in enumerate(found, 1):
        console.print(f"{rank:>3}. {solution.word.upper():<28} {solution.points:>3}")


def _building(message: str) -> None:
    console.print(f"[dim]building the dictionary index (once): {message}[/]")


@app.command()
def docs() -> None:
    """Regenerate the option, preset and yaku tables of the game pages from the code."""
    from cardtable.cli.docs import write_all  # noqa: PLC0415 - a maintainer command

    changed = write_all(cardtable.game_ids())
    console.print(f"updated: {', '.join(changed)}" if changed else "docs are up to date")


@app.command()
def games() -> None:
    """List the games."""
    for game_id in cardtable.game_ids():
        spec = spec_of(game_id)
        console.print(f"[cyan]{game_id:<16}[/] {spec.summary}")


companion_app = typer.Typer(
    help="Keep score for a game played with a physical deck.", no_args_is_help=True
)
app.add_typer(companion_app, name="companion")


@companion_app.command("hanafuda")
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
) -> None:
    """Score one round of a hanafuda game played at a real table: each yaku with its cards,
    multipliers, teyaku and special payments, and who pays whom."""
    from cardtable.companion.hanafuda import RoundFacts, score_round, settlement  # noqa: PLC0415
    from cardtable.core.game import spec_of as spec  # noqa: PLC0415

    def seat(number: int | None) -> int | None:
        return None if number is None else number - 1

    try:
        options = dict(spec(game).presets.get(preset, {})) if preset else {}
        options.update(parse_rules(rule or []))
        if "players" in spec(game).options_model.model_fields and "players" not in options:
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
    except (CardtableError, ValueError) as error:
        raise fail(error) from None
    names = [f"Player {k + 1}" for k in range(len(result.scores))]
    console.print(score_table(result, names, f"{spec(game).title}: the round", "Round"))
    for payer, payee, amount in settlement(result.scores):
        console.print(f"{names[payer]} pays {names[payee]} {amount}")


@companion_app.command("ohanami")
def companion_ohanami(
    garden: Annotated[
        list[str],
        typer.Option(
            help="One garden after the stage: card numbers '3 14 62' or counts "
            "'blue=3,green=2,pink=1' (once a player)."
        ),
    ],
    stage: Annotated[int, typer.Option(help="The stage just finished (1-3).")] = 1,
) -> None:
    """Score an Ohanami stage played with the box: each garden's lines and points."""
    from cardtable.companion.ohanami import Garden, stage_result  # noqa: PLC0415

    def read(text: str) -> Garden:
        if "=" in text:
            pairs = (part.split("=", 1) for part in text.replace(" ", "").split(",") if part)
            return Garden(counts={colour: int(count) for colour, count in pairs})
        return Garden(cards=tuple(int(n) for n in text.replace(",", " ").split()))

    try:
        result = stage_result(len(garden), stage, [read(g) for g in garden])
    except (CardtableError, ValueError) as error:
        raise fail(error) from None
    names = [f"Player {k + 1}" for k in range(len(garden))]
    console.print(score_table(result, names, f"Ohanami: stage {stage}", "Stage"))


@companion_app.command("siedem-slow")
def companion_words(
    round_: Annotated[
        list[str],
        typer.Option(
            "--round",
            help="One round: 'AREA;word1,word2,...;fastest;challenges;votes' e.g. "
            "'MD|SS|J+2L|J+1Y;misjudges,;1'. fastest: who flipped first (empty: nobody; "
            "solo: 'late' when the sand ran out first). challenges: 'A>B' for player A "
            "challenging B's word, comma separated. votes: y or n per player on a family "
            "challenge.",
        ),
    ],
    players: Annotated[int, typer.Option(help="Number of players (1 = solo, 2-6).")] = 2,
    deck: Annotated[str, typer.Option(help="pl (7 słów) or en (Wordsy).")] = "pl",
    validation: Annotated[str, typer.Option(help="auto or challenge.")] = "auto",
    difficulty: Annotated[
        str, typer.Option(help="Solo target: normal, medium, hard or brutal.")
    ] = "normal",
) -> None:
    """Keep the 7 słów score sheet of a game played with the box: every word checked (and
    why one is refused), scored, bonus boxes, challenges and votes, totals, and at the end
    the strike-out; with one player, the solo game on its SOLO card."""
    from cardtable.companion.siedem import WordRound, play_pad  # noqa: PLC0415

    options: dict[str, object] = {"deck": deck, "validation": validation}
    if players == 1:
        options["difficulty"] = difficulty
    try:
        rounds = [WordRound.from_text(text, players) for text in round_]
        state = play_pad(players, options, rounds)
    except (CardtableError, ValueError) as error:
        raise fail(error) from None
    names = [f"Player {k + 1}" for k in range(players)]
    for result in state.results:
        title = "Strike-out" if result.outcome == "strike-out" else f"Round {result.number}"
        console.print(score_table(result, names, title, "Round"))
    console.print(
        "Totals: " + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores(), strict=True))
    )
    if state.solo and not state.is_over:
        console.print(f"The hourglass stands on SOLO field {state.field_name}.")
    if state.is_over:
        console.print("Winner: " + ", ".join(names[k] for k in state.result().winners))


@app.command()
def serve(
    db: Annotated[
        str, typer.Option(help="Database URL: sqlite:///FILE (default) or postgresql://…")
    ] = "sqlite:///cardtable.db",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before it moves, so people can follow.")
    ] = 0.7,
    think_scale: Annotated[
        float, typer.Option(help="Scales the 7 słów word bots' writing time.")
    ] = 1.0,
    limit: Annotated[
        list[str] | None,
        typer.Option(help="Change a server limit: NAME=VALUE (docs/web.md lists them)."),
    ] = None,
    no_address_limits: Annotated[
        bool, typer.Option(help="Lift the per-address limits (load tests from one machine).")
    ] = False,
) -> None:
    """Run the web app: lobby, live tables and replays on http://HOST:PORT."""
    try:
        import uvicorn  # noqa: PLC0415 - the web extra is optional

        from cardtable.server.app import create_app  # noqa: PLC0415
        from cardtable.server.serving import uvicorn_config  # noqa: PLC0415
        from cardtable.server.settings import Settings, with_overrides  # noqa: PLC0415
    except ImportError as error:
        raise fail(
            OptionError(f"the web app needs: pip install 'cardtable[web]' ({error})")
        ) from None
    settings = Settings(bot_delay=bot_delay, think_scale=think_scale)
    if no_address_limits:
        settings = settings.relaxed()
    try:
        settings = with_overrides(settings, limit or [])
    except OptionError as error:
        raise fail(error) from None
    console.print(f"cardtable web app on [bold]http://{host}:{port}[/] (database: {db})")
    uvicorn.Server(uvicorn_config(create_app(db, settings), settings, host, port)).run()


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="A finished game downloaded from the web app.")],
) -> None:
    """Check a web game's fair shuffle: the revealed seed matches the commitment, and
    every move of the log replays legally to the final scores."""
    import json  # noqa: PLC0415

    from cardtable.server.fairness import verify as check  # noqa: PLC0415

    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise fail(error) from None
    verdict = check(data)
    mark = "[green]✓[/]" if verdict.commitment_ok else "[red]✗[/]"
    console.print(f"{mark} seed commitment {data.get('fairness', {}).get('commitment', '?')}")
    mark = "[green]✓[/]" if verdict.replay_ok else "[red]✗[/]"
    console.print(
        f"{mark} {verdict.moves} moves replay legally; final scores {list(verdict.scores)}"
    )
    for problem in verdict.problems:
        console.print(f"  [red]{problem}[/]")
    if not verdict.ok:
        raise typer.Exit(code=1)


def main() -> None:
    app()
