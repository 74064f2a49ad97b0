"""``chkobba play``, ``chkobba host`` and ``chkobba join``: the full-screen terminal client.

``play`` starts a whole match against bot peers that connect over loopback (each bot is
its own process, a peer like any other).  ``host`` opens a table for friends (``host
--headless`` hands over to the headless host of :mod:`.net`); ``join`` sits at one.
Everything goes through the library's public API (:mod:`chkobba_p2p.peer`).

Exit status: 0 the match completed; 2 no game (could not join: refused, timeout, version
mismatch, table full, bad arguments); 3 the game was stopped (aborted, with a blame);
130 you left (Ctrl-C); 1 the client crashed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import getpass
import os
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from chkobba_p2p.cards import FigureConvention
from chkobba_p2p.levels import LEVELS
from chkobba_p2p.peer import (
    HostConfig,
    JoinConfig,
    Lobby,
    Outcome,
    SeatController,
    Timeouts,
    host_match,
    join_match,
    parse_address,
)
from chkobba_p2p.transcript import data_dir, default_log_path, load_identity
from chkobba_p2p.wire import MAX_NAME, Identity

from .i18n import Translator, detect_lang
from .rules_options import add_rules_arguments, ruleset_from_args
from .settings import player_name
from .term import can_show_symbols

__all__ = ["add_arguments", "cmd_play", "cmd_host", "cmd_join", "lan_address"]

EXIT_DONE, EXIT_CRASH, EXIT_NO_GAME, EXIT_ABORTED, EXIT_LEFT = 0, 1, 2, 3, 130


def lan_address() -> str:
    """This machine's address on its LAN (what friends type), or 127.0.0.1."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # a UDP "connect" sends nothing; it picks the route
        return s.getsockname()[0]
    return "127.0.0.1"


def _default_name(fallback: str) -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no user database entry (containers)
        name = ""
    name = "".join(ch for ch in name if ch.isprintable())[:MAX_NAME]
    return name or fallback


def _figures(args: argparse.Namespace) -> FigureConvention | str | None:
    if args.figures == "values":
        return "values"
    return FigureConvention(args.figures) if args.figures else None


def _color(args: argparse.Namespace) -> bool:
    return not (args.no_color or os.environ.get("NO_COLOR"))


def _host_config(**kw: object) -> HostConfig:
    """A HostConfig from the options this library version knows (newer options, such as
    ``shuffle_proofs``, are passed only where the library has them)."""
    known = {f.name for f in dataclasses.fields(HostConfig)}
    return HostConfig(**{k: v for k, v in kw.items() if k in known})


