"""``chkobba bot`` and ``chkobba host --headless``: peers without a screen, played by a bot.

A client of the library like any other: everything here goes through its public face,
:mod:`chkobba_p2p`.  Each prints one line per event (``--quiet``: only the log and
the result), as :mod:`..outputs.headless` words them.  The people's commands, ``play``,
``host`` and ``join``, are the terminal client's (:mod:`.play`, :mod:`.host`,
:mod:`.join`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

# The library before trio: its first import loads libsodium (rbcl), some 12 MB for a
# moment, which with trio already loaded would be this peer's peak memory (issue 44).
from chkobba_p2p import (
    AddressError,
    BotController,
    HostConfig,
    Identity,
    JoinConfig,
    Joiner,
    ListenError,
    Outcome,
    OutcomeError,
    SeatBusy,
    SeatController,
    SeatLock,
    Timeouts,
    check_listen,
    default_log_path,
    host_match,
    load_identity,
    parse_port,
    saved_game_path,
    split_join_code,
)
from chkobba_p2p.address import new_secret
from chkobba_p2p.errors import ChkobbaError, IllegalMove
from chkobba_p2p.game import rules as R
from chkobba_p2p.text import safe_text

import trio  # isort: skip - after the library (above)

from ..options.rules import ruleset_from_args
from ..options.tor import (
    host_tor_transport,
    join_tor_transport,
)
from ..outputs.headless import ENGLISH, Narrator, report, say
from ..support.botproc import bot_line, keep_game, read_bot_line
from ..support.reach import (
    address_error,
    announce_interfaces,
    host_secret,
    port_mapping_options,
    saved_game_elsewhere,
)
from ..support.settings import name_refused
from ..support.term import say_error
from ..words.event_words import headless_error
from ..words.i18n import Translator, detect_lang, local_error_text, ruleset_text


class BotSeat(BotController):
    """A bot's seat that narrates the game (and may wait before each move)."""

    def __init__(self, level: str, quiet: bool, delay: float = 0.0,
                 move_ms: float | None = None) -> None:
        super().__init__(level, move_ms=move_ms)
        self.narrator = Narrator(quiet)
        self.delay = delay
        # A bot told to wait before each move (to watch, to test) does not answer at
        # once: its deal messages leave without its choice, as a person's do; the bound
        # of its level would hold them for nothing each round (PROTOCOL.md 6.2).
        if delay:
            self.answers_within = None

    async def choose_play(self, hand: R.Hand) -> R.Move:
        if self.delay:
            await trio.sleep(self.delay)
        return await super().choose_play(hand)

    def on_event(self, event: object) -> None:
        self.narrator.on_event(event)


def _identity(path: str | None, table: str) -> tuple[Identity, Path | None]:
    """The identity in the key file ``path`` and its saved game at ``table`` (one per
    identity and table, as the terminal client's); with no file, a new identity for this
    run only, which saves nothing (nobody could resume as it)."""
    if path is None:
        return Identity.generate(), None
    identity = load_identity(Path(path))
    return identity, saved_game_path(identity.fingerprint, table)


def _timeouts(args: argparse.Namespace) -> Timeouts:
    return Timeouts(reconnect=args.reconnect_timeout, turn=args.turn_timeout,
                    ready=getattr(args, "ready_wait", 60.0))  # a host's only


