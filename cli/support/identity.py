"""One identity per person: the key ``play``, ``host`` and ``join`` use by default
(``identity.key`` in the data directory), and the keys it replaced.

Before, ``host`` kept a key of its own (``host-identity.key``), so a person who both
hosted and joined was two players in ``history``.  The first run that finds both keys
keeps the host's as the one identity, puts the other aside (``identity-old-FP.key``,
still 0600: a game saved under it can still be audited) and writes a line to
``identity-aliases``: the old public key, signed by both keys (each vouches for the
other: a line nobody could have written without holding both).  ``history``, the
lobby's records and the end screen read that file and count the old key's matches as
the person's.  A lone ``host-identity.key`` simply becomes ``identity.key``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p import Identity, data_dir, load_identity
from chkobba_p2p.errors import LocalError
from chkobba_p2p.lowlevel import verify_signature

__all__ = ["KEY", "OLD_HOST_KEY", "ALIASES", "own_identity", "own_aliases", "own_keys"]

KEY = "identity.key"
OLD_HOST_KEY = "host-identity.key"
ALIASES = "identity-aliases"
#: What each key signs: the alias statement's own domain (no wire message starts so).
ALIAS_DOMAIN = b"chkobba-p2p/v1/identity-alias\x00"


def _statement(new: bytes, old: bytes) -> bytes:
    return new + old


def own_identity(path: str | None, say: Callable[[str, str, str], None] | None = None
                 ) -> Identity:
    """The identity in ``path`` if given, else the person's one identity (migrating the
    keys of older versions first).  ``say(key, old_fp, new_fp)``: told once, when two
    keys were merged (``key`` a message key of :mod:`cli.words.i18n`)."""
    if path:
        return load_identity(Path(path))
    folder = data_dir()
    merged = migrate(folder)
    if merged is not None and say is not None:
        say("id_merged", *merged)
    return load_identity(folder / KEY)


def migrate(folder: Path) -> tuple[str, str] | None:
    """Make ``folder/identity.key`` the one key; returns (old fingerprint, kept
    fingerprint) when two keys were merged now, else None."""
    main, host = folder / KEY, folder / OLD_HOST_KEY
    if not host.exists():
        return None
    if not main.exists():
        os.replace(host, main)  # the same key, the same mode: nothing to tell
        return None
    kept = load_identity(host, create=False)
    old = load_identity(main, create=False)
    # A game saved (to resume) under the old key would be lost: merge after it ends.
    if any((folder / "resume").glob(f"{old.fingerprint}-*.state")):
        return None
    data = _statement(kept.public, old.public)
    line = " ".join((old.public.hex(), kept.sign(ALIAS_DOMAIN, data).hex(),
                     old.sign(ALIAS_DOMAIN, data).hex()))
    # The statement first, then the files: a run stopped half-way finishes the move
    # next time (the lone host key becomes identity.key) and nothing is forgotten.
    with open(folder / ALIASES, "a", encoding="ascii") as f:
        f.write(line + "\n")
    os.replace(main, folder / f"identity-old-{old.fingerprint}.key")
    os.replace(host, main)
    return old.fingerprint, kept.fingerprint


def own_aliases(folder: Path | None = None) -> dict[bytes, bytes]:
    """Old key -> the person's key, from the statements in ``identity-aliases`` that
    both keys signed (a line that does not check out is ignored)."""
    folder = folder or data_dir()
    try:
        me = load_identity(folder / KEY, create=False).public
        lines = (folder / ALIASES).read_text(encoding="ascii").splitlines()
    except (LocalError, OSError, UnicodeDecodeError):  # no key, no file: no alias
        return {}
    out = {}
    for line in lines:
        try:
            old, by_new, by_old = (bytes.fromhex(x) for x in line.split())
        except ValueError:
            continue
        data = _statement(me, old)
        if verify_signature(me, ALIAS_DOMAIN, data, by_new) \
                and verify_signature(old, ALIAS_DOMAIN, data, by_old):
            out[old] = me
    return out


def own_keys(folder: Path | None = None) -> list[bytes]:
    """This person's public keys: the identity, the keys it replaced, and an older
    version's host key not merged yet (none is created or moved here)."""
    folder = folder or data_dir()
    keys = []
    for name in (KEY, OLD_HOST_KEY):
        try:
            keys.append(load_identity(folder / name, create=False).public)
        except (LocalError, OSError):  # no such key (yet), or unreadable
            continue
    return keys + [k for k in own_aliases(folder) if k not in keys]
