"""``chkobba play``, ``chkobba host`` and ``chkobba join``: the full-screen terminal client.

``play`` starts a whole match against bot peers that connect over loopback (each bot is
its own process, a peer like any other).  ``host`` opens a table for friends (``host
--headless`` hands over to the headless host of :mod:`.bot`); ``join`` sits at one.
Everything goes through the library's public API (:mod:`chkobba_p2p`).

Exit status (:mod:`..words.ending`, README): 0 the match completed (or was resigned); 1 the
client crashed; 2 no game (could not join: refused, timeout, version mismatch, table full,
bad arguments); 3 the game was stopped (aborted); 4 you stepped away (the game waits for
you); 130 you left a game that does not wait (against bots, a lobby), or an interrupt.
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import os
import sys
from pathlib import Path

from chkobba_p2p import (
    MAX_NAME,
    Address,
    AnsweredEndpoints,
    HostConfig,
    Identity,
    JoinConfig,
    Lobby,
    Outcome,
    OutcomeError,
    SeatBusy,
    SeatController,
    SeatLock,
    Timeouts,
    data_dir,
    default_log_path,
    global_ipv6,
    join_match,
    parse_address,
    saved_game_path,
    split_join_code,
)
from chkobba_p2p.address import new_secret
from chkobba_p2p.game.cards import FigureConvention
from chkobba_p2p.text import is_invisible

from ..identity import own_identity
from ..options.rules import ruleset_from_args
from ..support.hosting import hosting
from ..support.settings import player_name
from ..support.term import can_show_symbols
from ..tui.botproc import EarlyBots
from ..words.ending import EXIT_NO_GAME, finish, print_error, saved_elsewhere_lines
from ..words.i18n import Translator, detect_lang
from ..words.tor_words import tor_stopped

__all__ = ["cmd_play", "cmd_host", "cmd_join"]


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


def _default_name(fallback: str) -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no user database entry (containers)
        name = ""
    name = "".join(ch for ch in name if ch.isprintable() and not is_invisible(ch))[:MAX_NAME]
    return name or fallback


def _figures(args: argparse.Namespace) -> FigureConvention | str | None:
    if args.figures == "values":
        return "values"
    return FigureConvention(args.figures) if args.figures else None


def _color(args: argparse.Namespace) -> bool:
    return not (args.no_color or os.environ.get("NO_COLOR"))


def _ui(args: argparse.Namespace, kind: str, **kw):
    from chkobba_p2p import KnownPlayers

    from ..tui.app import TuiApp

    lang = args.lang or detect_lang()
    symbols = not args.ascii and can_show_symbols()
    from ..support import settings
    from ..tui.memo import Memo
    from ..tui.past import PastGames

    known = KnownPlayers() if kind != "play" else None
    saved_settings = settings.load()
    bell = bell_wanted(args, saved_settings)
    four_colour = settings.four_colour_wanted(args, saved_settings)
    mouse = settings.mouse_wanted(args, saved_settings)
    # Chat and hints kept beside the saved game (a resume brings them back; a new game
    # there starts without).
    saved: Path | None = kw.pop("saved_game", None)
    memo = None
    if saved is not None:
        memo = Memo.beside(saved)
        if saved.exists():
            memo.load()
        else:
            memo.clear()
    # Records and the series, from the logs already written where this game's goes.
    log_path = kw.get("log_path")
    past = PastGames(Path(log_path).parent if log_path else data_dir() / "logs")
    return TuiApp(kind=kind, lang=lang, symbols=symbols, color=_color(args),
                  figures=_figures(args), pace=args.pace, known=known, past=past,
                  bell=bell, memo=memo, four_colour=four_colour, mouse=mouse, **kw)


def bell_wanted(args: argparse.Namespace, settings: dict) -> bool:
    """The turn's bell rings unless ``--no-bell`` or ``"bell": false`` in the settings."""
    return not getattr(args, "no_bell", False) and settings.get("bell") is not False


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


def _own_identity(args: argparse.Namespace, path: str | None) -> Identity:
    """The key of ``--identity FILE``, else the person's one key for every role
    (cli/identity.py); the merge of an older version's two keys is told in one line."""
    t = Translator(args.lang or detect_lang())

    def say(key: str, old: str, new: str) -> None:
        print(t(key, old=old, new=new), file=sys.stderr)

    return own_identity(path, say)


def cmd_play(args: argparse.Namespace, early: EarlyBots | None = None) -> int:
    """``chkobba play``; ``early``: its bots, started before this module was imported
    (:func:`chkobba_cli.commands.play.play`), else they start once the table listens."""
    from ..tui.guest import run_app

    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    rules = ruleset_from_args(args)
    name = _name(args, "you")
    log_path = Path(args.log) if args.log else default_log_path("play")
    # The player's one key, the one 'host' and 'join' use: its matches against the bots
    # are the same person's in a history and its ratings (the bot levels are their anchors).
    identity = _own_identity(args, getattr(args, "identity", None))
    config = HostConfig(players=args.players, rules=rules, port=0, bind="127.0.0.1",
                        name=name, identity=identity, log_path=log_path,
                        beacon=False, timeouts=Timeouts(reconnect=10.0),
                        leave_on_cancel=True)
    ui = _ui(args, "play", seat=0, rules=rules, players=args.players, log_path=log_path)
    result = run_app(ui, hosting(config, args.players - 1, args.bots, args.seed, early))
    return finish(result, ui)