def _spawn_bots(where: str, count: int, level: str, move_ms: float | None = None,
                host: Identity | None = None, keep_game: bool = False,
                resuming: bool = False) -> list[subprocess.Popen]:
    """``keep_game``: the host can restart its game (an identity file, a fixed port), and
    its bots keep theirs for it (``bot --keep-game``, :func:`..support.botproc.keep_game`);
    ``resuming``: the host resumes its saved game, and they theirs (``--resuming``)."""
    procs = []  # this interpreter, which has this package installed
    for i in range(count):
        # ``bot -``: the address on its stdin, never on its command line (a join code
        # there carries the seat secret, and every user of this machine reads ps).
        proc = subprocess.Popen(
            [sys.executable, "-m", "chkobba_cli.main", "bot", "-", "--level", level,
             "--name", f"bot{i + 1}", "--quiet",
             *(["--move-ms", str(move_ms)] if move_ms else []),
             *(["--keep-game"] if keep_game and host is not None else []),
             *(["--resuming"] if keep_game and resuming else [])],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        procs.append(proc)
        assert proc.stdin is not None
        with contextlib.suppress(OSError):  # it died already: a seat that never comes
            # Then its key and the host's voucher (botproc.bot_line), on stdin too.
            cred = "" if host is None else bot_line(host, level, i + 1)
            proc.stdin.write(f"{where}\n{cred}\n".encode())
            proc.stdin.close()
    return procs


def host_args_error(args: argparse.Namespace, t: Translator | None = None) -> str | None:
    """Why ``chkobba host`` cannot listen as asked (a bad ``--port``, a port in use or
    privileged, a ``--bind`` address this machine lacks), as one sentence; None if it
    can.  Checked before anything starts (the terminal client's screen included).  Ours in
    ``t``'s language (else English), a port or address the library refuses too (by its
    error's code)."""
    if getattr(args, "allow", None) and args.bots:
        # Local bots make their keys as they start: none could be on the list.
        return (t or ENGLISH)("cx_allow_bots")
    try:
        parse_port(args.port, allow_zero=True)
        check_listen(args.bind, args.port)
    except (AddressError, ListenError) as exc:  # by its code, in t's language
        return local_error_text(t or ENGLISH, exc)
    return None


def cmd_host(args: argparse.Namespace) -> int:
    """``chkobba host --headless``: a bot plays the host's seat (the terminal client's
    ``host`` hands over here)."""
    rules = ruleset_from_args(args)
    # The refusals before the table opens are a person's to read: in --lang, else the
    # locale's (the peer's narration once it runs is English by design: ENGLISH).
    t = Translator(getattr(args, "lang", None) or detect_lang())
    if args.bots >= args.players:
        say_error(t("cx_error", why=t("cx_bots_seat")))
        return 2
    # A name the peers would refuse: said before anything is made (a key, a log).
    if (why := name_refused(args.name, t) or host_args_error(args, t)) is not None:
        say_error(f"chkobba host: {t('cx_error', why=why)}")
        return 2
    # Only a host given an identity file can come back after a crash (an ephemeral key
    # would not be the seat its peers signed for).
    identity, state = _identity(args.identity, f"host-{args.port}")
    log_path = Path(args.log) if args.log else default_log_path("host")
    # host --secret: a fresh one each run; every join code shown carries it.
    secret = new_secret() if getattr(args, "secret", False) else None
    host_secret(secret)
    # The onion key is kept with the saved game: a resumed host is at the same address.
    tor = host_tor_transport(args, state if args.port else None)
    if isinstance(tor, int):
        return tor
    controller = BotSeat(args.level, args.quiet, move_ms=args.move_ms)
    if tor is not None:  # what tor does while the table opens
        tor.tor.on_event = controller.on_event
    controller.narrator.bind = args.bind
    controller.narrator.transport = tor
    controller.narrator.spectators = args.spectators
    config = HostConfig(players=args.players, rules=rules, port=args.port, bind=args.bind,
                        name=args.name, identity=identity, log_path=log_path,
                        beacon=not args.no_beacon,
                        port_mapping=port_mapping_options(args),
                        announce_interfaces=announce_interfaces(args),
                        shuffle_proofs=not getattr(args, "no_shuffle_proofs", False),
                        spectators=args.spectators,
                        timeouts=_timeouts(args),
                        admits=tuple(args.allow) if args.allow else None,
                        secret=secret,
                        # A crashed host resumes only where its peers can find it again.
                        state_path=state if args.port else None)
    if tor is not None:
        from chkobba_p2p import over_tor

        config.transport = tor
        config.timeouts = over_tor(config.timeouts)
    print(f"log: {log_path}", flush=True)
    print(f"rules: {ruleset_text(ENGLISH, rules)}; {args.players} players", flush=True)
    if tor is not None:
        print("publishing the table as a Tor onion service (a tor started for the first "
              "time may take a minute to reach the Tor network)...", flush=True)
    procs: list[subprocess.Popen] = []
    signalled: list[int] = []
    # A saved game to resume: the bots resume theirs (they take no seat afresh).
    resuming = config.state_path is not None and config.state_path.exists()

    async def main() -> Outcome | None:
        try:
            async with trio.open_nursery() as nursery:
                # Tor failing before the match: said, and the table closes (exit 2).
                controller.narrator.stop = nursery.cancel_scope.cancel
                nursery.start_soon(_stop_on_signal, nursery.cancel_scope, signalled)
                port = await nursery.start(_host_task, config, controller)
                if args.bots:
                    # At a table with a seat secret the local bots join with the code.
                    where = f"127.0.0.1:{port}" if secret is None \
                        else f"127.0.0.1:{port}#{identity.fingerprint}+{secret}"
                    procs.extend(_spawn_bots(where, args.bots, args.level, args.move_ms,
                                             identity,
                                             keep_game=config.state_path is not None,
                                             resuming=resuming))
                outcome = await _RESULT.get()
                nursery.cancel_scope.cancel()  # the signal watcher
                return outcome
        finally:
            if tor is not None:
                await tor.aclose()
        return None  # stopped by a signal

    outcome = None
    stopped = False
    try:
        outcome = trio.run(main)
    except KeyboardInterrupt:
        stopped = True  # Ctrl-C, or SIGINT sent to this process alone
        raise
    finally:
        stopped = stopped or bool(signalled)
        for p in procs:
            if stopped:  # stopped from outside: the bots too, not left running
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=2 if stopped else 10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    if outcome is None and controller.narrator.tor_failed is not None and not signalled:
        return 2  # its sentence is said
    if outcome is None:
        name = signal.Signals(signalled[0]).name if signalled else "a signal"
        with contextlib.suppress(OSError):  # a terminal gone (SIGHUP): nobody to tell
            print(f"stopped by {name} (the bots it started with it); log: {log_path}",
                  flush=True)
        return 128 + (signalled[0] if signalled else 15)
    return report(outcome)


async def _stop_on_signal(scope: trio.CancelScope, signalled: list[int]) -> None:
    """SIGTERM or SIGHUP stops the headless host as an interrupt would: trio's cleanup
    runs (the listener closed, the Tor service withdrawn) and the bots it started stop
    with it (a hostile peer's finding: a bot left running, its parent gone)."""
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
        async for signum in signals:
            signalled.append(signum)
            if signum == signal.SIGHUP:  # the terminal is gone: what cleanup says too
                with contextlib.suppress(OSError):
                    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the process
            scope.cancel()
            return


class _Box:
    def __init__(self) -> None:
        self.value: Outcome | None = None
        self.event: trio.Event | None = None

    async def get(self) -> Outcome:
        if self.event is None:
            self.event = trio.Event()
        await self.event.wait()
        assert self.value is not None
        return self.value

    def put(self, value: Outcome) -> None:
        self.value = value
        if self.event is None:
            self.event = trio.Event()
        self.event.set()


_RESULT = _Box()


async def _host_task(config: HostConfig, controller: SeatController, *, task_status) -> None:
    _RESULT.put(await host_match(config, controller, task_status=task_status))


def cmd_bot(args: argparse.Namespace) -> int:
    """``chkobba bot``: its error lines are a person's to read, in ``--lang`` (else the
    locale's); its narration of the match stays English, for logs and scripts."""
    t = Translator(getattr(args, "lang", None) or detect_lang())
    cred = None
    if args.address == "-":  # the table's address (a join code: its secret) on stdin
        args.address = sys.stdin.readline().strip()
        # A host's own bot: its key and the host's voucher on the next line.
        cred = read_bot_line(sys.stdin.readline(), args.level)
    if (why := address_error(args.address, t) or name_refused(args.name, t)) is not None:
        _bot_error(t, why)
        return 2
    seat = BotSeat(args.level, args.quiet, args.delay, args.move_ms)
    return _run_client(args, args.address, seat, t, seat.narrator, cred)


def _bot_error(t: Translator, why: str) -> None:
    """``chkobba bot: error: why`` on stderr, in ``t``'s language (``why`` is in it
    already; what it quotes from outside is made safe here)."""
    say_error(f"chkobba bot: {t('cx_error', why=safe_text(why, 1000))}")


def _run_client(args: argparse.Namespace, address: str, controller: SeatController,
                t: Translator, narrator: Narrator | None = None,
                bot: tuple[Identity, tuple[str, bytes]] | None = None) -> int:
    try:
        table, _pinned = split_join_code(address)
    except ValueError as exc:  # by its code (an AddressError), in t's language
        _bot_error(t, local_error_text(t, exc))
        return 2
    tor = join_tor_transport(args, address)
    if isinstance(tor, int):
        return tor
    if tor is not None:  # what tor does, said as it happens
        tor.tor.on_event = controller.on_event
    identity, state = _identity(args.identity, table)
    lock: SeatLock | None = None
    if bot is not None:  # the host's bot: its key, and its game kept for a host that
        # can restart its own (--keep-game), else nowhere
        identity, state = bot[0], None
        if getattr(args, "keep_game", False):
            kept = keep_game(identity, address, getattr(args, "resuming", False))
            if kept is None:  # the host's restart, while the bot before lives on
                say(args.quiet, "this bot's seat is played by another process of it")
                return 0
            state, lock = kept
    # One process per seat, as ``join``: a second bot of this identity at this table
    # would write into the first one's log and fight it for the seat.
    elif state is not None:
        try:
            lock = SeatLock(state).acquire()
        except SeatBusy as exc:  # worded from its data (the pid), not its English
            _bot_error(t, t("cx_seat_busy",
                            who=t("cx_pid", pid=exc.pid) if exc.pid else t("cx_other_process")))
            return 2
    try:
        log_path = Path(args.log) if args.log else default_log_path(args.name)
        config = JoinConfig(address, name=args.name, identity=identity, state_path=state,
                            log_path=log_path, timeouts=_timeouts(args),
                            connect_retry=getattr(args, "connect_retry", 0.0),
                            bot=None if bot is None else bot[1],
                            # A host's bot keeping its game waits for its host's restart.
                            claims_host_gone=bot is None or state is None)
        if tor is not None:
            from chkobba_p2p import over_tor

            config.transport = tor
            config.timeouts = over_tor(config.timeouts)
        peer = Joiner(config, controller)  # resumes a crashed game of this identity
        if narrator is not None:
            narrator.log_path = Path(peer.log_path) if peer.log_path else None
            narrator.tell_log()  # a resumed game's log exists already
        if tor is not None:
            say(args.quiet, "connecting through Tor (this takes a few seconds)...")

        async def run() -> Outcome | None:
            with trio.CancelScope() as scope:
                if narrator is not None:  # tor failing before the match stops it
                    narrator.stop = scope.cancel
                try:
                    return await peer.run()
                finally:
                    if tor is not None:
                        await tor.aclose()
            return None

        try:
            ran = trio.run(run)
        except ChkobbaError as exc:  # a coded one by its code, else the library's English
            _bot_error(t, local_error_text(t, exc))
            return 2
        if ran is None or (narrator is not None and narrator.tor_failed is not None
                           and not narrator.started):
            return 2  # tor failed: its sentence is said
        outcome = ran
    finally:
        if lock is not None:
            lock.release()
    if (outcome.error_reason or outcome.error_code) and not outcome.aborted \
            and not outcome.done:
        socks = narrator.socks_failed if narrator is not None else None
        if socks is not None and outcome.error_code == OutcomeError.CONNECT_FAILED:
            # Tor's reply, and what to check (the table is not to blame for it).
            from ..words.tor_words import socks_failed_text

            _bot_error(t, t("join_error", addr=safe_text(address, 200),
                            why=socks_failed_text(t, socks)))
            return 2
        _bot_error(t, headless_error(outcome, t))
        if outcome.error_code == OutcomeError.SAVED_GAME_MISSING and state is not None \
                and (where := saved_game_elsewhere(identity.fingerprint, table)):
            from ..words.ending import saved_elsewhere_lines

            for line in saved_elsewhere_lines(where, address,
                                              t("saved_elsewhere", addr=where)):
                print(line, file=sys.stderr)
    return report(outcome, narrator is not None and narrator.told_log)


def _fill_names(args: argparse.Namespace) -> argparse.Namespace:
    if getattr(args, "name", "x") is None:
        args.name = getattr(args, "name_default", "player")
    return args


def _wrap(func):
    def run(args: argparse.Namespace) -> int:
        try:
            return func(_fill_names(args))
        except IllegalMove as exc:  # our controller's move, refused: by the rule it broke
            t = Translator(getattr(args, "lang", None) or detect_lang())
            say_error(f"chkobba {args.command}: "
                      f"{t('cx_error', why=local_error_text(t, exc))}")
            return 2
    return run


cmd_host = _wrap(cmd_host)
cmd_bot = _wrap(cmd_bot)
