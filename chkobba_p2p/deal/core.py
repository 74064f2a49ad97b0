"""The mental-poker deal of one shuffle instance, as a sans-IO state machine.

One :class:`Deal` object per peer per shuffle instance (a hand's deck, a redeal, the
first-dealer draw).  It never touches a socket or a clock: the caller feeds it what other
peers sent (:meth:`Deal.receive`) and what the local rules engine decided (:meth:`Deal.open`,
:meth:`Deal.cut`, :meth:`Deal.play`, :meth:`Deal.finish`); every call returns an
:class:`Output` holding the messages to broadcast to every other peer and the events for
the local application.  ``docs/deal.md`` describes the messages on the wire.

Life of an instance (``n`` seats, positions ``0..39``):

1. **keys** — every seat sends ``deal/key``: a fresh public key ``Y_j`` with a Schnorr
   proof, and the hash commitment to its shuffle seed.  The joint key is ``H = sum Y_j``.
2. **shuffle** — in seat order, seat ``j`` takes deck ``D_j`` (``D_0`` is the public
   deck, card ``i`` at position ``i``) and sends ``D_{j+1}``: permuted and re-randomized
   with the permutation and randomizers its seed expands to.
3. **cut** — if the instance has a cutter, the cutter sends the cut ``k``: position ``p``
   is then ``D_n[(p + k) % 40]``.  A rotation cannot bias a deck that one honest seat
   shuffled uniformly.
4. **deal** — the rules engine opens positions, step by step, privately to a seat or
   publicly; each seat that owes decryption shares for the step sends one ``deal/shares``
   message for all of them with one Chaum–Pedersen proof.  A seat shows one of its own
   positions (plays it, or places it on the table) with ``deal/play``: its share and proof.
5. **reveal** — at the end (every card public, or the instance discarded) every seat sends
   ``deal/reveal``, its seed; everyone checks it against the commitment and recomputes every
   other seat's shuffle step.
6. **audit** — a card that decrypts to no card, or to a card already seen, is proof that a
   shuffle step was dishonest.  If everyone saw it (a public card) everyone reveals at
   once; if only its owner saw it, the owner sends ``deal/complain`` with its own shares,
   which lets everyone check the claim before revealing.  The reveal then names the
   shuffler to blame.

Remote misbehaviour raises :class:`PeerMisbehaved` (seat, wire code, sentence, offending
message); the object is then dead.  Local misuse raises :class:`DealUsageError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import rbcl

from ..game.cards import Card
from ..game.errors import shown
from . import crypto as dc
from . import passed, shuffle_proof
from .crypto import DECK_SIZE, Ciphertext, u64
from .errors import DealUsageError, PeerMisbehaved
from .group import IDENTITY, L, hash_bytes, random_scalar
from .messages import (
    MSG_COMPLAIN,
    MSG_CUT,
    MSG_KEY,
    MSG_PLAY,
    MSG_PROOF,
    MSG_REVEAL,
    MSG_SHARES,
    MSG_SHUFFLE,
    ComplainItem,
    CutItem,
    DealItem,
    KeyItem,
    PlayItem,
    ProofItem,
    RevealItem,
    SharesItem,
    ShuffleItem,
    item_label,
    parse_item,
)

__all__ = [
    "Deal",
    "DeckEvent",
    "Output",
    "ShuffleDone",
    "CutDone",
    "StepOpened",
    "CardShown",
    "AuditStarted",
    "Verified",
    "Event",
    "MAX_PENDING_PER_SEAT",
    "ProofJob",
    "JobResult",
    "run_job",
]

#: Messages that arrive before this peer can use them are held; more than this many from
#: one seat is a flood.
MAX_PENDING_PER_SEAT = 16

_PURPOSE_PLAY = b"play"
_PURPOSE_COMPLAIN = b"complain"

# Position states in ``_dealt``.
_UNDEALT = -1
_PUBLIC = -2

_valid: Callable[[bytes], bool] = rbcl.crypto_core_ristretto255_is_valid_point
_add: Callable[[bytes, bytes], bytes] = rbcl.crypto_core_ristretto255_add
_mul: Callable[[bytes, bytes], bytes] = rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero


# -- events ---------------------------------------------------------------------------


class DeckEvent:
    """The base of the deal core's events (a shuffle or cut done, a step opened, a card
    shown, the audit): what :class:`Deal` tells the transcript's driver, which turns them
    into the game's events.  They never reach a seat's ``on_event``."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ShuffleDone(DeckEvent):
    """Every seat has shuffled; the deck is final (up to the cut, if there is a cutter)."""


@dataclass(frozen=True, slots=True)
class CutDone(DeckEvent):
    """The cutter cut at ``k``: position ``p`` is shuffled position ``(p + k) % 40``."""

    k: int


