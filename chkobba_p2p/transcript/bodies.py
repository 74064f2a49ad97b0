"""The bodies of the transcript's entries as classes: ``ready``, ``turn`` (and the
action inside it), ``done`` and ``abort`` (PROTOCOL.md 6, 12).

Each class has ``to_wire()``, the map this implementation signs, its keys in the order
they have always been written (msgpack has no canonical form: the signed bytes are the
ones that travel, so a body is never rebuilt from a parsed one), and a ``from_wire``
that checks what a seat received and raises :class:`GameFault` blaming the signer.
:func:`action_type` is the one place that reads an action's ``t``; the game driver
dispatches on the classes.  The deal items a turn carries are the deal's own
(:mod:`chkobba_p2p.deal.messages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import RemoteError
from ..game.cards import Card
from ..wire import codec as wire
from ..wire.codec import ErrorCode

__all__ = [
    "GameFault",
    "ReadyBody",
    "PlayAction",
    "CutAction",
    "Action",
    "action_type",
    "TurnBody",
    "DoneBody",
    "AbortBody",
    "ClockDisputeBody",
]


class GameFault(RemoteError):
    """A well-formed, correctly signed entry that the game refuses (an illegal move, a
    failed proof...).  Ends the game for everyone with a signed blame of ``blamed_seat``.
    ``detail`` says it in English (for the signed abort's ``why`` and for developers);
    ``violation`` and ``facts`` are the check's code and data for a client's words
    (:data:`~chkobba_p2p.errors.VIOLATIONS`)."""

    #: The offending entry's bytes (set by whoever knows them).
    evidence: bytes | None

    def __init__(self, code: ErrorCode, detail: str, blamed_seat: int | None,
                 evidence: bytes | None = None, *, violation: str | None = None,
                 facts: Mapping[str, str | int] | None = None) -> None:
        super().__init__(f"{code.sentence}: {detail}", code=code.name.lower(),
                         blamed_seat=blamed_seat, evidence=evidence, violation=violation,
                         facts=facts)
        self.error_code = code
        self.detail = detail


def _card(value: Any, seat: int) -> Card:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 40:
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"not a card id: {value!r}", seat,
                        violation="not_a_card", facts={"value": repr(value)[:40]})
    return Card(value)


def _pos(value: Any, seat: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 40:
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"not a deck position: {value!r}", seat,
                        violation="not_a_position", facts={"value": repr(value)[:40]})
    return value


# ------------------------------------------------------------------------------ ready


@dataclass(frozen=True)
class ReadyBody:
    """A ``ready``: the genesis's table capabilities the seat plays (``caps``; None: no
    such field, as a peer of before it sends)."""

    caps: tuple[str, ...] | None = None

    def to_wire(self) -> dict[str, Any]:
        return {} if self.caps is None else {"caps": list(self.caps)}

    @classmethod
    def from_wire(cls, fields: dict[str, Any], seat: int, body: bytes) -> ReadyBody:
        """A value of ``caps`` that is not an array of str is the game fault
        ``protocol_violation`` of its signer."""
        caps = fields.get("caps")
        if caps is None and "caps" not in fields:
            return cls(None)
        if not isinstance(caps, list) or not all(isinstance(c, str) for c in caps):
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "ready.caps is an array of str",
                            seat, body, violation="bad_ready_caps")
        return cls(tuple(caps))


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class PlayAction:
    """Play ``card``, shown at deck position ``pos``, taking ``take`` from the table (in
    the order written; this implementation writes them by card id)."""

    TYPE: ClassVar[str] = "play"
    pos: int
    card: Card
    take: tuple[Card, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.TYPE, "pos": self.pos, "card": self.card.id,
                "take": [c.id for c in self.take]}

    @classmethod
    def from_wire(cls, action: dict[str, Any], seat: int) -> PlayAction:
        card = _card(action.get("card"), seat)
        pos = _pos(action.get("pos"), seat)
        take = action.get("take")
        if not isinstance(take, list) or len(take) > 10:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "take is a list", seat,
                            violation="take_not_list")
        capture = tuple(_card(c, seat) for c in take)
        if len(set(capture)) != len(capture):
            # A set on the wire: the engine would merge repeats silently.
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "take names a card twice", seat,
                            violation="take_twice")
        return cls(pos, card, capture)


@dataclass(frozen=True)
class CutAction:
    """The cutter keeps the drawn card (``keep``), or places it: then ``pos`` is the
    drawn card's deck position, shown."""

    TYPE: ClassVar[str] = "cut"
    keep: bool
    pos: int | None = None

    def to_wire(self) -> dict[str, Any]:
        if self.keep:
            return {"t": self.TYPE, "keep": True}
        return {"t": self.TYPE, "keep": False, "pos": self.pos}

    @classmethod
    def from_wire(cls, action: dict[str, Any], seat: int) -> CutAction:
        keep = action.get("keep")
        if not isinstance(keep, bool):
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "keep is a bool", seat,
                            violation="keep_not_bool")
        if keep and "pos" in action:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a kept card has no pos", seat,
                            violation="kept_with_position")
        return cls(True) if keep else cls(False, _pos(action.get("pos"), seat))


Action = PlayAction | CutAction

_ACTIONS: dict[str, type[PlayAction] | type[CutAction]] = {
    PlayAction.TYPE: PlayAction, CutAction.TYPE: CutAction}


