"""``chkobba host``, ``chkobba join`` and ``chkobba bot``: peers over TCP.

A client of the library like any other: everything here goes through
:mod:`chkobba_p2p.peer`.  The interactive seat is a plain line-based text controller;
the full-screen terminal client replaces it.
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
from pathlib import Path

import trio

from chkobba_p2p import rules as R
from chkobba_p2p import session as S
from chkobba_p2p.address import Address, AddressError, parse_port
from chkobba_p2p.errors import ChkobbaError, IllegalMove
from chkobba_p2p.levels import LEVELS
from chkobba_p2p.net import ClientPeer, ListenError, Listening, check_listen
from chkobba_p2p.peer import (
    DEFAULT_PORT,
    BotController,
    HostConfig,
    JoinConfig,
    Lobby,
    Outcome,
    PortMapOptions,
    PortMapped,
    PortMapUnavailable,
    Resumed,
    SeatController,
    Timeouts,
    Waiting,
    browse_tables,
    host_match,
    split_join_code,
)
from chkobba_p2p.portmap import global_ipv6, lan_address
from chkobba_p2p.spectate import MAX_SPECTATORS
from chkobba_p2p.text import safe_text
from chkobba_p2p.transcript import (
    data_dir,
    default_log_path,
    load_identity,
    saved_game_path,
)
from chkobba_p2p.wire import Identity, fingerprint

from .rules_options import add_rules_arguments, ruleset_from_args


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, flush=True)


class Narrator:
    """Prints what happens, one line per event (shared by text and bot seats)."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.seat: int | None = None
        self.bind: str | None = None  # a host's: its LAN address is shown
        self.fingerprint = ""  # a host's key fingerprint, for its join codes
        self._told_proofs = False

    def on_event(self, event: object) -> None:
        q = self.quiet
        if isinstance(event, Listening):
            print(f"listening on port {event.port}; host key fingerprint "
                  f"{fingerprint(event.key)}", flush=True)
            self.fingerprint = fingerprint(event.key)
            if self.bind is not None:
                for line in address_lines(self.bind, event.port, self.fingerprint):
                    print(line, flush=True)
        elif isinstance(event, PortMapped | PortMapUnavailable):
            print(reach_line(event, self.fingerprint), flush=True)
        elif isinstance(event, Lobby):
            taken = sum(1 for s in event.seats if s)
            _say(q, f"lobby: {taken}/{len(event.seats)} seated: "
                 + ", ".join(f"{s[0]} [{s[1]}]" if s else "(free)" for s in event.seats))
            if event.shuffle_proofs is False and not self._told_proofs:
                self._told_proofs = True
                print("warning: shuffle proofs are OFF at this table (the host turned them "
                      "off): a stacked deck is caught only at the end-of-hand check",
                      flush=True)
        elif isinstance(event, Waiting):
            print(f"waiting for seat {event.seat} to reconnect: {event.seconds}s left",
                  flush=True)
        elif isinstance(event, Resumed):
            _say(q, f"seat {event.seat} is back" + (f" ({event.entries} entries replayed)"
                                                     if event.entries else ""))
        elif isinstance(event, S.HandStarted):
            _say(q, f"hand {event.number}, dealer seat {event.dealer}")
        elif isinstance(event, R.PlayEvent):
            took = " ".join(c.text for c in sorted(event.capture))
            _say(q, f"  seat {event.seat} plays {event.card}"
                 + (f", takes {took}" if took else "") + (" CHKOBBA" if event.chkobba else ""))
        elif isinstance(event, R.CutEvent):
            _say(q, f"  seat {event.seat} " + ("keeps the drawn card" if event.keep
                                               else f"places {event.card} on the table"))
        elif isinstance(event, S.HandScored):
            _say(q, f"hand {event.number} points {list(event.score.points)}, "
                 f"totals {list(event.totals)}")
        elif isinstance(event, S.RedealEvent):
            _say(q, "redeal: three kings on the opening table")


class BotSeat(BotController):
    def __init__(self, level: str, quiet: bool, delay: float = 0.0,
                 move_ms: float | None = None) -> None:
        super().__init__(level, move_ms=move_ms)
        self.narrator = Narrator(quiet)
        self.delay = delay

    async def choose_play(self, hand: R.Hand) -> R.Move:
        if self.delay:
            await trio.sleep(self.delay)
        return await super().choose_play(hand)

    def on_event(self, event: object) -> None:
        self.narrator.on_event(event)


