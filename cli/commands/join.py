"""``chkobba join``: sit at a table (no address: pick one on the LAN), in the full-screen
terminal client; a rematch joins the host's new table at the same address.  Everything
goes through the library's public API (:mod:`chkobba_p2p`).

Exit status (:mod:`..words.ending`, README): 0 the match completed (or was resigned); 1 the
client crashed; 2 no game (could not join: refused, timeout, version mismatch, table full,
bad arguments); 3 the game was stopped (aborted); 4 you stepped away (the game waits for
you); 0 too when you left on purpose (a lobby, or a game that does not wait); 130 an
interrupt.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from chkobba_p2p import (
    Address,
    AnsweredEndpoints,
    JoinConfig,
    Outcome,
    OutcomeError,
    SeatController,
    Timeouts,
    default_log_path,
    join_match,
    parse_address,
    saved_game_path,
    split_join_code,
)

from ..support.player import check_tty, identity_of, lock_seat, name_of, screen_app
from ..support.settings import given_name_refused
from ..support.term import say_error
from ..words.ending import EXIT_NO_GAME, finish, print_error, saved_elsewhere_lines
from ..words.i18n import Translator, detect_lang, local_error_text
from ..words.tor_words import tor_stopped

__all__ = ["cmd_join", "rematch_config", "REMATCH_WAIT"]


#: Seconds a player who accepted a rematch waits for the host to open the new table.
REMATCH_WAIT = 120.0


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

        if (why := address_error(args.address, t)) is not None:
            say_error(f"chkobba join: {t('cx_error', why=why)}")
            return EXIT_NO_GAME
    if (why := given_name_refused(args, t)) is not None:
        say_error(f"chkobba join: {t('cx_error', why=why)}")
        return EXIT_NO_GAME
    if (err := check_tty(t)) is not None:
        say_error(t("cx_error", why=err))
        return EXIT_NO_GAME
    address = args.address
    codes = [address] if address is not None else []
    if address is None:
        from ..support.reach import discover

        # Every address announced for the chosen table's key, tried in turn until the
        # host's key matches (a neighbour may announce that key at an address of its own).
        codes = discover(args.listen, args.interface, t)
        if not codes:
            say_error(t("cx_error", why=t("cx_no_table")))
            return EXIT_NO_GAME
    candidates: list[tuple[str, str | None]] = []
    for code in codes:
        try:
            text, pin = split_join_code(code)
            host, port = parse_address(text)
        except ValueError as exc:  # the library's reason (by its code), in our sentence
            print(t("cx_error", why=t("cx_not_address", code=repr(code),
                                      why=local_error_text(t, exc))),
                  file=sys.stderr)
            return EXIT_NO_GAME
        candidates.append((f"[{host}]:{port}" if ":" in host else f"{host}:{port}", pin))
    address, pinned = candidates[0]
    # A table's seat secret: given apart (--secret), or in the join code (+SECRET).
    secret = args.secret or Address.parse(codes[0]).secret
    name = name_of(args, "guest")
    identity = identity_of(args, args.identity)
    # One saved game per table: a join elsewhere must not replace the secrets of a game
    # this identity stepped away from (nor be stopped as "open in another terminal").
    state = saved_game_path(identity.fingerprint, address)
    if (lock := lock_seat(state, t)) is None:
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
            ui = screen_app(args, "join", address=address, my_fingerprint=identity.fingerprint,
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
