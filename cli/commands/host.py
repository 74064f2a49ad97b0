"""``chkobba host``: open a table for friends, in the full-screen terminal client (``host
--headless`` hands over to the headless host of :mod:`.bot`).  Everything goes through the
library's public API (:mod:`chkobba_p2p`).

Exit status (:mod:`..words.ending`, README): 0 the match completed (or was resigned); 1 the
client crashed; 2 no game (bad arguments, a seat already played here); 3 the game was
stopped (aborted); 4 you stepped away (the game waits for you); 0 too when you left on
purpose (a lobby, or a game that does not wait); 130 an interrupt.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from chkobba_p2p import (
    HostConfig,
    Lobby,
    Timeouts,
    default_log_path,
    global_ipv6,
    saved_game_path,
)
from chkobba_p2p.address import new_secret

from ..options.rules import ruleset_from_args
from ..support.hosting import hosting
from ..support.player import check_tty, identity_of, lock_seat, name_of, screen_app
from ..support.settings import given_name_refused
from ..support.term import say_error
from ..words.ending import EXIT_NO_GAME, finish, print_error
from ..words.i18n import Translator, detect_lang
from ..words.tor_words import tor_stopped

__all__ = ["cmd_host"]


def cmd_host(args: argparse.Namespace) -> int:
    if args.headless:
        from . import bot  # the protocol engineer's headless host

        return bot.cmd_host(args)
    from ..tui.guest import run_app
    from .bot import host_args_error  # the headless host's check

    t = Translator(args.lang or detect_lang())
    if args.bots >= args.players:
        say_error(t("cx_error", why=t("cx_bots_seat")))
        return EXIT_NO_GAME
    if (why := given_name_refused(args, t) or host_args_error(args, t)) is not None:
        say_error(f"chkobba host: {t('cx_error', why=why)}")
        return EXIT_NO_GAME
    if (err := check_tty(t)) is not None:
        say_error(t("cx_error", why=err))
        return EXIT_NO_GAME
    from ..support.reach import announce_interfaces, host_address, host_secret, port_mapping_options

    rules = ruleset_from_args(args)
    name = name_of(args, "host")
    # host --secret: a fresh one each run; every join code shown carries it.
    secret = new_secret() if args.secret else None
    host_secret(secret)
    identity = identity_of(args, args.identity)
    # The saved game of this identity's table on this port: a crashed (or stepped-away)
    # host comes back with the same command; a second process for it stops at once.
    state = saved_game_path(identity.fingerprint, f"host-{args.port}")
    if (lock := lock_seat(state, t)) is None:
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
            ui = screen_app(args, "host", seat=0, rules=rules, players=args.players,
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
