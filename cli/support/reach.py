"""How friends reach a table: the addresses and join codes a host shows, what its router
said, the options that ask the router to open the port, and the tables announced on the
LAN that ``join`` without an address picks from.

Shared by the terminal client's ``host`` and ``join`` (:mod:`.commands.host`,
:mod:`.commands.join`) and the headless peers (:mod:`.commands.bot`, its lines by
:mod:`.outputs.headless`).
"""

from __future__ import annotations

import argparse
import functools
import os
import socket
import sys
from dataclasses import replace

import trio

from chkobba_p2p import (
    Address,
    SavedGame,
    parse_address,
    saved_game_path,
    split_join_code,
)
from chkobba_p2p.text import safe_text

from ..words.i18n import Translator, detect_lang, local_error_text

TYPE_CHECKING = False  # typing's, without importing typing (see main.py)
if TYPE_CHECKING:
    # Port mapping and LAN discovery are imported where a host maps, shows its addresses
    # or browses: a joiner (chkobba bot) loads neither (issue 44: a peer's memory).
    from chkobba_p2p import PortMapOptions, PortMapped, PortMapUnavailable, TableAd

__all__ = [
    "host_address",
    "join_code",
    "table_address",
    "host_secret",
    "address_lines",
    "reach_line",
    "announce_interfaces",
    "port_mapping_options",
    "discover",
    "table_lines",
    "address_error",
    "saved_game_elsewhere",
]


def _endpoints(address: str) -> set[tuple[str, int]]:
    """The (IP, port) pairs an address names (none if it does not resolve)."""
    try:
        host, port = parse_address(split_join_code(address)[0])
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (ValueError, OSError, UnicodeError):
        return set()
    return {(str(info[4][0]).partition("%")[0], port) for info in infos}


def saved_game_elsewhere(fingerprint: str, address: str) -> str | None:
    """The address under which this identity saved a game at the same host as
    ``address`` (``127.0.0.1:7955`` for ``localhost:7955``): a seat's save is kept under
    the address as it was typed, so the same host typed another way does not find it."""
    here = saved_game_path(fingerprint, address)
    targets = _endpoints(address)
    if not targets or not here.parent.is_dir():
        return None
    for path in sorted(here.parent.glob(f"{fingerprint}-*.state")):
        saved = SavedGame.load(path) if path != here else None
        if saved is None or saved.host.startswith("port:"):  # a host's own save
            continue
        if saved.host != address and _endpoints(saved.host) & targets:
            return saved.host
    return None


def host_address(bind: str | None) -> str:
    """The address friends type for a host listening on ``bind``."""
    if bind in ("0.0.0.0", "::", "", None):
        from chkobba_p2p import lan_address

        return lan_address()
    assert bind is not None
    return f"[{bind}]" if ":" in bind else bind


#: The seat secret of the table this process hosts (``host --secret``), if any.  Every
#: join code this process shows for its table is made by :func:`join_code` (the lobby
#: screen's, the headless host's lines, the router's and Tor's), so the secret is given
#: here once, when the table is set up, and can be missing from none of them.  A
#: process hosts one table at a time.
_hosted_secret: list[str] = []


def host_secret(secret: str | None) -> None:
    """This process hosts a table with seat ``secret`` (None: without one)."""
    _hosted_secret[:] = [secret] if secret is not None else []


def join_code(host: str, port: int, fp: str | None) -> str:
    """``HOST:PORT#FINGERPRINT`` (PROTOCOL.md section 15): what a friend types; with the
    hosted table's secret after the fingerprint (``+SECRET``, PROTOCOL.md 5.5) when it
    has one.  Without a fingerprint (what a spectator types): never the secret."""
    secret = _hosted_secret[0] if fp and _hosted_secret else None
    return str(Address(host.strip("[]"), port, fp or None, secret))


def table_address(code: str) -> str:
    """The table a join code reaches, ``HOST:PORT``: the code without its key's
    fingerprint and seat secret (what a screen says it connects to: an onion join code
    is 87 characters, more than a line of 80 columns beside the events)."""
    return code.split("#", 1)[0]


def address_lines(bind: str | None, port: int, fp: str) -> list[str]:
    """The lines a host shows once it listens: its LAN join code, and its global IPv6
    one when it has such an address (often reachable with no port mapping at all)."""
    from chkobba_p2p import global_ipv6

    lines = [f"friends on the LAN: {join_code(host_address(bind), port, fp)}"]
    if bind in ("", "::", None) and (v6 := global_ipv6()) is not None:
        lines.append(f"friends over IPv6: {join_code(v6, port, fp)}")
    return lines


