"""chkobba-p2p: Chkobba played peer to peer, with a deal nobody controls and signed logs.

:class:`Observer` (from :mod:`chkobba_p2p.observer`) watches a game from no seat: it checks
a transcript exactly as the players do and tells what happened (spectators, audits).

The public API, what a client imports (the terminal client imports nothing else, and a
test holds it to that), is named once: :data:`PUBLIC_MODULES` below, and, for a client
of a live table, :data:`chkobba_p2p.peer.__all__` (``peer`` re-exports the events, the
configuration, identities, addresses and the table state from the modules underneath).
The other modules (the transport, the session, the wire, the deal...) may change
without notice.

The library never prints: what a person should see reaches the seat's controller as an
event (:class:`~chkobba_p2p.peer.Notice` among them); developers' diagnostics go to
:mod:`logging`, under the ``chkobba_p2p`` logger, which is silent (a ``NullHandler``)
until the application configures logging.
"""

from __future__ import annotations

import logging
from typing import Any

__version__ = "0.1.0"
__all__ = ["Observer", "PUBLIC_MODULES", "__version__"]

#: The library's public modules (under ``chkobba_p2p.``), the one list: ``peer``, the
#: face for playing at a table; the rules engine and its values; the errors; the bot
#: levels; the shape of the table (seating); the observer and what is built on it
#: (audit, timeline, watch); records and the coach that grades them (review); the
#: history of a folder of logs and its Glicko-2 ratings (history, rating); the offline
#: bot tools (simulate, arena); safe text for a terminal.  Everything else is reached
#: through them.  ``tests/test_import_graph.py`` holds the client to these and checks
#: that pyproject.toml's ``mypy --strict`` list is exactly these plus the modules
#: whose whole ``__all__`` ``peer`` re-exports (events, config).
PUBLIC_MODULES: tuple[str, ...] = (
    "peer", "observer", "audit", "timeline", "watch", "rules", "cards", "record",
    "errors", "levels", "simulate", "arena", "text", "transport", "testing", "history",
    "rating", "review", "tor", "seating",
)

# A library adds no handler of its own but this one: without it, Python's last-resort
# handler would write the library's warnings to stderr (that is, print).
logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str) -> Any:
    # Imported on first use: ``import chkobba_p2p`` stays cheap for the command line.
    if name == "Observer":
        from .observer import Observer
        return Observer
    raise AttributeError(f"module 'chkobba_p2p' has no attribute {name!r}")
