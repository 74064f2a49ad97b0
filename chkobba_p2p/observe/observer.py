"""Watch a game from no seat: check every entry as a seated peer does, and say what happened.

An :class:`Observer` holds no key, no seat and no secret.  Feed it the transcript's signed
entries in order, as they arrive from a table (a spectator) or as a log file holds them
(an auditor, :mod:`chkobba_p2p.observe.audit`); each :meth:`Observer.feed` returns the public
events that entry caused, the very events a seated client renders::

    obs = Observer()
    for body in bodies:               # genesis first; frame bodies or wire.Entry values
        for event in obs.feed(body):
            show(event)
    verdict = obs.end()               # VALID, INVALID (who is blamed) or INCOMPLETE
                                      # (or UNSUPPORTED: a table capability it does not know)

Every entry gets the checks a seat runs (the same :class:`~chkobba_p2p.transcript.session.Session`,
game driver, deal and rules-engine code, from no seat): its signature under the key the
genesis gives its seat, the hash chain, the floor, the sequence numbers; every deal
message's proof (keys, shuffles, decryption shares, plays, complaints) and, once a deck's
seeds are open, every shuffle step recomputed; every move and cut with the rules engine;
every hand's score, the match result and every seat's signed ``done``.  An observer sees
no more than any seat: private cards are unknown (``None``) until shown.  Once a deck's
seeds are open it knows every card of that deck, so after each hand it replays the hand
with every hand known (this also checks the forced-capture variant, which no player can
check for an opponent) and reports the cards each seat was dealt (:class:`DeckRevealed`).

Events (in the order they happen): :class:`~chkobba_p2p.transcript.events.TableReady` (seat None),
:class:`~chkobba_p2p.transcript.events.FirstDealerDrawn`,
:class:`~chkobba_p2p.transcript.events.HandStarted`, the rules engine's
:class:`~chkobba_p2p.game.rules.DealEvent` (another seat's cards None),
:class:`~chkobba_p2p.game.rules.CutEvent`, :class:`~chkobba_p2p.game.rules.PlayEvent` and
:class:`~chkobba_p2p.game.rules.SweepEvent`, :class:`DeckRevealed`,
:class:`~chkobba_p2p.transcript.events.RedealEvent`,
:class:`~chkobba_p2p.transcript.events.HandScored`,
:class:`~chkobba_p2p.transcript.events.MatchOver`,
:class:`~chkobba_p2p.transcript.events.MatchDone`,
:class:`~chkobba_p2p.transcript.events.Aborted` (a seat's claim), and
:class:`~chkobba_p2p.observe.verdict.Verdict` at the first violation.
:class:`~chkobba_p2p.tablestate.TableState` turns them into the picture of the table (with
``seat`` None: every hand face down).

Blame: an entry that is correctly signed and extends the chain but breaks a rule is its
signer's (or, for the deal, the seat the deal's checks name).  An entry whose signature
fails, or that does not extend the chain, cannot be pinned on a seat (no honest peer sends
or logs one: it was altered on the way or in the file), except one that verifies under
*another* seat's key, which that seat signed in someone else's name.  An ``abort`` is a
seat's claim; when it carries as evidence an entry the observer lacks, that entry is
checked as the next one.

Beside it: the verdict and the aborts it reports (:mod:`chkobba_p2p.observe.verdict`), and
the pool that checks shuffle proofs after the fact (:mod:`chkobba_p2p.observe.proofs`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..deal import crypto as dc
from ..deal import shuffle_proof
from ..deal.messages import KeyItem, RevealItem, ShuffleItem, parse_item
from ..errors import VIOLATIONS, IllegalMove, InvalidDeal, RemoteError
from ..game.cards import Card
from ..game.events import CutEvent, DealEvent, PlayEvent, SweepEvent
from ..game.hand import Hand
from ..game.match import Match
from ..game.record import MatchRecorder, Record, result_sentence
from ..transcript.bodies import GameFault
from ..transcript.caps import IMPLEMENTED_CAPABILITIES
from ..transcript.clocks import flag_winner, loser_side
from ..transcript.driver import DeckInstance, GameDriver
from ..transcript.events import FirstDealerDrawn, HandScored, SessionEvent, Standing
from ..transcript.session import Session
from ..transcript.table import Phase, TableInfo
from ..wire import codec as wire
from ..wire.codec import ENTRY_DOMAIN, Entry, ErrorCode, ProtocolError, verify_signature
from .errors import ObserveUsageError
from .events import ObserverEvent
from .proofs import ProofChecks
from .verdict import (
    DECIDED,
    DISPUTED,
    INCOMPLETE,
    INVALID,
    LEFT,
    ON_TIME,
    UNKNOWN_CAPABILITY,
    UNSUPPORTED,
    VALID,
    AbortClaim,
    Note,
    Verdict,
    abort_claim,
    unknown_capabilities,
)

__all__ = ["Observer", "DeckRevealed"]

# ----------------------------------------------------------------------------- events


@dataclass(frozen=True)
class DeckRevealed(ObserverEvent):
    """A deck's seeds are open and verified: every card of it is known.  ``deals`` are the
    instance's deal events with every card filled in (who got what, the opening table);
    ``redeal``: the deck was abandoned for a redeal (its hands were never played)."""

    hand: int
    redeal: bool
    deals: tuple[DealEvent, ...]

    def dealt_to(self, seat: int) -> tuple[Card, ...]:
        """Every card ``seat`` was dealt in this deck, in deal order."""
        return tuple(c for d in self.deals for who, c in zip(d.recipients, d.cards, strict=True)
                     if who == seat and c is not None)


# ------------------------------------------------------------------ the seatless game


class _SeatlessDeck(DeckInstance):
    """A deck instance of no seat; it keeps what each seat committed to and opened, so
    that a seed opened when the game stopped early is still checked, and so that, once
    the deal has verified every seed, every card of the deck is known."""

    def __init__(self, table: TableInfo, hand: int, instance: int, cutter: int | None,
                 owner: _SeatlessDriver) -> None:
        super().__init__(table, None, b"", hand, instance, cutter, [], caps=owner.caps)
        self.owner = owner
        #: Handles of this deck's shuffle proofs in ``owner.proof_checks``, by seat.
        self.proof_tasks: dict[int, int] = {}
        if owner.proof_checks is not None and self.deal.shuffle_proofs:
            self.deal.proof_check = self._defer_proof
        self.commits: dict[int, bytes] = {}
        self.shuffled: dict[int, bytes] = {}
        self.seeds: dict[int, bytes] = {}
        self.seed_entry: dict[int, int] = {}
        #: This deck's engine events, with deck positions and the entry of each (kept
        #: with the deck: under late-reveal/v1 it is replayed during the next hand).
        self.trace: list[tuple[object, tuple[int, ...], int]] = []

    def receive(self, seat: int, item: dict[str, Any]) -> None:
        msg = parse_item(item)
        if isinstance(msg, KeyItem) and msg.commit is not None:
            self.commits.setdefault(seat, msg.commit)
        elif isinstance(msg, ShuffleItem) and msg.deck is not None:
            self.shuffled.setdefault(seat, msg.deck)
        elif isinstance(msg, RevealItem) and msg.seed is not None and seat not in self.seeds:
            self.seeds[seat] = msg.seed
            self.seed_entry[seat] = self.owner.entry_index
        super().receive(seat, item)

    def _defer_proof(self, seat: int, context: bytes, joint: bytes, inp: Sequence[Any],
                     out: Sequence[Any], proof: bytes) -> None:
        checks = self.owner.proof_checks
        assert checks is not None
        self.proof_tasks[seat] = checks.submit(self.owner.entry_index, seat,
                                               (context, joint, list(inp), list(out), proof))

    def open_proofs(self) -> None:
        """Every seed is open and every step recomputed from it (the deal verified the
        deck): the held shuffle proofs are checked with their witnesses."""
        checks = self.owner.proof_checks
        if checks is None or not self.proof_tasks or not self.verified:
            return
        n = self.deal.n
        seats = sorted(self.proof_tasks)
        # The commitment randomness the deal's prover derives from its seed and the
        # proof's context (the one the proof is checked under), where a proof is held.
        rc = {s: dc.expand_commit_randomizers(self.seeds[s],
                                              checks.context_of(self.proof_tasks[s]))
              for s in seats}
        opened = shuffle_proof.opened_chain(
            [(dc.expand_permutation(self.seeds[s]), dc.expand_randomizers(self.seeds[s]),
              rc.get(s)) for s in range(n)])
        checks.open([self.proof_tasks[s] for s in seats], [opened[s] for s in seats])
        self.proof_tasks = {}

    def check_open_seeds(self) -> tuple[int, str, int] | None:
        """For a deck not verified when the game stopped (before every seed was open):
        check the seeds that *were* opened, each against its commitment and its seat's
        shuffle step.  A peer that holds every seed but its own may have found a mismatch
        there and stopped without sending its own seed; the transcript still proves it.
        ``(seat, reason, entry of the seed)`` for the first seat that fails, or None."""
        deal = self.deal
        joint = deal.joint_key
        if self.verified or joint is None or len(self.shuffled) < deal.n \
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
        """Every position's card, from the opened seeds (once the deal has verified them:
        then each shuffle step is exactly the one its seed gives)."""
        if not self.verified:
            raise ObserveUsageError("the deck's seeds are not verified",
                                    code="seeds_not_verified")
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


#: An observer's own finding (:data:`~.verdict.FINDINGS`) and its facts; also a check's
#: violation (:data:`~chkobba_p2p.errors.VIOLATIONS`) and its facts.
_Finding = tuple[str, tuple[tuple[str, str | int], ...]]


def _deal_violation(reason: str) -> str | None:
    """The violation of a deal check found apart (a seed opened, a shuffle proof checked
    in parallel), whose reason reads ``"<deal code>: ..."``."""
    code = "deal_" + reason.partition(":")[0]
    return code if code in VIOLATIONS else None


def _violation(exc: RemoteError) -> _Finding | None:
    """A check's code and facts, when it has a code."""
    return None if exc.violation is None else (exc.violation, exc.facts)


