"""The events of a hand: what a deal, a cut, a play and the final sweep did."""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card

# --------------------------------------------------------------------------- events
# Events and moves are named tuples: immutable, and cheap to make on every action.


class DealEvent(NamedTuple):
    recipients: tuple[int | None, ...]
    cards: tuple[Card | None, ...]
    draw: bool = False


class CutEvent(NamedTuple):
    seat: int
    keep: bool
    card: Card | None  # the placed card; None when kept (it stays private)


class PlayEvent(NamedTuple):
    seat: int
    card: Card
    capture: frozenset[Card]
    chkobba: bool


class SweepEvent(NamedTuple):
    """The cards left on the table go to the last capturer (``seat``; None if nobody captured)."""

    seat: int | None
    cards: tuple[Card, ...]


GameEvent = DealEvent | CutEvent | PlayEvent | SweepEvent
"""The rules engine's events.  Named tuples take no base class of their own (a
``NamedTuple`` subclasses only ``tuple``): this union is the layer's base."""
Event = GameEvent  # the older name