def cmd_host(args: argparse.Namespace) -> int:
    if args.headless:
        from . import bot  # the protocol engineer's headless host

        return bot.cmd_host(args)
    from ..tui.guest import run_app
    from .bot import host_args_error  # the headless host's check

    if args.bots >= args.players:
        print("error: --bots must leave a seat for the host", file=sys.stderr)
        return EXIT_NO_GAME
    if (why := host_args_error(args)) is not None:
        print(f"chkobba host: error: {why}", file=sys.stderr)
        return EXIT_NO_GAME
    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    from ..support.reach import announce_interfaces, host_address, host_secret, port_mapping_options

    rules = ruleset_from_args(args)
    name = _name(args, "host")
    # host --secret: a fresh one each run; every join code shown carries it.
    secret = new_secret() if args.secret else None
    host_secret(secret)
    identity = _own_identity(args, args.identity)
    # The saved game of this identity's table on this port: a crashed (or stepped-away)
    # host comes back with the same command; a second process for it stops at once.
    state = saved_game_path(identity.fingerprint, f"host-{args.port}")
    if (lock := _lock_seat(state)) is None:
        return EXIT_NO_GAME
    log_path = Path(args.log) if args.log else default_log_path("host")
    config = HostConfig(players=args.players, rules=rules, port=args.port, bind=args.bind,
                        name=name, identity=identity, log_path=log_path,
                        beacon=not args.no_beacon,
                        port_mapping=port_mapping_options(args),
                        announce_interfaces=announce_interfaces(args),
                        shuffle_proofs=not args.no_shuffle_proofs,
                        spectators=args.spectators,
                        timeouts=Timeouts(reconnect=args.reconnect_timeout,
                                          turn=args.turn_timeout, ready=args.ready_wait),
                        admits=tuple(args.allow) if args.allow else None,
                        secret=secret,
                        # With port 0 the port changes at each run: nobody could find
                        # a resumed table there.
                        state_path=state if args.port else None)
    from chkobba_p2p import over_tor

    from ..options.tor import host_tor_transport

    # The onion key is kept with the saved game: a resumed host is at the same address.
    tor = host_tor_transport(args, state if args.port else None)
    if isinstance(tor, int):
        return tor
    if tor is not None:
        config.transport = tor
        config.timeouts = over_tor(config.timeouts)
    address = host_address(args.bind)
    address6 = global_ipv6() if args.bind in ("", "::") else None
    with lock:
        rematch = False
        while True:
            ui = _ui(args, "host", seat=0, rules=rules, players=args.players,
                     address=address, my_fingerprint=identity.fingerprint,
                     log_path=config.log_path, turn_timeout=args.turn_timeout,
                     reconnect_timeout=args.reconnect_timeout, rematch=rematch,
                     address6=address6, saved_game=state if args.port else None)
            if tor is not None:  # its onion address shows once published
                ui.tor_wait = tor.tor.bootstrap_timeout
            # The host's own seat, before anyone joins (the library reports seats as
            # they fill).
            ui.rematch_people = args.players - 1 - args.bots  # the bots never answer
            ui.rematch_bots = args.bots
            ui.state = ui.state.apply(Lobby(((name, identity.fingerprint),)
                                            + (None,) * (args.players - 1)))
            result = run_app(ui, hosting(config, args.bots, args.level, None, tor=tor))
            if (said := tor_stopped(ui)) is not None:
                print_error(said, ui.t)
                return EXIT_NO_GAME
            status = finish(result, ui)
            if not getattr(result, "rematch", False):
                return status
            # A new match at the same address: a new game id, fresh deal secrets, a new log.
            rematch = True
            config = dataclasses.replace(config, log_path=default_log_path("host"))


def rematch_config(config: JoinConfig, outcome: Outcome | None, log_path: Path
                   ) -> JoinConfig:
    """How a joiner that accepted a rematch joins the new table: at the address that
    worked, waiting up to :data:`REMATCH_WAIT` for the host to open it, with a new log,
    and pinned to the key of the host just played (seat 0 of its table), whatever form
    the first join took (a plain address pins nothing): whatever listens at that
    address next with another key is refused."""
    pin = config.host_fingerprint
    if outcome is not None and outcome.table is not None and outcome.table.seats:
        pin = outcome.table.seats[0].fingerprint
    return dataclasses.replace(config, log_path=log_path, connect_retry=REMATCH_WAIT,
                               host_fingerprint=pin)


