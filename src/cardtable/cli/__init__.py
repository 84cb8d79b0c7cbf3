"""The ``cardtable`` command: play, rules, replay.

cardtable play bakappana --players 3 --seats human,greedy,random --rounds 3 --seed 5
cardtable rules bakappana
cardtable replay game.json
"""

from __future__ import annotations

import functools
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

import cardtable
from cardtable.cli.common import check_language, default_language, parse_seats, seat_names
from cardtable.cli.learn import run_lesson
from cardtable.cli.online import play_online
from cardtable.cli.play import run_match
from cardtable.cli.replay import replay_file
from cardtable.cli.rules import show_rules
from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import Capability, spec_of
from cardtable.core.options import parse_rules
from cardtable.core.record import GameRecord
from cardtable.core.terminal import Command, TerminalFrontEnd, console
from cardtable.core.workers import backend_named
from cardtable.learn import has_lesson
from cardtable.locales import message

app = typer.Typer(
    name="cardtable",
    help="Play, learn and study hanafuda fishing games, 7 słów and Ohanami.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


def front_end(game_id: str) -> TerminalFrontEnd:
    missing = f"{game_id} cannot be played in the terminal yet"
    terminal: TerminalFrontEnd = spec_of(game_id).capability(Capability.TERMINAL, missing)
    return terminal


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
    lang: Annotated[str | None, typer.Option(help="Language: en, pl or ru.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds between bot moves.")] = 0.3,
    think: Annotated[
        float,
        typer.Option(help="Real-time games: bots' thinking time, 1 = as a person (0.2 = fast)."),
    ] = 1.0,
    labels: Annotated[
        bool, typer.Option(help="Label each card with what it is, where the game's cards can.")
    ] = False,
    online: Annotated[
        str | None,
        typer.Option(
            help="Quick match on the cardtable server at this URL: wait for a person (or take "
            "the bot offered: b + Enter); once matched the table's address is printed, to "
            "play it in the browser."
        ),
    ] = None,
    rated: Annotated[bool, typer.Option(help="With --online: a rated game.")] = False,
    name: Annotated[str, typer.Option(help="With --online: your name at the table.")] = "",
    player_key: Annotated[
        str | None,
        typer.Option(
            help="With --online: your player key (default: one kept in ~/.config/cardtable)."
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots (or hot-seat with friends). A game's own
    settings are its options: --preset and --rule KEY=VALUE (cardtable rules GAME lists
    them), e.g. cardtable play siedem-slow --preset solo --rule difficulty=hard. With
    --online URL: quick match with a person on a cardtable server, played in the browser."""
    if online is not None:
        try:
            language = check_language(lang or default_language())
            play_online(
                online, game, preset=preset, rated=rated, name=name, key=player_key, lang=language
            )
        except CardtableError as error:
            raise fail(error) from None
        return
    try:
        options = parse_rules(rule or [])
        seat_list_given = [s for s in seats.split(",") if s.strip()]
        if players is not None:
            options["players"] = players
        elif "players" not in options and len(seat_list_given) > 1:
            options["players"] = len(seat_list_given)
        if rounds is not None:
            options["rounds"] = rounds
        chosen = cardtable.load(game, preset=preset, **options)
        seat_list = parse_seats(seats, chosen.num_players, game, seed)
        state = chosen.new_state(seed=seed)
    except CardtableError as error:
        raise fail(error) from None
    try:
        language = check_language(lang or default_language())
    except OptionError as error:
        raise fail(error) from None
    names = seat_names(seat_list, language)
    console.print(
        message(
            "term.start",
            language,
            title=chosen.spec.title,
            players=chosen.num_players,
            seed=state.seed,
            game=game,
        ),
        style="bold",
        markup=False,
    )
    terminal = front_end(game)
    if terminal.play is not None:
        try:
            terminal.play(state, seat_list, names, think, save, language)
        except CardtableError as error:
            raise fail(error) from None
        return
    assert terminal.renderer is not None
    renderer = terminal.renderer(names, language)
    if labels and hasattr(renderer, "labels"):  # a game whose cards have labels to show
        renderer.labels = True
    run_match(state, seats=seat_list, renderer=renderer, names=names, save=save, delay=delay)


@app.command()
def learn(
    game: Annotated[str, typer.Argument(help="Game id, e.g. koi-koi (see: cardtable games).")],
    lang: Annotated[str | None, typer.Option(help="Language: en, pl or ru.")] = None,
) -> None:
    """A guided first game: the coach explains each idea and points at the move to play."""
    try:
        language = check_language(lang or default_language())
        if not has_lesson(game):
            console.print(message("lesson.none", language), style="yellow", markup=False)
            raise typer.Exit(code=2)
        terminal = front_end(game)
        run_lesson(game, terminal, language)
    except CardtableError as error:
        raise fail(error) from None


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game id, e.g. bakappana.")],
    lang: Annotated[str | None, typer.Option(help="Language: en, pl or ru.")] = None,
) -> None:
    """Print the rules of a game with every option, preset and bot."""
    try:
        show_rules(game, check_language(lang or default_language()))
    except CardtableError as error:
        raise fail(error) from None


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game saved with play --save.")],
    step: Annotated[bool, typer.Option(help="Step move by move (in a terminal).")] = True,
    lang: Annotated[str | None, typer.Option(help="Language: en, pl or ru.")] = None,
) -> None:
    """Step through a saved game, with every hand shown."""
    if not file.exists():
        raise fail(FileNotFoundError(f"no such file: {file}"))
    try:
        record = GameRecord.load_file(file)
        players = int(record.options.get("players", 2))
        language = check_language(lang or default_language())
        names = [message("term.player", language, n=i + 1) for i in range(players)]
        terminal = front_end(record.game)
        if terminal.replay is not None:
            terminal.replay(record, names, language)
            return
        assert terminal.renderer is not None
        replay_file(file, terminal.renderer(names, language), names, step=step)
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
        names = [b.strip().removeprefix("bot:") for b in bots.split(",") if b.strip()]
        run_arena(
            game, names, games=games, mode=mode, players=players, options=options,
            seed=seed, workers=jobs, out=out, backend=backend_named(backend), address=address,
            resume=resume,
        )  # fmt: skip
    except CardtableError as error:
        raise fail(error) from None


@app.command()
def train(
    game: Annotated[
        str, typer.Argument(help="Game id, e.g. koi-koi (make train trains koi-koi's).")
    ],
    rounds: Annotated[int, typer.Option(help="Rounds of self-play to learn from.")] = 40_000,
    bots: Annotated[
        str, typer.Option(help="The self-play bots, comma separated (drawn per seat).")
    ] = "strategist,greedy",
    epsilon: Annotated[float, typer.Option(help="Share of random moves in self-play.")] = 0.1,
    iterations: Annotated[
        int | None, typer.Option(help="Search bots' iterations a move (default: the game's).")
    ] = None,
    start: Annotated[
        Path | None, typer.Option(help="Go on from these weights (expert iteration).")
    ] = None,
    epochs: Annotated[int, typer.Option(help="Passes over the positions.")] = 6,
    hidden: Annotated[int, typer.Option(help="Units in each hidden layer.")] = 256,
    learning_rate: Annotated[
        float, typer.Option(help="Peak learning rate (one-cycle schedule).")
    ] = 1e-3,
    seed: Annotated[int, typer.Option(help="Seed of the self-play and the training.")] = 1,
    jobs: Annotated[
        int, typer.Option(help="Processes playing the self-play rounds (CPUs of a local Ray).")
    ] = 1,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster to join (with --backend ray).")
    ] = None,
    threads: Annotated[int, typer.Option(help="PyTorch threads while training.")] = 1,
    out: Annotated[
        Path | None, typer.Option(help="Where to write the weights (default: GAME.npz).")
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(help="Keep the self-play here (.npz); a file made before is read instead."),
    ] = None,
    log: Annotated[Path | None, typer.Option(help="Write the run's figures here (JSON).")] = None,
    curves: Annotated[Path | None, typer.Option(help="Plot the training curves here.")] = None,
) -> None:
    """Train the learned evaluator (needs PyTorch: pip install 'cardtable[train]')."""
    from cardtable.cli.train import run_training  # noqa: PLC0415 - loads PyTorch

    try:
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if not names:
            raise OptionError("--bots names at least one bot")
        if rounds < 1 or epochs < 1:
            raise OptionError("--rounds and --epochs are at least 1")
        run_training(
            game, rounds=rounds, bots=names, epsilon=epsilon, seed=seed, jobs=jobs,
            epochs=epochs, hidden=hidden, threads=threads, out=out or Path(f"{game}.npz"),
            log=log, curves=curves,
            iterations=iterations, start=start, data=data, learning_rate=learning_rate,
            backend=backend_named(backend), address=address,
        )  # fmt: skip
    except (CardtableError, ImportError, ValueError, OSError) as error:
        raise fail(error) from None


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
    compute: Annotated[
        str,
        typer.Option(
            help="Where bots, hints and reviews run: local (worker processes, one a core), "
            "ray (a Ray cluster; --address), or threads (this process)."
        ),
    ] = "local",
    address: Annotated[
        str | None, typer.Option(help="The Ray cluster's HOST:PORT (with --compute ray).")
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy's address whose X-Forwarded-For names the client "
            "(repeatable; default none: docs/web.md, 'On the internet')."
        ),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(
            help="This process's name in a cluster behind one address (several processes "
            "on one PostgreSQL database, nginx in front: docs/web.md, 'Many processes')."
        ),
    ] = None,
    trust_wide_proxy: Annotated[
        bool,
        typer.Option(
            help="Allow a --trusted-proxy range wider than a /16 (IPv4) or /48 (IPv6): "
            "every address in it may name its own client."
        ),
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
    settings = Settings(
        bot_delay=bot_delay,
        think_scale=think_scale,
        trusted_proxies=tuple(trusted_proxy or ()),
        trust_wide_proxy=trust_wide_proxy,
        node=node or "",
        compute=compute,
        compute_address=address or "",
    )
    if no_address_limits:
        settings = settings.relaxed()
    try:
        settings = with_overrides(settings, limit or [])
    except OptionError as error:
        raise fail(error) from None
    console.print(f"cardtable web app on [bold]http://{host}:{port}[/] (database: {db})")
    uvicorn.Server(uvicorn_config(create_app(db, settings), settings, host, port)).run()


@app.command()
def cluster(
    processes: Annotated[int, typer.Option(help="How many server processes.", min=1, max=8)] = 3,
    port: Annotated[int, typer.Option(help="nginx's port on 127.0.0.1.")] = 8100,
) -> None:
    """Try many server processes behind one address on this machine: a scratch PostgreSQL,
    PROCESSES `cardtable serve --node nN` and nginx with docs/deploy/nginx-cluster.conf on
    http://127.0.0.1:PORT. Ctrl-C (or SIGTERM, or its parent ending) stops all of it."""
    from cardtable.server.local_cluster import ClusterError, local_cluster  # noqa: PLC0415

    stop = threading.Event()
    parent = os.getppid()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signal_number, lambda *_: stop.set())
    try:
        with local_cluster(processes, port=None if port == 8100 else port) as running:
            console.print(f"cardtable cluster on [bold]{running.url}[/]: "
                          + ", ".join(f"{n.name} on :{n.port}" for n in running.nodes)
                          + f"; database {running.database}. Ctrl-C stops it.")  # fmt: skip
            while not stop.wait(0.5) and os.getppid() == parent:
                pass  # a parent gone (make stopped by SIGTERM) stops it too
    except ClusterError as error:
        raise fail(error) from None
    console.print("cluster stopped")


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="A finished game downloaded from the web app.")],
    key: Annotated[
        str | None,
        typer.Option(
            help="The server's public key (GET /api/signing-key): the record must be "
            "signed with it. Without it nobody can tell who signed the file: the key it "
            "names is shown to compare, and the exit code is 1."
        ),
    ] = None,
) -> None:
    """Check a web game: the revealed seed matches the commitment, every move of the log
    replays legally to the final scores, the moves are the ones the server chained, and
    the server's signature holds."""
    import json  # noqa: PLC0415

    from cardtable.server.fairness import verify as check  # noqa: PLC0415

    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise fail(error) from None
    if not isinstance(data, dict):
        raise fail(OptionError(f"{path} is not a game record (a JSON object)"))
    verdict = check(data, trusted_key=key)
    mark = "[green]✓[/]" if verdict.commitment_ok else "[red]✗[/]"
    console.print(f"{mark} seed commitment {data.get('fairness', {}).get('commitment', '?')}")
    mark = "[green]✓[/]" if verdict.chain_ok else "[red]✗[/]"
    if verdict.altered_move is not None:
        console.print(
            f"{mark} the moves differ from the server's chain at move {verdict.altered_move}"
        )
    else:
        console.print(f"{mark} every move is the one the server chained")
    if not verdict.signature_ok:
        console.print(f"[red]✗[/] signed by key {verdict.signed_by or 'nobody'}")
    elif key is None:  # anyone can sign a file they changed: only the server's key tells
        console.print(
            f"[yellow]?[/] signed by key {verdict.signed_by}: not checked against the "
            "server's key; pass --key (the server's GET /api/signing-key) to check it"
        )
    else:
        console.print(f"[green]✓[/] signed by the server's key {key}")
    if verdict.failed_move is not None:
        failed = verdict.failed_move
        console.print(
            f"[red]✗[/] the moves before move {failed['move']} replay legally; it does not"
        )
    else:
        mark = "[green]✓[/]" if verdict.replay_ok else "[red]✗[/]"
        console.print(
            f"{mark} {verdict.moves} moves replay legally; final scores {list(verdict.scores)}"
        )
    for problem in verdict.problems:
        console.print(f"  [red]{problem}[/]")
    if not verdict.ok or key is None:
        raise typer.Exit(code=1)


def guarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """A game's command with its errors shown as the CLI shows every error."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except CardtableError as error:
            raise fail(error) from None

    return run


def add_game_commands() -> None:
    """Every game's own commands (its spec's COMMANDS), each once."""
    groups = {"companion": companion_app}
    seen: set[tuple[str | None, str]] = set()
    for game_id in cardtable.game_ids():
        commands: tuple[Command, ...] = spec_of(game_id).optional(Capability.COMMANDS, ())
        for command in commands:
            if (command.group, command.name) in seen:
                continue
            seen.add((command.group, command.name))
            target = app if command.group is None else groups[command.group]
            target.command(command.name)(guarded(command.function))


add_game_commands()


def main() -> None:
    app()
