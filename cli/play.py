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
import dataclasses
import errno
import getpass
import os
import shlex
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
    SeatBusy,
    SeatController,
    SeatLock,
    Timeouts,
    host_match,
    join_match,
    parse_address,
    split_join_code,
)
from chkobba_p2p.portmap import global_ipv6, lan_address
from chkobba_p2p.text import safe_text
from chkobba_p2p.transcript import (
    data_dir,
    default_log_path,
    load_identity,
    saved_game_path,
)
from chkobba_p2p.wire import MAX_NAME, Identity

from .i18n import Translator, detect_lang
from .rules_options import add_rules_arguments, ruleset_from_args

__all__ = ["add_arguments", "cmd_play", "cmd_host", "cmd_join", "lan_address"]

EXIT_DONE, EXIT_CRASH, EXIT_NO_GAME, EXIT_ABORTED, EXIT_LEFT = 0, 1, 2, 3, 130

#: Seconds a player who accepted a rematch waits for the host to open the new table.
REMATCH_WAIT = 120.0


def _lock_seat(state: Path) -> SeatLock | None:
    """One process per seat: None (after saying so, in one line) if another process of
    this identity already plays here."""
    try:
        return SeatLock(state).acquire()
    except SeatBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _same_command() -> str:
    """The command line this process was started with, to type again."""
    return " ".join(["chkobba", *map(shlex.quote, sys.argv[1:])])


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
        why = _explain(safe_text(o.error, 1000), t) if o.error else t("err_closed")
        print("error: " + t("join_error", addr=address, why=why), file=sys.stderr)
        return EXIT_NO_GAME
    log = (o.log_path if o is not None else None) or ui.log_path
    if log is not None and not Path(log).exists():
        log = None  # nothing was logged (the game never started)
    if result.left:
        if getattr(result, "stepped_away", False):
            print(t("away_exit"))
            print(t("away_again", cmd=_same_command()))
        else:
            print(t("left"))
        if log:
            print(t("over_log", path=log))
        return EXIT_LEFT
    if o is None:
        return EXIT_NO_GAME
    print(o.describe())
    if log:
        print(t("over_log", path=log))
        print(t("over_replay", path=log))
    return EXIT_DONE if o.completed or o.resigned is not None else EXIT_ABORTED


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
    from .tui.app import TuiApp

    lang = args.lang or detect_lang()
    return TuiApp(kind=kind, lang=lang, symbols=not args.ascii, color=_color(args),
                  figures=_figures(args), **kw)


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
    name = (args.name or _default_name("you"))[:MAX_NAME]
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
    from .net import host_args_error
    from .tui.guest import run_app

    if args.bots >= args.players:
        print("error: --bots must leave a seat for the host", file=sys.stderr)
        return EXIT_NO_GAME
    if (why := host_args_error(args)) is not None:
        print(f"chkobba host: error: {why}", file=sys.stderr)
        return EXIT_NO_GAME
    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    from .net import announce_interfaces, host_address, port_mapping_options

    rules = ruleset_from_args(args)
    name = (args.name or _default_name("host"))[:MAX_NAME]
    key_path = Path(args.identity) if args.identity else data_dir() / "host-identity.key"
    identity = load_identity(key_path)
    # The saved game of this identity's table on this port: a crashed (or stepped-away)
    # host comes back with the same command; a second process for it stops at once.
    state = saved_game_path(identity.fingerprint, f"host-{args.port}")
    if (lock := _lock_seat(state)) is None:
        return EXIT_NO_GAME
    log_path = Path(args.log) if args.log else default_log_path("host")
    config = _host_config(players=args.players, rules=rules, port=args.port, bind=args.bind,
                          name=name, identity=identity, log_path=log_path,
                          beacon=not args.no_beacon,
                          port_mapping=port_mapping_options(args),
                          announce_interfaces=announce_interfaces(args),
                          shuffle_proofs=not args.no_shuffle_proofs,
                          spectators=args.spectators,
                          timeouts=Timeouts(reconnect=args.reconnect_timeout,
                                            turn=args.turn_timeout),
                          # With port 0 the port changes at each run: nobody could find
                          # a resumed table there.
                          state_path=state if args.port else None)
    address = host_address(args.bind)
    address6 = global_ipv6() if args.bind in ("", "::") else None
    with lock:
        rematch = False
        while True:
            ui = _ui(args, "host", seat=0, rules=rules, players=args.players,
                     address=address, my_fingerprint=identity.fingerprint,
                     log_path=config.log_path, turn_timeout=args.turn_timeout,
                     reconnect_timeout=args.reconnect_timeout, rematch=rematch,
                     address6=address6)
            # The host's own seat, before anyone joins (the library reports seats as
            # they fill).
            ui.state = ui.state.apply(Lobby(((name, identity.fingerprint),)
                                            + (None,) * (args.players - 1)))
            result = run_app(ui, _hosting(config, args.bots, args.level, None))
            status = _finish(result, ui)
            if not getattr(result, "rematch", False):
                return status
            # A new match at the same address: a new game id, fresh deal secrets, a new log.
            rematch = True
            config = dataclasses.replace(config, log_path=default_log_path("host"))


