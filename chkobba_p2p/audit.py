"""Audit a game's signed log: check everything, from the outside, with no seat and no secret.

One peer's log file (PROTOCOL.md, "The log file") holds every seat's signed entries, so
it is enough to audit the whole match.  :func:`audit_log` replays it through an
*observer*: the same session, game driver, deal and rules-engine code every peer runs
(:mod:`chkobba_p2p.session`, :mod:`chkobba_p2p.deal`, :mod:`chkobba_p2p.rules`), fed
every seat's entries and holding none of their secrets:

* the file's framing and size, then for every entry: its signature with the key the
  genesis gives its seat, the hash chain, the floor, the sequence numbers;
* the genesis: protocol version, ruleset and its hash, seats and keys; every ``ready``;
* every deal message of every seat: key proofs, shuffle proofs, decryption-share proofs,
  plays, complaints, and at the end of every deck the opened seeds against their
  commitments with every shuffle step recomputed;
* every move and cut with the rules engine, every hand's score, the match result and
  every seat's signed ``done``.

Once a deck's seeds are open the auditor knows every card of it, so after each hand it
replays the hand once more *with every hand known* (the players themselves cannot: they
never see each other's cards).  That also checks the forced-capture variant, which no
live peer can check for an opponent.  The full-knowledge replay gives the game records
(:mod:`chkobba_p2p.record`).

The verdict (:class:`AuditReport`): **valid** (complete and correct), **invalid** (the
first violation: the entry, the code, the seat to blame when a signature proves who did
it, a sentence) or **incomplete** (no violation, but the match did not finish: an abort,
a truncated file).  A file that is not a log at all raises :class:`LogUnreadable`.

An ``abort`` that ended the game is the peers' claim.  When it carries as evidence an entry
this log lacks (its writer got the abort first), that entry is checked as the next one:
a violation in it is blamed as usual, and an entry that passes refutes the claim.  If the
game ended before every seed of the last deck was opened, the seeds that were are checked
anyway (a peer that found a shuffle mismatch stops before sending its own seed).

Shuffle proofs are most of the work; with :func:`audit_log`'s ``workers`` they are checked
by worker processes while the replay goes on, and the earliest refused proof is still the
first violation: the verdict is the same either way.

The observer reuses the peers' classes through subclasses (:class:`Session`,
:class:`GameDriver`, :class:`DeckInstance`, :class:`~chkobba_p2p.deal.Deal`), overriding only
what a seat has that an observer does not: a key, shuffle and reveal of its own, shares it
owes, cards it sees.

Blame in a log: an entry that is correctly signed and extends the chain but breaks a rule
is its signer's (or, for the deal, the seat the deal's checks name).  An entry whose
signature fails, or that does not extend the chain (dropped, reordered, spliced), cannot
be pinned on a seat: no honest peer logs such an entry, so the file was altered after it
was written; it is reported as tampering with no seat blamed -- except an entry that
verifies under *another* seat's key, which that seat signed in someone else's name.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import shuffle_proof, wire
from .cards import Card
from .deal import MSG_KEY, MSG_REVEAL, MSG_SHUFFLE, Deal
from .deal import crypto as dc
from .errors import IllegalMove, InvalidDeal, LocalError
from .record import MatchRecorder, result_sentence
from .rules import CutEvent, DealEvent, Hand, Match, PlayEvent, SweepEvent
from .session import (
    DeckInstance,
    FirstDealerDrawn,
    GameDriver,
    GameFault,
    Phase,
    Session,
    TableInfo,
)
from .transcript import MAGIC
from .wire import ENTRY_DOMAIN, Entry, ErrorCode, ProtocolError, verify_signature

__all__ = [
    "VALID",
    "INVALID",
    "INCOMPLETE",
    "EXIT_VALID",
    "EXIT_INVALID",
    "EXIT_USAGE",
    "EXIT_INCOMPLETE",
    "MAX_LOG_BYTES",
    "LogUnreadable",
    "LogFile",
    "AbortClaim",
    "AuditReport",
    "read_log",
    "audit_log",
    "audit_bodies",
]

VALID = "valid"
INVALID = "invalid"
INCOMPLETE = "incomplete"

#: Exit statuses of ``chkobba replay`` (also :attr:`AuditReport.exit_code`).
EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3

#: Largest log file audited.  A 4-player match with shuffle proofs writes about 40 KB per
#: hand; this leaves room for the longest matches and refuses a hostile giant at once.
MAX_LOG_BYTES = 64 << 20
#: Largest number of entries audited (a long 4-player match has a few thousand).
MAX_ENTRIES = 200_000


class LogUnreadable(LocalError):
    """The file is not a chkobba log at all (missing, too big, bad magic, no header)."""


# ------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class LogFile:
    """A log file split into frames.  ``bodies`` are the entries after the header, with
    their byte ``offsets`` in the file.  ``tail`` says how the file ends: None (cleanly),
    ``"truncated"`` (a short last frame: a crash, or a cut file) or a sentence describing
    a frame that cannot be one (an impossible length)."""

    path: str
    header: dict
    bodies: tuple[bytes, ...]
    offsets: tuple[int, ...]
    tail: str | None
    size: int


def read_log(path: str | Path) -> LogFile:
    """Split a log file into its header and entry frames (nothing is verified here).

    Raises :class:`LogUnreadable` if it is not a log file."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogUnreadable(f"{path}: {size} bytes, larger than the {MAX_LOG_BYTES}-byte "
                                "limit for a log")
        with open(p, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogUnreadable(f"{path}: {exc.strerror or exc}") from None
    if len(data) > MAX_LOG_BYTES:
        raise LogUnreadable(f"{path}: larger than the {MAX_LOG_BYTES}-byte limit for a log")
    if not data.startswith(MAGIC):
        raise LogUnreadable(f"{path}: not a chkobba log (it does not start with the log "
                            "file's magic bytes)")
    pos = len(MAGIC)
    bodies: list[bytes] = []
    offsets: list[int] = []
    tail: str | None = None
    while pos < len(data):
        if pos + 4 > len(data):
            tail = "truncated"
            break
        n = int.from_bytes(data[pos:pos + 4], "big")
        if n > wire.MAX_FRAME:
            tail = f"a frame at byte {pos} announces {n} bytes, more than any frame may hold"
            break
        if pos + 4 + n > len(data):
            tail = "truncated"
            break
        bodies.append(data[pos + 4:pos + 4 + n])
        offsets.append(pos)
        pos += 4 + n
        if len(bodies) > MAX_ENTRIES + 1:
            raise LogUnreadable(f"{path}: more than {MAX_ENTRIES} entries")
    if not bodies:
        raise LogUnreadable(f"{path}: no header (the file holds no complete frame)")
    try:
        header = wire.decode(bodies[0])
    except ProtocolError as exc:
        raise LogUnreadable(f"{path}: the header frame is not a message ({exc})") from None
    if header.get("t") != "log":
        raise LogUnreadable(f"{path}: the first frame is not a log header")
    return LogFile(str(path), header, tuple(bodies[1:]), tuple(offsets[1:]), tail, len(data))


# ------------------------------------------------------------- shuffle proofs, in parallel


def _check_shuffle_proof(context: bytes, joint: bytes, inp: list, out: list,
                         proof: bytes) -> tuple[str, str] | None:
    """One shuffle proof (run in a worker process): None, or (code, sentence)."""
    try:
        shuffle_proof.verify_shuffle(context, joint, inp, out, proof)
    except shuffle_proof.ShuffleProofError as exc:
        return exc.code, str(exc)
    return None


def _done(value: object) -> concurrent.futures.Future:
    f: concurrent.futures.Future = concurrent.futures.Future()
    f.set_result(value)
    return f


class _ProofChecks:
    """The shuffle proofs of a log, checked by worker processes while the auditor goes on
    (they are most of the audit's work, and independent of everything else).  The audit
    goes on as if each proof held; :meth:`first_failure` then says whether one did not,
    and the earliest such entry is the first violation.  ``workers`` < 2: checked at once,
    in this process."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._jobs: list[tuple[int, int, tuple, concurrent.futures.Future]] = []

    def submit(self, entry: int, seat: int, args: tuple) -> None:
        if self.workers < 2:
            self._jobs.append((entry, seat, args, _done(_check_shuffle_proof(*args))))
            return
        if self._pool is None:
            ctx = multiprocessing.get_context("fork") \
                if "fork" in multiprocessing.get_all_start_methods() else None
            self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=ctx)
        self._jobs.append((entry, seat, args, self._pool.submit(_check_shuffle_proof, *args)))

    def first_failure(self) -> tuple[int, int, str] | None:
        """``(entry, seat, reason)`` of the earliest refused proof, or None."""
        try:
            for entry, seat, args, job in self._jobs:
                try:
                    failed = job.result()
                except Exception:  # noqa: BLE001 - a worker died: check it here instead
                    failed = _check_shuffle_proof(*args)
                if failed is not None:
                    code, why = failed
                    return entry, seat, f"{code}: shuffle proof refused: {why}"
            return None
        finally:
            self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# ------------------------------------------------------------------------ the observer

#: The rules engine's ``viewer`` for a hand nobody at the table sees: every private card is
#: an unknown placeholder, as it is for an opponent.
_NO_SEAT = -1


class _ObserverDeal(Deal):
    """A deal seen from no seat: it receives every seat's messages and sends none.

    It runs the deal core's own checks on everything.  Internally it takes the seat
    number ``n`` (one past the last seat), which owes no shares, holds no cards, makes no
    shuffle step and has no reveal of its own, so that every seat's shuffle is re-checked
    at the end."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(seat=0, **kwargs)  # the constructor only takes real seats
        self.seat = self.n
        self._phase = "keys"  # an observer has no key of its own to start with

    def _step_need(self, step: dict[str, Any]) -> list[list[int]]:
        return super()._step_need(step) + [[]]

    def _send_reveal(self) -> None:
        pass  # nothing to reveal

    def _own_shuffle(self) -> None:
        pass  # seat n "shuffles" once every seat has: there is no such step

    #: Where proofs go to be checked in parallel (None: checked here, at once).
    proof_checks: _ProofChecks | None = None
    entry_index = 0

    def verify_shuffle_step(self, seat: int, inp: Sequence[Any], out: Sequence[Any],
                            msg: dict[str, Any]) -> None:
        checks = self.proof_checks
        if checks is None or not self.shuffle_proofs or not isinstance(msg.get("proof"), bytes):
            super().verify_shuffle_step(seat, inp, out, msg)
            return
        # Everything but the proof itself here (the same code, with the proof left out)...
        self.shuffle_proofs = False
        try:
            super().verify_shuffle_step(seat, inp, out, msg)
        finally:
            self.shuffle_proofs = True
        # ...and the proof in a worker.
        assert self.joint_key is not None
        checks.submit(self.entry_index, seat, (self._shuffle_context(seat), self.joint_key,
                                               list(inp), list(out), msg["proof"]))


class _ObserverDeck(DeckInstance):
    """A deck instance of the observer: no secrets; it keeps the seeds as they are opened
    so that, once the deal has verified them, every card of the deck is known."""

    deal: _ObserverDeal

    def __init__(self, table: TableInfo, hand: int, instance: int, cutter: int | None,
                 owner: _ObserverDriver) -> None:
        # The parent derives a seat's secrets and starts its deal; we throw both away.
        # (Its deal's settings, such as whether this deck's shuffles carry proofs, are the
        # ones every seat uses: the observer copies them.)
        super().__init__(table, 0, bytes(32), hand, instance, cutter, [])
        self.seat = None  # type: ignore[assignment]
        self.deal = _ObserverDeal(session_id=table.game, hand=hand, instance=instance,
                                  n=table.players, cutter=cutter,
                                  shuffle_proofs=self.deal.shuffle_proofs)
        self.reveal_sent = True  # no reveal of our own to wait for
        self.owner = owner
        self.deal.proof_checks = owner.proof_checks
        #: What each seat sent that the seeds are checked against (first of each kind).
        self.commits: dict[int, bytes] = {}
        self.shuffled: dict[int, bytes] = {}
        self.seeds: dict[int, bytes] = {}
        self.seed_entry: dict[int, int] = {}

    def receive(self, seat: int, item: dict) -> None:
        t = item.get("t")
        if t == MSG_KEY and isinstance(item.get("commit"), bytes):
            self.commits.setdefault(seat, item["commit"])
        elif t == MSG_SHUFFLE and isinstance(item.get("deck"), bytes):
            self.shuffled.setdefault(seat, item["deck"])
        elif t == MSG_REVEAL and isinstance(item.get("seed"), bytes) and seat not in self.seeds:
            self.seeds[seat] = item["seed"]
            self.seed_entry[seat] = self.owner.entry_index
        self.deal.entry_index = self.owner.entry_index
        super().receive(seat, item)

    def check_open_seeds(self) -> tuple[int, str, int] | None:
        """For a deck not verified when the audit stops (the game ended, or a violation
        was found, before every seed was open): check the seeds that *were* opened, each
        against its commitment and its seat's shuffle step.  A peer that holds every seed
        but its own may have found a mismatch there and stopped without sending its own
        seed; the log still proves it.  Returns ``(seat, reason, entry of the seed)`` for
        the first seat (in seat order) that fails, or None."""
        deal = self.deal
        joint = deal.joint_key
        n = deal.n
        if self.verified or joint is None or len(self.shuffled) < n \
                or deal.phase in ("keys", "shuffle"):  # every shuffle accepted by the deal
            return None
        try:
            return self._check_open_seeds(joint)
        except Exception:  # noqa: BLE001 - odd leftovers of a broken game prove nothing
            return None

    def _check_open_seeds(self, joint: bytes) -> tuple[int, str, int] | None:
        deal, n = self.deal, self.deal.n
        decks = [dc.initial_deck()] + [dc.unpack_deck(self.shuffled[j]) for j in range(n)]
        for j in sorted(self.seeds):
            seed = self.seeds[j]
            if dc.commit_seed(deal.context_parts(), j, seed) != self.commits.get(j):
                return j, ("bad_opening: the revealed seed does not match the seat's "
                           "commitment"), self.seed_entry[j]
            step = dc.shuffle_step(decks[j], joint, dc.expand_permutation(seed),
                                   dc.expand_randomizers(seed))
            if step != decks[j + 1]:
                return j, (f"shuffle_mismatch: seat {j}'s shuffle step is not the one its "
                           "opened seed commits to"), self.seed_entry[j]
        return None

    def cards_by_position(self) -> list[Card]:
        """Every position's card, from the opened seeds (only once the deal has verified
        them: then each shuffle step is exactly the one its seed gives)."""
        if not self.verified:
            raise LocalError("the deck's seeds are not verified")
        n = self.deal.n
        perms = [dc.expand_permutation(self.seeds[s]) for s in range(n)]
        k = self.deal.cut_index or 0
        out = []
        for p in range(dc.DECK_SIZE):
            i = (p + k) % dc.DECK_SIZE
            for perm in reversed(perms):  # D_{s+1}[i] = D_s[perm_s[i]]; D_0[i] is card i
                i = perm[i]
            out.append(Card(i))
        return out


class _LateFault(GameFault):
    """A violation found after the fact (in the full-knowledge replay of a hand), at an
    earlier entry than the one being applied."""

    def __init__(self, code: ErrorCode, detail: str, blamed_seat: int, entry_index: int) -> None:
        super().__init__(code, detail, blamed_seat)
        self.entry_index = entry_index


@dataclass
class _Trace:
    """One deck instance's engine events, with deck positions and the entry of each."""

    events: list[tuple[object, tuple[int, ...], int]] = field(default_factory=list)


class _ObserverDriver(GameDriver):
    """The game driver from no seat (``seat`` None): every seat's deal items and actions
    are received and checked; its hands show no private card.  After each hand it replays
    the hand with every card known (from the verified seeds) and records it."""

    def __init__(self, table: TableInfo, proof_checks: _ProofChecks | None = None) -> None:
        super().__init__(table, None, b"")  # type: ignore[arg-type]
        self.proof_checks = proof_checks
        self.entry_index = 0
        self.hand_ends: list[int] = []  # the entry that ended each recorded hand
        self.trace = _Trace()
        self.names = [s.name for s in table.seats]
        self.recorder = MatchRecorder(1, self.names)
        self.full: Match | None = None  # the match with every card known
        self.draws: list[dict[int, Card]] = []
        self.first_dealer: int | None = None

    def _new_deck(self, cutter: int | None) -> None:
        # As GameDriver._new_deck, with a deck of no seat.
        self.deck = _ObserverDeck(self.table, self.hand_no, self.instance, cutter, self)
        self.top = 0
        self._engine_events = 0
        self._finishing = None
        self.trace = _Trace()

    def _start_hand(self) -> None:
        assert self.match is not None and self.match.hand is not None
        # The match is omniscient (viewer None); its fresh hand is masked for no seat.
        self.match = self.match.with_hand(self.match.hand._with(viewer=_NO_SEAT))
        super()._start_hand()

    def _set_hand(self, hand: Hand) -> None:
        for ev in hand.events[self._engine_events:]:
            positions: tuple[int, ...] = ()
            if isinstance(ev, DealEvent):
                positions = tuple(range(self.top - len(ev.recipients), self.top))
            self.trace.events.append((ev, positions, self.entry_index))
        super()._set_hand(hand)

    def _first_dealer(self) -> bool:
        before = len(self._events)
        progressed = super()._first_dealer()
        for ev in self._events[before:]:
            if isinstance(ev, FirstDealerDrawn):
                self.draws.append(dict(ev.draws))
        if self.match is not None and self.first_dealer is None:
            self.first_dealer = self.match.first_dealer
            self.full = Match.new(self.table.rules, self.n, self.first_dealer)
        return progressed

    def _after_finish(self) -> None:
        kind = self._finishing
        if kind in ("redeal", "hand"):
            self._replay_known(kind)
        super()._after_finish()
        if kind == "hand" and self.match is not None and self.full is not None \
                and self.full.totals != self.match.totals:  # the two replays must agree
            raise LocalError("the full-knowledge replay disagrees with the live one")

    # ------------------------------------------------------------ full knowledge

    def _replay_known(self, kind: str) -> None:
        deck, full = self.deck, self.full
        assert isinstance(deck, _ObserverDeck) and full is not None and full.hand is not None
        cards = deck.cards_by_position()
        hand = full.hand
        for ev, positions, index in self.trace.events:
            try:
                if isinstance(ev, DealEvent):
                    hand = hand.deal([cards[p] for p in positions])
                elif isinstance(ev, CutEvent):
                    hand = hand.choose_cut(ev.keep, ev.card)
                elif isinstance(ev, PlayEvent):
                    hand = hand.play(ev.seat, ev.card, ev.capture)
                elif not isinstance(ev, SweepEvent):
                    raise LocalError(f"unexpected engine event {ev!r}")
            except IllegalMove as exc:
                seat = getattr(ev, "seat", None)
                raise _LateFault(ErrorCode.ILLEGAL_MOVE, f"{exc.rule}: {exc} (found with "
                                 "every hand known, after the hand)",
                                 seat if seat is not None else 0, index) from None
            except InvalidDeal as exc:  # cannot happen once the seeds are verified
                raise LocalError(f"full-knowledge replay: {exc}") from None
        if kind == "redeal":
            if not hand.needs_redeal:
                raise LocalError("full-knowledge replay: the redeal was not due")
            self.recorder.note_redeal(hand)
            self.full = full.with_hand(hand).redeal()
            return
        if not hand.is_over:
            raise LocalError("full-knowledge replay: the hand is not over")
        self.full = full.with_hand(hand).finish_hand()
        self.recorder.note_hand(self.full, hand)
        self.hand_ends.append(self.entry_index)


class _SeatlessIdentity:
    """Stands in for an identity where the session's constructor wants one; an auditor
    never signs anything."""

    def __init__(self, public: bytes) -> None:
        self.public = public


class _AuditSession(Session):
    """The session from no seat: the very checks every peer runs on every entry it
    receives, applied to every seat's entries (it never makes entries of its own)."""

    def __init__(self, table: TableInfo, genesis: Entry,
                 proof_checks: _ProofChecks | None = None) -> None:
        super().__init__(_SeatlessIdentity(table.seats[0].key), table, 0,  # type: ignore
                         genesis, master=bytes(32))
        self.seat = None  # type: ignore[assignment]
        # The session made a seat's driver; it has not started yet: use ours instead.
        # (Without workers, proofs are checked inline by the deal, as a peer does.)
        parallel = proof_checks if proof_checks is not None and proof_checks.workers >= 2 \
            else None
        self.game: _ObserverDriver = _ObserverDriver(table, parallel)

    def _apply(self, entry: Entry) -> None:
        self.game.entry_index = self.chain.length - 1
        super()._apply(entry)


# ---------------------------------------------------------------------------- report


@dataclass(frozen=True)
class AbortClaim:
    """An ``abort`` entry found in the log: who signed it and what it says."""

    index: int
    by_seat: int
    code: str
    blamed: int | None
    why: str


@dataclass
class AuditReport:
    """What :func:`audit_log` found.

    ``verdict``: :data:`VALID`, :data:`INVALID` or :data:`INCOMPLETE`.  For an invalid log,
    ``entry`` is the index (0 = the genesis) of the first offending entry, ``code`` the
    wire code name (``illegal_move``, ``deal_failure``, ``bad_signature``...), ``blamed``
    the seat to blame or None when no signature pins it on a seat (the file was altered),
    ``reason`` a sentence.  For an incomplete one, ``code`` is ``aborted`` (with the
    :attr:`aborts` that ended the game) or ``truncated`` or ``unfinished``.

    ``records`` are the game records (:mod:`chkobba_p2p.record`) of every hand the audit
    completed, with every card known, and the match record once the match is complete.
    """

    path: str
    verdict: str
    code: str | None = None
    blamed: int | None = None
    reason: str = ""
    entry: int | None = None
    entries: int = 0
    header: dict = field(default_factory=dict)
    table: TableInfo | None = None
    records: list[dict] = field(default_factory=list)
    draws: list[dict[int, Card]] = field(default_factory=list)
    first_dealer: int | None = None
    aborts: list[AbortClaim] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    winner: int | None = None
    totals: tuple[int, ...] = ()
    #: The abort that ended the game gave as evidence an entry that passes every check.
    claim_refuted: bool = False
    #: For an invalid log: the offending entry in a few words (kind, signer, contents).
    offending: str | None = None

    @property
    def exit_code(self) -> int:
        return {VALID: EXIT_VALID, INVALID: EXIT_INVALID, INCOMPLETE: EXIT_INCOMPLETE}[
            self.verdict]

    @property
    def players(self) -> int:
        return self.table.players if self.table else 0

    def seat_label(self, seat: int | None) -> str:
        if seat is None:
            return "no seat (the file was altered; no signature pins it on a player)"
        if self.table is not None and 0 <= seat < self.table.players:
            s = self.table.seats[seat]
            return f"seat {seat} ({s.name}, key {s.fingerprint})"
        return f"seat {seat}"

    def summary(self) -> str:
        """One line: the verdict and why."""
        if self.verdict == VALID:
            return (f"VALID: {self.entries} entries; every signature, the chain, the deal's "
                    "proofs and reveals, every move and every score check out")
        where = f"entry #{self.entry}: " if self.entry is not None else ""
        head = "INVALID" if self.verdict == INVALID else "INCOMPLETE"
        blame = ""
        if self.verdict == INVALID:
            blame = f" -- blamed: {self.seat_label(self.blamed)}"
        elif self.blamed is not None:  # the abort's claim, which the log cannot prove
            blame = f" -- the abort blames {self.seat_label(self.blamed)}"
        return f"{head} ({self.code}): {where}{self.reason}{blame}"

    def to_dict(self) -> dict:
        """Plain data for JSON (the verdict; the records are separate)."""
        return {"path": self.path, "verdict": self.verdict, "code": self.code,
                "blamed": self.blamed, "reason": self.reason, "entry": self.entry,
                "entries": self.entries, "winner": self.winner, "totals": list(self.totals),
                "aborts": [a.__dict__ for a in self.aborts], "warnings": list(self.warnings)}


# ---------------------------------------------------------------------------- audit


def default_workers() -> int:
    """Worker processes for the shuffle proofs: 2 when there are cores to spare for them
    beside the auditor's own (3 or more), else none (on 2 cores, measured: no gain)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (cores or 1) >= 3 else 0


def audit_log(path: str | Path, *, workers: int | None = None) -> AuditReport:
    """Audit the log file at ``path``.  Raises :class:`LogUnreadable` if it is not a log.

    ``workers``: processes that check shuffle proofs while the audit goes on (default
    :func:`default_workers`; 0 or 1: everything in this process).  The verdict is the same
    either way."""
    log = read_log(path)
    return audit_bodies(log.bodies, header=log.header, tail=log.tail, path=log.path,
                        workers=workers)


def _header_warnings(header: dict, table: TableInfo) -> list[str]:
    out = []
    game, seat, key = header.get("game"), header.get("seat"), header.get("key")
    if game != table.game:
        out.append("the log header names another game than the genesis (the header is not "
                   "signed)")
    if not (isinstance(seat, int) and 0 <= seat < table.players
            and table.seats[seat].key == key):
        out.append("the log header's seat and key do not match the genesis (the header is "
                   "not signed)")
    return out


def _envelope_blame(entry: Entry, exc: ProtocolError, session: _AuditSession
                    ) -> tuple[int | None, str]:
    """Whom an envelope fault inside a log can be pinned on, and the sentence."""
    table = session.table
    code = exc.error_code
    if code == ErrorCode.BAD_SIGNATURE:
        for s in table.seats:
            if s.seat != entry.seat and verify_signature(s.key, ENTRY_DOMAIN, entry.payload,
                                                         entry.signature):
                return s.seat, (f"an entry in seat {entry.seat}'s name is signed with seat "
                                f"{s.seat}'s key")
        return None, (f"the signature of an entry in seat {entry.seat}'s name does not verify: "
                      "the entry was altered after it was signed (or forged)")
    chained = entry.prev == session.head
    if code in (ErrorCode.OUT_OF_TURN, ErrorCode.BAD_SEQUENCE,
                ErrorCode.PROTOCOL_VIOLATION) and chained:
        # Correctly signed and extending the transcript: its signer made it.
        return entry.seat, f"{exc.detail or code.sentence} (signed by seat {entry.seat})"
    if code in (ErrorCode.BAD_CHAIN, ErrorCode.BAD_SEQUENCE):
        return None, ("the entry does not extend the transcript: an entry before it is "
                      f"missing, reordered or replaced ({exc.detail or code.sentence})")
    return None, exc.detail or code.sentence


def _describe_entry(body: bytes) -> str:
    """An entry in a few words, for humans: what it claims to be and hold."""
    try:
        e = wire.open_entry(body)
    except ProtocolError:
        return f"{len(body)} bytes that are not a signed entry"
    f = e.fields
    out = f"{e.kind} entry n={e.seq} in seat {e.seat}'s name"
    items = f.get("d")
    if isinstance(items, list) and items:
        out += ", deal items " + " ".join(str(i.get("t")) if isinstance(i, dict) else "?"
                                          for i in items)
    action = f.get("a")
    if isinstance(action, dict):
        def show(k: str, v: object) -> str:
            def c(x: object) -> str:
                ok = isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 40
                return Card(x).text if ok else repr(x)  # type: ignore[arg-type]
            if k == "card":
                return f"card={c(v)}"
            if k == "take" and isinstance(v, list):
                return "take=[" + " ".join(c(x) for x in v) + "]"
            return f"{k}={v!r}"
        out += f", action {action.get('t')} " + " ".join(
            show(k, v) for k, v in sorted(action.items()) if k != "t")
    if e.kind in ("done", "abort"):
        extra = {k: v for k, v in f.items() if k in ("result", "code", "blamed", "why")}
        out += f", {extra}"
    return out


def _check_evidence(session: _AuditSession, abort: Entry, report: AuditReport) -> None:
    """An abort's evidence that this log lacks (the peer aborted on an entry this log's
    writer never got, as when another seat's abort arrives first): if it is the entry that
    would come next here, check it as if it had arrived.  A game fault it holds is then
    the first violation (raised); an entry that the envelope checks refuse (altered on the
    way, as the abort may say) proves nothing about its signer and is only noted."""
    ev = abort.fields.get("evidence")
    if not isinstance(ev, bytes):
        return
    try:
        e = wire.open_entry(ev)
    except ProtocolError as exc:
        report.warnings.append(f"the evidence of seat {abort.seat}'s abort is not a signed "
                               f"entry ({exc})")
        return
    if e.kind == "abort" or e.game != session.table.game or e.prev != session.head:
        return  # not the entry that would come next in this log
    try:
        session.receive(e)
    except ProtocolError as exc:
        report.warnings.append(f"the evidence of seat {abort.seat}'s abort is refused: "
                               f"{exc}")
        return
    report.warnings.append(f"the evidence of seat {abort.seat}'s abort (an entry this log "
                           "lacks) passes every check: its claim is not supported")
    report.claim_refuted = True


def _abort_claim(index: int, entry: Entry, players: int) -> AbortClaim:
    f = entry.fields
    known = ErrorCode.from_wire(f.get("code"))
    code = known.name.lower() if known is not None else f"code {f.get('code')!r}"
    blamed = f.get("blamed")
    if not (isinstance(blamed, int) and not isinstance(blamed, bool) and 0 <= blamed < players):
        blamed = None
    why = f.get("why")
    if not isinstance(why, str):
        why = ""
    return AbortClaim(index, entry.seat, code, blamed, why[:1000])


def audit_bodies(bodies: Sequence[bytes], *, header: dict | None = None,
                 tail: str | None = None, path: str = "<memory>",
                 workers: int | None = None) -> AuditReport:
    """Audit a transcript given as its entries' frame bodies (genesis first), as a log
    file holds them.  ``tail`` is how the file ended (see :class:`LogFile`); ``workers``
    as for :func:`audit_log`."""
    report = AuditReport(path, INCOMPLETE, header=dict(header or {}))
    checks = _ProofChecks(default_workers() if workers is None else workers)
    try:
        return _audit(bodies, header, tail, report, checks)
    finally:
        checks.close()


def _audit(bodies: Sequence[bytes], header: dict | None, tail: str | None,
           report: AuditReport, checks: _ProofChecks) -> AuditReport:
    session: _AuditSession | None = None

    def finish(verdict: str, code: str | None, reason: str, *, blamed: int | None = None,
               entry: int | None = None) -> AuditReport:
        cut = None  # hands that ended at or after this entry are not reported
        deck = session.game.deck if session is not None else None
        if isinstance(deck, _ObserverDeck) and session is not None \
                and session.phase != Phase.DONE \
                and (found := deck.check_open_seeds()) is not None \
                and (verdict != INVALID or entry is None or found[2] <= entry):
            # A seed opened (by this entry or before) proves a shuffle step wrong: the
            # peers that held every other seed found it there, before anything after it.
            blamed, reason, entry = found
            verdict, code = INVALID, ErrorCode.DEAL_FAILURE.name.lower()
            report.aborts = [a for a in report.aborts if a.index < entry]
        failed = checks.first_failure()
        if failed is not None and (verdict != INVALID or entry is None or failed[0] <= entry):
            # A shuffle proof (checked in parallel) failed before anything else did.
            entry, blamed, reason = failed
            verdict, code = INVALID, ErrorCode.DEAL_FAILURE.name.lower()
            cut = entry
            report.aborts = [a for a in report.aborts if a.index < entry]
        report.verdict, report.code, report.reason = verdict, code, reason
        report.blamed, report.entry = blamed, entry
        if verdict == INVALID and entry is not None and entry < len(bodies):
            report.offending = _describe_entry(bodies[entry])
        if verdict == INVALID and session is not None and entry is not None:
            seen = {a.index for a in report.aborts}
            report.aborts.extend(a for a in _later_aborts(bodies, entry + 1, session.table)
                                 if a.index not in seen)
        if session is not None:
            drv = session.game
            report.records = list(drv.recorder.records)
            report.draws = list(drv.draws)
            report.first_dealer = drv.first_dealer
            if drv.full is not None:
                report.totals = tuple(drv.full.totals)
                report.winner = drv.full.winner
            if cut is not None:
                kept = sum(1 for end in drv.hand_ends if end < cut)
                report.records = report.records[:kept]
                report.winner = None
                report.totals = tuple(report.records[-1]["totals"]) if report.records else ()
        return report

    if not bodies:
        return finish(INCOMPLETE, "unfinished", "the log holds no entry, not even the genesis")
    for i, body in enumerate(bodies):
        report.entries = i
        try:
            entry = wire.open_entry(body)
        except ProtocolError as exc:
            return finish(INVALID, ErrorCode.MALFORMED.name.lower(),
                          f"not a signed entry ({exc})", entry=i)
        if session is None:
            try:
                table = TableInfo.from_entry(entry)
            except ProtocolError as exc:
                return finish(INVALID, exc.error_code.name.lower(),
                              f"the genesis entry is refused: {exc}", entry=0)
            if not verify_signature(table.seats[0].key, ENTRY_DOMAIN, entry.payload,
                                    entry.signature):
                return finish(INVALID, "bad_signature", "the genesis entry is not signed by "
                              "the key it gives the host (seat 0)", entry=0)
            report.table = table
            if header is not None:
                report.warnings.extend(_header_warnings(header, table))
            session = _AuditSession(table, entry, checks)
            continue
        evidence = False
        try:
            if entry.kind == "abort" and not session.finished:
                session.check(entry)  # the abort's own signature first
                evidence = True
                _check_evidence(session, entry, report)
                evidence = False
            session.receive(entry)
        except ProtocolError as exc:
            blamed, why = _envelope_blame(entry, exc, session)
            return finish(INVALID, exc.error_code.name.lower(), why, blamed=blamed, entry=i)
        except _LateFault as exc:
            return finish(INVALID, exc.error_code.name.lower(), exc.detail,
                          blamed=_seat_or_none(exc.blamed_seat, session), entry=exc.entry_index)
        except GameFault as exc:
            note = (f" (in the entry that the abort at #{i} gives as its evidence, which this "
                    "log lacks)") if evidence else ""
            return finish(INVALID, exc.error_code.name.lower(), exc.detail + note,
                          blamed=_seat_or_none(exc.blamed_seat, session), entry=i)
        except Exception as exc:  # noqa: BLE001 - a hostile file must never crash the auditor
            return finish(INVALID, "unprocessable", f"the auditor cannot process this entry "
                          f"({type(exc).__name__}: {exc})", entry=i)
        if entry.kind == "abort":
            report.aborts.append(_abort_claim(i, entry, session.table.players))
    report.entries = len(bodies)
    assert session is not None
    if tail is not None and tail != "truncated":
        return finish(INVALID, "malformed", f"the file is damaged after entry "
                      f"#{len(bodies) - 1}: {tail}", entry=len(bodies))
    if session.phase == Phase.DONE:
        if tail == "truncated":
            report.warnings.append("a torn frame after the end of the match was ignored")
        drv = session.game
        if drv.full is None or drv.full.winner is None or session.done is None \
                or drv.full.winner != session.done.winner_side:
            return finish(INVALID, "unprocessable", "the full-knowledge replay does not reach "
                          "the signed result", entry=len(bodies) - 1)
        result = result_sentence(drv.full.winner, drv.full.totals, session.table.players)
        return finish(VALID, None, f"complete: {result}")
    if session.aborted is not None or report.aborts:
        a = report.aborts[0]
        refuted = "; its own evidence refutes it" if report.claim_refuted else ""
        return finish(INCOMPLETE, "aborted", f"seat {a.by_seat} ended the game: {a.code}: "
                      f"{a.why or 'no reason given'}{refuted}; no violation in the entries "
                      "before it", blamed=None if report.claim_refuted else a.blamed,
                      entry=a.index)
    if tail == "truncated":
        return finish(INCOMPLETE, "truncated", f"the file ends in the middle of a frame after "
                      f"entry #{len(bodies) - 1} (a crash, or a cut file); no violation before")
    return finish(INCOMPLETE, "unfinished", f"the log stops after entry #{len(bodies) - 1}, "
                  f"before the match is complete ({session.phase}); no violation before")


def _later_aborts(bodies: Sequence[bytes], start: int, table: TableInfo) -> list[AbortClaim]:
    """The correctly signed ``abort`` entries after a violation: what the peers said."""
    out = []
    for i in range(start, len(bodies)):
        try:
            e = wire.open_entry(bodies[i])
        except ProtocolError:
            continue
        if e.kind == "abort" and e.game == table.game and e.seat < table.players \
                and verify_signature(table.seats[e.seat].key, ENTRY_DOMAIN, e.payload,
                                     e.signature):
            out.append(_abort_claim(i, e, table.players))
    return out


def _seat_or_none(seat: int | None, session: _AuditSession) -> int | None:
    if isinstance(seat, int) and 0 <= seat < session.table.players:
        return seat
    return None


def hand_lines(record: dict) -> list[str]:
    """A hand record, play by play, as text lines."""
    out = [f"hand {record['number']}: dealer seat {record['dealer']}, cutter seat "
           f"{record['cutter']}"]
    for i, r in enumerate(record.get("redeals", []), 1):
        out.append(f"  redeal {i}: opening table {' '.join(r['table'])} -> dealt again")
    for ev in record["events"]:
        (kind, b), = ev.items()
        if kind == "deal":
            by: dict[str, list[str]] = {}
            for who, c in zip(b["to"], b["cards"], strict=True):
                by.setdefault("table" if who is None else f"seat {who}", []).append(c or "??")
            what = "; ".join(f"{k}: {' '.join(v)}" for k, v in by.items())
            out.append(f"  {'draw' if b['draw'] else 'deal'}  {what}")
        elif kind == "cut":
            out.append(f"  cut   seat {b['seat']} " + ("keeps the drawn card" if b["keep"]
                                                       else f"places {b['card']} on the table"))
        elif kind == "play":
            take = f" takes {' + '.join(b['capture'])}" if b["capture"] else " (stays)"
            out.append(f"  play  seat {b['seat']}: {b['card']}{take}"
                       + ("  CHKOBBA" if b["chkobba"] else ""))
        elif kind == "sweep" and b["cards"]:
            out.append(f"  end   seat {b['seat']} takes the rest: {' '.join(b['cards'])}")
    out.extend("  " + line for line in score_lines(record))
    return out


def score_lines(record: dict) -> list[str]:
    """A hand's points breakdown, per side."""
    s = record["score"]
    cats = s["categories"]
    name = "team" if record.get("players") == 4 else "seat"
    first = 1 if name == "team" else 0  # teams are numbered from 1, seats from 0

    def who(cat: str) -> str:
        w = cats.get(cat)
        return "beji" if w is None else f"{name} {w + first}"
    parts = [f"{cat} {who(cat)}" for cat in cats]
    return [f"cards {s['cards']}, diamonds {s['diamonds']}, sevens {s['sevens']}"
            + (f", sixes {s['sixes']}" if "barmila" in cats else ""),
            f"points: {', '.join(parts)}, chkobbas {s['chkobbas']} -> "
            f"{' / '.join(str(p) for p in s['points'])} "
            f"(totals {' / '.join(str(t) for t in record['totals'])})"]
