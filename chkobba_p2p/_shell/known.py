"""Players met before, remembered like ssh's known hosts: a name and the identity key it
came with.  A client checks every seat of a lobby against it: a new name is new, a known
name with its usual key is recognised, and a known name with **another** key is a loud
warning (someone else may be using that name: compare fingerprints before playing).

Names are compared by what they look like (:func:`chkobba_p2p.text.skeleton`: NFKC, case
folded, trimmed, Unicode confusables mapped to their prototype), so ``Amel``, ``amel ``,
fullwidth ``ａｍｅｌ`` or ``аmel`` with a Cyrillic ``а`` beside a remembered ``amel`` with
another key get the same warning, naming the remembered one (:attr:`Seen.like`).

The file is ``known_players`` in the user configuration directory
(``platformdirs.user_config_dir("chkobba-p2p")``, or ``$CHKOBBA_CONFIG_DIR``): one line per
player, ``<64 hex digits of the key> <name>``; lines that do not parse are skipped (and
kept out of the next write).  It is written whole (a temporary file renamed over it),
readable by its owner only.
"""

from __future__ import annotations

import contextlib
import enum
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ..text import skeleton
from ..wire.codec import MAX_NAME, fingerprint

__all__ = ["Recognition", "Seen", "KnownPlayers", "config_dir"]

APP = "chkobba-p2p"
#: The file is read up to this size; more is not a list of people one has played with.
MAX_FILE = 1 << 20


def config_dir() -> Path:
    """The user's configuration directory for this program (``CHKOBBA_CONFIG_DIR``
    overrides it)."""
    override = os.environ.get("CHKOBBA_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP))


class Recognition(enum.StrEnum):
    NEW = "new"  # never seen this name
    KNOWN = "known"  # this name, with the key it had before
    CHANGED = "changed"  # this name, with another key than before: warn loudly


@dataclass(frozen=True)
class Seen:
    """What the known players say about one seat: ``status``; for a changed key, the
    fingerprint remembered (``before``); ``also_known_as``: other names this key had;
    ``like``: for a name that is not one remembered but looks like one (same
    :func:`~chkobba_p2p.text.skeleton`), the remembered name it passes for."""

    status: Recognition
    before: str | None = None
    also_known_as: tuple[str, ...] = ()
    like: str | None = None


class KnownPlayers:
    """The known-players file.  ``path`` None: the default file in :func:`config_dir`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / "known_players"
        self.entries: dict[str, bytes] = {}
        self._shapes: dict[str, list[str]] | None = None  # skeleton -> remembered names
        self._load()

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as f:
                data = f.read(MAX_FILE)
        except OSError:
            return
        for raw in data.decode("utf-8", "replace").splitlines():
            key_hex, _, name = raw.partition(" ")
            try:
                key = bytes.fromhex(key_hex)
            except ValueError:
                continue
            if len(key) == 32 and 0 < len(name) <= MAX_NAME and name.isprintable():
                self.entries[name] = key

    def check(self, name: str, key: bytes) -> Seen:
        """What this name and key mean to us."""
        others = tuple(sorted(n for n, k in self.entries.items() if k == key and n != name))
        known = self.entries.get(name)
        if known == key:
            return Seen(Recognition.KNOWN, also_known_as=others)
        if known is not None:
            return Seen(Recognition.CHANGED, fingerprint(known), others)
        if self._shapes is None:
            self._shapes = {}
            for n in sorted(self.entries):
                self._shapes.setdefault(skeleton(n), []).append(n)
        alike = self._shapes.get(skeleton(name), [])
        if not alike:
            return Seen(Recognition.NEW, also_known_as=others)
        if any(self.entries[n] == key for n in alike):  # a way of writing a name we know
            return Seen(Recognition.KNOWN, also_known_as=others)
        return Seen(Recognition.CHANGED, fingerprint(self.entries[alike[0]]), others,
                    like=alike[0])

    def remember(self, players: list[tuple[str, bytes]]) -> None:
        """Record these (name, key) pairs (a changed key replaces the old one: the person
        confirmed it) and save the file.  Errors writing it are ignored: remembering is
        a convenience, never a reason to stop a game."""
        changed = False
        for name, key in players:
            if self.entries.get(name) != key:
                self.entries[name] = key
                changed = True
        if changed:
            self._shapes = None
            with contextlib.suppress(OSError):
                self._save()

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(f"{key.hex()} {name}\n" for name, key in sorted(self.entries.items()))
        fd, tmp = tempfile.mkstemp(prefix=".known_players.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
