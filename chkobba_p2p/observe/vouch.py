"""A host's bots: keys derived from the host's identity, and the host's **voucher** for
each (PROTOCOL.md 5.6; issue 42).

A bot level's well-known key (:func:`chkobba_p2p.observe.rating.bot_seed`) has a public
private half: anyone can sit, come back or knock under it, and a rating cannot tell the
bot from a person using its key.  So a host's local bots sit under keys only the host
can make (:func:`bot_identity`: HMAC-SHA256 of the host's own private seed, per level
and bot number; the same host gets the same bot keys every time, so its records and its
trust list know them), and each carries the host's voucher: an Ed25519 signature by the
host's key over ``VOUCHER_DOMAIN || host key || bot key || level``, which anyone holding
the three can check (:func:`check_voucher`), in the bot's hello, in the lobby and in
every log's header.  Pure functions: no clock, no I/O.
"""

from __future__ import annotations

from .._digest import hmac_sha256
from ..wire.codec import Identity, verify_signature

__all__ = ["VOUCHER_DOMAIN", "MAX_LEVEL", "bot_identity", "voucher", "check_voucher",
           "own_bot_number"]

#: The domain of a bot voucher's signature.
VOUCHER_DOMAIN = b"chkobba-p2p/v1/bot-voucher\x00"
#: The longest level name a voucher carries (code points).
MAX_LEVEL = 32
#: The domain of a bot key's derivation from the host's seed (never on the wire).
_DERIVE_DOMAIN = b"chkobba-p2p/v1/bot-identity\x00"


def bot_identity(host: Identity, level: str, index: int) -> Identity:
    """Bot number ``index`` (1, 2, 3) of ``level`` at ``host``'s tables: a key only the
    holder of ``host``'s private seed can make."""
    seed = hmac_sha256(host.seed, _DERIVE_DOMAIN + level.encode() + b"\x00"
                       + str(index).encode())
    return Identity.from_seed(seed)


def voucher(host: Identity, bot_key: bytes, level: str) -> bytes:
    """The host's 64-byte voucher: ``bot_key`` is its bot of ``level``."""
    return host.sign(VOUCHER_DOMAIN, host.public + bot_key + level.encode())


def check_voucher(host_key: bytes, bot_key: bytes, level: object, sig: object) -> bool:
    """Whether ``sig`` is ``host_key``'s voucher for ``bot_key`` as a bot of ``level``
    (anything malformed: False)."""
    if not isinstance(level, str) or not isinstance(sig, bytes) or len(bot_key) != 32:
        return False
    if not 0 < len(level) <= MAX_LEVEL:
        return False
    raw = level.encode("utf-8", "surrogatepass")
    return verify_signature(host_key, VOUCHER_DOMAIN, host_key + bot_key + raw, sig)


def own_bot_number(host: Identity, bot_key: bytes, level: str, players: int) -> int | None:
    """Which of ``host``'s bots of ``level`` ``bot_key`` is (:func:`bot_identity`'s
    ``index``, 1 to ``players - 1``: a table seats at most that many), or None (a key
    derived otherwise: another host's, a person's, a bot level's well-known one)."""
    for index in range(1, players):
        if bot_identity(host, level, index).public == bot_key:
            return index
    return None
