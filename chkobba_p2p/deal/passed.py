"""The deal's expensive checks that this process has already passed, so that a second
peer in the same process does not pay for them again.

Several peers share a process wherever a table is simulated rather than played: the
test kit's in-memory tables, :class:`~chkobba_p2p.deal.local.LocalTable`, bot arenas,
and a peer rebuilt in the process that crashed under it.  Each of them checks every other
seat's shuffle proofs, decryption-share proofs, (at the reveal) shuffle steps and the
points of every message it receives, and with four seats in one process the same check,
of the same bytes, ran three times.

A check is a pure function of its inputs (no randomness, no clock), so its outcome is
known once it has run: what is kept here is the SHA-512 digest of each check's whole
statement (every input, in a length-prefixed encoding, under the check's own tag) that
*passed* in this process.  A check whose digest is here passes without its arithmetic; any
other byte changed is another digest, and the check runs in full.  A refusal is never
kept (it is rare, and runs again).  Nothing from the network enters this set but through
a check that ran here, so no peer can put a statement in it.  A separate process (a peer
playing a real table) starts empty: each check runs once in full, as before.

Bounded: at most ``2 * LIMIT`` digests (two generations: when the young one is full it
becomes the old one, and the old one is dropped), some 40 KB, and lock-free (a digest
lost to a race between threads only costs a check run again).

The benchmarks that charge each peer's CPU in one process switch it off
(:func:`set_enabled`), so their figures stay those of a peer alone.
"""

from __future__ import annotations

from .group import hash_bytes

__all__ = ["LIMIT", "statement", "passed", "note", "set_enabled", "enabled"]

#: Digests per generation.
LIMIT = 256

_TAG = b"chkobba-p2p/deal/passed/v1/"

_young: dict[bytes, None] = {}
_old: dict[bytes, None] = {}
_enabled = True


def statement(kind: bytes, *parts: bytes) -> bytes:
    """The digest of one check's whole statement: ``kind`` names the check, ``parts``
    are every input it reads, as bytes (length-prefixed, so unambiguous)."""
    return hash_bytes(_TAG + kind, *parts)[:32]


def passed(digest: bytes) -> bool:
    """Whether the check of this statement has passed in this process."""
    return _enabled and (digest in _young or digest in _old)


def note(digest: bytes) -> None:
    """The check of this statement passed (call only after it did, or for a statement
    true by construction, such as a peer's own shuffle step)."""
    global _young, _old
    if not _enabled:
        return
    _young[digest] = None
    if len(_young) >= LIMIT:
        _old, _young = _young, {}


def set_enabled(on: bool) -> None:
    """Keep passed checks (the default) or not; switching forgets what was kept."""
    global _enabled, _young, _old
    _enabled = on
    _young, _old = {}, {}


def enabled() -> bool:
    return _enabled
