"""The base of the observer's events: what a game checked from no seat finds (a deck's
cards once its seeds open, the verdict)."""

from __future__ import annotations

__all__ = ["ObserverEvent"]


class ObserverEvent:
    """An event of :mod:`chkobba_p2p.observe` (:class:`~.observer.DeckRevealed`,
    :class:`~.verdict.Verdict`); in the face's ``TableEvent`` union."""

    __slots__ = ()
