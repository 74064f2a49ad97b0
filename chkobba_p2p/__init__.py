"""chkobba-p2p: Chkobba played peer to peer, with a deal nobody controls and signed logs.

:class:`Observer` (from :mod:`chkobba_p2p.observer`) watches a game from no seat: it checks
a transcript exactly as the players do and tells what happened (spectators, audits).

The public API, what a client imports (the terminal client imports nothing else, and a
test holds it to that): :mod:`.peer`, the face for playing at a table (it re-exports the
events, the configuration, identities, addresses and the table state from the modules
underneath); the rules engine and its values (:mod:`.rules`, :mod:`.cards`), the errors,
the bot levels (:mod:`.levels`); the observer and what is built on it (:mod:`.audit`,
:mod:`.timeline`, :mod:`.watch`); records (:mod:`.record`), the offline bot tools
(:mod:`.simulate`, :mod:`.arena`) and :func:`~.text.safe_text`.  The other modules (the
transport, the session, the wire, the deal...) may change without notice.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["Observer", "__version__"]


def __getattr__(name: str) -> Any:
    # Imported on first use: ``import chkobba_p2p`` stays cheap for the command line.
    if name == "Observer":
        from .observer import Observer
        return Observer
    raise AttributeError(f"module 'chkobba_p2p' has no attribute {name!r}")