@dataclass(frozen=True, slots=True)
class StepOpened(DeckEvent):
    """Dealing step ``step`` is complete here.

    ``mine``: the positions dealt privately to this seat, with their cards (only this
    seat learns them).  ``public``: the positions opened to everyone, with their cards.
    ``private``: for every seat, the positions dealt to it privately in this step.
    """

    step: int
    mine: dict[int, Card]
    public: dict[int, Card]
    private: dict[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class CardShown(DeckEvent):
    """``seat`` showed (played, or placed on the table) its position ``pos``: ``card``."""

    seat: int
    pos: int
    card: Card


@dataclass(frozen=True, slots=True)
class AuditStarted(DeckEvent):
    """A card came out wrong; every seat reveals its seed to find the dishonest shuffler."""

    reason: str


@dataclass(frozen=True, slots=True)
class Verified(DeckEvent):
    """Every seat's seed matched its commitment and every shuffle step was recomputed."""


Event = ShuffleDone | CutDone | StepOpened | CardShown | AuditStarted | Verified


@dataclass(slots=True)
class Output:
    """What one call produced: ``messages`` to broadcast to every other seat, in order, and
    ``events`` for the local application."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ProofJob:
    """One piece of deferred proof work (:meth:`Deal.take_job`), with every input it needs
    as immutable values: :func:`run_job` computes it from these alone, so it may run in
    another thread (or process) while the :class:`Deal` that handed it out goes on in its
    own; only :meth:`Deal.job_done` (in the deal's thread) applies the result.

    ``kind`` is ``"prove"`` (this seat's own shuffle proof: ``perm``, ``rands`` and
    ``commit_rands`` are its secret witness and commitment randomness, from its seed)
    or ``"verify"`` (seat ``seat``'s ``proof``)."""

    kind: str
    seat: int
    hand: int
    instance: int
    context: bytes
    joint: bytes
    inp: tuple[Ciphertext, ...]
    out: tuple[Ciphertext, ...]
    proof: bytes | None = None
    perm: tuple[int, ...] | None = field(default=None, repr=False)
    rands: tuple[int, ...] | None = field(default=None, repr=False)
    commit_rands: tuple[int, ...] | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class JobResult:
    """What :func:`run_job` found: the proof made (``prove``), or for ``verify`` None when
    the proof verified, else ``refused`` = ``(wire code, sentence)``."""

    proof: bytes | None = None
    refused: tuple[str, str] | None = None


def run_job(job: ProofJob) -> JobResult:
    """Do ``job``: a pure function of its inputs (no :class:`Deal`, no shared state)."""
    if job.kind == "prove":
        assert job.perm is not None and job.rands is not None
        return JobResult(proof=shuffle_proof.prove_shuffle(
            job.context, job.joint, job.inp, job.out, job.perm, job.rands,
            commit_rands=job.commit_rands))
    assert job.proof is not None
    try:
        shuffle_proof.verify_shuffle(job.context, job.joint, job.inp, job.out, job.proof)
    except shuffle_proof.ShuffleProofError as exc:
        return JobResult(refused=(exc.code, str(exc)))
    return JobResult()


class _Defer(Exception):
    """The message is not usable yet (it is early); keep it and retry later."""


# -- message field checks ---------------------------------------------------------------


def _fields(sender: int, msg: dict[str, Any], required: set[str],
            optional: frozenset[str] = frozenset()) -> None:
    keys = set(msg)
    if not required <= keys or not keys <= required | optional:
        raise PeerMisbehaved(sender, "malformed",
                             f"a {item_label(msg)} message must have exactly the fields "
                             f"{sorted(required)}", msg)


def _int(sender: int, msg: dict[str, Any], name: str, lo: int, hi: int) -> int:
    v = msg[name]
    if type(v) is not int or not lo <= v <= hi:
        raise PeerMisbehaved(sender, "malformed", f"field {name!r} must be an integer in "
                             f"{lo}..{hi}", msg)
    return v


def _bytes(sender: int, msg: dict[str, Any], name: str, length: int) -> bytes:
    v = msg[name]
    if not isinstance(v, bytes) or len(v) != length:
        raise PeerMisbehaved(sender, "malformed", f"field {name!r} must be {length} bytes", msg)
    return v


def _points(sender: int, msg: dict[str, Any], data: bytes) -> list[bytes]:
    """The 32-byte points of ``data``, each a canonical ristretto255 encoding (the same
    bytes found so in this process already, by another peer of a table simulated here,
    are not decoded again: :mod:`.passed`)."""
    pts = [data[i : i + 32] for i in range(0, len(data), 32)]
    key = passed.statement(b"points", data)
    if passed.passed(key):
        return pts
    for p in pts:
        if not _valid(p):
            raise PeerMisbehaved(sender, "bad_point",
                                 "a point in the message is not a canonical ristretto255 "
                                 "group element", msg)
    passed.note(key)
    return pts


class Deal:
    """One peer's side of one shuffle instance.

    Keyword arguments:

    ``session_id`` (bytes), ``hand`` and ``instance`` (ints >= 0) identify the instance; they
    are bound into every proof and commitment.  ``n`` is the number of seats (2, 3 or 4) and
    ``seat`` this peer's seat.  ``cutter`` is the seat that cuts after the shuffle (None: no
    cut).  ``shuffle_proofs`` (default on): every shuffle step carries a zero-knowledge proof
    (:mod:`chkobba_p2p.deal.shuffle_proof`) checked before the deck is used; all seats must agree
    on this setting.  Turning it off leaves only the commit-reveal check at the end of the
    instance: the deal stays fair and every cheat is still blamed, but a shuffler that
    replaces the whole deck by encryptions in an order it knows reads every card until the
    reveal catches it (see ``docs/deal.md``, "Security").  ``seed`` and ``secret_key`` are
    for tests and test vectors only: by default both come from the OS CSPRNG, as they must
    in real play (or from a key derivation over a secret drawn from it).

    ``seat=None`` makes a deal seen from no seat (a spectator, an auditor): it receives
    every seat's messages and checks them exactly as a seat does, sends none, holds no card
    and owes no share; once every seed is open it re-checks every seat's shuffle step.
    Internally its seat number is ``n`` (one past the last seat).  ``proof_check``, if
    given, is called as ``proof_check(seat, context, joint_key, deck_in, deck_out, proof)``
    instead of verifying a shuffle proof here and now (an auditor hands proofs to worker
    processes); every other check of the step still runs here.

    **Verification off the serial path** (``docs/deal.md``, "Order of the work"): a
    received shuffle step is stored once its cheap checks pass (points, distinct
    ciphertexts, a proof present), and the next shuffler shuffles on top of it at once; the
    zero-knowledge proofs are checked alongside, and no decryption share of this seat
    (``deal/shares``, ``deal/play``, ``deal/complain``) leaves before every shuffle proof
    of the instance has verified here: :meth:`open` holds its shares back until then.  A
    bad proof still blames its prover.  ``defer_work`` (default off): the proofs to make
    and check are left to the caller, who sends what a call returned first, then calls
    :meth:`work` while :attr:`has_work` (in a thread, or between messages); off, every
    call does that work itself before it returns.  :meth:`take_job` hands the same work
    out as a :class:`ProofJob` of immutable inputs, :func:`run_job` (a pure function, safe
    in another thread) computes it, :meth:`job_done` applies the result here.
    ``proof_apart`` (default off; every
    seat must agree): a shuffler sends its deck in ``deal/shuffle`` at once and its proof
    after, in ``deal/proof``, so that the next seat shuffles while the proof is made.

    Any call may raise :class:`PeerMisbehaved`: a call also handles the held messages that
    it makes usable.
    """

    def __init__(self, *, session_id: bytes, hand: int, instance: int, n: int,
                 seat: int | None, cutter: int | None = None, shuffle_proofs: bool = True,
                 seed: bytes | None = None, secret_key: int | None = None,
                 proof_check: Callable[..., None] | None = None, defer_work: bool = False,
                 proof_apart: bool = False) -> None:
        if not isinstance(session_id, bytes) or not session_id:
            raise DealUsageError("session_id must be non-empty bytes", code="bad_session_id")
        for name, v in (("hand", hand), ("instance", instance)):
            if type(v) is not int or not 0 <= v < 2**63:
                raise DealUsageError(f"{name} must be an integer >= 0", code="not_a_count",
                                     data={"name": name})
        if n not in (2, 3, 4):
            raise DealUsageError("n must be 2, 3 or 4", code="players_unsupported",
                                 data={"players": shown(n)})
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise DealUsageError("seat must be None or in 0..n-1", code="seat_out_of_range",
                                 data={"seat": shown(seat)})
        if cutter is not None and (type(cutter) is not int or not 0 <= cutter < n):
            raise DealUsageError("cutter must be None or a seat", code="cutter_out_of_range",
                                 data={"seat": shown(cutter)})
        if seed is not None and (not isinstance(seed, bytes) or len(seed) != dc.SEED_BYTES):
            raise DealUsageError("seed must be 32 bytes", code="bad_seed")
        if secret_key is not None and not 0 < secret_key < L:
            raise DealUsageError("secret_key must be in 1..L-1", code="bad_secret_key")
        self.session_id = session_id
        self.hand = hand
        self.instance = instance
        self.n = n
        #: Seen from no seat (``seat=None``): receives everything, sends nothing.
        self.observing = seat is None
        self.seat = n if seat is None else seat
        self.cutter = cutter
        self.shuffle_proofs = bool(shuffle_proofs)
        self.proof_check = proof_check
        self.defer_work = bool(defer_work)
        self.proof_apart = bool(proof_apart) and self.shuffle_proofs
        self._x = secret_key if secret_key is not None else random_scalar()
        self._seed = seed if seed is not None else dc.new_seed()
        self._phase = "keys" if self.observing else "new"  # no key of its own to send
        self._keys: list[bytes | None] = [None] * n
        self._commits: list[bytes | None] = [None] * n
        self._shuffles: list[dict[str, Any]] = []
        self._cut: int | None = None
        self._steps: list[dict[str, Any]] = []
        self._step_got: list[list[bool]] = []
        self._dealt = [_UNDEALT] * DECK_SIZE
        self._step_of = [-1] * DECK_SIZE
        self._shares: list[list[bytes | None]] = [[None] * n for _ in range(DECK_SIZE)]
        self._cards: list[int | None] = [None] * DECK_SIZE
        self._played = [False] * DECK_SIZE
        self._reveals: list[bytes | None] = [None] * n
        self._pending: list[tuple[int, dict[str, Any]]] = []
        self._audit: str | None = None
        self._complainer: int | None = None
        #: Per seat: its shuffle step's proof has verified here (or is ours, or proofs are
        #: off).  A stored step not verified yet is checked by the work queue.
        self._proved = [False] * n
        #: Per seat, with ``proof_apart``: its proof, once its ``deal/proof`` came.
        self._proofs: list[bytes | None] = [None] * n
        #: Our own proof is still to make and send (``proof_apart``).
        self._own_proof_due = False
        #: This seat's dealing-step shares, held until every shuffle proof verified:
        #: ``[step, positions, shares]``.
        self._held_shares: list[list[Any]] = []
        #: Steps opened ahead of the rules (:meth:`open` with ``early``): their positions
        #: are fixed and their shares accepted, but nobody owes them yet (not in
        #: :attr:`expecting`) until :meth:`release` makes the step due.
        self._early: list[int] = []
        #: Early steps whose shares of ours are not made yet (:meth:`release`).
        self._withheld: list[int] = []
        #: Jobs handed out (:meth:`take_job`) and not done yet, by ``(kind, seat)``; not
        #: saved: after a restore they are handed out again.
        self._jobs_out: dict[tuple[str, int], ProofJob] = {}
        self._derive()

    # -- derived state (recomputed on restore) ------------------------------------------

    def _derive(self) -> None:
        self._ctx = [self.session_id, u64(self.hand), u64(self.instance), u64(self.n)]
        self._decks: list[list[Ciphertext]] = [dc.initial_deck()]
        self._decks += [dc.unpack_deck(m["deck"]) for m in self._shuffles]
        self._joint: bytes | None = None
        self._full_ctx: list[bytes] | None = None
        #: Our shuffle step's masks (:func:`~chkobba_p2p.deal.crypto.zero_encryptions`),
        #: computed once the joint key is known while the decks before ours are made.
        self._masks: list[Ciphertext] | None = None
        if all(k is not None for k in self._keys):
            self._set_joint()
        self._final: list[Ciphertext] | None = None
        if len(self._decks) == self.n + 1 and (self.cutter is None or self._cut is not None):
            self._set_final()
        self._need = [self._step_need(s) for s in self._steps]
        #: Steps complete here and not opened yet: they wait for the last proof (derived:
        #: once every proof verified here, every complete step was opened).
        self._unopened: list[int] = [] if self._phase != "deal" or self._may_open else [
            k for k, got in enumerate(self._step_got) if all(got)]
        self._out = Output()

    def _set_joint(self) -> None:
        keys = [k for k in self._keys if k is not None]
        joint = keys[0]
        for k in keys[1:]:
            joint = _add(joint, k)
        self._joint = joint
        self._full_ctx = self._ctx + keys

    def _set_final(self) -> None:
        deck = self._decks[-1]
        k = self._cut or 0
        self._final = deck[k:] + deck[:k]

    def _step_need(self, step: dict[str, Any]) -> list[list[int]]:
        """For each seat, the sorted positions it owes a share for in this step."""
        need = []
        for j in range(self.n):
            pos = list(step["public"])
            for s, ps in step["private"]:
                if s != j:
                    pos.extend(ps)
            need.append(sorted(pos))
        if self.observing:
            need.append([])  # no seat, no shares owed
        return need

    # -- public read-only view ----------------------------------------------------------

    @property
    def held(self) -> int:
        """Messages received ahead of the protocol and held until they can be used (a
        message for a dealing step not open yet).  Holding one is not progress."""
        return len(self._pending)

    @property
    def phase(self) -> str:
        """``new``, ``keys``, ``shuffle``, ``cut``, ``deal``, ``reveal``, ``audit``, ``done``
        or ``failed``."""
        return self._phase

    @property
    def public_key(self) -> bytes:
        """This seat's public key for the instance."""
        return dc.public_key(self._x)

    @property
    def joint_key(self) -> bytes | None:
        return self._joint

    @property
    def cut_index(self) -> int | None:
        return self._cut

    @property
    def deck(self) -> list[Ciphertext] | None:
        """The 40 encrypted positions after shuffle and cut, once every shuffle proof has
        verified here (None before, and once the deal has failed)."""
        if self._final is None or self._phase == "failed" or not self.proofs_verified:
            return None
        return list(self._final)

    def card_at(self, pos: int) -> Card | None:
        """The card at ``pos`` if this seat knows it (its own, or public)."""
        c = self._cards[pos]
        return None if c is None else Card(c)

    def holder(self, pos: int) -> int | None:
        """The seat ``pos`` was dealt to privately, or None (undealt or public)."""
        d = self._dealt[pos]
        return d if d >= 0 else None

    def is_public(self, pos: int) -> bool:
        return self._dealt[pos] == _PUBLIC or self._played[pos]

    def is_played(self, pos: int) -> bool:
        """Whether its holder has shown ``pos`` (played it or placed it on the table)."""
        return self._played[pos]

    def hand_positions(self, seat: int | None = None) -> list[int]:
        """Positions dealt privately to ``seat`` (default: this seat) and not yet shown."""
        seat = self.seat if seat is None else seat
        return [p for p in range(DECK_SIZE) if self._dealt[p] == seat and not self._played[p]]

    def expecting(self) -> list[tuple[int, str]]:
        """The ``(seat, message type)`` pairs this peer is waiting for now.

        Ordering rules: key messages in any order; shuffle messages strictly in seat order
        0..n-1, each after every key; the cut after the last shuffle; in each dealing step
        every seat that owes shares sends one message (any order; a transport that wants a
        strict order may use seat order); reveals in any order.  ``deal/play`` is never
        expected here: the rules engine decides when a seat must play.
        """
        ph = self._phase
        # With proof_apart: every seat whose deck came sends its deal/proof after it.
        proofs = [(j, MSG_PROOF) for j in range(len(self._decks) - 1)
                  if self.proof_apart and j != self.seat and self._proofs[j] is None
                  and not self._proved[j]] if ph in ("shuffle", "cut", "deal") else []
        if ph == "keys":
            return [(j, MSG_KEY) for j in range(self.n) if self._keys[j] is None]
        if ph == "shuffle":
            return proofs + [(len(self._decks) - 1, MSG_SHUFFLE)]
        if ph == "cut":
            return proofs + ([(self.cutter, MSG_CUT)] if self.cutter is not None else [])
        if ph == "deal":
            if proofs:
                # Every seat holds its shares until every proof verified there: while a
                # proof is missing here, the shares are not what the others owe (a stall
                # blames the prover, never a seat that waits for it).
                return proofs
            return [(j, MSG_SHARES) for k in range(len(self._steps)) for j in range(self.n)
                    if not self._step_got[k][j] and j != self.seat and k not in self._early]
        if ph in ("reveal", "audit"):
            return [(j, MSG_REVEAL) for j in range(self.n) if self._reveals[j] is None]
        return []

    def context_parts(self) -> list[bytes]:
        """The instance context hashed into every commitment: session id, hand, instance, n."""
        return list(self._ctx)

    # -- local actions --------------------------------------------------------------------

    def start(self) -> Output:
        """Begin: returns this seat's ``deal/key`` message."""
        self._check_alive()
        if self.observing:
            raise DealUsageError("a deal seen from no seat has no key to send",
                                 code="observer_has_no_key")
        if self._phase != "new":
            raise DealUsageError("start() was already called", code="already_started")
        commit = dc.commit_seed(self._ctx, self.seat, self._seed)
        y, proof = dc.prove_key(self._x, self._ctx, self.seat, commit)
        self._keys[self.seat] = y
        self._commits[self.seat] = commit
        self._phase = "keys"
        self._send({"t": MSG_KEY, "y": y, "commit": commit, "proof": proof})
        return self._run()

    def cut(self, k: int) -> Output:
        """The cutter cuts the shuffled deck at ``k`` (0..39)."""
        self._check_alive()
        if self.seat != self.cutter:
            raise DealUsageError("only the cutter cuts", code="not_the_cutter")
        if self._phase != "cut":
            raise DealUsageError(f"cannot cut in phase {self._phase}", code="wrong_phase",
                                 data={"action": "cut", "phase": self._phase})
        if type(k) is not int or not 0 <= k < DECK_SIZE:
            raise DealUsageError("the cut is an integer in 0..39", code="bad_cut",
                                 data={"cut": shown(k)})
        self._apply_cut(k)
        self._send({"t": MSG_CUT, "k": k})
        return self._run()

    def open(self, private: Mapping[int, Iterable[int]] | None = None,
             public: Iterable[int] = (), *, early: bool = False) -> Output:
        """Start the next dealing step: ``private`` maps seats to the positions dealt to them
        face down; ``public`` lists positions opened face up (table cards, draw cards).

        Every seat must call this with the same arguments in the same order (the rules
        engine decides).  Positions must be fresh (never opened before).  Returns this
        seat's ``deal/shares`` message if it owes shares for the step.

        ``early`` (seat-deal/v1): the step is opened ahead of the rules, so that the
        shares of seats that choose to release them early are accepted and checked;
        nobody owes them yet (:attr:`expecting` leaves the step out) and this seat's
        own shares are made only by :meth:`release`, which also makes the step due.
        """
        self._check_alive()
        if self._phase != "deal":
            raise DealUsageError(f"cannot deal in phase {self._phase}", code="wrong_phase",
                                 data={"action": "deal", "phase": self._phase})
        def positions(ps: Iterable[int]) -> list[int]:
            ps = list(ps)
            for p in ps:
                if type(p) is not int or not 0 <= p < DECK_SIZE:
                    raise DealUsageError(f"no position {p!r}", code="no_such_position",
                                         data={"position": shown(p)})
            return sorted(ps)

        priv: list[list[Any]] = []
        for s, ps in (private or {}).items():
            if type(s) is not int or not 0 <= s < self.n:
                raise DealUsageError(f"no seat {s!r}", code="seat_out_of_range",
                                     data={"seat": shown(s)})
            if ps := positions(ps):
                priv.append([s, ps])
        priv.sort()
        pub = positions(public)
        all_pos = [p for _, ps in priv for p in ps] + pub
        if not all_pos:
            raise DealUsageError("a dealing step opens at least one position", code="empty_step")
        for p in all_pos:
            if self._dealt[p] != _UNDEALT:
                raise DealUsageError(f"position {p} was already dealt", code="position_dealt",
                                     data={"position": p})
        if len(set(all_pos)) != len(all_pos):
            raise DealUsageError("a position appears twice in the step", code="position_twice")
        k = len(self._steps)
        step = {"private": priv, "public": pub}
        self._steps.append(step)
        need = self._step_need(step)
        self._need.append(need)
        self._step_got.append([not need[j] for j in range(self.n)])
        for s, ps in priv:
            for p in ps:
                self._dealt[p] = s
                self._step_of[p] = k
        for p in pub:
            self._dealt[p] = _PUBLIC
            self._step_of[p] = k
        mine = need[self.seat]
        if early:
            self._early.append(k)
            if mine:
                self._withheld.append(k)
                return self._run()
        if mine:
            assert self._final is not None and self._full_ctx is not None
            c1s = [self._final[p][0] for p in mine]
            ds, proof = dc.prove_shares(self._x, self._full_ctx, self.seat,
                                        b"step" + u64(k), mine, c1s)
            # Held until every shuffle proof has verified here (_release_shares).
            self._held_shares.append([k, mine, ds, proof])
            self._release_shares()  # completes the step if it can
        else:
            self._maybe_complete_step(k)
        return self._run()

    def release(self, k: int, *, due: bool = False) -> Output:
        """Release this seat's shares of the early step ``k`` (:meth:`open` with
        ``early``), once; nothing if it owes none or released them already.  ``due``:
        the rules reached the step, which every seat now owes (:attr:`expecting`)."""
        self._check_alive()
        if k not in self._early:
            raise DealUsageError(f"step {k} was not opened early, or is due already",
                                 code="step_not_early", data={"step": k})
        if due:
            self._early.remove(k)
        if k in self._withheld:
            self._withheld.remove(k)
            mine = self._need[k][self.seat]
            assert self._final is not None and self._full_ctx is not None
            c1s = [self._final[p][0] for p in mine]
            ds, proof = dc.prove_shares(self._x, self._full_ctx, self.seat,
                                        b"step" + u64(k), mine, c1s)
            self._held_shares.append([k, mine, ds, proof])
            self._release_shares()
        return self._run()

    def is_early(self, k: int) -> bool:
        """Step ``k`` was opened early and is not due yet (:meth:`release`)."""
        return k in self._early

    def step_complete(self, k: int) -> bool:
        """Every seat's shares of step ``k`` are in (the step opens once every shuffle
        proof verified here)."""
        return 0 <= k < len(self._step_got) and all(self._step_got[k])

    @property
    def steps(self) -> int:
        """Dealing steps opened so far (early ones included)."""
        return len(self._steps)

    @property
    def own_proof_due(self) -> bool:
        """Our own shuffle proof (proof-apart) is still to be made: our deck has gone,
        its ``deal/proof`` not yet."""
        return self._own_proof_due

    @property
    def proofs_verified(self) -> bool:
        """Every seat's shuffle step is in and its proof verified here (always true once
        the shuffle is done without shuffle proofs): shares may go."""
        return len(self._decks) == self.n + 1 and all(self._proved)

    @property
    def has_work(self) -> bool:
        """A proof to make or to check is waiting to be done (:meth:`work`, or
        :meth:`take_job`; ``defer_work`` only).  Jobs handed out and not done yet do not
        count (:attr:`busy`)."""
        if self._phase in ("failed", "audit"):
            return False
        return (self._own_proof_due and ("prove", self.seat) not in self._jobs_out) \
            or self._next_check() is not None

    @property
    def busy(self) -> bool:
        """Jobs handed out by :meth:`take_job` are not done yet."""
        return bool(self._jobs_out)

    def work(self) -> Output:
        """Do one piece of deferred work here and now: make and send our own shuffle proof
        (first: the others wait for it), else check the earliest shuffle proof received and
        not checked yet.  Releases the held shares once every proof has verified.  Raises
        :class:`PeerMisbehaved` blaming the prover of a bad proof."""
        self._check_alive()
        try:
            self._work_one()
        except PeerMisbehaved:
            self._phase = "failed"
            raise
        return self._run()

    def take_job(self) -> ProofJob | None:
        """Hand out the next piece of deferred work (as :meth:`work` would do it) as a
        :class:`ProofJob` for :func:`run_job` to compute elsewhere (another thread); give its
        result back with :meth:`job_done`.  None: nothing to hand out now.  A job handed
        out is not handed out again (until a restore)."""
        self._check_alive()
        job = self._next_job()
        if job is not None:
            self._jobs_out[(job.kind, job.seat)] = job
        return job

    @property
    def jobs_out(self) -> tuple[ProofJob, ...]:
        """The jobs handed out by :meth:`take_job` whose results are not back yet."""
        return tuple(self._jobs_out.values())

    def handed_out(self, job: ProofJob) -> bool:
        """Whether ``job`` came from this deal's :meth:`take_job` and is not done yet."""
        return self._jobs_out.get((job.kind, job.seat)) is job

    def job_done(self, job: ProofJob, result: JobResult) -> Output:
        """The result of a job from :meth:`take_job`: our proof goes out, or a proof
        verified (and, once every proof has, the held shares go).  Raises
        :class:`PeerMisbehaved` blaming the prover of a refused proof, and
        :class:`DealUsageError` for a job this deal has not handed out."""
        self._check_alive()
        if not self.handed_out(job):
            raise DealUsageError("not a job of this deal, or already done", code="unknown_job")
        del self._jobs_out[(job.kind, job.seat)]
        try:
            self._apply_job(job, result)
        except PeerMisbehaved:
            self._phase = "failed"
            raise
        return self._run()

    @property
    def _may_open(self) -> bool:
        """Every shuffle proof verified here and our own has gone: our shares may leave,
        and a step may open (a step whose cards we see lets us show or complain about
        them, which sends our shares)."""
        return self.proofs_verified and not self._own_proof_due

    def _release_shares(self) -> None:
        if not self._may_open:
            return  # (our own proof goes first: its deal/proof before our first share)
        for k, mine, ds, proof in self._held_shares:
            for p, d in zip(mine, ds, strict=True):
                self._shares[p][self.seat] = d
            self._step_got[k][self.seat] = True
            self._send({"t": MSG_SHARES, "step": k, "pos": mine, "d": b"".join(ds),
                        "proof": proof})
        # The held steps and the steps complete here (a step that needs no share of ours)
        # that waited for the last proof.
        steps = sorted({k for k, *_ in self._held_shares} | set(self._unopened))
        self._held_shares = []
        self._unopened = []
        for k in steps:
            if self._phase != "deal":
                break  # a step opened into an audit: the deck is void
            self._maybe_complete_step(k)

    def play(self, pos: int) -> Output:
        """Show this seat's position ``pos`` to everyone (play it, or place it on the table):
        returns the ``deal/play`` message with this seat's share and proof."""
        self._check_alive()
        if self._phase != "deal":
            raise DealUsageError(f"cannot play in phase {self._phase}", code="wrong_phase",
                                 data={"action": "play", "phase": self._phase})
        if type(pos) is not int or not 0 <= pos < DECK_SIZE:
            raise DealUsageError(f"no position {pos!r}", code="no_such_position",
                                 data={"position": shown(pos)})
        if self._dealt[pos] != self.seat or self._cards[pos] is None:
            raise DealUsageError(f"position {pos} is not in this seat's hand",
                                 code="position_not_held", data={"position": pos})
        if self._played[pos]:
            raise DealUsageError(f"position {pos} was already shown", code="position_shown",
                                 data={"position": pos})
        assert self._final is not None and self._full_ctx is not None
        ds, proof = dc.prove_shares(self._x, self._full_ctx, self.seat, _PURPOSE_PLAY, [pos],
                                    [self._final[pos][0]])
        self._shares[pos][self.seat] = ds[0]
        self._played[pos] = True
        card = self._cards[pos]
        assert card is not None
        self._send({"t": MSG_PLAY, "pos": pos, "d": ds[0], "proof": proof})
        self._event(CardShown(self.seat, pos, Card(card)))
        return self._run()

    def finish(self, discard: bool = False) -> Output:
        """End the instance: send this seat's seed so that everyone re-checks every shuffle.

        Without ``discard`` every position must be public (the hand is over; the reveal
        then discloses nothing new).  ``discard=True`` abandons a deck that will not be
        played (a redeal, the first-dealer draw): its unseen cards become known.
        """
        self._check_alive()
        if self._phase not in ("deal", "cut") or len(self._decks) != self.n + 1:
            raise DealUsageError(f"cannot finish in phase {self._phase}", code="wrong_phase",
                                 data={"action": "finish", "phase": self._phase})
        if not discard and not all(self.is_public(p) for p in range(DECK_SIZE)):
            raise DealUsageError("cards are still hidden: finish(discard=True) to abandon "
                                 "this deck", code="cards_hidden")
        if any(not all(g) for g in self._step_got):
            raise DealUsageError("a dealing step is still incomplete", code="step_incomplete")
        self._phase = "reveal"
        self._send_reveal()
        self._try_verify()
        return self._run()

    def receive(self, sender: int, msg: dict[str, Any]) -> Output:
        """Handle a message broadcast by seat ``sender``.

        Raises :class:`PeerMisbehaved` blaming the seat at fault (usually ``sender``); the
        deal is then over.  A message that comes early (before this peer can use it) is
        kept and handled as soon as it can be.
        """
        self._check_alive()
        if type(sender) is not int or not 0 <= sender < self.n or sender == self.seat:
            raise DealUsageError(f"bad sender seat {sender!r}", code="seat_out_of_range",
                                 data={"seat": shown(sender)})
        try:
            if parse_item(msg) is None:
                raise PeerMisbehaved(sender, "malformed", "a message is a map with a 't' "
                                     "string", msg)
            try:
                self._dispatch(sender, msg)
            except _Defer:
                if sum(1 for s, _ in self._pending if s == sender) >= MAX_PENDING_PER_SEAT:
                    raise PeerMisbehaved(sender, "flood", "too many messages sent ahead of "
                                         "the protocol", msg) from None
                self._pending.append((sender, msg))
            return self._run()
        except PeerMisbehaved:
            self._phase = "failed"
            raise

    # -- state save / restore -----------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """This peer's whole state, secrets included, as msgpack-native values.

        Store it only where this seat's secrets may go (it holds the secret key and the
        shuffle seed).  :meth:`from_state` rebuilds an equal object.
        """
        return {
            "v": 1,
            "session_id": self.session_id, "hand": self.hand, "instance": self.instance,
            "n": self.n, "seat": None if self.observing else self.seat, "cutter": self.cutter,
            "shuffle_proofs": self.shuffle_proofs,
            "x": dc._sb(self._x), "seed": self._seed, "phase": self._phase,
            "keys": list(self._keys), "commits": list(self._commits),
            "shuffles": list(self._shuffles), "cut": self._cut,
            "steps": [{"private": [[s, list(ps)] for s, ps in st["private"]],
                       "public": list(st["public"])} for st in self._steps],
            "step_got": [list(g) for g in self._step_got],
            "dealt": list(self._dealt), "step_of": list(self._step_of),
            "shares": [list(s) for s in self._shares], "cards": list(self._cards),
            "played": list(self._played), "reveals": list(self._reveals),
            "pending": [[s, m] for s, m in self._pending],
            "audit": self._audit, "complainer": self._complainer,
            "defer_work": self.defer_work, "proof_apart": self.proof_apart,
            "proved": list(self._proved), "proofs": list(self._proofs),
            "own_proof_due": self._own_proof_due,
            "held_shares": [[k, list(ps), list(ds), pr] for k, ps, ds, pr in self._held_shares],
            "early": list(self._early), "withheld": list(self._withheld),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Deal:
        """Rebuild a peer from :meth:`to_state` output (after a crash, say)."""
        if state.get("v") != 1:
            raise DealUsageError("unknown deal state version", code="unknown_state_version")
        try:
            d = cls(session_id=state["session_id"], hand=state["hand"],
                    instance=state["instance"], n=state["n"], seat=state["seat"],
                    cutter=state["cutter"], shuffle_proofs=state["shuffle_proofs"],
                    seed=state["seed"], secret_key=int.from_bytes(state["x"], "little"),
                    defer_work=state.get("defer_work", False),
                    proof_apart=state.get("proof_apart", False))
            d._phase = state["phase"]
            d._keys = list(state["keys"])
            d._commits = list(state["commits"])
            d._shuffles = list(state["shuffles"])
            d._cut = state["cut"]
            d._steps = [{"private": [[s, list(ps)] for s, ps in st["private"]],
                         "public": list(st["public"])} for st in state["steps"]]
            d._step_got = [list(g) for g in state["step_got"]]
            d._dealt = list(state["dealt"])
            d._step_of = list(state["step_of"])
            d._shares = [list(s) for s in state["shares"]]
            d._cards = list(state["cards"])
            d._played = list(state["played"])
            d._reveals = list(state["reveals"])
            d._pending = [(s, m) for s, m in state["pending"]]
            d._audit = state["audit"]
            d._complainer = state["complainer"]
            # A state saved before proofs were checked alongside: every stored step had
            # been checked on arrival.
            d._proved = list(state.get("proved", [j < len(d._shuffles) for j in range(d.n)]))
            d._proofs = list(state.get("proofs", [None] * d.n))
            d._own_proof_due = bool(state.get("own_proof_due", False))
            d._held_shares = [[k, list(ps), list(ds), pr]
                              for k, ps, ds, pr in state.get("held_shares", [])]
            d._early = [int(k) for k in state.get("early", [])]
            d._withheld = [int(k) for k in state.get("withheld", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise DealUsageError(f"corrupt deal state: {exc}", code="corrupt_state") from None
        d._derive()
        return d

    # -- internals: output ----------------------------------------------------------------

    def _check_alive(self) -> None:
        if self._phase == "failed":
            raise DealUsageError("this deal has failed: a peer was blamed", code="deal_failed")

    def _send(self, msg: dict[str, Any]) -> None:
        self._out.messages.append(msg)

    def _event(self, ev: Event) -> None:
        self._out.events.append(ev)

    def _run(self) -> Output:
        """Advance as far as possible (own shuffle turn, held messages), then flush."""
        try:
            self._advance()
            while not self.defer_work and self._work_one():
                self._advance()
        except PeerMisbehaved:
            self._phase = "failed"
            raise
        out, self._out = self._out, Output()
        return out

    def _next_check(self) -> int | None:
        """The earliest seat whose stored shuffle step awaits its proof check (its proof
        in hand, the check not handed out), or None."""
        for j in range(len(self._decks) - 1):
            if not self._proved[j] and (not self.proof_apart or self._proofs[j] is not None) \
                    and ("verify", j) not in self._jobs_out:
                return j
        return None

    def _next_job(self) -> ProofJob | None:
        """The next piece of the proof work (own proof first), or None."""
        if self._phase in ("failed", "audit"):
            return None
        if self._own_proof_due and ("prove", self.seat) not in self._jobs_out:
            me = self.seat
            assert self._joint is not None
            ctx = self._shuffle_context(me)
            return ProofJob("prove", me, self.hand, self.instance, ctx,
                            self._joint, tuple(self._decks[me]), tuple(self._decks[me + 1]),
                            perm=tuple(dc.expand_permutation(self._seed)),
                            rands=tuple(dc.expand_randomizers(self._seed)),
                            commit_rands=tuple(dc.expand_commit_randomizers(self._seed, ctx)))
        j = self._next_check()
        if j is None:
            return None
        assert self._joint is not None
        theirs = self._proofs[j] if self.proof_apart else self._shuffles[j].get("proof")
        assert isinstance(theirs, bytes)
        return ProofJob("verify", j, self.hand, self.instance, self._shuffle_context(j),
                        self._joint, tuple(self._decks[j]), tuple(self._decks[j + 1]),
                        proof=theirs)

    def _work_one(self) -> bool:
        """One piece of the proof work (own proof first), done here; False if there was
        none."""
        job = self._next_job()
        if job is None:
            return False
        if job.kind == "verify" and self.proof_check is not None:
            # The caller's hook (an auditor's worker processes) raises itself if it can.
            self.proof_check(job.seat, job.context, job.joint, list(job.inp), list(job.out),
                             job.proof)
            result = JobResult()
        else:
            result = run_job(job)
        self._apply_job(job, result)
        return True

    def _apply_job(self, job: ProofJob, result: JobResult) -> None:
        if self._phase == "audit":
            return  # the deck is void: only the reveals matter now
        j = job.seat
        if job.kind == "prove":
            assert result.proof is not None
            self._own_proof_due = False
            self._proofs[j] = result.proof
            self._send({"t": MSG_PROOF, "proof": result.proof})
        else:
            if result.refused is not None:
                # The evidence is the message that carried the proof.
                msg = {"t": MSG_PROOF, "proof": job.proof} if self.proof_apart \
                    else self._shuffles[j]
                code, why = result.refused
                raise PeerMisbehaved(j, code, f"shuffle proof refused: {why}", msg)
            self._proved[j] = True
        self._release_shares()

    def _advance(self) -> None:
        progress = True
        while progress:
            progress = False
            if self._phase == "keys" and all(k is not None for k in self._keys):
                self._set_joint()
                self._phase = "shuffle"
                self._prepare_shuffle()
                progress = True
            if self._phase == "shuffle" and len(self._decks) - 1 == self.seat \
                    and not self.observing:
                self._own_shuffle()
                progress = True
            if self._phase == "shuffle" and len(self._decks) == self.n + 1:
                self._event(ShuffleDone())
                if self.cutter is None:
                    self._set_final()
                    self._phase = "deal"
                else:
                    self._phase = "cut"
                progress = True
            for i, (sender, msg) in enumerate(self._pending):
                try:
                    self._dispatch(sender, msg)
                except _Defer:
                    continue
                del self._pending[i]
                progress = True
                break

    # -- internals: handlers --------------------------------------------------------------

    def _dispatch(self, sender: int, msg: dict[str, Any]) -> None:
        item = parse_item(msg)
        assert item is not None  # receive() refused anything else
        if self._phase == "new":
            raise _Defer
        if self._phase == "audit" and not isinstance(item, RevealItem):
            return  # the deck is void: only the reveals matter now
        handler = _HANDLERS.get(type(item))
        if handler is None:
            raise PeerMisbehaved(sender, "unknown_message",
                                 f"unknown message type {item.type!r}", msg)
        handler(self, sender, msg)

    def _on_key(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "y", "commit", "proof"})
        if self._phase != "keys" or self._keys[sender] is not None:
            raise PeerMisbehaved(sender, "unexpected", "a second key message", msg)
        y = _bytes(sender, msg, "y", 32)
        commit = _bytes(sender, msg, "commit", 32)
        _bytes(sender, msg, "proof", dc.PROOF_BYTES)
        if not _valid(y):
            raise PeerMisbehaved(sender, "bad_point", "the public key is not a canonical "
                                 "ristretto255 group element", msg)
        if y == IDENTITY:
            raise PeerMisbehaved(sender, "bad_key", "the public key is the identity", msg)
        if not dc.verify_key(y, msg["proof"], self._ctx, sender, commit):
            raise PeerMisbehaved(sender, "bad_key_proof", "the proof of knowledge of the "
                                 "secret key does not verify for this session, hand, "
                                 "instance and seat", msg)
        self._keys[sender] = y
        self._commits[sender] = commit

    def _shuffle_context(self, seat: int) -> bytes:
        assert self._full_ctx is not None
        return hash_bytes(dc.TAG_SHUFFLE_CONTEXT, *self._full_ctx, u64(seat))

    def _prepare_shuffle(self) -> None:
        """With the joint key known and our turn to shuffle still to come, our step's
        masks are computed now (its 80 scalar multiplications): when the deck before
        ours arrives, our step is only their additions, and the next seat gets its deck
        sooner (the shuffles go one seat after another, on every table's critical
        path).  Nothing changes on the wire: the same deck, the same proof."""
        if self.observing or self._joint is None or len(self._decks) - 1 >= self.seat:
            return  # nothing to shuffle, or our turn is now (or gone)
        self._masks = dc.zero_encryptions(self._joint, dc.expand_randomizers(self._seed))

    def _own_shuffle(self) -> None:
        assert self._joint is not None
        inp = self._decks[-1]
        perm = dc.expand_permutation(self._seed)
        rands = dc.expand_randomizers(self._seed)
        out = dc.shuffle_step(inp, self._joint, perm, rands, self._masks)
        dc.note_seeded_step(inp, self._joint, self._seed, out)
        self._masks = None
        msg: dict[str, Any] = {"t": MSG_SHUFFLE, "deck": dc.pack_deck(out)}
        if self.proof_apart:
            self._own_proof_due = True  # made after the deck has gone (_work_one)
        elif self.shuffle_proofs:
            ctx = self._shuffle_context(self.seat)
            msg["proof"] = shuffle_proof.prove_shuffle(
                ctx, self._joint, inp, out, perm, rands,
                commit_rands=dc.expand_commit_randomizers(self._seed, ctx))
        self._shuffles.append(msg)
        self._decks.append(out)
        self._proved[self.seat] = True  # right by construction
        self._send(msg)

    def verify_shuffle_step(self, seat: int, inp: Sequence[Ciphertext],
                            out: Sequence[Ciphertext], msg: dict[str, Any]) -> None:
        """The hook where a shuffle step is checked before its deck is used.

        Here the cheap checks run at once: distinct ciphertexts, and (without
        ``proof_apart``) a proof present.  The zero-knowledge proof itself (with
        ``shuffle_proofs`` on) is checked alongside (:meth:`_apply_job`, from the work
        queue) for this instance's context, the joint key and both decks, before any share
        of this seat leaves; without proofs the step is only checked at the reveal, against
        the seat's opened seed.  Raises :class:`PeerMisbehaved` blaming ``seat``.
        """
        if len({c1 for c1, _ in out}) != DECK_SIZE:
            raise PeerMisbehaved(seat, "duplicate_ciphertext", "the shuffled deck holds the "
                                 "same ciphertext twice", msg)
        if not self.shuffle_proofs:
            return
        if self.proof_apart:
            if "proof" in msg:
                raise PeerMisbehaved(seat, "malformed", "this table sends a shuffle's proof "
                                     "apart, in deal/proof", msg)
            return
        if not isinstance(msg.get("proof"), bytes):
            raise PeerMisbehaved(seat, "missing_shuffle_proof", "this table requires a proof "
                                 "with every shuffle step", msg)

    def _on_shuffle(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "deck"}, frozenset({"proof"}))
        if self._phase == "keys":
            raise _Defer
        nxt = len(self._decks) - 1
        if self._phase != "shuffle" or sender < nxt:
            raise PeerMisbehaved(sender, "unexpected", "a second shuffle step", msg)
        if sender > nxt:
            raise _Defer
        data = _bytes(sender, msg, "deck", DECK_SIZE * dc.CIPHERTEXT_BYTES)
        if "proof" in msg and not isinstance(msg["proof"], bytes):
            raise PeerMisbehaved(sender, "malformed", "field 'proof' must be bytes", msg)
        _points(sender, msg, data)
        out = dc.unpack_deck(data)
        self.verify_shuffle_step(sender, self._decks[-1], out, msg)
        self._shuffles.append(msg)
        self._decks.append(out)
        self._proved[sender] = not self.shuffle_proofs  # else: the work queue checks it

    def _on_proof(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "proof"})
        if not self.proof_apart:
            raise PeerMisbehaved(sender, "unexpected", "this table sends a shuffle's proof "
                                 "inside deal/shuffle", msg)
        if self._phase == "keys" or len(self._decks) - 1 <= sender:
            raise _Defer  # its deck first
        if self._proofs[sender] is not None or self._proved[sender]:
            raise PeerMisbehaved(sender, "unexpected", "a second shuffle proof", msg)
        if not isinstance(msg["proof"], bytes):
            raise PeerMisbehaved(sender, "malformed", "field 'proof' must be bytes", msg)
        self._proofs[sender] = msg["proof"]

    def _apply_cut(self, k: int) -> None:
        self._cut = k
        self._set_final()
        self._phase = "deal"
        self._event(CutDone(k))

    def _on_cut(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "k"})
        if sender != self.cutter:
            raise PeerMisbehaved(sender, "not_cutter", "only the cutter cuts", msg)
        if self._phase in ("keys", "shuffle"):
            raise _Defer
        if self._phase != "cut":
            raise PeerMisbehaved(sender, "unexpected", "a second cut", msg)
        self._apply_cut(_int(sender, msg, "k", 0, DECK_SIZE - 1))

    def _on_shares(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "step", "pos", "d", "proof"})
        k = msg["step"]
        if type(k) is not int or k < 0:
            raise PeerMisbehaved(sender, "malformed", "field 'step' must be an integer >= 0",
                                 msg)
        if k >= len(self._steps):
            if self._phase in ("keys", "shuffle", "cut", "deal"):
                raise _Defer
            raise PeerMisbehaved(sender, "unexpected", "shares for a step that was never "
                                 "dealt", msg)
        need = self._need[k][sender]
        if not need or self._step_got[k][sender]:
            raise PeerMisbehaved(sender, "unexpected", f"no shares are due from this seat for "
                                 f"step {k}", msg)
        if msg["pos"] != need:
            raise PeerMisbehaved(sender, "wrong_positions", f"step {k} needs shares for "
                                 f"positions {need}", msg)
        data = _bytes(sender, msg, "d", 32 * len(need))
        ds = _points(sender, msg, data)
        # No walrus inside the assert: under ``python -O`` it would never bind ``y``.
        y = self._keys[sender]
        assert self._final is not None and self._full_ctx is not None and y is not None
        c1s = [self._final[p][0] for p in need]
        if not dc.verify_shares(y, ds, msg["proof"], self._full_ctx, sender, b"step" + u64(k),
                                need, c1s):
            raise PeerMisbehaved(sender, "bad_share_proof", f"the decryption shares for step "
                                 f"{k} do not match the seat's key (Chaum–Pedersen proof "
                                 f"fails)", msg)
        for p, d in zip(need, ds, strict=True):
            self._shares[p][sender] = d
        self._step_got[k][sender] = True
        self._maybe_complete_step(k)

    def _decrypt(self, pos: int, own_share: bool) -> int | None:
        """Card id at ``pos`` from the stored shares (plus this seat's own, computed here, if
        ``own_share``), or None if the plaintext is not a card."""
        assert self._final is not None
        c1, c2 = self._final[pos]
        shares = [d for d in self._shares[pos] if d is not None]
        if own_share:
            shares.append(_mul(dc._sb(self._x), c1))
        return dc.POINT_TO_CARD.get(dc.decrypt(c2, shares))

    def _public_cards(self) -> dict[int, int]:
        """Card id -> position for every card everyone knows."""
        return {c: p for p, c in enumerate(self._cards) if c is not None and self.is_public(p)}

    def _my_hidden_cards(self) -> dict[int, int]:
        return {c: p for p, c in enumerate(self._cards)
                if c is not None and self._dealt[p] == self.seat and not self._played[p]}

    def _maybe_complete_step(self, k: int) -> None:
        if not all(self._step_got[k]):
            return
        if not self._may_open:
            # Complete here, yet a proof is unchecked (a step that needs no share of ours:
            # the others' shares completed it): not opened before every proof verified.
            if k not in self._unopened:
                self._unopened.append(k)
            return
        step = self._steps[k]
        public_cards = self._public_cards()
        mine_cards = self._my_hidden_cards()
        opened_pub: dict[int, Card] = {}
        for p in step["public"]:
            c = self._decrypt(p, own_share=False)
            if c is None or c in public_cards:
                what = "no card" if c is None else f"a second {Card(c)}"
                self._start_audit(f"public position {p} decrypts to {what}")
                return
            if c in mine_cards:
                self._complain([mine_cards[c]], p, f"public position {p} shows {Card(c)}, "
                               f"which this seat holds")
                return
            public_cards[c] = p
            self._cards[p] = c
            opened_pub[p] = Card(c)
        opened_mine: dict[int, Card] = {}
        for s, ps in step["private"]:
            if s != self.seat:
                continue
            for p in ps:
                c = self._decrypt(p, own_share=True)
                if c is None or c in public_cards or c in mine_cards:
                    also = [mine_cards[c]] if c is not None and c in mine_cards else []
                    dup = public_cards.get(c) if c is not None else None
                    self._complain([p] + also, dup, f"position {p} dealt to this seat "
                                   f"decrypts to "
                                   f"{'no card' if c is None else 'a card already seen'}")
                    return
                mine_cards[c] = p
                self._cards[p] = c
                opened_mine[p] = Card(c)
        self._event(StepOpened(k, opened_mine, opened_pub,
                               {s: tuple(ps) for s, ps in step["private"]}))

    def _on_play(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "pos", "d", "proof"})
        pos = _int(sender, msg, "pos", 0, DECK_SIZE - 1)
        if self._phase in ("keys", "shuffle", "cut"):
            raise _Defer
        if self._phase != "deal":
            raise PeerMisbehaved(sender, "unexpected", f"a play in phase {self._phase}", msg)
        if self._dealt[pos] != sender:
            raise PeerMisbehaved(sender, "not_dealt_to_you", f"position {pos} was not dealt "
                                 f"to seat {sender}", msg)
        if self._played[pos]:
            raise PeerMisbehaved(sender, "already_played", f"position {pos} was already "
                                 f"shown", msg)
        if not all(self._step_got[self._step_of[pos]]):
            raise _Defer
        d = _bytes(sender, msg, "d", 32)
        _points(sender, msg, d)
        # No walrus inside the assert: under ``python -O`` it would never bind ``y``.
        y = self._keys[sender]
        assert self._final is not None and self._full_ctx is not None and y is not None
        if not dc.verify_shares(y, [d], msg["proof"], self._full_ctx, sender, _PURPOSE_PLAY,
                                [pos], [self._final[pos][0]]):
            raise PeerMisbehaved(sender, "bad_share_proof", f"the share for played position "
                                 f"{pos} does not match the seat's key", msg)
        self._shares[pos][sender] = d
        self._played[pos] = True
        c = self._decrypt(pos, own_share=False)
        public_cards = self._public_cards()
        mine = self._my_hidden_cards()
        if c is None or c in public_cards:
            self._cards[pos] = c
            self._start_audit(f"played position {pos} decrypts to "
                              f"{'no card' if c is None else 'a card already public'}")
            return
        if c in mine:
            self._cards[pos] = c
            self._complain([mine[c]], pos, f"played position {pos} shows {Card(c)}, which "
                           f"this seat holds")
            return
        self._cards[pos] = c
        self._event(CardShown(sender, pos, Card(c)))

    # -- audit ----------------------------------------------------------------------------

    def _start_audit(self, reason: str) -> None:
        self._phase = "audit"
        self._audit = reason
        self._event(AuditStarted(reason))
        self._send_reveal()
        self._try_verify()

    def _complain(self, positions: list[int], dup: int | None, reason: str) -> None:
        """Show this seat's own bad card(s) so that everyone can check, then audit.

        ``dup`` is the public position whose card the shown card repeats, if any."""
        assert self._final is not None and self._full_ctx is not None
        positions = sorted(positions)
        c1s = [self._final[p][0] for p in positions]
        ds, proof = dc.prove_shares(self._x, self._full_ctx, self.seat, _PURPOSE_COMPLAIN,
                                    positions, c1s)
        self._send({"t": MSG_COMPLAIN, "pos": positions, "dup": dup, "d": b"".join(ds),
                    "proof": proof})
        self._complainer = self.seat
        self._start_audit(reason)

    def _on_complain(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "pos", "dup", "d", "proof"})
        pos = msg["pos"]
        dup = msg["dup"]
        if dup is not None:
            dup = _int(sender, msg, "dup", 0, DECK_SIZE - 1)
        if (not isinstance(pos, list) or not 1 <= len(pos) <= 2
                or any(type(p) is not int or not 0 <= p < DECK_SIZE for p in pos)
                or pos != sorted(set(pos))):
            raise PeerMisbehaved(sender, "malformed", "a complaint names one or two positions "
                                 "in increasing order", msg)
        if self._phase in ("keys", "shuffle", "cut"):
            raise _Defer
        if self._phase != "deal":
            raise PeerMisbehaved(sender, "unexpected", f"a complaint in phase {self._phase}",
                                 msg)
        for p in pos:
            if self._dealt[p] != sender or self._played[p]:
                raise PeerMisbehaved(sender, "false_complaint", f"position {p} is not a hidden "
                                     f"card of the complaining seat", msg)
        if any(not all(self._step_got[self._step_of[p]]) for p in pos):
            raise _Defer
        if dup is not None and (dup in pos or not self.is_public(dup)
                                or self._cards[dup] is None):
            # The repeated card may still be on its way to us (a play, a step's shares).
            raise _Defer
        data = _bytes(sender, msg, "d", 32 * len(pos))
        ds = _points(sender, msg, data)
        # No walrus inside the assert: under ``python -O`` it would never bind ``y``.
        y = self._keys[sender]
        assert self._final is not None and self._full_ctx is not None and y is not None
        if not dc.verify_shares(y, ds, msg["proof"], self._full_ctx, sender,
                                _PURPOSE_COMPLAIN, pos, [self._final[p][0] for p in pos]):
            raise PeerMisbehaved(sender, "bad_share_proof", "the shares in the complaint do "
                                 "not match the seat's key", msg)
        cards = []
        for p, d in zip(pos, ds, strict=True):
            self._shares[p][sender] = d
            cards.append(self._decrypt(p, own_share=False))
        bad = (None in cards or len(set(cards)) < len(cards)
               or (dup is not None and self._cards[dup] in cards))
        if not bad:
            raise PeerMisbehaved(sender, "false_complaint", "the complained-of cards are "
                                 "valid and unseen", msg)
        self._complainer = sender
        self._start_audit(f"seat {sender} showed that position(s) {pos} decrypt to no card "
                          f"or to a card already seen")

    def _send_reveal(self) -> None:
        if self.observing:
            return  # nothing to reveal
        self._reveals[self.seat] = self._seed
        self._send({"t": MSG_REVEAL, "seed": self._seed})

    def _on_reveal(self, sender: int, msg: dict[str, Any]) -> None:
        _fields(sender, msg, {"t", "seed"})
        if self._phase not in ("reveal", "audit", "done"):
            # Never answer an early reveal with ours: that would expose the hidden cards.
            raise _Defer
        if self._reveals[sender] is not None:
            raise PeerMisbehaved(sender, "unexpected", "a second reveal", msg)
        seed = _bytes(sender, msg, "seed", dc.SEED_BYTES)
        if dc.commit_seed(self._ctx, sender, seed) != self._commits[sender]:
            raise PeerMisbehaved(sender, "bad_opening", "the revealed seed does not match the "
                                 "seat's commitment", msg)
        self._reveals[sender] = seed
        self._try_verify()

    def _try_verify(self) -> None:
        if self._phase not in ("reveal", "audit") or any(r is None for r in self._reveals):
            return
        assert self._joint is not None
        for j in range(self.n):
            if j == self.seat and self._phase != "audit":
                continue  # our own step is right by construction (in an audit, check anyway)
            seed = self._reveals[j]
            assert seed is not None
            if not dc.is_seeded_step(self._decks[j], self._joint, seed, self._decks[j + 1]):
                raise PeerMisbehaved(j, "shuffle_mismatch", f"seat {j}'s shuffle step is not "
                                     f"the one its opened seed commits to", self._shuffles[j])
        if self._phase == "audit":
            # Honest shuffles and proven shares cannot yield a bad card: a complaint that
            # survives this point was checked already, so this is unreachable in practice.
            raise PeerMisbehaved(self._complainer if self._complainer is not None else
                                 self.seat, "unexplained_audit", "every shuffle step is "
                                 "correct, yet a card came out wrong", None)
        self._phase = "done"
        self._event(Verified())


_HANDLERS: dict[type[DealItem], Callable[[Deal, int, dict[str, Any]], None]] = {
    KeyItem: Deal._on_key,
    ShuffleItem: Deal._on_shuffle,
    CutItem: Deal._on_cut,
    SharesItem: Deal._on_shares,
    PlayItem: Deal._on_play,
    ComplainItem: Deal._on_complain,
    RevealItem: Deal._on_reveal,
    ProofItem: Deal._on_proof,
}
