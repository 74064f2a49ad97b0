"""The table the genesis entry fixes (:class:`TableInfo`, :class:`SeatInfo`) and the
phases a table goes through (:class:`Phase`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.ruleset import Ruleset
from ..game.seating import ONLINE, Seating
from ..text import distinct_names, safe_text
from ..wire import codec as wire
from ..wire.codec import (
    GENESIS_PREV,
    MAX_NAME,
    SUPPORTED_VERSIONS,
    Entry,
    ErrorCode,
    ProtocolError,
    get_field,
)
from .caps import CAP_PROOF_APART, CAP_SHUFFLE_PROOFS, TABLE_CAPABILITIES

__all__ = ["SeatInfo", "TableInfo", "Phase"]


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    key: bytes
    name: str

    @property
    def fingerprint(self) -> str:
        return wire.fingerprint(self.key)

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "key": self.key, "name": self.name}


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
        raise ProtocolError(ErrorCode.BAD_FIELD, f"a display name is 1..{MAX_NAME} printable "
                            "characters", violation="bad_name", facts={"max": MAX_NAME})
    return value


@dataclass(frozen=True)
class TableInfo:
    """What the genesis entry fixes: the game id, version, ruleset and who sits where.
    Seat 0 is the host; the sides are :attr:`seating`'s (at 4 players seats 0 and 2 play
    against 1 and 3; at 3 each plays for themselves)."""

    game: bytes
    version: int
    players: int
    rules: Ruleset
    seats: tuple[SeatInfo, ...]
    caps: tuple[str, ...] = TABLE_CAPABILITIES

    @property
    def seating(self) -> Seating:
        """The shape of this table."""
        return Seating.of(self.players)

    @property
    def rules_hash(self) -> bytes:
        return self.rules.digest()

    @property
    def shuffle_proofs(self) -> bool:
        """Whether every shuffle carries a zero-knowledge proof (a table capability)."""
        return CAP_SHUFFLE_PROOFS in self.caps

    @property
    def proof_apart(self) -> bool:
        """Whether the genesis has shuffle proofs travel apart from their decks
        (``deal/proof``).  Binding: in effect only if every seat's ready lists it too
        (:attr:`Session.caps`, :func:`effective_caps`)."""
        return self.shuffle_proofs and CAP_PROOF_APART in self.caps

    def display_names(self) -> tuple[str, ...]:
        """The seats' names as they may be shown: safe for a terminal and distinct
        (``amel``, ``amel (2)``), whatever the host put in the genesis."""
        names = distinct_names([safe_text(s.name, MAX_NAME) for s in self.seats], MAX_NAME)
        return tuple(n or "?" for n in names)

    def to_body(self) -> dict[str, Any]:
        return {"v": self.version, "players": self.players, "rules": self.rules.to_dict(),
                "rules_hash": self.rules_hash, "seats": [s.to_wire() for s in self.seats],
                "caps": list(self.caps)}

    @classmethod
    def from_entry(cls, entry: Entry) -> TableInfo:
        """Parse and check a genesis entry (kind ``table``).  Its signature is checked by
        the caller against the host key it shook hands with (seat 0's key here)."""
        f = entry.fields
        if entry.kind != "table" or entry.seq != 0 or entry.prev != GENESIS_PREV \
                or entry.seat != 0:
            raise ProtocolError(ErrorCode.PROTOCOL_VIOLATION, "not a genesis entry",
                                violation="not_genesis")
        version = get_field(f, "v", "int")
        if version not in SUPPORTED_VERSIONS:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, f"version {version}",
                                violation="version_unsupported", facts={"version": version})
        players = get_field(f, "players", "int")
        if players not in ONLINE:
            raise ProtocolError(ErrorCode.BAD_FIELD,
                                f"players must be one of {', '.join(map(str, ONLINE))}",
                                violation="players_unsupported", facts={"players": players})
        try:
            rules = Ruleset.from_dict(get_field(f, "rules", "map"))
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"ruleset: {exc}",
                                violation="bad_ruleset") from None
        if get_field(f, "rules_hash", "bytes", size=32) != rules.digest():
            raise ProtocolError(ErrorCode.BAD_FIELD, "rules_hash does not match the ruleset",
                                violation="rules_hash_mismatch")
        raw_seats = get_field(f, "seats", "list", max_len=players)
        if len(raw_seats) != players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "one entry per seat", violation="seat_count")
        seats = []
        for i, s in enumerate(raw_seats):
            if not isinstance(s, dict) or get_field(s, "seat", "int") != i:
                raise ProtocolError(ErrorCode.BAD_FIELD, "seats in order",
                                    violation="seat_order")
            seats.append(SeatInfo(i, get_field(s, "key", "bytes", size=32), _name(s.get("name"))))
        if len({s.key for s in seats}) != players:
            raise ProtocolError(ErrorCode.BAD_FIELD, "an identity holds two seats",
                                violation="key_holds_two_seats")
        caps = tuple(c for c in get_field(f, "caps", "list", optional=True) or ()
                     if isinstance(c, str))
        return cls(entry.game, version, players, rules, tuple(seats), caps)


class Phase:
    READY = "ready"  # genesis accepted, waiting for every seat's ready
    PLAYING = "playing"
    CLOSING = "closing"  # the match is decided; each seat signs the result in turn
    DONE = "done"
    ABORTED = "aborted"