def _spawn_bots(port: int, count: int, level: str, seed: int | None,
                log_path: Path | None = None) -> list[subprocess.Popen]:
    """Bot peers as separate processes joining over loopback.  Their output must not
    reach the terminal the full-screen UI draws on.  They run this interpreter, which has
    this package installed."""
    procs = []
    for i in range(count):
        cmd = [sys.executable, "-m", "chkobba_cli.tui.botproc", f"127.0.0.1:{port}",
               "--level", level, "--name", f"bot{i + 1}"]
        if seed is not None:
            cmd += ["--seed", str(seed + i)]
        if log_path is not None:  # each bot's own log, named after the game's
            cmd += ["--log", str(log_path.with_name(f"{log_path.stem}-bot{i + 1}.chklog"))]
        procs.append(subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
    return procs


async def _reap(procs: list[subprocess.Popen], grace: float) -> None:
    """Let bot processes finish (they sign the result), then stop the stragglers."""
    with trio.CancelScope(shield=True):
        with trio.move_on_after(grace):
            while any(p.poll() is None for p in procs):
                await trio.sleep(0.05)
        for p in procs:
            if p.poll() is None:
                p.terminate()
        with trio.move_on_after(2):
            while any(p.poll() is None for p in procs):
                await trio.sleep(0.05)
        for p in procs:
            if p.poll() is None:
                p.kill()


def _hosting(config: HostConfig, bots: int, level: str, seed: int | None
             ) -> Callable[[SeatController], Awaitable[Outcome]]:
    async def game(controller: SeatController) -> Outcome:
        from .tui.narration import BotsStarting

        box: list[Outcome] = []
        procs: list[subprocess.Popen] = []

        async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
            box.append(await host_match(config, controller, task_status=task_status))

        completed = False
        try:
            async with trio.open_nursery() as nursery:
                port = await nursery.start(host)
                if bots:
                    controller.on_event(BotsStarting(bots))
                    procs.extend(_spawn_bots(port, bots, level, seed, config.log_path))
            completed = True
        finally:
            await _reap(procs, 5.0 if completed else 0.0)
        return box[0]
    return game


def _finish(result, ui, address: str | None = None) -> int:
    """After the screen closed: say how it ended, on the normal terminal."""
    from .tui.guest import RunResult

    assert isinstance(result, RunResult)
    t: Translator = ui.t
    if result.crash:
        print(result.crash, file=sys.stderr)
        return EXIT_CRASH
    o = result.outcome
    if result.timed_out:
        print("error: " + t("join_error", addr=address, why=t("join_timeout", n="?")),
              file=sys.stderr)
        return EXIT_NO_GAME
    if o is not None and o.table is None and not result.left:
        why = _explain(o.error, t) if o.error else t("err_closed")
        print("error: " + t("join_error", addr=address, why=why), file=sys.stderr)
        return EXIT_NO_GAME
    log = (o.log_path if o is not None else None) or ui.log_path
    if log is not None and not Path(log).exists():
        log = None  # nothing was logged (the game never started)
    if result.left:
        print(t("left"))
        if log:
            print(t("over_log", path=log))
        return EXIT_LEFT
    if o is None:
        return EXIT_NO_GAME
    print(_result_line(o, ui))
    if log:
        print(t("over_log", path=log))
        print(t("over_replay", path=log))
    return EXIT_DONE if o.completed else EXIT_ABORTED


def _result_line(o: Outcome, ui) -> str:
    """How the match ended, in the player's language and words (the screen said the same:
    "You win 11-4!", never a side number)."""
    from .tui.dialogs import over_lines
    from .tui.render import line_text

    if o.done is None:
        return o.describe()
    lines = [line_text(x).strip() for x in over_lines(ui.view, o, None, 200)]
    return next((x for x in lines[1:] if x), o.describe())


def _explain(error: str, t: Translator) -> str:
    """A library error string, with a plain sentence for the usual join failures."""
    low = error.lower()
    if "connect call failed" in low or "connection refused" in low or \
            "all attempts to connect" in low or f"errno {errno.ECONNREFUSED}" in low:
        return f"{t('err_refused_conn')} ({error})"
    if "every seat" in low or "table_full" in low:
        return f"{t('err_full')} ({error})"
    if "version" in low:
        return f"{t('err_version')} ({error})"
    return error


def _ui(args: argparse.Namespace, kind: str, **kw):
    from chkobba_p2p.known import KnownPlayers

    from .tui.app import TuiApp

    lang = args.lang or detect_lang()
    symbols = not args.ascii and can_show_symbols()
    known = KnownPlayers() if kind != "play" else None
    return TuiApp(kind=kind, lang=lang, symbols=symbols, color=_color(args),
                  figures=_figures(args), pace=args.pace, known=known, **kw)


def _name(args: argparse.Namespace, fallback: str) -> str:
    """``--name``, else the name remembered, else asked on this first run, else the
    login name."""
    t = Translator(args.lang or detect_lang())
    name = player_name(args.name, t) or _default_name(fallback)
    return name[:MAX_NAME]


def _check_tty() -> str | None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return "the terminal client needs a terminal (use 'chkobba bot' or 'host --headless')"
    return None


# ---------------------------------------------------------------------------- commands


def cmd_play(args: argparse.Namespace) -> int:
    from .tui.guest import run_app

    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    rules = ruleset_from_args(args)
    name = _name(args, "you")
    log_path = Path(args.log) if args.log else default_log_path("play")
    config = HostConfig(players=args.players, rules=rules, port=0, bind="127.0.0.1",
                        name=name, identity=Identity.generate(), log_path=log_path,
                        beacon=False, timeouts=Timeouts(reconnect=10.0),
                        leave_on_cancel=True)
    ui = _ui(args, "play", seat=0, rules=rules, players=args.players, log_path=log_path)
    result = run_app(ui, _hosting(config, args.players - 1, args.bots, args.seed))
    return _finish(result, ui)


def cmd_host(args: argparse.Namespace) -> int:
    if args.headless:
        from . import net as cli_net  # the protocol engineer's headless host

        return cli_net.cmd_host(args)
    from .tui.guest import run_app

    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    if args.bots >= args.players:
        print("error: --bots must leave a seat for the host", file=sys.stderr)
        return EXIT_NO_GAME
    rules = ruleset_from_args(args)
    name = _name(args, "host")
    key_path = Path(args.identity) if args.identity else data_dir() / "host-identity.key"
    identity = load_identity(key_path)
    log_path = Path(args.log) if args.log else default_log_path("host")
    config = _host_config(players=args.players, rules=rules, port=args.port, bind=args.bind,
                          name=name, identity=identity, log_path=log_path,
                          beacon=not args.no_beacon,
                          shuffle_proofs=not args.no_shuffle_proofs,
                          timeouts=Timeouts(reconnect=args.reconnect_timeout,
                                            turn=args.turn_timeout),
                          leave_on_cancel=True)
    address = lan_address() if args.bind in ("0.0.0.0", "::", "") else args.bind
    ui = _ui(args, "host", seat=0, rules=rules, players=args.players, address=address,
             my_fingerprint=identity.fingerprint, log_path=log_path)
    # The host's own seat, before anyone joins (the library reports seats as they fill).
    ui.state = ui.state.apply(Lobby(((name, identity.fingerprint),)
                                    + (None,) * (args.players - 1)))
    result = run_app(ui, _hosting(config, args.bots, args.level, None))
    return _finish(result, ui)


def cmd_join(args: argparse.Namespace) -> int:
    from .tui.guest import run_app

    t = Translator(args.lang or detect_lang())
    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    address = args.address
    if address is None:
        address = _discover(args.listen)
        if address is None:
            print("error: no table heard on the LAN; give the host's address: "
                  "chkobba join HOST[:PORT]", file=sys.stderr)
            return EXIT_NO_GAME
    try:
        host, port = parse_address(address)
    except ValueError:
        print(f"error: not an address: {address!r} (HOST or HOST:PORT)", file=sys.stderr)
        return EXIT_NO_GAME
    address = f"{host}:{port}"
    name = _name(args, "guest")
    key_path = Path(args.identity) if args.identity else data_dir() / "identity.key"
    identity = load_identity(key_path)
    state = data_dir() / "resume" / f"{identity.fingerprint}.state"
    log_path = Path(args.log) if args.log else default_log_path(name)
    config = JoinConfig(address, name=name, identity=identity, state_path=state,
                        log_path=log_path,
                        timeouts=Timeouts(reconnect=args.reconnect_timeout,
                                          turn=args.turn_timeout),
                        leave_on_cancel=True)  # Ctrl-C tells the others at once
    ui = _ui(args, "join", address=address, my_fingerprint=identity.fingerprint,
             log_path=log_path)

    async def game(controller: SeatController) -> Outcome:
        return await join_match(config, controller)

    result = run_app(ui, game, connect_timeout=args.connect_timeout)
    if result.timed_out:
        print("error: " + t("join_error", addr=address,
                            why=t("join_timeout", n=f"{args.connect_timeout:g}")),
              file=sys.stderr)
        return EXIT_NO_GAME
    return _finish(result, ui, address)


def _discover(seconds: float) -> str | None:
    from chkobba_p2p.net import listen_beacons

    print(f"listening for tables on the LAN for {seconds:g} s...", flush=True)
    found = trio.run(listen_beacons, seconds)
    if not found:
        return None
    for i, b in enumerate(found):
        print(f"[{i + 1}] {b!r}")
    choice = 1
    if len(found) > 1:
        text = input("table to join (number): ").strip()
        choice = int(text) if text.isdigit() and 1 <= int(text) <= len(found) else 1
    return found[choice - 1].target


# ---------------------------------------------------------------------------- parsers


def _display(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("en", "fr"), default=None,
                   help="language of the screen (default: from the locale)")
    p.add_argument("--figures", choices=[*(f.value for f in FigureConvention), "values"],
                   default=None,
                   help="figure names: tunisian (Queen 8, Jack 9), french (Jack 8, Queen 9) "
                        "or values (8, 9, 10 as numbers: 10♠); default: the table's rules")
    p.add_argument("--ascii", action="store_true",
                   help="suit letters (7D) and plain boxes instead of symbols (7♦)")
    p.add_argument("--no-color", action="store_true",
                   help="no colours (also when NO_COLOR is set)")
    p.add_argument("--pace", type=_pace, default=0.7, metavar="SECONDS",
                   help="how long another player's move stays on screen before the table "
                        "changes (default 0.7; 0: at once). Only the picture waits, never "
                        "the game")


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError("the pace is 0 to 10 seconds")
    return value


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``play``, ``host`` or ``join`` (see :mod:`.main`)."""
    {"play": _play_arguments, "host": _host_arguments, "join": _join_arguments}[command](p)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    levels = sorted(LEVELS)
    p.description = "A full-screen match against bot peers on this machine."
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="2 players, or 4 in two teams (default 2)")
    p.add_argument("--bots", default="greedy", choices=levels, help="the bots' level")
    p.add_argument("--seed", type=int, default=None,
                   help="seed the bots' play style (the deal stays cryptographic)")
    p.add_argument("--name", default=None,
                   help="your name at the table (default: the one remembered, asked on the "
                        "first run)")
    p.add_argument("--log", metavar="FILE", help="transcript log path (default: data dir)")
    add_rules_arguments(p)
    _display(p)
    p.set_defaults(func=cmd_play)


def _host_arguments(p: argparse.ArgumentParser) -> None:
    from .net import add_host_options  # shared with the headless host

    p.description = (
        "Open a table for friends: the screen shows the address to give them and each "
        "seat's key fingerprint; the deal starts when everyone has checked the "
        "fingerprints and pressed Enter. --bots N fills seats with bots; --headless hosts "
        "without a screen.")
    add_host_options(p)
    _display(p)
    p.set_defaults(func=cmd_host, name_default="host")


def _join_arguments(p: argparse.ArgumentParser) -> None:
    from .net import add_peer_options  # shared with the headless peers

    p.description = (
        "Sit at a table: HOST, HOST:PORT or [IPv6]:PORT (no address: pick a table "
        "announced on the LAN). Check the fingerprints with the other players, then press "
        "Enter.")
    p.add_argument("address", nargs="?", help="HOST[:PORT]")
    p.add_argument("--listen", type=float, default=3.0, help="seconds to listen for tables")
    p.add_argument("--connect-timeout", type=float, default=15.0, metavar="S",
                   help="seconds to reach the table before giving up (default 15)")
    add_peer_options(p)
    _display(p)
    p.set_defaults(func=cmd_join, name_default="guest")