def cmd_join(args: argparse.Namespace) -> int:
    from ..tui.guest import run_app

    t = Translator(args.lang or detect_lang())
    if args.address is not None:
        from ..support.reach import address_error

        if (why := address_error(args.address)) is not None:
            print(f"chkobba join: error: {why}", file=sys.stderr)
            return EXIT_NO_GAME
    if (err := _check_tty()) is not None:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_NO_GAME
    address = args.address
    codes = [address] if address is not None else []
    if address is None:
        from ..support.reach import discover

        # Every address announced for the chosen table's key, tried in turn until the
        # host's key matches (a neighbour may announce that key at an address of its own).
        codes = discover(args.listen, args.interface, t)
        if not codes:
            print("error: no table found on the LAN; give the host's address: "
                  "chkobba join HOST[:PORT]", file=sys.stderr)
            return EXIT_NO_GAME
    candidates: list[tuple[str, str | None]] = []
    for code in codes:
        try:
            text, pin = split_join_code(code)
            host, port = parse_address(text)
        except ValueError as exc:
            print(f"error: not an address: {code!r} (HOST, HOST:PORT or a join code "
                  f"HOST:PORT#KEY): {exc}", file=sys.stderr)
            return EXIT_NO_GAME
        candidates.append((f"[{host}]:{port}" if ":" in host else f"{host}:{port}", pin))
    address, pinned = candidates[0]
    # A table's seat secret: given apart (--secret), or in the join code (+SECRET).
    secret = args.secret or Address.parse(codes[0]).secret
    name = _name(args, "guest")
    identity = _own_identity(args, args.identity)
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
                        host_fingerprint=pinned, secret=secret,
                        # The endpoint where the pinned key proves itself is kept at
                        # once (a join cut short by Ctrl-C too): a later LAN list keeps
                        # that table's place whatever a neighbour floods it with.
                        answered=AnsweredEndpoints())
    from chkobba_p2p import over_tor

    from ..options.tor import join_tor_transport

    tor = join_tor_transport(args, address)
    if isinstance(tor, int):
        return tor
    connect_timeout: float | None = args.connect_timeout
    if tor is not None:
        # Tor has its own limits, each said as such when spent: the time to reach the
        # Tor network (--tor-wait), then the tries at the onion address (a minute).
        connect_timeout = None
    with lock:
        rematch = False
        while True:
            ui = _ui(args, "join", address=address, my_fingerprint=identity.fingerprint,
                     log_path=config.log_path, turn_timeout=args.turn_timeout,
                     reconnect_timeout=args.reconnect_timeout, rematch=rematch,
                     saved_game=config.state_path)
            if tor is not None:
                ui.tor_wait = tor.tor.bootstrap_timeout

            tries = [config] if rematch else [config] + [
                dataclasses.replace(config, address=where, host_fingerprint=pin,
                                    state_path=saved_game_path(identity.fingerprint, where))
                for where, pin in candidates[1:]]
            joined: list[JoinConfig] = []

            async def game(controller: SeatController, tries: list[JoinConfig] = tries,
                           joined: list[JoinConfig] = joined) -> Outcome:
                if tor is not None:  # what tor does, to the screen
                    tor.tor.on_event = controller.on_event
                try:
                    for i, attempt in enumerate(tries):
                        if tor is not None:
                            attempt.transport = tor
                            attempt.timeouts = over_tor(attempt.timeouts)
                        outcome = await join_match(attempt, controller)
                        if i + 1 < len(tries) and outcome.error_code in (
                                OutcomeError.HOST_KEY_MISMATCH, OutcomeError.CONNECT_FAILED):
                            continue  # another machine there (or nobody): the next address
                        joined.append(attempt)
                        return outcome
                    raise AssertionError("no address to try")
                finally:
                    if tor is not None:
                        await tor.aclose()  # this run's tor: the next run starts its own

            result = run_app(ui, game, connect_timeout=connect_timeout)
            if result.timed_out:
                print_error(t("join_error", addr=address,
                                  why=t("join_timeout", n=f"{connect_timeout:g}")), t)
                return EXIT_NO_GAME
            if (said := tor_stopped(ui)) is not None:
                print_error(t("join_error", addr=address, why=said), t)
                return EXIT_NO_GAME
            status = finish(result, ui, address)
            o = result.outcome
            if o is not None and o.error_code == "already_seated" and not args.identity:
                # host and join share one key: the person's own table, from this computer
                print(t("own_table"), file=sys.stderr)
            from ..support.reach import saved_game_elsewhere

            if o is not None and o.error_code == OutcomeError.SAVED_GAME_MISSING \
                    and (where := saved_game_elsewhere(identity.fingerprint, address)):
                for line in saved_elsewhere_lines(where, args.address or address,
                                                  t("saved_elsewhere", addr=where)):
                    print(line, file=sys.stderr)
            if not getattr(result, "rematch", False):
                return status
            # Accepted a rematch: the same table, the host opens a new one at the same
            # address; wait for it (the host may still be deciding).  Pinned to the key
            # of the host just played, whatever form the first join took: whatever
            # listens at that address next with another key is refused.
            rematch = True
            config = rematch_config(joined[0] if joined else config, o,
                                    default_log_path(name))
            connect_timeout = REMATCH_WAIT + 5