class _LateFault(GameFault):
    """A violation found after the fact (in the full-knowledge replay of a hand), at an
    earlier entry than the one being applied."""

    def __init__(self, code: ErrorCode, detail: str, blamed_seat: int, entry_index: int,
                 violation: str | None = None) -> None:
        super().__init__(code, detail, blamed_seat, violation=violation)
        self.entry_index = entry_index


class _SeatlessDriver(GameDriver):
    """The game driver of no seat, through :class:`GameDriver`'s public hooks: every
    seat's deal items and actions are checked; after each deck it replays the hand with
    every card known (from the verified seeds) and records it."""

    def __init__(self, table: TableInfo, proof_checks: ProofChecks | None) -> None:
        super().__init__(table, None, b"")
        self.proof_checks = proof_checks
        self.entry_index = 0
        self.hand_ends: list[int] = []  # the entry that ended each recorded hand
        self.recorder = MatchRecorder(1, [s.name for s in table.seats])
        self.full: Match | None = None  # the match with every card known

    def make_deck(self, cutter: int | None, hand: int | None = None,
                  instance: int | None = None,
                  outbox: list[dict[str, Any]] | None = None) -> DeckInstance:
        return _SeatlessDeck(self.table, self.hand_no if hand is None else hand,
                             self.instance if instance is None else instance, cutter, self)

    def on_illegal_play(self, play: int, fault: GameFault) -> None:
        """The auditor names the entry of the offending play itself (PROTOCOL.md 7.3):
        under late-reveal/v1 the re-check at the hand's end finds it before the replay
        with every seed open, which names it so otherwise."""
        deck = self.deck
        if isinstance(deck, _SeatlessDeck):
            entries = [i for ev, _, i in deck.trace if isinstance(ev, PlayEvent)]
            if 0 < play <= len(entries) and fault.blamed_seat is not None:
                raise _LateFault(fault.error_code, fault.detail, fault.blamed_seat,
                                 entries[play - 1], fault.violation)
        raise fault

    def on_engine_event(self, event: object, positions: tuple[int, ...]) -> None:
        if isinstance(self.deck, _SeatlessDeck):
            self.deck.trace.append((event, positions, self.entry_index))

    def on_deck_finished(self, kind: str, deck: DeckInstance | None) -> list[SessionEvent]:
        if isinstance(deck, _SeatlessDeck):
            deck.open_proofs()
        if kind == "draw":
            return []
        assert self.match is not None
        if self.full is None:
            self.full = Match.new(self.table.rules, self.n, self.match.first_dealer)
        # The deck's cards ride the session's list of events, which passes them on
        # untouched: an observer's event among the transcript's (Observer.feed).
        return [cast("SessionEvent", self._replay_known(kind, deck))]

    def record_unrevealed(self) -> None:
        """late-reveal/v1: the game stopped (an abort) before every reveal of the hand
        scored before its reveals was in.  That hand counts: it was scored at its last
        play, at every peer (PROTOCOL.md 6.2), and its reveals were not due yet.  Its
        record comes from the cards its plays showed (every card of a hand is shown by
        its end, as the forced-capture re-check there uses them); the seeds that were
        opened are checked apart (:meth:`_SeatlessDeck.check_open_seeds`), its proofs
        in full at the end."""
        deck = self.revealing
        if not isinstance(deck, _SeatlessDeck) or deck.verified or self.match is None:
            return
        cards = [deck.deal.card_at(p) for p in range(dc.DECK_SIZE)]
        if None in cards:
            return  # not a hand played to its end: nothing to record
        if self.full is None:
            self.full = Match.new(self.table.rules, self.n, self.match.first_dealer)
        self._replay_known("hand", deck, cast("list[Card]", cards))
        self.revealing = None

    def _replay_known(self, kind: str, deck: DeckInstance | None,
                      cards: list[Card] | None = None) -> DeckRevealed:
        """The hand of ``deck`` replayed with every card known: ``cards`` by position
        (default: from its verified seeds)."""
        full = self.full
        assert isinstance(deck, _SeatlessDeck) and full is not None and full.hand is not None
        if cards is None:
            cards = deck.cards_by_position()
        hand = full.hand
        number = len(full.results) + 1
        deals: list[DealEvent] = []
        for ev, positions, index in deck.trace:
            try:
                if isinstance(ev, DealEvent):
                    hand = hand.deal([cards[p] for p in positions])
                    deals.append(DealEvent(ev.recipients, tuple(cards[p] for p in positions),
                                           ev.draw))
                elif isinstance(ev, CutEvent):
                    hand = hand.choose_cut(ev.keep, ev.card)
                elif isinstance(ev, PlayEvent):
                    hand = hand.play(ev.seat, ev.card, ev.capture)
                elif not isinstance(ev, SweepEvent):
                    raise ObserveUsageError(f"unexpected engine event {ev!r}",
                                            code="replay_unexpected_event")
            except IllegalMove as exc:
                seat = getattr(ev, "seat", None)
                raise _LateFault(ErrorCode.ILLEGAL_MOVE, f"{exc.rule}: {exc} (found with "
                                 "every hand known, after the hand)",
                                 seat if seat is not None else 0, index, exc.rule) from None
            except InvalidDeal as exc:  # cannot happen once the seeds are verified
                raise ObserveUsageError(f"full-knowledge replay: {exc}",
                                        code="replay_invalid_deal") from None
        if kind == "redeal":
            if not hand.needs_redeal:
                raise ObserveUsageError("full-knowledge replay: the redeal was not due",
                                        code="replay_redeal_not_due")
            self.recorder.note_redeal(hand)
            self.full = full.with_hand(hand).redeal()
            return DeckRevealed(number, True, tuple(deals))
        if not hand.is_over:
            raise ObserveUsageError("full-knowledge replay: the hand is not over",
                                    code="replay_hand_not_over")
        self.full = full.with_hand(hand).finish_hand()
        self.recorder.note_hand(self.full, hand)
        # The entry that ended the hand: the one carrying the last reveal, or under
        # late-reveal/v1 (the deck is no longer the current one) its last play's.
        self.hand_ends.append(self.entry_index if deck is self.deck or not deck.trace
                              else deck.trace[-1][2])
        return DeckRevealed(number, False, tuple(deals))


