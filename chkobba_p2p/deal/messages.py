"""The deal's messages as classes: one per message type, from the one parser.

A deal message travels as a msgpack map whose ``t`` names its type (``docs/deal.md``).
:func:`parse_item` is the only place that reads ``t``; the deal core, the game driver
and the observer dispatch on the classes it returns.  Each keeps the map as it travelled
(:attr:`DealItem.wire`, never rebuilt: msgpack has no canonical form, and the deal hashes
and stores what it received), and names the fields its readers look at.  Checking the
fields is the core's (:class:`~chkobba_p2p.deal.core.Deal`), which blames the sender.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "MSG_KEY",
    "MSG_SHUFFLE",
    "MSG_CUT",
    "MSG_SHARES",
    "MSG_PLAY",
    "MSG_COMPLAIN",
    "MSG_REVEAL",
    "MSG_PROOF",
    "DealItem",
    "KeyItem",
    "ShuffleItem",
    "CutItem",
    "SharesItem",
    "PlayItem",
    "ComplainItem",
    "RevealItem",
    "ProofItem",
    "UnknownItem",
    "parse_item",
    "item_label",
]

MSG_KEY = "deal/key"
MSG_SHUFFLE = "deal/shuffle"
MSG_CUT = "deal/cut"
MSG_SHARES = "deal/shares"
MSG_PLAY = "deal/play"
MSG_COMPLAIN = "deal/complain"
MSG_REVEAL = "deal/reveal"
#: A shuffle step's proof sent apart from its deck (``Deal(proof_apart=True)``).
MSG_PROOF = "deal/proof"


@dataclass(frozen=True, eq=False)
class DealItem:
    """One deal message: :attr:`wire` is the map as it travels (``t`` included)."""

    TYPE: ClassVar[str] = ""
    wire: dict[str, Any]

    @property
    def type(self) -> str:
        """The message type as it travelled (``deal/key``...)."""
        return message_type(self.wire) or "?"

    def to_wire(self) -> dict[str, Any]:
        return self.wire

    def _bytes(self, name: str) -> bytes | None:
        value = self.wire.get(name)
        return value if isinstance(value, bytes) else None


class KeyItem(DealItem):
    TYPE = MSG_KEY

    @property
    def commit(self) -> bytes | None:
        """The commitment to the seat's shuffle seed (None: not bytes)."""
        return self._bytes("commit")


class ShuffleItem(DealItem):
    TYPE = MSG_SHUFFLE

    @property
    def deck(self) -> bytes | None:
        """The shuffled deck, packed (None: not bytes)."""
        return self._bytes("deck")


class CutItem(DealItem):
    TYPE = MSG_CUT


class SharesItem(DealItem):
    TYPE = MSG_SHARES


class PlayItem(DealItem):
    TYPE = MSG_PLAY


class ComplainItem(DealItem):
    TYPE = MSG_COMPLAIN


class RevealItem(DealItem):
    TYPE = MSG_REVEAL

    @property
    def seed(self) -> bytes | None:
        """The opened shuffle seed (None: not bytes)."""
        return self._bytes("seed")


class ProofItem(DealItem):
    TYPE = MSG_PROOF

    @property
    def proof(self) -> bytes | None:
        """The shuffle proof sent apart from its deck (None: not bytes)."""
        return self._bytes("proof")


class UnknownItem(DealItem):
    """A map with a ``t`` string this implementation does not know."""


_CLASSES: dict[str, type[DealItem]] = {c.TYPE: c for c in (
    KeyItem, ShuffleItem, CutItem, SharesItem, PlayItem, ComplainItem, RevealItem,
    ProofItem)}


def message_type(obj: object) -> str | None:
    """The type (``t``) a deal item says it is; None when it is not a map with a ``t``
    string.  The deal's one read of ``t`` (the deal stands beside the wire codec, which
    has the same function for the layers above, and does not import it)."""
    if not isinstance(obj, dict):
        return None
    t = obj.get("t")
    return t if isinstance(t, str) else None


def parse_item(obj: object) -> DealItem | None:
    """The deal message ``obj`` as its class; None when it is not a map with a ``t``
    string (the core blames its sender: ``malformed``)."""
    t = message_type(obj)
    if t is None or not isinstance(obj, dict):
        return None
    return _CLASSES.get(t, UnknownItem)(obj)


def item_label(obj: object) -> str:
    """What a deal item says it is, for people reading a log: its ``t`` as written
    (``?`` for what is not a map or has no string ``t``)."""
    return message_type(obj) or "?"