class TextSeat(SeatController):
    """A human at a plain terminal: the hand and table are printed, choices typed."""

    def __init__(self) -> None:
        self.narrator = Narrator(False)

    def on_event(self, event: object) -> None:
        self.narrator.on_event(event)

    async def _ask(self, prompt: str) -> str:
        return await trio.to_thread.run_sync(input, prompt)

    async def choose_play(self, hand: R.Hand) -> R.Move:
        mine = [c for c in hand.hand_of(hand.turn) if c is not None]
        print(f"table: {' '.join(c.text for c in hand.table) or '(empty)'}")
        print("your hand: " + "  ".join(f"[{i + 1}] {c}" for i, c in enumerate(mine)))
        while True:
            text = (await self._ask("card to play (number): ")).strip()
            if not text.isdigit() or not 1 <= int(text) <= len(mine):
                print(f"type a number from 1 to {len(mine)}")
                continue
            card = mine[int(text) - 1]
            options = [m for m in hand.legal_moves() if m.card == card]
            if not options:
                print(f"{card} may not be played now (forced capture)")
                continue
            if len(options) == 1:
                return options[0]
            for i, m in enumerate(options):
                print(f"  [{i + 1}] take {' + '.join(c.text for c in sorted(m.capture))}")
            pick = (await self._ask("capture (number): ")).strip()
            if pick.isdigit() and 1 <= int(pick) <= len(options):
                return options[int(pick) - 1]

    async def choose_cut(self, hand: R.Hand) -> bool:
        drawn = hand.hand_of(hand.cutter)[0]
        while True:
            text = (await self._ask(f"you drew {drawn}: [k]eep it or [p]lace it? ")).strip()
            if text[:1].lower() in ("k", "p"):
                return text[:1].lower() == "k"


def host_address(bind: str | None) -> str:
    """The address friends type for a host listening on ``bind``."""
    if bind in ("0.0.0.0", "::", "", None):
        return lan_address()
    assert bind is not None
    return f"[{bind}]" if ":" in bind else bind


def join_code(host: str, port: int, fp: str) -> str:
    """``HOST:PORT#FINGERPRINT`` (PROTOCOL.md section 15): what a friend types."""
    return str(Address(host.strip("[]"), port, fp or None))


def address_lines(bind: str | None, port: int, fp: str) -> list[str]:
    """The lines a host shows once it listens: its LAN join code, and its global IPv6
    one when it has such an address (often reachable with no port mapping at all)."""
    lines = [f"friends on the LAN: {join_code(host_address(bind), port, fp)}"]
    if bind in ("", "::", None) and (v6 := global_ipv6()) is not None:
        lines.append(f"friends over IPv6: {join_code(v6, port, fp)}")
    return lines


def reach_line(event: PortMapped | PortMapUnavailable, fp: str = "") -> str:
    """The line a host shows when its router answered (or did not)."""
    if isinstance(event, PortMapUnavailable):
        return event.hint
    if not event.public:
        return (f"the router opened port {event.external_port} ({event.method}), but its "
                f"own address {event.external_ip} is not public: another router or the "
                "provider's NAT is in front, and friends on the internet cannot reach you "
                "this way (ask the provider for a public address, or play over IPv6)")
    if event.external_ip is None:
        return (f"friends on the internet: port {event.external_port} of your public "
                f"address, #{fp} (port opened by {event.method})")
    return (f"friends on the internet: {join_code(event.external_ip, event.external_port, fp)}"
            f" (port opened by {event.method})")


def announce_interfaces(args: argparse.Namespace) -> tuple[str, ...] | None:
    return tuple(args.announce_interface) if args.announce_interface else None


def port_mapping_options(args: argparse.Namespace) -> PortMapOptions | None:
    """What ``--no-upnp``, ``--igd-url`` and ``--natpmp-gateway`` ask for.  None (no port
    mapping) with ``--no-upnp``, and, unless a router is named, when the host listens on
    loopback only or ``CHKOBBA_NO_UPNP`` is set (to anything but 0)."""
    if args.no_upnp:
        return None
    named = args.igd_url is not None or args.natpmp_gateway is not None
    if not named and (os.environ.get("CHKOBBA_NO_UPNP", "0") not in ("", "0")
                      or args.bind.startswith("127.") or args.bind in ("::1", "localhost")):
        return None
    return PortMapOptions(igd_url=args.igd_url, natpmp_gateway=args.natpmp_gateway)


