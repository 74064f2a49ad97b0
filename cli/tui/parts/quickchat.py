"""Quick chat and the turn's bell: a few phrases of the table on single keys (sent as an
ordinary chat line, ``SeatController.send_chat``), and a terminal bell when the turn
comes back to the local seat after the others played.

Pure pieces (no prompt_toolkit, no trio): the keys and their phrases in the player's
language (:data:`QUICK_CHAT`, :func:`phrase`, :func:`keys_text`), and :class:`TurnBell`,
fed with the events the screen shows, which says when to ring.
"""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p import Restored
from chkobba_p2p.game import rules as R

__all__ = ["QUICK_CHAT", "phrase", "keys_text", "TurnBell"]

#: Key -> the phrase's message key (cli/words/i18n.py): the same keys in both languages.
QUICK_CHAT: dict[str, str] = {
    "b": "qc_bsahtek",  # bsahtek: good for you (a nice capture)
    "a": "qc_saha",  # yaatik saha: well done, may it give you health
    "w": "qc_well",  # well played / bien joué
    "y": "qc_yalla",  # yalla: come on, let's go
    "c": "qc_chkobba",  # chkobba!
}

def phrase(t: Callable[..., str], key: str) -> str | None:
    """The phrase ``key`` sends, in ``t``'s language; None for a key that is not one."""
    name = QUICK_CHAT.get(key)
    return t(name) if name is not None else None


def keys_text(t: Callable[..., str]) -> str:
    """``b bsahtek · a yaatik saha · ...``, for the help."""
    return " · ".join(f"{k} {t(name)}" for k, name in QUICK_CHAT.items())


class TurnBell:
    """When to ring: the turn is ours again and another seat played (or cut) since our
    last decision.  Not for the first question of a game or of a resumed one (nobody made
    us wait), never when ``enabled`` is False (``--no-bell``)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._others_moved = False

    def on_event(self, event: object, my_seat: int | None) -> None:
        if isinstance(event, Restored):
            self._others_moved = False  # the replayed moves made nobody wait
        elif isinstance(event, R.PlayEvent | R.CutEvent) and event.seat != my_seat:
            self._others_moved = True

    def asked(self) -> bool:
        """We are asked to decide: True when the bell should ring now."""
        ring = self.enabled and self._others_moved
        self._others_moved = False
        return ring
