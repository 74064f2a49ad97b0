"""The deal's two error families: a peer's misbehaviour, and the caller's own misuse.

Both derive from the library-wide families of :mod:`chkobba_p2p.errors`.
"""

from __future__ import annotations

from typing import Any

from ..errors import VIOLATIONS, LocalError, RemoteError

__all__ = ["PeerMisbehaved", "DealUsageError"]


class PeerMisbehaved(RemoteError):
    """Another peer broke the deal protocol.

    ``blamed_seat`` is the seat at fault, ``code`` a short wire code (``bad_share_proof``,
    ``shuffle_mismatch``...; ``docs/deal.md`` lists them all), ``reason`` a sentence for
    developers (its ``violation``, ``"deal_"`` + ``code``, is what a client words for
    people) and ``evidence`` the offending message exactly as received (the signed log
    carries the same message, so anyone can re-check the verdict).
    """

    def __init__(self, blamed_seat: int, code: str, reason: str, evidence: Any) -> None:
        violation = f"deal_{code}"
        super().__init__(f"seat {blamed_seat}: {reason} [{code}]", code=code,
                         blamed_seat=blamed_seat, evidence=evidence,
                         violation=violation if violation in VIOLATIONS else None)
        self.blamed_seat: int = blamed_seat
        self.reason = reason


class DealUsageError(LocalError):
    """The local caller used the deal API wrongly (wrong phase, a position it does not hold...).

    Nothing another peer sends can raise this.
    """
