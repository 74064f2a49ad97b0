"""The match inside the transcript: :class:`GameDriver` runs the rules engine
(:mod:`chkobba_p2p.game`) and one :class:`DeckInstance` of the deal protocol
(:mod:`chkobba_p2p.deal`) per shuffle, from one seat's view or from none.

An observer overrides the driver's hooks (:meth:`GameDriver.make_deck`,
:meth:`GameDriver.on_engine_event`, :meth:`GameDriver.on_deck_finished`); a seat uses them
as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import (
    CardShown,
    Deal,
    FirstDealerDraw,
    PeerMisbehaved,
    StepOpened,
    Verified,
)
from ..deal.core import JobResult, ProofJob, run_job
from ..deal.group import hash_bytes, hash_to_scalar
from ..deal.messages import (
    ComplainItem,
    CutItem,
    KeyItem,
    PlayItem,
    ProofItem,
    RevealItem,
    SharesItem,
    ShuffleItem,
    item_label,
    parse_item,
)
from ..errors import IllegalMove, InvalidDeal
from ..game.cards import Card
from ..game.events import CutEvent, DealEvent, PlayEvent
from ..game.hand import SPECTATOR, CutterChoice, DealStep, Hand, HandOver, Move, Redeal, Turn
from ..game.match import Match
from ..game.ruleset import Opening
from ..game.seating import Seating
from ..wire.codec import (
    ErrorCode,
)
from .bodies import Action, CutAction, GameFault, PlayAction, action_type
from .caps import (
    CAP_EARLY_DEAL,
    CAP_LATE_REVEAL,
    CAP_NEXT_DECK,
    CAP_PROOF_APART,
    CAP_SEAT_DEAL,
    CAP_SHARES_RIDE,
    CAP_SHUFFLE_PROOFS,
)
from .errors import TranscriptUsageError
from .events import (
    CardsSeen,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    MatchOver,
    RedealEvent,
    SessionEvent,
)
from .table import TableInfo

__all__ = ["Decision", "DeckInstance", "GameDriver"]


@dataclass(frozen=True)
class Decision:
    """A choice the local seat must make now.  ``kind`` is ``"play"`` (pick one of
    ``hand.legal_moves()``) or ``"cut"`` (keep the drawn card or place it).

    The match around it, as this session's rules engine computed it from the signed
    transcript (never a peer's word): ``number``, the hand in progress (1-based);
    ``totals``, the match totals by side before that hand (at 4 players side 0 is seats 0
    and 2); ``target``, the points that win the match."""

    kind: str
    seat: int
    hand: Any  # rules.Hand, this seat's view
    number: int = 0
    totals: tuple[int, ...] = ()
    target: int = 0


_SECRET_TAG = b"chkobba-p2p/v1/deal-secret"


class DeckInstance:
    """One deal instance (:class:`chkobba_p2p.deal.Deal`) as the game driver uses it.

    The seat's secrets for the instance (shuffle seed, secret key, cut) are derived from the
    seat's master secret, the game id, the hand and the instance: the same inputs give the
    same secrets, which is what lets a crashed peer replay its log and carry on.
    """

    def __init__(self, table: TableInfo, seat: int | None, master: bytes, hand: int,
                 instance: int, cutter: int | None, outbox: list[dict[str, Any]], *,
                 caps: Sequence[str] | None = None) -> None:
        """``caps``: the table capabilities in effect (:attr:`Session.caps`; default the
        genesis's)."""
        caps = table.caps if caps is None else caps
        ctx = (table.game, hand.to_bytes(8, "big"), instance.to_bytes(8, "big"))
        seed: bytes | None = None
        x: int | None = None
        self._cut_k = 0
        if seat is not None:  # no seat (an observer): no secrets
            seed = hash_bytes(_SECRET_TAG, master, *ctx, b"seed")[:32]
            x = hash_to_scalar(_SECRET_TAG, master, *ctx, b"key") or 1
            self._cut_k = hash_to_scalar(_SECRET_TAG, master, *ctx, b"cut") % 40
        #: This seat's shuffle seed for the instance: its reveal is the one that opens it.
        self.own_seed = seed
        self.seat = seat
        self.cutter = cutter
        # The first-dealer draw deck is revealed right after the draw, which checks every
        # shuffle before any card is played and hides nothing: commit-reveal is enough there.
        proofs = CAP_SHUFFLE_PROOFS in caps and hand > 0
        # proof-apart/v1: the proof travels after its deck (deal/proof) and a seat's proof
        # work is deferred: done in each call while :attr:`inline`, else handed out as jobs.
        apart = proofs and CAP_PROOF_APART in caps
        self.deal = Deal(session_id=table.game, hand=hand, instance=instance, n=table.players,
                         seat=seat, cutter=cutter, shuffle_proofs=proofs,
                         seed=seed, secret_key=x, proof_apart=apart,
                         defer_work=apart and seat is not None)
        #: Do the deal's deferred proof work in each call (the default, and a replay's);
        #: False: :meth:`take_jobs` hands it out.
        self.inline = True
        #: Per seat and proof, the body of the last entry that carried that
        #: ``deal/proof`` (the evidence when that proof is refused, or when a second
        #: proof is: the entry of that very proof).
        self.proof_entries: dict[int, dict[bytes, bytes]] = {}
        self._out = outbox  # shared with the driver: it outlives the instance
        self._opened: dict[int, StepOpened] = {}
        self._requested: dict[tuple[int, ...], int] = {}
        self.shown_now: dict[int, tuple[int, Card]] = {}  # pos -> (seat, card), this entry
        self.verified = False
        self.finishing = False
        #: Our own reveal has gone out in an entry of the chain (not just queued).
        self.reveal_sent = seat is None  # no seat: no reveal of its own to wait for
        if seat is not None:
            self._run(self.deal.start)

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        try:
            self._take(fn(*args, **kwargs))
            while self.inline and self.deal.defer_work and self.deal.has_work:
                self._take(self.deal.work())
        except PeerMisbehaved as exc:
            item = parse_item(exc.evidence)
            proof = item.proof if isinstance(item, ProofItem) else None
            raise GameFault(ErrorCode.DEAL_FAILURE, f"{exc.code}: {exc.reason}",
                            exc.blamed_seat,
                            self.proof_entries.get(exc.blamed_seat, {}).get(proof)
                            if proof is not None else None,
                            violation=exc.violation, facts=dict(exc.facts)) from None

    def take_jobs(self) -> list[ProofJob]:
        """The deal's proof work to hand out now (none while :attr:`inline`)."""
        jobs: list[ProofJob] = []
        if self.inline or self.deal.phase == "failed":
            return jobs
        while (job := self.deal.take_job()) is not None:
            jobs.append(job)
        return jobs

    def settle(self) -> None:
        """Do every proof check still owed here and now, as a replay does: the jobs
        handed out and not back (computed again here; their results, when they come,
        are ignored), then the work waiting.  For a verdict that cannot wait for them (an
        abort citing an entry whose proof is being checked).  Raises :class:`GameFault`
        when a proof is refused, as :meth:`job_done` does."""
        if self.deal.phase == "failed":
            return
        for job in self.deal.jobs_out:
            self._run(self.deal.job_done, job, run_job(job))
        while self.deal.defer_work and self.deal.has_work:
            self._run(self.deal.work)

    @property
    def working(self) -> bool:
        """Proof work is handed out or waiting to be (never while :attr:`inline`)."""
        return not self.inline and self.deal.phase != "failed" \
            and (self.deal.busy or self.deal.has_work)

    def job_done(self, job: ProofJob, result: JobResult) -> bool:
        """Apply a job's result; False if it is not a job of this instance in flight."""
        if self.deal.phase == "failed" or not self.deal.handed_out(job):
            return False
        self._run(self.deal.job_done, job, result)
        return True

    def _take(self, out: Any) -> None:
        self._out.extend(out.messages)
        for ev in out.events:
            if isinstance(ev, StepOpened):
                self._opened[ev.step] = ev
            elif isinstance(ev, CardShown):
                self.shown_now[ev.pos] = (ev.seat, ev.card)
            elif isinstance(ev, Verified):
                self.verified = True

    def receive(self, seat: int, item: dict[str, Any]) -> None:
        self._run(self.deal.receive, seat, item)

    def send_to(self, outbox: list[dict[str, Any]]) -> None:
        """What this instance makes from now on goes to ``outbox`` (the next hand's deck,
        built during the current hand, becomes the current one: next-deck/v1)."""
        self._out = outbox

    @property
    def ready(self) -> bool:
        """Shuffled (and cut, when there is a cutter): cards can be opened."""
        if self.deal.phase == "cut" and self.cutter == self.seat:
            self._run(self.deal.cut, self._cut_k)
        return self.deal.phase == "deal"

    def open(self, positions: list[int], recipients: tuple[int | None, ...]
             ) -> list[Card | None] | None:
        """Open ``positions`` to ``recipients`` (None: face up); the cards this seat may
        see once every share has arrived, else None (call again later)."""
        key = tuple(positions)
        if key not in self._requested:
            private: dict[int, list[int]] = {}
            public: list[int] = []
            for p, r in zip(positions, recipients, strict=True):
                if r is None:
                    public.append(p)
                else:
                    private.setdefault(r, []).append(p)
            self._requested[key] = self.deal.steps
            self._run(self.deal.open, private, public)
        ev = self._opened.get(self._requested[key])
        if ev is None:
            return None
        return [ev.public[p] if r is None else ev.mine.get(p) if r == self.seat else None
                for p, r in zip(positions, recipients, strict=True)]

    def open_early(self, recipient: int, positions: list[int]) -> int:
        """seat-deal/v1: open, ahead of the rules, the step of ``positions`` dealt to
        ``recipient`` (:meth:`Deal.open` with ``early``); returns its step number."""
        k = self.deal.steps
        self._run(self.deal.open, {recipient: positions}, [], early=True)
        return k

    def release(self, k: int, *, due: bool = False) -> None:
        """seat-deal/v1: our shares of the early step ``k`` (:meth:`Deal.release`)."""
        if self.deal.is_early(k):
            self._run(self.deal.release, k, due=due)

    def cards_of(self, k: int) -> list[Card] | None:
        """Our cards of step ``k``, in position order, once it opened here; else None."""
        ev = self._opened.get(k)
        if ev is None:
            return None
        return [ev.mine[p] for p in sorted(ev.mine)]

    def show(self, pos: int, *, replaying: bool = False) -> None:
        """Show this seat's own position (play it or place it).  ``replaying``: the entry
        that showed it is already in the transcript (a resume replays our own log), so the
        message this makes again is not to be sent."""
        if not self.deal.is_played(pos):
            mark = len(self._out)
            self._run(self.deal.play, pos)
            if replaying:
                del self._out[mark:]

    def position_of(self, card: Card) -> int:
        for p in self.deal.hand_positions():
            if self.deal.card_at(p) == card:
                return p
        raise TranscriptUsageError(f"{card} is not in this seat's hand", code="card_not_held",
                                   data={"card": card.id})

    def shown(self, seat: int, pos: int) -> Card:
        """The card ``seat`` showed at ``pos`` in the entry being applied."""
        got = self.shown_now.get(pos)
        if got is None or got[0] != seat:
            raise GameFault(ErrorCode.DEAL_FAILURE,
                            f"seat {seat} did not show position {pos} with its action", seat,
                            violation="position_not_shown", facts={"seat": seat, "pos": pos})
        return got[1]

    def finish(self, discard: bool) -> bool:
        """Reveal this seat's seed (once) and report whether every seat's shuffle has been
        re-checked."""
        if not self.finishing:
            self.finishing = True
            self._run(self.deal.finish, discard=discard)
        return self.verified


class GameDriver:
    """The match inside the transcript, from one seat's view.

    The rules engine says what the hand waits for; the deal (one :class:`DeckInstance`
    per shuffle) turns deck positions into cards.  What the deal wants sent waits in
    :meth:`outbox` until the seat holds the floor; a seat's own choices become the
    entry's action.

    ``seat`` None: the match from no seat (a spectator's, an auditor's), every hand masked
    (``rules.SPECTATOR``).  An observer overrides the three hooks :meth:`make_deck`,
    :meth:`on_engine_event` and :meth:`on_deck_finished`; a seat uses them as they are.
    """

    def __init__(self, table: TableInfo, seat: int | None, master: bytes) -> None:
        self.table = table
        self.seat = seat
        self.master = master
        self.n = table.players
        self.match: Match | None = None
        self.over = False
        self.hand_no = 0  # 0: the first-dealer draw
        self.instance = 0
        self.deck: DeckInstance | None = None
        self.top = 0  # next undealt deck position
        self.draw: FirstDealerDraw | None = FirstDealerDraw(self.n)
        self._events: list[SessionEvent] = []
        self._engine_events = 0
        self._finishing: str | None = None  # "draw", "redeal" or "hand"
        #: This hand's engine events with the deck positions each deal used.
        self._hand_trace: list[tuple[object, tuple[int, ...]]] = []
        self._out: list[dict[str, Any]] = []
        #: The table capabilities in effect (:meth:`set_caps`; the genesis's until then).
        self.caps: tuple[str, ...] = table.caps
        #: The table capability early-deal/v1: a turn may carry deal messages without the
        #: action the game waits for (PROTOCOL.md 6.2).
        self.early_deal = CAP_EARLY_DEAL in table.caps
        #: The table capability shares-ride/v1: the deal messages a seat's own turn causes
        #: ride in that turn (``p``), applied after its action (PROTOCOL.md 6.2).  Off
        #: until :meth:`set_caps` (it binds every seat: the readies decide).
        self.shares_ride = False
        #: The table capability next-deck/v1: the next hand's first deck is built during
        #: the current hand, its messages in a turn's ``b`` (PROTOCOL.md 6.2).  Off until
        #: :meth:`set_caps`.
        self.build_next = False
        #: The next hand's first deck (``hand_no + 1``, instance 0) while it is built
        #: during the current hand (next-deck/v1); it becomes :attr:`deck` when the
        #: current hand ends.
        self.next_deck: DeckInstance | None = None
        #: What our deal made for :attr:`next_deck`, not yet sent (a turn's ``b``).
        self._next_out: list[dict[str, Any]] = []
        #: The next deck as the entry being applied began: a turn's ``b`` goes to it,
        #: even when the entry's own items end the hand and make it the current deck.
        self._entry_next: DeckInstance | None = None
        #: The table capability late-reveal/v1, in play only beside shuffle-proof/v1 and
        #: next-deck/v1: a hand that does not end the match is scored at the entry that
        #: ends it, before the reveals of its deck, which ride in a turn's ``r`` and are
        #: due before the next deck finishes (PROTOCOL.md 6.2).  Off until
        #: :meth:`set_caps`.
        self.late_reveal = False
        #: The deck of the hand scored before its reveals (late-reveal/v1), until every
        #: seat's reveal of it is in the chain and verified.
        self.revealing: DeckInstance | None = None
        #: Our reveal of :attr:`revealing`, not yet sent (a turn's ``r``).
        self._reveal_out: list[dict[str, Any]] = []
        self._work_inline = True
        #: The table capability seat-deal/v1 at 3 and 4 players: a round's steps open
        #: early, one per seat, as hands empty (PROTOCOL.md 6.2, "shares without a floor
        #: round").  Off until :meth:`set_caps`.
        self.seat_deal = False
        #: seat-deal/v1: the next round's steps opened early, recipient -> step, in the
        #: order the round deals them (the order the hands emptied).
        self._early_steps: dict[int, int] = {}
        #: seat-deal/v1: the round the rules dealt last, recipient -> step.
        self._round_steps: dict[int, int] = {}
        #: seat-deal/v1: our step whose cards the rules dealt before they opened to us.
        self._unseen: int | None = None
        #: The body of the entry being applied (set by the session).
        self.entry_body: bytes | None = None

    # ------------------------------------------------------------------ running

    def set_caps(self, caps: Sequence[str]) -> None:
        """The table capabilities in effect (:attr:`Session.caps`), set by the session
        once every ready is in, before :meth:`start`: every deck follows them."""
        self.caps = tuple(caps)
        self.early_deal = CAP_EARLY_DEAL in self.caps
        self.shares_ride = CAP_SHARES_RIDE in self.caps
        self.build_next = CAP_NEXT_DECK in self.caps
        self.seat_deal = CAP_SEAT_DEAL in self.caps and self.n > 2
        self.late_reveal = CAP_LATE_REVEAL in self.caps and self.build_next \
            and CAP_SHUFFLE_PROOFS in self.caps

    @property
    def proof_apart(self) -> bool:
        """proof-apart/v1 is in effect (with shuffle-proof/v1)."""
        return CAP_SHUFFLE_PROOFS in self.caps and CAP_PROOF_APART in self.caps

    def start(self) -> None:
        self._new_deck(cutter=None)
        self._advance()

    def take_events(self) -> list[SessionEvent]:
        out, self._events = self._events, []
        return out

    def outbox(self) -> list[Any]:
        out = self._out[:]
        self._out.clear()
        return out

    def drop_sent(self, items: object) -> None:
        """Replaying our own log (a resume): ``items``, the deal items of an entry of ours,
        were sent; they leave the outbox.  A replay does the proof work in each call, so
        with proof-apart/v1 it has made our ``deal/proof`` (and the shares that follow)
        ahead of the live run, which sent them in a later turn: those stay, matched at that
        later entry, or sent after the resume if the log ends first.  (Proof and share
        bytes differ between runs, their nonces being fresh: matched by type, step and
        position.)"""
        if not self.proof_apart or not isinstance(items, list):
            self._out.clear()  # every message we make goes in our next turn
            return
        def key(m: object) -> object:
            item = parse_item(m)
            if item is None:
                return (None, m.get("step"), m.get("pos")) if isinstance(m, dict) else m
            return (type(item), item.wire.get("step"), item.wire.get("pos"))
        for item in items:
            k = key(item)
            for i, m in enumerate(self._out):
                if key(m) == k:
                    del self._out[i]
                    break

    @property
    def work_inline(self) -> bool:
        """The deal's proof work is done in each call (default); False: handed out as
        jobs (:meth:`take_jobs`, :meth:`job_done`)."""
        return self._work_inline

    @work_inline.setter
    def work_inline(self, value: bool) -> None:
        self._work_inline = value
        if self.deck is not None:
            self.deck.inline = value
        if self.next_deck is not None:
            self.next_deck.inline = value

    @property
    def working(self) -> bool:
        """Proof work of the current deck is under way or waiting (never inline)."""
        return self.deck is not None and not self.over and self.deck.working

    def settle(self) -> list[GameFault]:
        """The current deck's proof checks, and the next deck's (next-deck/v1), all done
        here and now (:meth:`DeckInstance.settle`): the refused proofs, each deck's first
        (its deal stops there), each with its evidence (the entry that carried the
        proof); none when every check owed passes, or none was owed (work inline: a
        replay's, an observer's).  The deck of the hand scored before its reveals
        (late-reveal/v1) owes none: every proof of a deck verified before its first card
        opened."""
        faults: list[GameFault] = []
        if self.over:
            return faults
        for deck in (self.deck, self.next_deck):
            if deck is None:
                continue
            try:
                deck.settle()
            except GameFault as fault:
                faults.append(fault)
        return faults

    def take_jobs(self) -> list[ProofJob]:
        """The current deck's proof work to hand out now, then the next deck's
        (next-deck/v1)."""
        if self.deck is None or self.over:
            return []
        jobs = self.deck.take_jobs()
        if self.next_deck is not None:
            jobs += self.next_deck.take_jobs()
        return jobs

    def job_done(self, job: ProofJob, result: JobResult) -> None:
        """A job's result (ignored if not the current or the next deck's); then
        advance."""
        if self.deck is None or self.over:
            return
        if not self.deck.job_done(job, result) and (
                self.next_deck is None or not self.next_deck.job_done(job, result)):
            return
        self._advance()

    def next_outbox(self) -> list[Any]:
        """The messages for the next hand's deck to send now, in a turn's ``b``
        (next-deck/v1), taken out of their queue.  The sender's policy, not
        a rule of the wire (PROTOCOL.md 6.2): nothing while the current hand's own deck
        is still being keyed, shuffled or cut (its work comes first, and a turn never
        carries two shuffles); our shuffle only with its proof (proof-apart/v1: while our
        proof is being made, the shuffle and what follows it wait, and the turn goes
        without them).  What is still unsent when the hand ends is sent between hands,
        in ``d``, as without the capability."""
        nd, deck = self.next_deck, self.deck
        if nd is None or deck is None or self.over or not self._next_out:
            return []
        if self._finishing is None and deck.deal.phase in ("new", "keys", "shuffle", "cut"):
            return []
        k = len(self._next_out)
        if nd.working and nd.deal.own_proof_due:
            k = next((i for i, m in enumerate(self._next_out)
                      if isinstance(parse_item(m), ShuffleItem)), k)
        out = self._next_out[:k]
        del self._next_out[:k]
        return out

    def drop_sent_next(self, items: object) -> None:
        """Replaying our own log (a resume): ``items``, the ``b`` of an entry of ours,
        were sent; they leave the next deck's queue (matched by type: one of each per
        deck)."""
        if not isinstance(items, list):
            return
        for item in items:
            t = type(parse_item(item))
            for i, m in enumerate(self._next_out):
                if type(parse_item(m)) is t:
                    del self._next_out[i]
                    break

    @property
    def has_outbox(self) -> bool:
        """Deal messages of this seat wait to be sent."""
        return bool(self._out)

    @property
    def outbox_waits_for_work(self) -> bool:
        """With our proof work under way (:attr:`working`): what our outbox holds gives
        the others nothing to do before that work is done, so it waits for it and travels
        with its result (PROTOCOL.md 6.2, "proof work and the floor").

        At 3 and 4 players: our ``deal/shuffle`` (with our ``deal/cut``, and our
        ``deal/key`` when it completed the keys) while our own proof is being made, so
        that the proof travels with its deck; the proofs of the deck then need no pass
        of the floor of their own.  Nothing else waits.

        At 2 players:

        While our own proof is being made: our ``deal/cut``, and the deck's last
        ``deal/shuffle`` when nobody else cuts it; the other seat needs our proof before
        any card of the deck opens.  While we check the other's proof: our
        ``deal/proof``, unless we cut (the deck's first step deals the cutter's drawn
        card, or everyone's cards without a cut: the other seat waits for our shares of
        it, which the check releases).  Anything else (a key, a shuffle the other seat
        shuffles on or cuts, shares, a reveal) goes at once.  Not a rule of the wire: the
        same messages travel, in this entry or a later one, never a sooner one."""
        deck = self.deck
        if not self._out or not self.working or deck is None:
            return False
        deal = deck.deal
        proving = deal.own_proof_due
        if self.n > 2:
            # At 3 and 4 players our shuffle (and our cut) waits for its proof (a few
            # hundredths of a second): sent alone, the proof would follow on our next
            # turn, a whole pass of the floor later, and no share of the deck may go
            # before every proof.
            # Our key goes with them when it was the last one (we shuffle first).
            return proving and all(isinstance(parse_item(m), (KeyItem, ShuffleItem, CutItem))
                                   for m in self._out)
        for m in self._out:
            item = parse_item(m)
            if isinstance(item, ProofItem) and not proving and deck.cutter != self.seat:
                continue
            if isinstance(item, CutItem) and proving:
                continue
            if isinstance(item, ShuffleItem) and proving and deal.phase in ("cut", "deal") \
                    and deck.cutter in (None, self.seat):
                continue  # the last shuffle: only we (or nobody) cut on top of it
            return False
        return True

    @property
    def hand(self) -> Hand | None:
        return self.match.hand if self.match is not None else None

    def decision(self) -> Decision | None:
        hand = self.hand
        if hand is None or self.over or self._finishing or self.deck is None:
            return None
        p = hand.pending
        if isinstance(p, Turn) and p.seat == self.seat:
            if self._unseen is not None:
                return None  # our cards of the round are not open to us yet
            kind = "play"
        elif isinstance(p, CutterChoice) and p.seat == self.seat:
            kind = "cut"
        else:
            return None
        m = self.match
        assert m is not None
        return Decision(kind, self.seat, hand, m.hand_number, m.totals, m.ruleset.target)

    def action_for(self, d: Decision, choice: Any) -> Action:
        """Check the local choice and turn it into the entry's action (showing the card)."""
        assert self.deck is not None
        hand = d.hand
        if d.kind == "play":
            if not isinstance(choice, Move):
                raise TranscriptUsageError("a play decision takes a rules.Move",
                                           code="play_takes_a_move")
            hand.play(self.seat, choice.card, choice.capture)  # raises IllegalMove
            pos = self.deck.position_of(choice.card)
            self.deck.show(pos)
            return PlayAction(pos, choice.card, tuple(sorted(choice.capture, key=lambda c: c.id)))
        if bool(choice):
            return CutAction(True)
        pos = self.top - 1  # the drawn card
        self.deck.show(pos)
        return CutAction(False, pos)

    def apply(self, seat: int, items: list[Any], action: dict[str, Any] | None, *,
              reveals: bool = False) -> bool:
        """Apply one turn of ``seat``.  Returns whether it made progress: an action, or a
        deal item used at once (an item held for a step not open yet is none).
        ``reveals``: the turn's ``r`` (late-reveal/v1) holds items, applied after it:
        deal messages the seat owes, so under early-deal/v1 the turn is no empty one."""
        assert self.deck is not None
        self.deck.shown_now = {}
        self._entry_next = self.next_deck
        progress = self._take_items(seat, items) or action is not None
        if action is not None:
            self._act(seat, action)
        elif self.waits_for(seat) and not self._out \
                and not ((items or reveals) and self.early_deal):
            # Every deal message this seat made is in the transcript, so the sender had
            # everything we have (its own items are applied too): it knew it had to
            # choose.  (With messages of ours still unsent, the sender may lack them: a
            # step that is complete here may not be complete there yet.)  Under
            # early-deal/v1 it may still send the deal messages it owes first, its
            # reveal in ``r`` (late-reveal/v1) as well as its items in ``d``.
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "an empty turn while the game "
                            f"waits for seat {seat}'s choice", seat, violation="empty_turn",
                            facts={"seat": seat})
        self._advance()
        return progress

    def apply_after(self, seat: int, items: list[Any]) -> bool:
        """Apply a turn's ``p`` (shares-ride/v1): the deal items ``seat``'s own entry
        caused, after its ``d`` and its action (:meth:`apply`).  Returns whether they made
        progress, as :meth:`apply` does for ``d``."""
        progress = self._take_items(seat, items)
        self._advance()
        return progress

    def apply_next(self, seat: int, items: list[Any]) -> bool:
        """Apply a turn's ``b`` (next-deck/v1): ``seat``'s deal messages for the next
        hand's first deck, after the turn's ``d``, action and ``p`` (:meth:`apply`,
        :meth:`apply_after`).  They go to the next deck as it was when the entry began
        (the current deck, if the entry's own items ended the hand; a deck dropped, if
        they ended the match).  Only what opens no card (a key, a shuffle, its proof, the
        cut), each in the deal's own order, usable at once: anything else, or a message
        the deal would hold, is the sender's ``deal_failure`` (``unexpected``).  Returns
        whether they made progress (they always do, or fail)."""
        if not items:
            return False
        target = self._entry_next
        if target is None:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "deal messages for the next "
                            "deck outside a hand", seat, violation="bad_turn_fields")
        if seat == self.seat:
            return True  # our own deal made them
        for item in items:
            if not isinstance(item, dict):
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item is a map", seat,
                                violation="turn_item_not_map")
            msg = parse_item(item)
            if isinstance(msg, SharesItem | PlayItem | ComplainItem | RevealItem):
                target._run(self._refuse, PeerMisbehaved(
                    seat, "unexpected", f"{msg.type} for the next hand's deck, which opens "
                    "no card before its hand", item))
            if isinstance(msg, ProofItem) and msg.proof is not None \
                    and self.entry_body is not None:
                target.proof_entries.setdefault(seat, {})[msg.proof] = self.entry_body
            # Refused when the deal would hold it, or when our own deal, ahead of the
            # chain, would take it while the chain must not (:meth:`_early_in_chain`).
            early = self._early_in_chain(target, seat, msg)
            if not early:
                held = target.deal.held
                target.receive(seat, item)
                early = target.deal.held > held
            if early:
                target._run(self._refuse, PeerMisbehaved(
                    seat, "unexpected", f"{item_label(item)} for the next hand's deck "
                    "before its turn in the deal's order", item))
        if target is not self.next_deck and target is not self.deck:
            # The deck of a hand that never comes (the entry ended the match): its proofs'
            # checks are done now, before any seat signs the result, as the auditor does
            # them (PROTOCOL.md 7.1); nothing hands out a dropped deck's work later.
            target.settle()
        # The items may complete the deck that the entry's own items made current (its
        # first step then opens), or make the next deck ours to cut.
        self._advance()
        self._poll_next()
        return True

    @staticmethod
    def _refuse(exc: PeerMisbehaved) -> None:
        raise exc

    def _check_early_share(self, seat: int, item: dict[str, Any]) -> None:
        """seat-deal/v1, the receiver's rule (PROTOCOL.md 6.2): a share of a step the
        rules have not dealt yet is taken only from a seat whose hand is empty, for a seat
        whose hand is empty (a step opened early: :meth:`_open_early`), judged on the
        chain as it stands; else it is the sender's ``deal_failure`` (``unexpected``).
        Any other fault of the share is the deal core's to find."""
        deck, hand = self.deck, self.hand
        k = item.get("step")
        if deck is None or hand is None or type(k) is not int or k < 0:
            return
        deal = deck.deal
        if k < deal.steps:
            if not deal.is_early(k) or not hand.hands[seat]:
                return
            why = "while its own hand still holds cards"
        elif isinstance(hand.pending, Turn) and not self._finishing:
            why = "before its recipient's hand is empty (or for a round the deck does not hold)"
        else:
            return  # held until the step opens, as ever
        deck._run(self._refuse, PeerMisbehaved(
            seat, "unexpected", f"shares of step {k}, not dealt yet, {why}", item))

    def _open_early(self, events: Sequence[object], hand: Hand) -> None:
        """seat-deal/v1: each play that empties a hand while the deck holds another round
        opens that seat's step of the next round early, at every peer at the same entry
        (its block of three comes next in the round's order: the hands empty in the
        order the round deals them).  Our policy: our shares of every such step go as
        soon as our hand is empty too (never owed before the rules deal the round)."""
        deck = self.deck
        if deck is None or deck.deal.phase != "deal":
            return
        for ev in events:
            if isinstance(ev, PlayEvent) and hand.stock and not hand.hands[ev.seat] \
                    and ev.seat not in self._early_steps:
                start = self.top + 3 * len(self._early_steps)
                self._early_steps[ev.seat] = deck.open_early(
                    ev.seat, list(range(start, start + 3)))
        if self.seat is not None and self._early_steps and not hand.hands[self.seat]:
            for k in self._early_steps.values():
                deck.release(k)

    def _deal_round(self, hand: Hand, deck: DeckInstance, step: DealStep) -> None:
        """seat-deal/v1: the rules deal the round whose steps opened early: each becomes
        due (our shares of it go now if they have not), and the round is dealt at once,
        our own cards unknown until our step opens here (:class:`CardsSeen` then)."""
        order = list(self._early_steps)
        if step.recipients != tuple(s for s in order for _ in range(3)):
            raise TranscriptUsageError(f"the round {step.recipients} is not the steps opened "
                                       f"early {order}", code="round_not_opened_early")
        for k in self._early_steps.values():
            deck.release(k, due=True)
        mine = self._early_steps.get(self.seat) if self.seat is not None else None
        own = deck.cards_of(mine) if mine is not None else None
        dealt: list[Card | None] = []
        for s in order:
            dealt += own if s == self.seat and own is not None else [None] * 3
        self.top += len(step.recipients)
        self._round_steps, self._early_steps = self._early_steps, {}
        self._unseen = mine if own is None else None
        self._set_hand(hand.deal(dealt, own_later=True))

    def _early_in_chain(self, target: DeckInstance, seat: int, msg: object) -> bool:
        """Whether ``msg`` (``seat``'s, in a ``b``) comes before its turn in the deal's
        order *as the chain stands*.  Our own deal already holds the next deck's
        messages we made and did not send yet (our key; our shuffle, waiting for its
        proof), so it would take at once a shuffle or a cut that the chain, and so every
        other seat and the auditor, must refuse: judged here on the chain alone."""
        if self.seat is None or seat == self.seat:
            return False
        unsent = self._out if target is self.deck else self._next_out
        mine = [parse_item(m) for m in unsent]
        key = any(isinstance(m, KeyItem) for m in mine)
        shuffle = any(isinstance(m, ShuffleItem) for m in mine)
        if isinstance(msg, CutItem):
            return key or shuffle  # the cut comes after every shuffle
        if isinstance(msg, ShuffleItem):
            # every key first; seat order among the shuffles
            return key or (shuffle and seat > self.seat)
        return False

    def _take_items(self, seat: int, items: list[Any]) -> bool:
        """Take ``seat``'s deal items of one field of a turn, in order; whether any was
        used at once (our own always are: our own deal made them)."""
        if seat == self.seat:  # our own items were made by our own deal object
            # An entry may carry the previous deck's reveal and then the next deck's key
            # (the last seat to reveal a discarded deck starts the next one at once): a
            # reveal counts for the deck whose seed it opens, never for the current one
            # by position.  (Marking the wrong deck let this seat end a later hand before
            # its own reveal was in the chain, and sign ``done`` while others waited.)
            for i in items:
                item = parse_item(i)
                if self.deck is not None and isinstance(item, RevealItem) \
                        and item.seed == self.deck.own_seed:
                    self.deck.reveal_sent = True
            return bool(items)
        progress = False
        for item in items:
            if not isinstance(item, dict):
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item is a map", seat,
                                violation="turn_item_not_map")
            if self.deck is None:
                raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item after the end",
                                seat, violation="turn_item_after_end")
            held = self.deck.deal.held
            msg = parse_item(item)
            if self.seat_deal and isinstance(msg, SharesItem):
                self._check_early_share(seat, item)
            if isinstance(msg, ProofItem) and msg.proof is not None \
                    and self.entry_body is not None:
                self.deck.proof_entries.setdefault(seat, {})[msg.proof] = self.entry_body
            self.deck.receive(seat, item)
            progress = progress or self.deck.deal.held <= held
            # An item may complete an instance; the next item may belong to the next.
            self._advance()
        return progress

    def owed(self) -> tuple[int, ...]:
        """Seats whose message the game waits for now: a deal message (key, shuffle, cut,
        shares, reveal: as this seat's deal expects them, plus this seat itself while its
        own are unsent) or a choice (a play or the cut)."""
        seats: set[int] = set()
        if self.deck is not None and not self.over:
            seats.update(s for s, _ in self.deck.deal.expecting())
            if self._out and self.seat is not None:
                seats.add(self.seat)
        rev = self.revealing
        if rev is not None and self._finishing is not None and not self.over:
            # late-reveal/v1: a reveal is owed only once a deck waits to finish for it
            # (the wait point); before that nobody owes it.
            seats.update(s for s, _ in rev.deal.expecting())
            if self.seat is not None and not rev.reveal_sent:
                seats.add(self.seat)
        seats.update(s for s in range(self.n) if self.waits_for(s))
        return tuple(sorted(s for s in seats if isinstance(s, int) and 0 <= s < self.n))

    def waits_for(self, seat: int) -> bool:
        """Whether the game waits for ``seat``'s choice (a play or the cut) now."""
        hand = self.hand
        if hand is None or self.over or self._finishing or self.deck is None:
            return False
        p = hand.pending
        if isinstance(p, Turn) and p.seat == seat and seat in self._round_steps \
                and not self.deck.deal.step_complete(self._round_steps[seat]):
            return False  # seat-deal/v1: its cards are not open to it yet
        return isinstance(p, Turn | CutterChoice) and p.seat == seat

    # ------------------------------------------------------------------ engine

    def _act(self, seat: int, action: dict[str, Any]) -> None:
        hand = self.hand
        deck = self.deck
        if hand is None or self.over or self._finishing or deck is None:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "no action is due", seat,
                            violation="no_action_due")
        p = hand.pending
        kind = action_type(action, seat)
        try:
            if kind is PlayAction and isinstance(p, Turn) and p.seat == seat:
                play = PlayAction.from_wire(action, seat)
                if seat == self.seat:
                    deck.show(play.pos, replaying=True)  # a no-op unless replaying our log
                elif deck.shown(seat, play.pos) != play.card:
                    shown = deck.shown(seat, play.pos)
                    raise GameFault(ErrorCode.DEAL_FAILURE,
                                    f"seat {seat} names {play.card} but showed {shown}", seat,
                                    violation="card_not_shown",
                                    facts={"seat": seat, "card": int(play.card),
                                           "shown": int(shown)})
                self._set_hand(hand.play(seat, play.card, list(play.take)))
            elif kind is CutAction and isinstance(p, CutterChoice) and p.seat == seat:
                cut = CutAction.from_wire(action, seat)
                placed = None
                if cut.pos is not None:
                    if cut.pos != self.top - 1:
                        raise GameFault(ErrorCode.ILLEGAL_MOVE, "only the drawn card may be "
                                        "placed", seat, violation="only_drawn_card")
                    if seat == self.seat:
                        deck.show(cut.pos, replaying=True)
                    else:
                        placed = deck.shown(seat, cut.pos)
                self._set_hand(hand.choose_cut(cut.keep, placed))
            else:
                raise GameFault(ErrorCode.ILLEGAL_MOVE,
                                f"action {kind.TYPE!r} while the hand waits for {p}", seat,
                                violation="action_out_of_phase", facts={"action": kind.TYPE})
        except IllegalMove as exc:
            raise GameFault(ErrorCode.ILLEGAL_MOVE, f"{exc.rule}: {exc}", seat,
                            violation=exc.rule) from None
        except InvalidDeal as exc:
            raise GameFault(ErrorCode.DEAL_FAILURE, str(exc), seat,
                            violation="invalid_deal") from None

    def _set_hand(self, hand: Hand) -> None:
        assert self.match is not None
        new = hand.events[self._engine_events:]
        self._engine_events = len(hand.events)
        self._events.extend(new)
        for ev in new:
            positions: tuple[int, ...] = ()
            if isinstance(ev, DealEvent):
                positions = tuple(range(self.top - len(ev.recipients), self.top))
            self._hand_trace.append((ev, positions))
            self.on_engine_event(ev, positions)
        self.match = self.match.with_hand(hand)
        if self.seat_deal:
            self._open_early(new, hand)

    # ------------------------------------------------------------------ hooks

    def make_deck(self, cutter: int | None, hand: int | None = None,
                  instance: int | None = None,
                  outbox: list[dict[str, Any]] | None = None) -> DeckInstance:
        """The deck instance of the next shuffle: ``hand``, ``instance`` (default
        :attr:`hand_no`, :attr:`instance`), its messages to ``outbox`` (default the
        driver's); under next-deck/v1 also the next hand's first deck, built during the
        current hand (``hand_no + 1``, 0)."""
        return DeckInstance(self.table, self.seat, self.master,
                            self.hand_no if hand is None else hand,
                            self.instance if instance is None else instance, cutter,
                            self._out if outbox is None else outbox, caps=self.caps)

    def on_deck_started(self) -> None:
        """Called when a deck instance becomes the one the hand is dealt from
        (:attr:`deck`): made then, or built during the hand before (next-deck/v1)."""

    def on_engine_event(self, event: object, positions: tuple[int, ...]) -> None:
        """Called for every rules-engine event of the hand (a deal, the cut, a play, the
        last sweep), with the deck positions a deal used; nothing for a seat."""

    def on_deck_finished(self, kind: str, deck: DeckInstance | None
                         ) -> Sequence[SessionEvent]:
        """Called once ``deck``'s seeds are open and verified: ``kind`` is ``"draw"``,
        ``"redeal"`` or ``"hand"``.  Before the match moves on (then :attr:`deck` is
        ``deck``, and a hand is over and not scored yet), except under late-reveal/v1,
        where a hand's deck is done with once its reveals are in, during the next hand
        (that hand was scored, and the next started, at the entry that ended it).
        Returns events to report then; none for a seat."""
        return ()

    def _new_deck(self, cutter: int | None) -> None:
        deck = self.make_deck(cutter)
        deck.inline = self._work_inline
        self._use_deck(deck)

    def _use_deck(self, deck: DeckInstance) -> None:
        self.deck = deck
        self._early_steps, self._round_steps, self._unseen = {}, {}, None
        self.top = 0
        self._engine_events = 0
        self._finishing = None
        self.on_deck_started()

    def _start_hand(self) -> None:
        assert self.match is not None and self.match.hand is not None
        hand = self.match.hand
        cutter = hand.cutter if hand.ruleset.opening is Opening.CUT_AND_DRAW else None
        self._new_deck(cutter)
        self._hand_trace = []
        self._start_next()

    def _start_next(self) -> None:
        """next-deck/v1: the next hand's first deck (``hand_no + 1``, 0) exists from the
        start of each hand, at every peer at the same entry (a redeal keeps it); our key
        for it waits in :meth:`next_outbox`."""
        if not self.build_next or self.next_deck is not None or self.match is None:
            return
        seating = Seating.of(self.n)
        cutter = None
        if self.table.rules.opening is Opening.CUT_AND_DRAW:
            # The next hand's dealer: one seat on (a redeal keeps the dealer, so the
            # next hand's is always known).
            cutter = seating.cutter(seating.dealer_of(self.match.first_dealer,
                                                      len(self.match.results) + 1))
        self.next_deck = self.make_deck(cutter, self.hand_no + 1, 0, self._next_out)
        self.next_deck.inline = self._work_inline
        self._poll_next()

    def _poll_next(self) -> None:
        """The next deck's cut, once it is ours to make (the last shuffle is in)."""
        nd = self.next_deck
        if nd is not None and nd.cutter == self.seat and nd.deal.phase == "cut":
            nd.ready  # noqa: B018 - the property cuts

    def _recheck_hand(self) -> None:
        """The forced-capture variant, checked once every card is known.

        During the hand a peer cannot check another seat's play against that seat's hidden
        cards.  At its end every card has been shown, so the hand is re-driven with every
        hand known (an omniscient engine) and each play checked again; a play the rules
        forbid is blamed on its player (``illegal_move``), at every peer at this same
        entry."""
        assert self.match is not None and self.deck is not None
        rules = self.table.rules
        if not rules.forced_capture:
            return  # every other rule depends only on what everyone sees
        deal = self.deck.deal
        hand = Hand.new(rules, self.n, self.match.dealer)
        plays = 0
        for ev, positions in self._hand_trace:
            try:
                if isinstance(ev, DealEvent):
                    cards = [deal.card_at(p) for p in positions]
                    if None in cards:
                        raise TranscriptUsageError("a card of the hand is still unknown at "
                                                   "its end", code="card_unknown_at_end")
                    hand = hand.deal(cards)
                elif isinstance(ev, CutEvent):
                    hand = hand.choose_cut(ev.keep, ev.card)
                elif isinstance(ev, PlayEvent):
                    plays += 1
                    hand = hand.play(ev.seat, ev.card, ev.capture)
            except IllegalMove as exc:
                seat = getattr(ev, "seat", 0)
                self.on_illegal_play(plays, GameFault(
                    ErrorCode.ILLEGAL_MOVE, f"{exc.rule}: {exc} (play {plays} of hand "
                    f"{self.match.hand_number}, found once every card was known)", seat,
                    violation=exc.rule))

    def on_illegal_play(self, play: int, fault: GameFault) -> None:
        """The end-of-hand re-check found the ``play``-th play of the hand (from 1)
        illegal: raise ``fault`` (a seat blames it at the entry that ends the hand; an
        auditor overrides this to name the play's own entry, 7.3)."""
        raise fault

    def _advance(self) -> None:
        """Take every step that needs no one's choice and no message not yet received."""
        while not self.over and self.deck is not None:
            deck = self.deck
            if self._finishing is not None:
                if self.revealing is not None:
                    # late-reveal/v1: every reveal of the hand scored before is due before
                    # this deck finishes (a redeal, the end of this hand): the game waits
                    # for them here, and only here (PROTOCOL.md 6.2, 12.2).
                    return
                if self._finishing == "hand" and self.late_reveal \
                        and self.next_deck is not None and not self._ends_match():
                    self._finish_late()
                    continue
                if not deck.finish(discard=self._finishing != "hand"):
                    return
                # Every instance (draw, redeal, hand) ends at the same entry for
                # everyone: the one that carries the last reveal, ours included.  (Our
                # reveal counts once the entry carrying it is in the chain, not when
                # our deal makes it.)
                if not deck.reveal_sent:
                    return
                self._after_finish()
                continue
            if not deck.ready:
                return
            if self.draw is not None:
                if not self._first_dealer():
                    return
                continue
            hand = self.hand
            assert hand is not None and self.match is not None
            if self._unseen is not None:
                own = deck.cards_of(self._unseen)
                if own is None:
                    return
                self._unseen = None
                self._set_hand(hand.see_own(own))
                self._events.append(CardsSeen(tuple(own)))
                continue
            p = hand.pending
            if isinstance(p, DealStep) and self._early_steps:
                self._deal_round(hand, deck, p)
            elif isinstance(p, DealStep):
                positions = list(range(self.top, self.top + len(p.recipients)))
                cards = deck.open(positions, p.recipients)
                if cards is None:
                    return
                self.top += len(positions)
                self._set_hand(hand.deal(cards))
            elif isinstance(p, Redeal):
                self._finishing = "redeal"
            elif isinstance(p, HandOver):
                self._finishing = "hand"
            else:
                return  # a seat's choice

    def _ends_match(self) -> bool:
        """The hand that is over (not scored yet) ends the match once scored."""
        assert self.match is not None
        return self.match.finish_hand().is_over

    def _finish_late(self) -> None:
        """late-reveal/v1: the hand is over and does not end the match.  Our reveal of its
        deck is made now (it goes in our next turn's ``r``, or this very entry's when it
        is ours: shares-ride/v1), the deck waits for every seat's reveal as
        :attr:`revealing`, and the hand is scored at once from its plays: every card was
        shown, and every shuffle's proof checked, before the last play."""
        deck = self.deck
        assert deck is not None
        deck.send_to(self._reveal_out)
        deck.finish(discard=False)
        self.revealing = deck
        self._after_finish(late=True)

    def reveal_outbox(self) -> list[Any]:
        """Our reveal of the deck scored before its reveals, to send now in a turn's
        ``r`` (late-reveal/v1), taken out of its queue."""
        out = self._reveal_out[:]
        self._reveal_out.clear()
        return out

    def drop_sent_reveal(self, items: object) -> None:
        """Replaying our own log (a resume): ``items``, the ``r`` of an entry of ours,
        were sent; our reveal leaves its queue (one per deck)."""
        if isinstance(items, list) and items:
            self._reveal_out.clear()

    def apply_reveal(self, seat: int, items: list[Any]) -> bool:
        """Apply a turn's ``r`` (late-reveal/v1): ``seat``'s ``deal/reveal`` of the deck
        of the hand scored before its reveals (:attr:`revealing`), after the turn's
        ``d``, action, ``p`` and ``b``.  Only a reveal, of that deck: anything else is
        the sender's ``deal_failure`` (``unexpected``), a seed its commitment refuses is
        its ``deal_failure`` (``bad_opening``), at this entry; an ``r`` while no deck
        awaits its reveals is its ``protocol_violation``.  Returns whether it made
        progress (it always does, or fails)."""
        if not items:
            return False
        target = self.revealing
        if target is None:
            raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a reveal in r while no scored "
                            "deck awaits its reveals", seat, violation="bad_turn_fields")
        if seat == self.seat:  # our own deal made it
            for i in items:
                item = parse_item(i)
                if isinstance(item, RevealItem) and item.seed == target.own_seed:
                    target.reveal_sent = True
        else:
            for item in items:
                if not isinstance(item, dict):
                    raise GameFault(ErrorCode.PROTOCOL_VIOLATION, "a deal item is a map",
                                    seat, violation="turn_item_not_map")
                if not isinstance(parse_item(item), RevealItem):
                    target._run(self._refuse, PeerMisbehaved(
                        seat, "unexpected", f"{item_label(item)} in r, which carries only "
                        "the reveal of the deck scored before its reveals", item))
                target.receive(seat, item)
        if target.verified and target.reveal_sent:
            # Every seed is open and every shuffle re-checked: the deck is done with.
            self.revealing = None
            self._events.extend(self.on_deck_finished("hand", target))
            self._advance()  # a deck that waited to finish for these reveals goes on
        return True

    def _after_finish(self, late: bool = False) -> None:
        assert self.match is not None
        kind = self._finishing
        assert kind is not None
        if not late:  # late-reveal/v1: once the reveals are in (:meth:`apply_reveal`)
            self._events.extend(self.on_deck_finished(kind, self.deck))
        self._finishing = None
        if kind == "draw":
            self.hand_no, self.instance = 1, 0
            self._events.append(HandStarted(1, self.match.dealer))
            self._start_hand()
            return
        if kind == "redeal":
            self._events.append(RedealEvent(self.match.dealer))
            self.match = self.match.redeal()
            self.instance += 1
            self._start_hand()
            return
        number = self.match.hand_number
        self._recheck_hand()
        self.match = self.match.finish_hand()
        res = self.match.results[-1]
        self._events.append(HandScored(number, res.score, res.totals))
        if self.match.is_over:
            if self.next_deck is not None:
                # next-deck/v1: the deck built for a hand that never comes is dropped, but
                # not its proofs' checks still out: a bad proof sent in the match's last
                # turns must be blamed here, as the auditor blames it (PROTOCOL.md 7.1),
                # not forgotten while every seat signs the result.
                self.next_deck.settle()
            self.over = True
            self.deck = None
            # (this entry's ``b`` still goes to the dropped deck: :meth:`apply_next`).
            self.next_deck = None
            self._next_out.clear()
            self._events.append(MatchOver(self.match.winner, self.match.totals))
            return
        self.hand_no += 1
        self.instance = 0
        self._events.append(HandStarted(self.match.hand_number, self.match.dealer))
        deck = self.next_deck
        if deck is None:
            self._start_hand()
            return
        # next-deck/v1: the deck built during the hand just scored is this hand's; what
        # we made for it and did not send yet goes in our next turn's ``d``, as without
        # the capability.
        assert deck.cutter == (self.match.hand.cutter if self.match.hand is not None
                               and self.table.rules.opening is Opening.CUT_AND_DRAW
                               else None)
        self.next_deck = None
        self._out.extend(self._next_out)
        self._next_out.clear()
        deck.send_to(self._out)
        self._use_deck(deck)
        self._hand_trace = []
        self._start_next()

    def _first_dealer(self) -> bool:
        fd, deck = self.draw, self.deck
        assert fd is not None and deck is not None
        draw = fd.next_draw()
        seats = sorted(draw)
        positions = [draw[s] for s in seats]
        cards = deck.open(positions, (None,) * len(seats))
        if cards is None:
            return False
        drawn = {s: c for s, c in zip(seats, cards, strict=True) if c is not None}
        self._events.append(FirstDealerDrawn(dict(drawn)))
        dealer = fd.record(drawn)
        if dealer is None:
            return True  # a tie: the tied seats draw again
        self.draw = None
        self.match = Match.new(self.table.rules, self.n, dealer,
                               viewer=SPECTATOR if self.seat is None else self.seat)
        # The draw deck is abandoned: reveal it, then the first hand gets a fresh deck.
        self._finishing = "draw"
        return True

    # ------------------------------------------------------------------ result

    def result_body(self) -> dict[str, Any]:
        assert self.match is not None
        return {"winner": self.match.winner, "totals": list(self.match.totals),
                "hands": len(self.match.results)}

    def match_done(self) -> MatchDone:
        assert self.match is not None and self.match.winner is not None
        return MatchDone(self.match.winner, self.match.totals, len(self.match.results))
