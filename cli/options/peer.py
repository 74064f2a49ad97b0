"""The options the peer commands share: ``host`` (with or without a screen), ``join``
and ``bot`` declare them from here, so that they cannot drift apart.

Declaring them imports no library module (a sub-command's ``--help`` costs no more than
starting Python): the names and bounds below are copies of the library's, and
``tests/client/test_cli_main.py`` checks that each equals its original.
"""

from __future__ import annotations

import argparse
import math

from .rules import add_rules_arguments

__all__ = ["add_peer_options", "add_discovery_options", "add_host_options", "common_options",
           "add_tor_options",
           "seconds", "LEVELS", "ARENA_LEVELS", "FIGURES", "LANGS", "DEFAULT_PORT", "MAX_LIMIT",
           "MAX_SPECTATORS", "REVIEW_SAMPLES", "REVIEW_LIMIT", "TABLE_SHAPES"]

#: The bot levels, in :data:`chkobba_p2p.bots.levels.LEVELS`' order.
LEVELS: tuple[str, ...] = ("random", "greedy", "heuristic", "expert")
#: Every level ``chkobba arena`` seats (:data:`chkobba_p2p.bots.arena.ARENA_LEVELS`): the
#: players' levels, then the measurement-only ones no player meets.
ARENA_LEVELS: tuple[str, ...] = (*LEVELS, "baseline", "learned", "handseer", "omniscient")
#: The values of :class:`chkobba_p2p.game.cards.FigureConvention`.
FIGURES: tuple[str, ...] = ("tunisian", "french")
#: The screen's languages (:data:`chkobba_cli.words.i18n.LANGS`).
LANGS: tuple[str, ...] = ("en", "fr")
#: :data:`chkobba_p2p.DEFAULT_PORT`, ``MAX_LIMIT`` and ``MAX_SPECTATORS``.
DEFAULT_PORT = 7777
MAX_LIMIT = 86400.0
MAX_SPECTATORS = 64
#: The table shapes a live table seats (:data:`chkobba_p2p.game.seating.ONLINE`).
TABLE_SHAPES: tuple[int, ...] = (2, 3, 4)
#: :data:`chkobba_p2p.observe.review.DEFAULT_SAMPLES`: the coach's sampled worlds per decision.
REVIEW_SAMPLES = 200
#: :data:`chkobba_p2p.observe.review.DEFAULT_LIMIT`: the most decisions the coach grades unasked.
REVIEW_LIMIT = 2000


def seconds(low: float, *, zero: bool = False, high: float = MAX_LIMIT):
    """An argparse type: a finite number of seconds, above ``low`` (or equal to it when
    ``zero``), at most ``high`` (a day by default: the protocol's bound on a table's
    limits, PROTOCOL.md 12.3), so that neither ``inf``/``nan`` nor a negative number
    reaches a clock or the wire.  Bad values give argparse's one-line error, exit 2."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        low_ok = value >= low if zero else value > low
        if not (math.isfinite(value) and low_ok and value <= high):
            bound = f"from {low:g} to" if zero else f"above {low:g} and at most"
            raise argparse.ArgumentTypeError(
                f"{bound} {high:g} seconds, not {text}") from None
        return value
    parse.__name__ = "seconds"
    return parse


def add_peer_options(p: argparse.ArgumentParser) -> None:
    """Options every peer command shares (the terminal client's join uses them too)."""
    p.add_argument("--name", default=None,
                   help="your name at the table (default: the one remembered, asked on the "
                        "first run)")
    p.add_argument("--identity", metavar="FILE",
                   help="identity key file (created if missing, mode 0600; default: your "
                        "one key, shared by play, host and join; host --headless: a new "
                        "key each run)")
    p.add_argument("--log", metavar="FILE", help="transcript log path (default: data dir)")
    # Defaults for people: time to step away for a call (5 minutes over the match,
    # across every drop) and a move limit nobody thinking hits by accident (15 minutes,
    # with a warning on screen in the last 30 s).
    p.add_argument("--reconnect-timeout", type=seconds(0, zero=True), default=300.0,
                   metavar="S",
                   help="each seat's allowance of time away (dropped or stepped away) for "
                   "the whole match, spent across drops (default 300; 0 to 86400: 0 "
                   "waits for nobody, a drop stops the game)")
    p.add_argument("--turn-timeout", type=seconds(0), default=900.0, metavar="S",
                   help="seconds of connected time a seat may take for one move "
                   "(default 900, at most 86400; the screen warns in the last 30 s); no "
                   "seat delays a "
                   "move longer than this plus its allowance")


def add_discovery_options(p: argparse.ArgumentParser) -> None:
    """How ``join`` without an address looks for tables on the LAN."""
    p.add_argument("--listen", type=seconds(0), default=3.0, metavar="S",
                   help="seconds to look for tables on the LAN (default 3)")
    p.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help="look only on the network interface with this address "
                        "(repeatable; default: every interface)")


