"""chkobba-p2p: Chkobba played peer to peer, with a deal nobody controls and signed logs.

:class:`Observer` (from :mod:`chkobba_p2p.observer`) watches a game from no seat: it checks
a transcript exactly as the players do and tells what happened (spectators, audits).
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
