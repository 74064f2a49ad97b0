"""The base class of the transcript's events, apart so that every module of the folder
(the clocks' :class:`~.clocks.ClockReading` too) can derive from it without a cycle."""

from __future__ import annotations

__all__ = ["TranscriptEvent"]


class TranscriptEvent:
    """The base of the signed game's events (a session's and a driver's): what the
    transcript made of the log, in order.  A client tells the layers' events apart by
    their base (:class:`~chkobba_p2p.link.events.LinkEvent`, the rules engine's
    ``GameEvent``...); every one of them is in the face's ``TableEvent`` union."""

    __slots__ = ()