def common_options(p: argparse.ArgumentParser) -> None:
    """A headless peer's options: the shared ones, and --quiet."""
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


def _fingerprint(text: str) -> str:
    from chkobba_p2p import AddressError, parse_fingerprint

    try:
        return parse_fingerprint(text)
    except AddressError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _ready_wait(text: str) -> float | None:
    """``--ready-wait``: seconds, 0 for no limit (None)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"0 or more seconds, not {text}")
    return value or None


def add_tor_options(p: argparse.ArgumentParser, *, host: bool = False) -> None:
    """``--tor`` (a host's), ``--tor-control``, ``--tor-socks``, ``--tor-wait`` and
    ``--tor-cookie``
    (:mod:`.tor` carries them out)."""
    if host:
        p.add_argument("--tor", action="store_true",
                       help="also make the table a Tor onion service: friends behind any "
                            "router join at NAME.onion:PORT#KEY (needs tor installed)")
    p.add_argument("--tor-control", metavar="HOST:PORT|PATH", default=None,
                   help="the control port of a running tor (default: $CHKOBBA_TOR_CONTROL, "
                        "else 127.0.0.1:9051, else a private tor is started)")
    p.add_argument("--tor-socks", metavar="HOST:PORT", default=None,
                   help="that tor's SOCKS5 port (default: $CHKOBBA_TOR_SOCKS, else asked "
                        "of tor); alone, enough to join (Tor Browser: 127.0.0.1:9150)")
    p.add_argument("--tor-wait", metavar="SECONDS", type=float, default=180.0,
                   help="how long tor may take to reach the Tor network before the "
                        "command gives up, saying what to check (default 180)")
    p.add_argument("--tor-cookie", metavar="PATH", default=None,
                   help="that tor's cookie file or data directory (default: "
                        "$CHKOBBA_TOR_COOKIE): needed only for a tor that offers plain "
                        "COOKIE authentication, never sent to a port that was only probed")


def add_host_options(p: argparse.ArgumentParser) -> None:
    """Every option of ``chkobba host`` (the terminal client's and the headless host's
    alike, so that they cannot drift apart): the table, the rules, local bots, the
    peer's identity, log and timeouts."""
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"TCP port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--bind", default="",
                   help="address to listen on (default: every address, IPv4 and IPv6)")
    p.add_argument("--players", type=int, choices=TABLE_SHAPES, default=2,
                   help="2 players, 3 each for themselves, or 4 in two teams (default 2)")
    add_rules_arguments(p)
    p.add_argument("--bots", type=int, default=0, metavar="N",
                   help="how many seats local bots take, a number (default 0); their level "
                        "is --level ('chkobba play --bots' names a level)")
    p.add_argument("--level", default="greedy", choices=sorted(LEVELS),
                   help="the level of the --bots seats (default greedy)")
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
    p.add_argument("--allow", action="append", type=_fingerprint, default=None,
                   metavar="FINGERPRINT",
                   help="only the player with this key fingerprint may take a seat "
                        "(repeatable; default: anyone). For a host with nobody to free a "
                        "seat (--headless), or friends whose keys you know")
    p.add_argument("--secret", action="store_true",
                   help="give the table a random secret, part of the join code shown "
                        "(HOST:PORT#KEY+SECRET): only those with the whole code may take a "
                        "seat; a stranger who knows the address is refused (spectators are "
                        "not asked for it). A new secret each time the host starts")
    p.add_argument("--ready-wait", type=_ready_wait, default=60.0, metavar="SECONDS",
                   help="a player who has not confirmed the full table after this long "
                        "loses the seat and may join again (default 60; 0: no limit)")
    p.add_argument("--no-shuffle-proofs", action="store_true",
                   help="shuffles without zero-knowledge proofs (faster; a stacked deck "
                        "is then caught only at the end-of-hand audit)")
    common_options(p)
    add_tor_options(p, host=True)
