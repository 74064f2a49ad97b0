"""Tor for the commands: ``host --tor`` (the table also an onion service), and ``join``,
``bot`` and ``watch`` to ``.onion`` addresses (through Tor's SOCKS5 port).

Which tor: ``--tor-control HOST:PORT|PATH`` and ``--tor-socks HOST:PORT`` (or
``CHKOBBA_TOR_CONTROL`` / ``CHKOBBA_TOR_SOCKS``) name a running one (to join, a SOCKS
port alone is enough); otherwise the library tries 127.0.0.1:9051, then starts a
private tor from the system's binary (docs/tor.md).  Without tor: one line saying how to
install it, exit 2.  What tor does meanwhile is worded by :mod:`..words.tor_words`.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

from chkobba_p2p import split_join_code

from ..support.term import say_error
from .peer import add_tor_options  # declared with the other options (stdlib only)

TYPE_CHECKING = False  # typing's, without importing typing (see main.py)
if TYPE_CHECKING:
    from chkobba_p2p import Tor, TorTransport

# The library's Tor is imported where Tor is used (--tor, an onion address, the offer of
# --tor): a peer at a table reached over TCP never loads it (issue 44: a peer's memory).

__all__ = ["add_tor_options", "host_tor_transport", "join_tor_transport", "tor_offer",
           "onion_join_code", "onion_key_path", "tor_installed", "EXIT_NO_TOR"]

EXIT_NO_TOR = 2


def _tor(args: argparse.Namespace) -> Tor | None:
    from chkobba_p2p import TOR_BOOTSTRAP_TIMEOUT, Tor

    from ..words.i18n import Translator, detect_lang

    tor = Tor(getattr(args, "tor_control", None), getattr(args, "tor_socks", None),
              cookie=getattr(args, "tor_cookie", None),
              bootstrap_timeout=getattr(args, "tor_wait", None) or TOR_BOOTSTRAP_TIMEOUT)
    if not tor.available():
        # The library's TOR_INSTALL_HINT, in the catalog: in --lang, else the locale's.
        t = Translator(getattr(args, "lang", None) or detect_lang())
        say_error(t("cx_error", why=t("cx_tor_install")))
        return None
    return tor


def onion_key_path(state: Path) -> Path:
    """Where a host's onion key is kept: next to its saved game (same address on resume)."""
    return state.with_name(state.stem + ".onion-key")


def host_tor_transport(args: argparse.Namespace, state: Path | None
                       ) -> TorTransport | None | int:
    """The host's transport for ``--tor`` (TCP and an onion service); None without
    ``--tor``; :data:`EXIT_NO_TOR` (after the one line) when there is no tor.  The onion
    key is kept next to ``state`` (None: a fresh key for this run)."""
    if not getattr(args, "tor", False):
        return None
    tor = _tor(args)
    if tor is None:
        return EXIT_NO_TOR
    from chkobba_p2p import TcpTransport, TorTransport, load_onion_key

    key = load_onion_key(onion_key_path(state)) if state is not None else None
    return TorTransport(tor, key, tcp=TcpTransport())


def join_tor_transport(args: argparse.Namespace, address: str) -> TorTransport | None | int:
    """The transport to reach ``address`` when it is a ``.onion`` one (None: plain TCP);
    :data:`EXIT_NO_TOR` (after the one line) when there is no tor."""
    try:
        host = split_join_code(address)[0].rpartition(":")[0]
    except ValueError:
        return None
    if not host.lower().endswith(".onion"):  # what is_onion checks first, without Tor
        return None
    from chkobba_p2p import TcpTransport, TorTransport, is_onion

    if not is_onion(host):
        return None
    tor = _tor(args)
    if tor is None:
        return EXIT_NO_TOR
    return TorTransport(tor, tcp=TcpTransport())


def onion_join_code(transport: object, port: int, fingerprint: str) -> str | None:
    """``NAME.onion:PORT#KEY`` for a host listening through Tor (None otherwise)."""
    if transport is None:
        return None
    from chkobba_p2p import TorTransport

    if isinstance(transport, TorTransport):
        return f"{transport.onion}:{port}#{fingerprint}"
    return None


def tor_offer(onion_code: str | None) -> str:
    """What the line about an unreachable router adds: the onion code, or the offer."""
    if onion_code is not None:
        return f"; or, through Tor: {onion_code}"
    if tor_installed():
        return "; or, through Tor: run chkobba host --tor"
    return ""


@functools.cache
def tor_installed() -> bool:
    """Whether ``host --tor`` could work here (a tor to start, or one named)."""
    from chkobba_p2p import Tor

    return Tor(probe=False).available()
