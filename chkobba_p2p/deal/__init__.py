"""The mental-poker deal: a deck nobody controls and nobody can peek at.

Barnett–Smart style over ristretto255: ElGamal-encrypted card points under a joint key,
shuffled and re-randomized by every seat in turn (with hash commitments to each shuffle,
opened and re-checked at the end), cards opened privately or publicly with decryption
shares and Chaum–Pedersen proofs.  Sans-IO: see :class:`Deal`.  Wire format and hash
inputs: ``docs/deal.md``.
"""

# First: rbcl without the doctest it imports for itself (a peer's memory, issue 44).
from . import _rbcl  # noqa: F401 - before any module of the deal imports rbcl
from .core import (
    MAX_PENDING_PER_SEAT,
    AuditStarted,
    CardShown,
    CutDone,
    Deal,
    Event,
    JobResult,
    Output,
    ProofJob,
    ShuffleDone,
    StepOpened,
    Verified,
    run_job,
)
from .errors import DEAL_PROBLEMS, DealUsageError, PeerMisbehaved
from .local import LocalTable
from .messages import (
    MSG_COMPLAIN,
    MSG_CUT,
    MSG_KEY,
    MSG_PLAY,
    MSG_PROOF,
    MSG_REVEAL,
    MSG_SHARES,
    MSG_SHUFFLE,
    DealItem,
    parse_item,
)
from .schedule import FirstDealerDraw

__all__ = [
    "Deal",
    "Output",
    "Event",
    "ShuffleDone",
    "CutDone",
    "StepOpened",
    "CardShown",
    "AuditStarted",
    "Verified",
    "PeerMisbehaved",
    "DealUsageError",
    "DEAL_PROBLEMS",
    "LocalTable",
    "FirstDealerDraw",
    "MSG_KEY",
    "MSG_SHUFFLE",
    "MSG_CUT",
    "MSG_SHARES",
    "MSG_PLAY",
    "MSG_COMPLAIN",
    "MSG_REVEAL",
    "MSG_PROOF",
    "DealItem",
    "parse_item",
    "MAX_PENDING_PER_SEAT",
    "ProofJob",
    "JobResult",
    "run_job",
]