def _identity(path: str | None, default_name: str | None, table: str
              ) -> tuple[Identity, Path | None]:
    """The identity and its saved-game path for ``table`` (None for an ephemeral
    identity)."""
    if path is None and default_name is None:
        return Identity.generate(), None
    key_path = Path(path) if path else data_dir() / default_name  # type: ignore[operator]
    identity = load_identity(key_path)
    return identity, saved_game_path(identity.fingerprint, table)


def _timeouts(args: argparse.Namespace) -> Timeouts:
    return Timeouts(reconnect=args.reconnect_timeout, turn=args.turn_timeout)


def _report(outcome: Outcome) -> int:
    print(f"result: {outcome.describe()}", flush=True)
    if outcome.log_path and Path(outcome.log_path).exists():  # none without a table
        print(f"log: {outcome.log_path}", flush=True)
    try:
        import resource  # POSIX only

        use = resource.getrusage(resource.RUSAGE_SELF)
        rss = (f", peak RSS {use.ru_maxrss / 1024:.1f} MB"  # ru_maxrss is in KiB on Linux
               f", CPU {use.ru_utime + use.ru_stime:.2f} s")
    except ImportError:
        rss = ""
    print(f"stats: sent {outcome.bytes_sent} B, received {outcome.bytes_received} B{rss}",
          flush=True)
    # A resignation is a result (the other side wins), not a stopped game.
    return 0 if outcome.completed or outcome.resigned is not None else (
        3 if outcome.aborted else 2)


def _spawn_bots(port: int, count: int, level: str,
                move_ms: float | None = None) -> list[subprocess.Popen]:
    procs = []  # this interpreter, which has this package installed
    for i in range(count):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "chkobba_cli.main", "bot", f"127.0.0.1:{port}", "--level", level,
             "--name", f"bot{i + 1}", "--quiet",
             *(["--move-ms", str(move_ms)] if move_ms else [])],
            stdout=subprocess.DEVNULL))
    return procs


def host_args_error(args: argparse.Namespace) -> str | None:
    """Why ``chkobba host`` cannot listen as asked (a bad ``--port``, a port in use or
    privileged, a ``--bind`` address this machine lacks), as one sentence; None if it
    can.  Checked before anything starts (the terminal client's screen included)."""
    try:
        parse_port(args.port, allow_zero=True)
        check_listen(args.bind, args.port)
    except (AddressError, ListenError) as exc:
        return str(exc)
    return None


def cmd_host(args: argparse.Namespace) -> int:
    rules = ruleset_from_args(args)
    if args.bots >= args.players:
        print("--bots must leave a seat for the host", file=sys.stderr)
        return 2
    if (why := host_args_error(args)) is not None:
        print(f"chkobba host: error: {why}", file=sys.stderr)
        return 2
    identity, state = _identity(args.identity, None if args.headless else "host-identity.key",
                                f"host-{args.port}")
    log_path = Path(args.log) if args.log else default_log_path("host")
    controller: BotSeat | TextSeat = (BotSeat(args.level, args.quiet, move_ms=args.move_ms)
                                      if args.headless else TextSeat())
    controller.narrator.bind = args.bind
    config = HostConfig(players=args.players, rules=rules, port=args.port, bind=args.bind,
                        name=args.name, identity=identity, log_path=log_path,
                        beacon=not args.no_beacon,
                        port_mapping=port_mapping_options(args),
                        announce_interfaces=announce_interfaces(args),
                        shuffle_proofs=not getattr(args, "no_shuffle_proofs", False),
                        spectators=args.spectators,
                        timeouts=_timeouts(args),
                        # A crashed host resumes only where its peers can find it again.
                        state_path=state if args.port else None)
    print(f"log: {log_path}", flush=True)
    print(f"rules: {rules.describe()}; {args.players} players", flush=True)
    procs: list[subprocess.Popen] = []

    async def main() -> Outcome:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(_host_task, config, controller)
            if args.bots:
                procs.extend(_spawn_bots(port, args.bots, args.level, args.move_ms))
            return await _RESULT.get()

    try:
        outcome = trio.run(main)
    finally:
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
    return _report(outcome)


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