def reach_line(event: PortMapped | PortMapUnavailable, fp: str = "") -> str:
    """The line a host shows when its router answered (or did not).  What the router
    said (its address, its error text) is a stranger's words: shown through the display
    filter."""
    from chkobba_p2p import PortMapUnavailable  # loaded: the event is the port mapper's

    if isinstance(event, PortMapUnavailable):
        return safe_text(event.hint, 600)
    if not event.public:
        return (f"the router opened port {event.external_port} ({event.method}), but its "
                f"own address {safe_text(event.external_ip, 64)} is not public: another "
                "router or the provider's NAT is in front, and friends on the internet "
                "cannot reach you this way (ask the provider for a public address, or play "
                "over IPv6)")
    if event.external_ip is None:
        return (f"friends on the internet: port {event.external_port} of your public "
                f"address, #{fp} (port opened by {event.method})")
    return (f"friends on the internet: {join_code(event.external_ip, event.external_port, fp)}"
            f" (port opened by {event.method})")


def announce_interfaces(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The interfaces ``--announce-interface`` names (None: announce on every one)."""
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
    from chkobba_p2p import PortMapOptions

    return PortMapOptions(igd_url=args.igd_url, natpmp_gateway=args.natpmp_gateway)


def table_lines(found: list[TableAd], t: Translator | None = None) -> list[str]:
    """The numbered list of tables found on the LAN, as shown (every word in an
    announcement is a stranger's: through the display filter); a table that announces a
    seat secret says it needs the host's whole code, in ``t``'s language."""
    t = t or Translator("en")
    return [f"[{i + 1}] {safe_text(str(replace(table, secret=False)), 300)}"
            + (f", {t('lan_needs_secret')}" if table.secret else "")
            for i, table in enumerate(found)]


def discover(seconds: float, interfaces: list[str] | None,
             t: Translator | None = None) -> list[str]:
    """Browse the LAN (DNS-SD) for tables; the join codes of the one chosen, one for
    each address announced with its key, to try in turn (none: no table found).  Said
    in ``t``'s language (else the locale's); an OS failure to browse keeps the OS's words
    inside the sentence."""
    from chkobba_p2p import AnsweredEndpoints, browse_tables

    t = t or Translator(detect_lang())
    shown = "" if not interfaces else t("cx_lan_on", names=", ".join(interfaces))
    secs = f"{seconds:g}".replace(".", ",") if t.lang == "fr" else f"{seconds:g}"
    print(t("cx_lan_looking", s=secs, on=shown), flush=True)
    try:
        # Tables whose key answered a join before keep a place in the list, whatever
        # a neighbour floods the LAN with (PROTOCOL.md section 15).
        found = trio.run(functools.partial(browse_tables, seconds, interfaces=interfaces,
                                           answered=AnsweredEndpoints()))
    except OSError as exc:
        print(t("cx_lan_cannot", why=safe_text(str(exc), 300)), file=sys.stderr)
        return []
    if not found:
        return []
    for line in table_lines(found, t):
        print(line, flush=True)
    choice = 1
    if len(found) > 1:
        try:
            text = input(t("cx_lan_choose")).strip()
        except KeyboardInterrupt:
            print()  # "interrupted" on its own line, not after the question
            raise
        choice = int(text) if text.isdigit() and 1 <= int(text) <= len(found) else 1
    codes = list(found[choice - 1].codes)
    print(t("cx_lan_joining", code=safe_text(codes[0], 120)), flush=True)
    for other in codes[1:]:
        print(t("cx_lan_then", code=safe_text(other, 120)), flush=True)
    return codes


def address_error(text: str, t: Translator | None = None) -> str | None:
    """Why ``text`` is neither a table address (``HOST[:PORT]``, IPv6 in brackets or
    bare) nor a join code (``ADDRESS#FINGERPRINT``), as one sentence in ``t``'s language
    (English without one); None if it is."""
    try:
        address, _ = split_join_code(text)
        Address.parse(address)
    except ValueError as exc:  # AddressError (worded by its code), or another ValueError
        return local_error_text(t or Translator("en"), exc)
    return None