def cmd_join(args: argparse.Namespace) -> int:
    from .tui.guest import run_app

    t = Translator(args.lang or detect_lang())
    if args.address is not None:
        from .net import address_error

        if (why := address_error(args.address)) is not None:
            print(f"chkobba join: error: {why}", file=sys.stderr)
            return EXIT_NO_GAME
    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    address = args.address
    if address is None:
        from .net import discover

        address = discover(args.listen, args.interface)
        if address is None:
            print("error: no table found on the LAN; give the host's address: "
                  "chkobba join HOST[:PORT]", file=sys.stderr)
            return EXIT_NO_GAME
    try:
        text, pinned = split_join_code(address)
        host, port = parse_address(text)
    except ValueError as exc:
        print(f"error: not an address: {address!r} (HOST, HOST:PORT or a join code "
              f"HOST:PORT#KEY): {exc}", file=sys.stderr)
        return EXIT_NO_GAME
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    name = (args.name or _default_name("guest"))[:MAX_NAME]
    key_path = Path(args.identity) if args.identity else data_dir() / "identity.key"
    identity = load_identity(key_path)
    # One saved game per table: a join elsewhere must not replace the secrets of a game
    # this identity stepped away from (nor be stopped as "open in another terminal").
    state = saved_game_path(identity.fingerprint, address)
    if (lock := _lock_seat(state)) is None:
        return EXIT_NO_GAME
    log_path = Path(args.log) if args.log else default_log_path(name)
    # Leaving is a choice made on the screen (step away, or resign); a cancelled peer
    # signs nothing and can come back.
    config = JoinConfig(address, name=name, identity=identity, state_path=state,
                        log_path=log_path,
                        timeouts=Timeouts(reconnect=args.reconnect_timeout,
                                          turn=args.turn_timeout),
                        host_fingerprint=pinned)
    connect_timeout = args.connect_timeout
    with lock:
        rematch = False
        while True:
            ui = _ui(args, "join", address=address, my_fingerprint=identity.fingerprint,
                     log_path=config.log_path, turn_timeout=args.turn_timeout,
                     reconnect_timeout=args.reconnect_timeout, rematch=rematch)

            async def game(controller: SeatController, config: JoinConfig = config
                           ) -> Outcome:
                return await join_match(config, controller)

            result = run_app(ui, game, connect_timeout=connect_timeout)
            if result.timed_out:
                print("error: " + t("join_error", addr=address,
                                    why=t("join_timeout", n=f"{connect_timeout:g}")),
                      file=sys.stderr)
                return EXIT_NO_GAME
            status = _finish(result, ui, address)
            if not getattr(result, "rematch", False):
                return status
            # Accepted a rematch: the same table, the host opens a new one at the same
            # address; wait for it (the host may still be deciding).
            rematch = True
            config = dataclasses.replace(config, log_path=default_log_path(name),
                                         connect_retry=REMATCH_WAIT)
            connect_timeout = REMATCH_WAIT + 5


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


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``play``, ``host`` or ``join`` (see :mod:`.main`)."""
    {"play": _play_arguments, "host": _host_arguments, "join": _join_arguments}[command](p)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    levels = sorted(LEVELS)
    p.description = "A full-screen match against bot peers on this machine."
    p.add_argument("--players", type=int, choices=(2, 4), default=2)
    p.add_argument("--bots", default="greedy", choices=levels, help="the bots' level")
    p.add_argument("--seed", type=int, default=None,
                   help="seed the bots' play style (the deal stays cryptographic)")
    p.add_argument("--name", default=None, help="your display name")
    p.add_argument("--log", metavar="FILE", help="transcript log path (default: data dir)")
    add_rules_arguments(p)
    _display(p)
    p.set_defaults(func=cmd_play)


def _host_arguments(p: argparse.ArgumentParser) -> None:
    from .net import add_host_options  # shared with the headless host

    add_host_options(p)
    _display(p)
    p.set_defaults(func=cmd_host, name_default="host")


def _join_arguments(p: argparse.ArgumentParser) -> None:
    from .net import add_discovery_options, add_peer_options  # shared with the headless peers

    p.add_argument("address", nargs="?", help="HOST[:PORT] or a join code HOST:PORT#KEY")
    add_discovery_options(p)
    p.add_argument("--connect-timeout", type=float, default=15.0, metavar="S",
                   help="seconds to reach the table before giving up (default 15)")
    add_peer_options(p)
    _display(p)
    p.set_defaults(func=cmd_join, name_default="guest")