def discover(seconds: float, interfaces: list[str] | None) -> str | None:
    """Browse the LAN (DNS-SD) for tables; the join code of the one chosen, or None."""
    shown = "" if not interfaces else f" (on {', '.join(interfaces)})"
    print(f"looking for tables on the LAN for {seconds:g} s{shown}...", flush=True)
    try:
        found = trio.run(functools.partial(browse_tables, seconds, interfaces=interfaces))
    except OSError as exc:
        print(f"cannot look for tables on the LAN: {exc}", file=sys.stderr)
        return None
    if not found:
        return None
    for i, table in enumerate(found):
        print(f"[{i + 1}] {table}", flush=True)
    choice = 1
    if len(found) > 1:
        text = input("table to join (number): ").strip()
        choice = int(text) if text.isdigit() and 1 <= int(text) <= len(found) else 1
    code = found[choice - 1].code
    print(f"joining {code}", flush=True)
    return code


def address_error(text: str) -> str | None:
    """Why ``text`` is neither a table address (``HOST[:PORT]``, IPv6 in brackets or
    bare) nor a join code (``ADDRESS#FINGERPRINT``), as one sentence; None if it is."""
    try:
        address, _ = split_join_code(text)
        Address.parse(address)
    except ValueError as exc:  # AddressError, or a fingerprint that is not one
        return str(exc)
    return None


def cmd_join(args: argparse.Namespace) -> int:
    address = args.address
    if address is not None and (why := address_error(address)) is not None:
        print(f"chkobba join: error: {why}", file=sys.stderr)
        return 2
    if address is None:
        address = discover(args.listen, args.interface)
        if address is None:
            print("no table found on the LAN; give the host's address: chkobba join "
                  "HOST[:PORT]", file=sys.stderr)
            return 2
    return _run_client(args, address, TextSeat(), "identity.key")


def cmd_bot(args: argparse.Namespace) -> int:
    if (why := address_error(args.address)) is not None:
        print(f"chkobba bot: error: {why}", file=sys.stderr)
        return 2
    return _run_client(args, args.address,
                       BotSeat(args.level, args.quiet, args.delay, args.move_ms), None)


def _run_client(args: argparse.Namespace, address: str, controller: SeatController,
                default_identity: str | None) -> int:
    try:
        table, _pinned = split_join_code(address)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    identity, state = _identity(args.identity, default_identity, table)
    log_path = Path(args.log) if args.log else default_log_path(args.name)
    config = JoinConfig(address, name=args.name, identity=identity, state_path=state,
                        log_path=log_path, timeouts=_timeouts(args),
                        connect_retry=getattr(args, "connect_retry", 0.0))
    peer = ClientPeer(config, controller)  # resumes a crashed game of this identity, if any
    print(f"log: {peer.log.path}", flush=True)
    try:
        outcome = trio.run(peer.run)
    except ChkobbaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if outcome.error and not outcome.aborted and not outcome.done:
        print(f"error: {safe_text(outcome.error, 1000)}", file=sys.stderr)
    return _report(outcome)


def add_peer_options(p: argparse.ArgumentParser) -> None:
    """Options every peer command shares (the terminal client's join uses them too)."""
    p.add_argument("--name", default=None,
                   help="your name at the table (default: the one remembered, asked on the "
                        "first run)")
    p.add_argument("--identity", metavar="FILE",
                   help="identity key file (created if missing, mode 0600)")
    p.add_argument("--log", metavar="FILE", help="transcript log path (default: data dir)")
    # Defaults for people: time to step away for a call (5 minutes over the match,
    # across every drop) and a move limit nobody thinking hits by accident (15 minutes,
    # with a warning on screen in the last 30 s).
    p.add_argument("--reconnect-timeout", type=float, default=300.0, metavar="S",
                   help="each seat's allowance of time away (dropped or stepped away) for "
                   "the whole match, spent across drops (default 300)")
    p.add_argument("--turn-timeout", type=float, default=900.0, metavar="S",
                   help="seconds of connected time a seat may take for one move "
                   "(default 900; the screen warns in the last 30 s); no seat delays a "
                   "move longer than this plus its allowance")