def action_type(action: dict[str, Any], seat: int) -> type[PlayAction] | type[CutAction]:
    """The class of a turn's action, from its ``t``; an unknown type is the game fault
    ``protocol_violation`` of ``seat`` (new action types come only with a table
    capability that announces them).  The fields are checked by the class's
    ``from_wire``, once the game is known to wait for that action."""
    t = wire.message_type(action)
    cls = _ACTIONS.get(t) if t is not None else None
    if cls is None:
        raise GameFault(ErrorCode.PROTOCOL_VIOLATION, f"unknown action type {t!r}", seat,
                        violation="unknown_action", facts={"value": repr(t)[:40]})
    return cls


# ------------------------------------------------------------------------ turn, done


@dataclass(frozen=True)
class TurnBody:
    """A ``turn``: the deal items the seat owes (``d``, the deal's maps as they travel),
    its action (``a``, the map; None: a turn of deal items alone), under the table
    capability shares-ride/v1 the deal items its own entry caused (``p``, applied after
    the action; None: no such field, as every turn without that capability) and, under
    next-deck/v1, deal items for the next hand's first deck (``b``, applied after ``p``;
    None: no such field) and, under late-reveal/v1, the sender's ``deal/reveal`` of the
    deck of the hand scored before its reveals (``r``, applied last; None: no such
    field)."""

    items: list[Any]
    action: dict[str, Any] | None = None
    after: list[Any] | None = None
    next: list[Any] | None = None
    reveal: list[Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"d": self.items}
        if self.action is not None:
            body["a"] = self.action
        if self.after:  # an empty ``p`` is left out: the same bytes as before the field
            body["p"] = self.after
        if self.next:  # likewise an empty ``b``
            body["b"] = self.next
        if self.reveal:  # likewise an empty ``r``
            body["r"] = self.reveal
        return body

    @classmethod
    def from_wire(cls, fields: dict[str, Any], seat: int, body: bytes,
                  ride: bool = False, build: bool = False, late: bool = False
                  ) -> TurnBody:
        """``ride``: shares-ride/v1 is in effect at this table; ``build``: next-deck/v1
        is; ``late``: late-reveal/v1 is.  Without one ``p`` (or ``b``, or ``r``) is an
        unknown field, neither read nor checked (a peer of before it cannot check it
        either: one verdict at a mixed table)."""
        items = fields.get("d", [])
        action = fields.get("a")
        after = fields.get("p") if ride else None
        nxt = fields.get("b") if build else None
        rev = fields.get("r") if late else None
        if not isinstance(items, list) or (action is not None
                                           and not isinstance(action, dict)) \
                or (after is not None and not isinstance(after, list)) \
                or (nxt is not None and not isinstance(nxt, list)) \
                or (rev is not None and not isinstance(rev, list)):
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "turn fields", seat, body,
                            violation="bad_turn_fields")
        return cls(items, action, after, nxt, rev)


@dataclass(frozen=True)
class DoneBody:
    """A ``done``: the match's result as the seat signs it (``winner``, ``totals``,
    ``hands``)."""

    result: dict[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {"result": self.result}

    @classmethod
    def from_wire(cls, fields: dict[str, Any], seat: int, body: bytes) -> DoneBody:
        result = fields.get("result")
        if not isinstance(result, dict):
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "done.result is a map", seat, body,
                            violation="bad_done_result")
        return cls(result)


# ----------------------------------------------------------------------------- aborts


@dataclass(frozen=True)
class AbortBody:
    """An ``abort`` (PROTOCOL.md 12): the code, whom it blames (None: nobody), why, and
    when given: the seat the host's clocks flag, the signer's clock reading, the
    offending entry's bytes or, when they are too long to carry, its id."""

    code: int
    blamed: int | None
    why: str
    flag: int | None = None
    clock: dict[str, int] | None = None
    evidence: bytes | None = None
    evidence_id: bytes | None = None

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "blamed": self.blamed, "why": self.why}
        if self.flag is not None:
            body["flag"] = self.flag
        if self.clock is not None:
            body["clock"] = dict(self.clock)
        if self.evidence is not None:
            body["evidence"] = self.evidence
        elif self.evidence_id is not None:
            body["evidence_id"] = self.evidence_id
        return body

    @staticmethod
    def read_blamed(fields: dict[str, Any], players: int) -> int | None:
        """An abort's ``blamed`` as a seat: anything but a seat of the table blames
        nobody.  (A bool is an int to Python, not on the wire: ``true`` blames nobody, as
        an auditor reads it, never seat 1.)"""
        blamed = fields.get("blamed")
        if isinstance(blamed, int) and not isinstance(blamed, bool) and 0 <= blamed < players:
            return blamed
        return None

    @staticmethod
    def read_why(fields: dict[str, Any]) -> str:
        why = fields.get("why")
        return why if isinstance(why, str) else ""

    @staticmethod
    def read_evidence(fields: dict[str, Any]) -> bytes | None:
        evidence = fields.get("evidence")
        return evidence if isinstance(evidence, bytes) else None


@dataclass(frozen=True)
class ClockDisputeBody:
    """An ``abort`` with code ``clock_dispute`` (PROTOCOL.md 12.6): the flagged seat
    blames the flag's signer, cites the flag (``evidence``) and gives its own clock
    reading."""

    blamed: int
    why: str
    evidence: bytes
    clock: dict[str, int]

    def to_wire(self) -> dict[str, Any]:
        return {"code": int(ErrorCode.CLOCK_DISPUTE), "blamed": self.blamed, "why": self.why,
                "evidence": self.evidence, "clock": dict(self.clock)}