# --------------------------------------------------------------------------- observer


class Observer:
    """A game watched from no seat.  See the module's documentation.

    ``host_key``: the key the genesis must be signed by (a spectator passes the key of the
    host it shook hands with; default: the key the genesis gives seat 0).  ``workers``:
    processes that check shuffle proofs alongside (default 0: every proof is checked in
    :meth:`feed`, as a seat does); ``batch``: even without workers, each deck's shuffle
    proofs wait for its seeds and are checked with them, at two thirds of the cost (an
    auditor's choice: a spectator wants a bad proof named at once).  With either, the
    verdict of a refused proof comes from :meth:`end`, and is the same.

    Read after any :meth:`feed`: :attr:`table` (once the genesis is in), :attr:`verdict`
    (set at the first violation, and by :meth:`end`), :attr:`hand` (the hand in progress,
    seen from no seat), :attr:`phase`, :attr:`entries` (entries fed), :attr:`aborts`,
    :attr:`warnings`; and :attr:`records`, :attr:`draws`, :attr:`first_dealer`,
    :attr:`totals`, :attr:`winner` (the full-knowledge record of the hands so far).
    """

    def __init__(self, *, host_key: bytes | None = None, workers: int = 0,
                 batch: bool = False, knows: Sequence[str] | None = None) -> None:
        self.host_key = host_key
        #: The table capabilities this observer implements (default: this version's,
        #: :data:`~chkobba_p2p.transcript.caps.IMPLEMENTED_CAPABILITIES`).  A table that plays
        #: one it does not know gets the verdict :data:`UNSUPPORTED` (:func:`unknown_capabilities`).
        self.knows = tuple(IMPLEMENTED_CAPABILITIES if knows is None else knows)
        self._checks = ProofChecks(workers) if workers >= 1 or batch else None
        self.session: Session | None = None
        #: Hands scored live (number, totals) not yet checked against the replay with
        #: every card known (late-reveal/v1: until the hand's reveals are in).
        self._scored: list[tuple[int, tuple[int, ...]]] = []
        self._driver: _SeatlessDriver | None = None
        self.table: TableInfo | None = None
        self.verdict: Verdict | None = None
        #: Entries fed so far (the index the next one gets).
        self.entries = 0
        #: For a violation: how many entries had been fed when it was found.
        self.stopped_at: int | None = None
        self.aborts: list[AbortClaim] = []
        self.warnings: list[str] = []
        #: len(warnings) when each entry came: a late-found violation (a shuffle proof
        #: checked in parallel) takes back what the entries from it on said.
        self._warned_before: list[int] = []
        #: An abort's own evidence (an entry this transcript lacked) passed every check.
        self.claim_refuted = False
        self.draws: list[dict[int, Card]] = []
        self._ended: Verdict | None = None

    # ---------------------------------------------------------------- reading

    @property
    def phase(self) -> str | None:
        """The session's phase (:class:`~chkobba_p2p.transcript.table.Phase`), None before the
        genesis."""
        return self.session.phase if self.session is not None else None

    @property
    def hand(self) -> Hand | None:
        """The hand in progress as everyone sees it (every hand face down)."""
        drv = self._driver
        return drv.hand if drv is not None else None

    @property
    def match(self) -> Match | None:
        return self._driver.match if self._driver is not None else None

    @property
    def records(self) -> list[Record]:
        """The game records (:mod:`chkobba_p2p.game.record`) of every hand completed, with
        every card known, and the match record once the match is complete."""
        return list(self._driver.recorder.records) if self._driver is not None else []

    @property
    def hand_ends(self) -> list[int]:
        """The entry that ended each recorded hand."""
        return list(self._driver.hand_ends) if self._driver is not None else []

    @property
    def first_dealer(self) -> int | None:
        m = self.match
        return m.first_dealer if m is not None else None

    @property
    def totals(self) -> tuple[int, ...]:
        full = self._driver.full if self._driver is not None else None
        return tuple(full.totals) if full is not None else ()

    @property
    def winner(self) -> int | None:
        """The winning side: by the signed result, or the other side of a seat that
        resigned or lost on time."""
        if self._resigned_winner is not None:
            return self._resigned_winner
        full = self._driver.full if self._driver is not None else None
        return full.winner if full is not None else None

    _resigned_winner: int | None = None

    # ---------------------------------------------------------------- feeding

    def feed(self, item: bytes | Entry) -> list[SessionEvent | ObserverEvent]:
        """Check the next entry (a frame body as sent or logged, or an opened
        :class:`~chkobba_p2p.wire.codec.Entry`) and return the events it caused.  At the first
        violation the last event is a :class:`Verdict` and the observer stops checking:
        later entries only add the ``abort`` claims they hold to :attr:`aborts`."""
        i = self.entries
        self.entries += 1
        self._warned_before.append(len(self.warnings))
        if self.verdict is not None or self._ended is not None:
            self._note_later_abort(i, item)
            return []
        if isinstance(item, Entry):
            entry = item
        else:
            try:
                entry = wire.open_entry(bytes(item))
            except ProtocolError as exc:
                if exc.error_code == ErrorCode.ENTRY_TOO_LARGE:  # no honest peer logs one
                    return [self._stop(INVALID, exc.error_code.name.lower(), str(exc),
                                       entry=i, violation=_violation(exc))]
                return [self._stop(INVALID, ErrorCode.MALFORMED.name.lower(),
                                   f"not a signed entry ({exc})", entry=i,
                                   finding=("not_an_entry", (("detail", str(exc)),)),
                                   violation=_violation(exc))]
        session = self.session
        if session is None:
            return self._genesis(entry)
        assert self._driver is not None
        if session.phase == Phase.PLAYING:
            self._play_from = i if self._play_from is None else self._play_from
        elif self._play_from is not None and self._play_to is None:
            self._play_to = i
        evidence = False
        standing = Standing.CLAIMED
        try:
            self._driver.entry_index = i
            if entry.kind == "abort" and not session.finished:
                session.check(entry)  # the abort's own signature first
                evidence = True
                refuted_before = self.claim_refuted
                self._check_evidence(entry)
                evidence = False
                standing = self._standing(entry, refuted_before)
            session.receive(entry)
            events: list[SessionEvent | ObserverEvent] = [*session.take_events()]
            if entry.kind == "ready" and len(session.readies) == session.table.players:
                # The table's capabilities are settled: judge only a table we can follow.
                unknown = unknown_capabilities(session.table.caps, session.readies,
                                               self.knows)
                if unknown:
                    return events + [self._unsupported(unknown, i)]
            for ev in events:
                if isinstance(ev, FirstDealerDrawn):
                    self.draws.append(dict(ev.draws))
                elif isinstance(ev, HandScored):
                    # Checked once the hand's deck is open: at once, or under
                    # late-reveal/v1 when its reveals are in (during the next hand).
                    self._scored.append((ev.number, tuple(ev.totals)))
            full = self._driver.full
            while self._scored:
                number, totals = self._scored[0]
                known = full is not None and len(full.results) >= number
                if not known and self._driver.revealing is not None:
                    break  # late-reveal/v1: the hand's deck is not open yet
                self._scored.pop(0)
                if full is None or not known \
                        or tuple(full.results[number - 1].totals) != totals:
                    raise ObserveUsageError("the full-knowledge replay disagrees with the "
                                            "live one", code="replay_disagrees")
        except ProtocolError as exc:
            blamed, why, found = self._envelope_blame(entry, exc)
            return self._stopped(INVALID, exc.error_code.name.lower(), why, blamed=blamed,
                                 entry=i, finding=found, violation=_violation(exc))
        except _LateFault as exc:
            return self._stopped(INVALID, exc.error_code.name.lower(), exc.detail,
                                 blamed=self._seat_or_none(exc.blamed_seat),
                                 entry=exc.entry_index, violation=_violation(exc))
        except GameFault as exc:
            note = (f" (in the entry that the abort at #{i} gives as its evidence, which "
                    "this transcript lacks)") if evidence else ""
            return self._stopped(INVALID, exc.error_code.name.lower(), exc.detail + note,
                                 blamed=self._seat_or_none(exc.blamed_seat), entry=i,
                                 violation=_violation(exc))
        except Exception as exc:  # noqa: BLE001 - hostile input must never crash the observer
            # The finding holds the exception's class (data a client words); its message,
            # a developer's English, stays in the reason (for logs and JSON).
            error = type(exc).__name__
            return self._stopped(INVALID, "unprocessable", "the observer cannot process "
                                 f"this entry ({error}: {exc})", entry=i,
                                 finding=("cannot_process", (("error", error),)))
        if entry.kind == "abort":
            claim = abort_claim(i, entry, session.table.players, standing)
            ended = session.aborted
            if not self.aborts and ended is not None and ended.flag is not None:
                claim = dataclasses.replace(claim, on_time=True)
            if self.aborts and ended is not None and ended.disputed_by is not None \
                    and self.aborts[0].on_time and entry.seat == ended.disputed_by:
                # The flagged seat's dispute, which stands: neither word counts.
                self.aborts[0] = dataclasses.replace(self.aborts[0], on_time=False,
                                                     standing=Standing.DISPUTED)
                claim = dataclasses.replace(claim, standing=Standing.DISPUTED)
            self.aborts.append(claim)
        return events

    def _unsupported(self, unknown: tuple[str, ...], entry: int) -> Verdict:
        """The table plays capabilities this observer does not know: it stops, blaming
        no one (PROTOCOL.md 3)."""
        shown = ", ".join(c[:40] for c in unknown[:8]) + (", ..." if len(unknown) > 8 else "")
        which = "capability" if len(unknown) == 1 else "capabilities"
        self.stopped_at = self.entries - 1
        self.verdict = Verdict(
            UNSUPPORTED, UNKNOWN_CAPABILITY,
            f"the table plays the {which} {shown}, which this observer does not know: "
            "it cannot audit this match, and concludes nothing about any player (a "
            f"version that knows {'it' if len(unknown) == 1 else 'them'} can audit the "
            "log)", entry=entry, unknown_caps=unknown)
        return self.verdict

    def _standing(self, abort: Entry, refuted_before: bool) -> str:
        """What this transcript shows of an abort's accusation, before it is applied."""
        session = self.session
        assert session is not None and self.table is not None
        claim = abort_claim(0, abort, self.table.players)
        if self.claim_refuted and not refuted_before:
            return Standing.REFUTED  # its evidence, an entry we lacked, passes every check
        ev = abort.fields.get("evidence")
        if isinstance(ev, bytes) and claim.blamed is not None and claim.blamed != abort.seat \
                and ev in session.bodies[:session.length]:
            # It cites an entry of this transcript, which passed every check here (the
            # observer stops at the first one that does not).
            if not self.aborts:
                self.claim_refuted = True
                self.warnings.append(Note(
                    f"the evidence of seat {abort.seat}'s abort is an entry of this "
                    "transcript that passes every check: its claim is refuted",
                    "evidence_in_transcript", (("seat", abort.seat),)))
            return Standing.REFUTED
        return session.standing_of(claim.blamed, abort.seat)

    def _genesis(self, entry: Entry) -> list[SessionEvent | ObserverEvent]:
        try:
            table = TableInfo.from_entry(entry)
        except ProtocolError as exc:
            return [self._stop(INVALID, exc.error_code.name.lower(),
                               f"the genesis entry is refused: {exc}", entry=0,
                               finding=("genesis_refused", (("detail", str(exc)),)),
                               violation=_violation(exc))]
        key = table.seats[0].key
        if self.host_key is not None and self.host_key != key:
            return [self._stop(INVALID, "protocol_violation", "the genesis does not seat "
                               "the host in seat 0", entry=0,
                               finding=("genesis_not_host", ()))]
        if not verify_signature(key, ENTRY_DOMAIN, entry.payload, entry.signature):
            return [self._stop(INVALID, "bad_signature", "the genesis entry is not signed "
                               "by the key it gives the host (seat 0)", entry=0,
                               finding=("genesis_unsigned", ()))]
        self.table = table
        self._driver = _SeatlessDriver(table, self._checks)
        self.session = Session.observe(entry, key, game=self._driver)
        return [*self.session.take_events()]

    def _stopped(self, verdict: str, code: str, reason: str, *, blamed: int | None = None,
                 entry: int | None = None, finding: _Finding | None = None,
                 violation: _Finding | None = None) -> list[SessionEvent | ObserverEvent]:
        events: list[SessionEvent | ObserverEvent] = (
            [*self.session.take_events()] if self.session is not None else [])
        return events + [self._stop(verdict, code, reason, blamed=blamed, entry=entry,
                                    finding=finding, violation=violation)]

    def _stop(self, verdict: str, code: str, reason: str, *, blamed: int | None = None,
              entry: int | None = None, finding: _Finding | None = None,
              violation: _Finding | None = None) -> Verdict:
        """Stop at a verdict; ``finding``: the observer's own (:data:`FINDINGS`) and its
        facts, when no check's words say it; ``violation``: a check's code
        (:data:`~chkobba_p2p.errors.VIOLATIONS`) and its facts."""
        self.stopped_at = self.entries - 1
        found, facts = finding if finding is not None else (None, ())
        coded = None
        if violation is not None:
            # With a finding, the check's facts follow the finding's: a client words a
            # finding's ``detail`` (the check's English) by the check's code.
            coded, facts = violation[0], facts + violation[1]
        v = self._settle(Verdict(verdict, code, reason, blamed, entry, finding=found,
                                 facts=facts, violation=coded))
        if v.verdict == INVALID:
            v = self._convict(v)
        self.verdict = v
        return v

    def _settle(self, v: Verdict) -> Verdict:
        """A seed opened (by the offending entry or before) that proves a shuffle step
        wrong is the first violation: the peers holding every other seed found it there,
        before anything after it."""
        drv, session = self._driver, self.session
        # The deck of a hand scored before its reveals (late-reveal/v1) first: its seeds
        # were opened before any of the current deck's.
        for deck in (drv.revealing, drv.deck) if drv is not None else ():
            if isinstance(deck, _SeatlessDeck) and session is not None \
                    and session.phase != Phase.DONE \
                    and (found := deck.check_open_seeds()) is not None \
                    and (v.verdict != INVALID or v.entry is None or found[2] <= v.entry):
                blamed, reason, entry = found
                self.aborts = [a for a in self.aborts if a.index != entry]
                return Verdict(INVALID, ErrorCode.DEAL_FAILURE.name.lower(), reason, blamed,
                               entry, violation=_deal_violation(reason))
        return v

    def end(self, tail: str | None = None) -> Verdict:
        """No more entries: the final verdict (also :attr:`verdict`).  ``tail`` says how
        the input ended: None (cleanly), ``"truncated"`` (a torn last frame) or a sentence
        describing damage that makes the rest unreadable."""
        if self._ended is not None:
            return self._ended
        v = self.verdict
        warned = len(self.warnings)
        if v is None:
            v = self._settle(self._end_verdict(tail))
            if v.verdict != INVALID:
                v = self._record_unrevealed(v)
        cut = None
        if self._checks is not None:
            failed = self._checks.first_failure()
            if failed is not None and (v.verdict != INVALID or v.entry is None
                                       or failed[0] <= v.entry):
                # A shuffle proof (checked in parallel) failed before anything else did.
                entry, blamed, reason = failed
                v = Verdict(INVALID, ErrorCode.DEAL_FAILURE.name.lower(), reason, blamed, entry,
                            violation=_deal_violation(reason))
                cut = entry
                self.aborts = [a for a in self.aborts if a.index != entry]
                # As the serial check: it stopped there, and said nothing of what followed.
                marks = self._warned_before
                self.warnings = self.warnings[:marks[entry] if entry < len(marks) else warned]
        self._cut = cut
        if v.verdict == INVALID:
            # The aborts after a violation: what the observer itself found is proven,
            # whoever says it; nothing after it is "refuted" by an entry that a late check
            # (a shuffle proof checked in parallel) convicts.
            self.claim_refuted = False
            self.aborts = [dataclasses.replace(a, standing=Standing.PROVEN,
                                               violation=v.violation, facts=v.facts)
                           if a.blamed is not None and a.blamed == v.blamed
                           else dataclasses.replace(a, standing=Standing.CLAIMED)
                           if a.standing == Standing.REFUTED else a
                           for a in self.aborts]
            v = self._convict(v)
        self._ended = self.verdict = v
        return v

    #: The entries fed while the match was played (from the first after the ready
    #: round to the first once it was decided, stopped or done): a violation there
    #: loses the match.
    _play_from: int | None = None
    _play_to: int | None = None

    def _convict(self, v: Verdict) -> Verdict:
        """An INVALID verdict that convicts a seat (an entry it signed breaks a rule:
        ``blamed`` is set only where a signature pins the violation on that seat) while
        the match was played: a loss for its side, as a leave (a cheat loses the match,
        it does not void it; PROTOCOL.md 12.7).  At 3 players the two others are scored
        as they stand, on the totals of the hands the audit kept."""
        session = self.session
        if v.blamed is None or v.entry is None or session is None \
                or self._play_from is None or v.entry < self._play_from \
                or (self._play_to is not None and v.entry >= self._play_to):
            return v
        players = session.table.players
        hands = [r for r in self.kept_records() if r.get("type") == "hand"]
        totals = tuple(hands[-1]["totals"]) if hands else ()
        lost, won = loser_side(v.blamed, players), flag_winner(v.blamed, players, totals)
        if (v.loser, v.winner) == (lost, won):
            return v  # the very verdict already reported (end() after feed's)
        return dataclasses.replace(v, loser=lost, winner=won)

    def close(self) -> None:
        """Stop the proof workers, if any (:meth:`end` does it too)."""
        if self._checks is not None:
            self._checks.close()

    #: Hands that ended at or after this entry are void (a proof refused by a worker).
    _cut: int | None = None

    def kept_records(self) -> list[Record]:
        """:attr:`records`, without the hands a late-found violation voids."""
        records = self.records
        if self._cut is not None:
            kept = sum(1 for end in self.hand_ends if end < self._cut)
            records = records[:kept]
        return records

    def _record_unrevealed(self, v: Verdict) -> Verdict:
        """The hand scored before its reveals, when the game stopped first
        (:meth:`_SeatlessDriver.record_unrevealed`): recorded, and its live score
        checked against the replay with every card known, as at its reveals."""
        drv = self._driver
        if drv is None or drv.revealing is None:
            return v
        try:
            drv.record_unrevealed()
            full = drv.full
            for number, totals in self._scored:
                if full is None or len(full.results) < number \
                        or tuple(full.results[number - 1].totals) != totals:
                    raise ObserveUsageError("the full-knowledge replay disagrees with the "
                                            "live one", code="replay_disagrees")
        except Exception as exc:  # noqa: BLE001 - hostile input must never crash the observer
            error = type(exc).__name__
            return Verdict(INVALID, "unprocessable", "the observer cannot process the hand "
                           f"scored before its reveals ({error}: {exc})",
                           entry=self.entries - 1,
                           finding="cannot_process", facts=(("error", error),))
        self._scored = []
        return v

    def _end_verdict(self, tail: str | None) -> Verdict:
        session, last = self.session, self.entries - 1
        if session is None:
            return Verdict(INCOMPLETE, "unfinished", "no entry, not even the genesis",
                           finding="no_entry")
        if tail is not None and tail != "truncated":
            return Verdict(INVALID, "malformed", f"the file is damaged after entry #{last}: "
                           f"{tail}", entry=self.entries, finding="damaged_after",
                           facts=(("last", last), ("tail", tail)))
        if session.phase == Phase.DONE:
            if tail == "truncated":
                self.warnings.append(Note("a torn frame after the end of the match was "
                                          "ignored", "torn_after_end"))
            full = self._driver.full if self._driver is not None else None
            if full is None or full.winner is None or session.done is None \
                    or full.winner != session.done.winner_side:
                return Verdict(INVALID, "unprocessable", "the full-knowledge replay does not "
                               "reach the signed result", entry=last,
                               finding="short_of_signed")
            result = result_sentence(full.winner, full.totals, session.table.players)
            return Verdict(VALID, None, f"complete: {result}", winner=full.winner,
                           totals=tuple(full.totals))
        ended = session.aborted
        full = self._driver.full if self._driver is not None else None
        if session.phase == Phase.CLOSING or (ended is not None and ended.decided is not None):
            # Every hand is played and the result being signed: it stands, whoever stops
            # now (no seat escapes a lost match by withholding its done).
            if full is None or full.winner is None:
                return Verdict(INVALID, "unprocessable", "the full-knowledge replay does not "
                               "reach the decided result", entry=last,
                               finding="short_of_decided")
            result = result_sentence(full.winner, full.totals, session.table.players)
            why = ("a seat stopped" if ended is not None else "the log stops") + \
                " while the result was being signed"
            return Verdict(VALID, DECIDED, f"decided: {result} ({why}; the result stands)",
                           winner=full.winner, totals=tuple(full.totals),
                           by_seat=ended.by_seat if ended is not None else None)
        if ended is not None or self.aborts:
            a = self.aborts[0]
            over = self._driver is not None and self._driver.over
            players = session.table.players
            won = ended.winner_side(players) if ended is not None else None
            lost = ended.loser_side(players) if ended is not None else None
            if ended is not None and ended.resigned and not over:
                # A resignation, signed by the resigner against its own seat before the
                # match was decided: a complete result, a loss for the resigner's side
                # (at 3 players the two others are scored as they stand).
                self._resigned_winner = won
                who = (result_sentence(won, (), players).rstrip() + " by resignation"
                       if won is not None else "the two others are level, nobody wins")
                return Verdict(VALID, "resigned", f"seat {a.by_seat} resigned (entry "
                               f"#{a.index}): {who}", None, a.index,
                               by_seat=a.by_seat, winner=won, loser=lost)
            if ended is not None and ended.left and not over:
                self._resigned_winner = won
                who = (result_sentence(won, (), players).rstrip()
                       if won is not None else "the two others are level, nobody wins")
                return Verdict(VALID, LEFT, f"seat {a.by_seat} left the match (entry "
                               f"#{a.index}): {who}", a.by_seat, a.index, a.standing,
                               by_seat=a.by_seat, winner=won, loser=lost)
            if ended is not None and ended.flag is not None and not over:
                # A flag on the seat to play (session.flag_holds): a complete result, the
                # match lost on time by the flagged seat's side.  The log proves whose
                # turn it was; the time that ran out is the signer's word.
                self._resigned_winner = won
                who = (result_sentence(won, (), players).rstrip() + " on time"
                       if won is not None else "the two others are level, nobody wins")
                role = " (the host)" if a.by_seat == 0 else ""
                word = "the host" if a.by_seat == 0 else f"seat {a.by_seat}"
                return Verdict(VALID, ON_TIME, f"seat {ended.flag} lost on time (entry "
                               f"#{a.index}), as seat {a.by_seat}{role} says ({a.code}): "
                               f"{who}; the log shows seat {ended.flag} was to play, "
                               f"the time is {word}'s word (its signed clock reading, in "
                               "the log, is its own)",
                               ended.flag, a.index, a.standing, by_seat=a.by_seat,
                               winner=won, loser=lost)
            if ended is not None and ended.disputed_by is not None:
                d = next((x for x in self.aborts[1:] if x.by_seat == ended.disputed_by
                          and x.standing == Standing.DISPUTED), None)
                at = f" (entry #{d.index})" if d is not None else ""
                return Verdict(INCOMPLETE, DISPUTED,
                               f"seat {a.by_seat} flagged seat {ended.disputed_by} (entry "
                               f"#{a.index}) and seat {ended.disputed_by} disputes it{at}: "
                               "its own clock showed time left; one word against the "
                               "other, the match counts for nobody",
                               ended.disputed_by, a.index, Standing.DISPUTED,
                               by_seat=a.by_seat)
            refuted = ("; the entry its abort cites passes every check, which refutes its "
                       "claim") if a.standing == Standing.REFUTED else ""
            supported = a.standing in (Standing.OWED, Standing.SELF)
            return Verdict(INCOMPLETE, "aborted", f"seat {a.by_seat} ended the game{refuted}; "
                           "no violation in the entries before it",
                           a.blamed if supported else None, a.index, a.standing,
                           by_seat=a.by_seat)
        if tail == "truncated":
            return Verdict(INCOMPLETE, "truncated", "the file ends in the middle of a frame "
                           f"after entry #{last} (a crash, or a cut file); no violation "
                           "before", finding="torn_after", facts=(("last", last),))
        return Verdict(INCOMPLETE, "unfinished", f"the transcript stops after entry #{last}, "
                       f"before the match is complete ({session.phase}); no violation before",
                       finding="stops_after", facts=(("last", last), ("phase", session.phase)))

    # ---------------------------------------------------------------- blame

    def _seat_or_none(self, seat: int | None) -> int | None:
        if self.table is not None and isinstance(seat, int) and 0 <= seat < self.table.players:
            return seat
        return None

    def _envelope_blame(self, entry: Entry, exc: ProtocolError
                        ) -> tuple[int | None, str, _Finding | None]:
        """Whom an envelope fault can be pinned on, the sentence, and the observer's own
        finding when it says more than the check (else the check's violation stands)."""
        session = self.session
        assert session is not None
        table = session.table
        code = exc.error_code
        if code == ErrorCode.BAD_SIGNATURE:
            for s in table.seats:
                if s.seat != entry.seat and verify_signature(s.key, ENTRY_DOMAIN, entry.payload,
                                                             entry.signature):
                    return s.seat, (f"an entry in seat {entry.seat}'s name is signed with seat "
                                    f"{s.seat}'s key"), \
                        ("signed_by_other", (("seat", entry.seat), ("signer", s.seat)))
            return None, (f"the signature of an entry in seat {entry.seat}'s name does not "
                          "verify: the entry was altered after it was signed (or forged)"), \
                ("signature_altered", (("seat", entry.seat),))
        chained = entry.prev == session.head
        if code in (ErrorCode.OUT_OF_TURN, ErrorCode.BAD_SEQUENCE,
                    ErrorCode.PROTOCOL_VIOLATION) and chained:
            # Correctly signed and extending the transcript: its signer made it.
            return entry.seat, f"{exc.detail or code.sentence} (signed by seat {entry.seat})", \
                None
        if code in (ErrorCode.BAD_CHAIN, ErrorCode.BAD_SEQUENCE):
            return None, ("the entry does not extend the transcript: an entry before it is "
                          f"missing, reordered or replaced ({exc.detail or code.sentence})"), \
                ("not_extending", ())
        return None, exc.detail or code.sentence, None

    def _check_evidence(self, abort: Entry) -> None:
        """An abort's evidence that this transcript lacks (the peer aborted on an entry
        the observer never got, as when another seat's abort arrives first): if it is the
        entry that would come next, check it as if it had arrived.  A game fault it holds
        is then the first violation (raised); an entry that the envelope checks refuse
        (altered on the way, as the abort may say) proves nothing about its signer and is
        only noted."""
        session = self.session
        assert session is not None
        ev = abort.fields.get("evidence")
        if not isinstance(ev, bytes):
            return
        try:
            e = wire.open_entry(ev)
        except ProtocolError as exc:
            self.warnings.append(Note(f"the evidence of seat {abort.seat}'s abort is not a "
                                      f"signed entry ({exc})", "evidence_not_entry",
                                      (("seat", abort.seat),)))
            return
        if e.kind == "abort" or e.game != session.table.game or e.prev != session.head:
            return  # not the entry that would come next here
        try:
            session.receive(e)
        except ProtocolError as exc:
            self.warnings.append(Note(f"the evidence of seat {abort.seat}'s abort is refused: "
                                      f"{exc}", "evidence_refused", (("seat", abort.seat),)))
            return
        self.warnings.append(Note(f"the evidence of seat {abort.seat}'s abort (an entry this "
                                  "transcript lacks) passes every check: its claim is not "
                                  "supported", "evidence_passes", (("seat", abort.seat),)))
        self.claim_refuted = True

    def _note_later_abort(self, index: int, item: bytes | Entry) -> None:
        """After a violation: a correctly signed ``abort`` is what a peer said."""
        table = self.table
        if table is None or self.verdict is None or self.verdict.verdict != INVALID:
            return
        try:
            e = item if isinstance(item, Entry) else wire.open_entry(bytes(item))
        except ProtocolError:
            return
        if e.kind == "abort" and e.game == table.game and e.seat < table.players \
                and all(a.index != index for a in self.aborts) \
                and verify_signature(table.seats[e.seat].key, ENTRY_DOMAIN, e.payload,
                                     e.signature):
            claim = abort_claim(index, e, table.players)
            if claim.blamed is not None and claim.blamed == self.verdict.blamed:
                # What the observer itself found is proven, whoever says it.
                claim = dataclasses.replace(claim, standing=Standing.PROVEN)
            self.aborts.append(claim)
