"""Who is watching, on the players' screens: coalesced and rate-limited (PROTOCOL.md 18).

A spectator may come and go as fast as it can open connections; each arrival and
departure changes the list of names, but the players see at most one announcement (a
``spectators`` message, a :class:`~chkobba_p2p.link.events.Spectators` event) every
:data:`ANNOUNCE_WINDOW` seconds, and it says the list as it is then.  The last state
always arrives: a change inside the window is announced when the window ends.

:class:`SpectatorAnnouncer` decides, and reads no clock: the time comes in as ``now``.  It
answers what to announce now (if anything) and when it wants to be asked again; the trio
shell arms a timer for that time and calls :meth:`SpectatorAnnouncer.tick`.  The host
uses one for what it broadcasts; a joiner uses one for what it shows of its host's
messages (a hostile host flooding ``spectators`` gets no more lines on the screen).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..game.errors import shown as as_given
from . import messages as lm
from .errors import LinkArgumentError
from .events import Spectators

__all__ = ["ANNOUNCE_WINDOW", "END_LIMIT", "Announcement", "SpectatorAnnouncer", "WatchersShown",
           "serve_until"]

#: Seconds between two announcements of who is watching, at least.
ANNOUNCE_WINDOW = 5.0
#: Seconds after the end of the match that the host keeps serving a spectator that is
#: still reading what it is owed, at most (PROTOCOL.md 18, "The end").
END_LIMIT = 300.0


def serve_until(ended: float, progress: float | None, stall: float,
                limit: float = END_LIMIT) -> float:
    """When the host stops serving a spectator that has not taken everything yet, once
    the match ``ended``: ``stall`` seconds after the spectator last took some bytes
    (``progress``; None: not since the end), and never later than ``limit`` seconds after
    the end.  A spectator that reads slowly but keeps reading is served to the last
    entry; one that stopped reading, or reads slower than the limit allows, is let go,
    so that no spectator holds the host's process for longer than ``limit``."""
    last = ended if progress is None else max(ended, progress)
    return min(ended + limit, last + stall)


@dataclass(frozen=True)
class Announcement:
    """A decision: ``names`` to announce now (None: nothing now), and ``due``: when to
    call :meth:`SpectatorAnnouncer.tick` next (None: nothing is pending)."""

    names: tuple[str, ...] | None = None
    due: float | None = None


class SpectatorAnnouncer:
    """Coalesces changes to the list of spectators into announcements at least
    ``window`` seconds apart.  ``shown`` is what the audience already knows (nobody
    watching, at first).  A change back to what was last announced (a spectator that came
    and went inside the window) announces nothing."""

    def __init__(self, window: float = ANNOUNCE_WINDOW, shown: tuple[str, ...] = ()) -> None:
        if not window >= 0:
            raise LinkArgumentError(f"the window is a number of seconds >= 0, not {window!r}",
                                    code="window_negative", data={"seconds": as_given(window)})
        self.window = window
        self.shown = shown  # the last state announced
        self.current = shown  # the state now
        self.last_at = -math.inf  # when the last announcement was made

    @property
    def due(self) -> float | None:
        """When the pending change is to be announced (None: nothing is pending)."""
        if self.current == self.shown:
            return None
        return self.last_at + self.window

    def changed(self, names: tuple[str, ...], now: float) -> Announcement:
        """The list of spectators is ``names`` from ``now`` on."""
        self.current = tuple(names)
        return self.tick(now)

    def tick(self, now: float) -> Announcement:
        """The time is ``now`` (the timer for :attr:`due` fired, or anything else):
        announce the current list if it is new and the window is over."""
        due = self.due
        if due is None:
            return Announcement()
        if now < due:
            return Announcement(due=due)
        self.shown = self.current
        self.last_at = now
        return Announcement(names=self.current)


class WatchersShown:
    """Who is watching, as a seat or a spectator shows it from the host's ``spectators``
    messages (PROTOCOL.md 18): at most once a ``window``, however often a host says it;
    the last list still comes when the window ends.  ``limit``: the host's places for
    spectators, as it last said them.  Shared by :class:`~chkobba_p2p.link.joiner.SeatLink`
    and :class:`~chkobba_p2p.link.spectator.SpectatorCore`."""

    def __init__(self, window: float) -> None:
        self.announcer = SpectatorAnnouncer(window)
        self.limit = 0

    @property
    def due(self) -> float | None:
        """When :meth:`tick` has a list to show (None: nothing pending)."""
        return self.announcer.due

    def heard(self, msg: lm.Spectators, now: float) -> Spectators | None:
        """The host's list: the event to show now, if any."""
        self.limit = msg.max
        return self._shown(self.announcer.changed(msg.names, now))

    def tick(self, now: float) -> Spectators | None:
        return self._shown(self.announcer.tick(now))

    def _shown(self, news: Announcement) -> Spectators | None:
        return None if news.names is None else Spectators(news.names, self.limit)