def add_discovery_options(p: argparse.ArgumentParser) -> None:
    """How ``join`` without an address looks for tables on the LAN."""
    p.add_argument("--listen", type=float, default=3.0, metavar="S",
                   help="seconds to look for tables on the LAN (default 3)")
    p.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help="look only on the network interface with this address "
                        "(repeatable; default: every interface)")


def _common(p: argparse.ArgumentParser) -> None:
    add_peer_options(p)
    p.add_argument("--quiet", action="store_true",
                   help="headless: print only the log and the result")


def _spectator_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= n <= MAX_SPECTATORS:
        raise argparse.ArgumentTypeError(f"from 0 to {MAX_SPECTATORS}, not {n}")
    return n


def add_host_options(p: argparse.ArgumentParser) -> None:
    """Every option of ``chkobba host`` (the terminal client's and the headless host's
    alike, so that they cannot drift apart): the table, the rules, local bots, the
    peer's identity, log and timeouts."""
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"TCP port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--bind", default="",
                   help="address to listen on (default: every address, IPv4 and IPv6)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="2 players, or 4 in two teams (default 2)")
    add_rules_arguments(p)
    p.add_argument("--bots", type=int, default=0, help="local bot peers to start")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS), help="the bots' level")
    p.add_argument("--move-ms", type=float, default=None, metavar="MS",
                   help="the bots' thinking time per move (expert: default 200)")
    p.add_argument("--headless", action="store_true",
                   help="no screen: a bot plays the host's seat (see 'chkobba bot')")
    p.add_argument("--no-announce", "--no-beacon", dest="no_beacon", action="store_true",
                   help="do not announce the table on the LAN (DNS-SD)")
    p.add_argument("--announce-interface", action="append", default=None, metavar="ADDRESS",
                   help="announce only on the network interface with this address "
                        "(repeatable; default: every interface)")
    p.add_argument("--no-upnp", action="store_true",
                   help="do not ask the router to open the port (UPnP, NAT-PMP); also "
                        "when CHKOBBA_NO_UPNP=1")
    p.add_argument("--igd-url", metavar="URL", default=None,
                   help="the router's UPnP root description (http://192.168.1.1:5000/"
                        "rootDesc.xml) when discovery does not find it")
    p.add_argument("--natpmp-gateway", metavar="HOST[:PORT]", default=None,
                   help="the NAT-PMP gateway (default: this machine's default gateway)")
    p.add_argument("--spectators", type=_spectator_count, default=0, metavar="N",
                   help=f"let up to N people watch with 'chkobba watch' (0..{MAX_SPECTATORS}; "
                        "default 0: no spectators). Shown in the lobby and the LAN "
                        "announcement; the players see who is watching")
    p.add_argument("--no-shuffle-proofs", action="store_true",
                   help="shuffles without zero-knowledge proofs (faster; a stacked deck "
                        "is then caught only at the end-of-hand audit)")
    _common(p)


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``bot`` (see :mod:`.main`; ``host --headless`` comes
    here through the terminal client's ``host``, which shares :func:`add_host_options`)."""
    assert command == "bot", command
    p.description = ("A peer without a screen, played by a bot: it joins the table at "
                     "HOST[:PORT], plays the match and prints the result.")
    p.add_argument("address", help="HOST[:PORT]")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS),
                   help="how the bot plays")
    p.add_argument("--move-ms", type=float, default=None, metavar="MS",
                   help="thinking time per move (expert: default 200)")
    p.add_argument("--delay", type=float, default=0.0, metavar="S",
                   help="seconds to wait before each move (to watch, or to test)")
    p.add_argument("--connect-retry", type=float, default=0.0, metavar="S",
                   help="keep retrying a refused first connection this long (a bot "
                        "started together with its host)")
    _common(p)
    p.set_defaults(func=cmd_bot, name_default="bot")


def _fill_names(args: argparse.Namespace) -> argparse.Namespace:
    if getattr(args, "name", "x") is None:
        args.name = getattr(args, "name_default", "player")
    return args


def _wrap(func):
    def run(args: argparse.Namespace) -> int:
        try:
            return func(_fill_names(args))
        except IllegalMove as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return run


cmd_host = _wrap(cmd_host)
cmd_join = _wrap(cmd_join)
cmd_bot = _wrap(cmd_bot)
