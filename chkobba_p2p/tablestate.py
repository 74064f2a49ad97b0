"""What a client shows: one seat's picture of the table, derived from the peer's events.

A :class:`TableState` is an immutable value.  Feed it every event a
:class:`~chkobba_p2p._shell.peer.SeatController` receives in ``on_event`` with
:meth:`TableState.apply`, and the rules engine's view handed to ``choose_play`` /
``choose_cut`` with :meth:`TableState.sync`; read the fields to draw the table.  Nothing
here does I/O, so the terminal client, a GUI or a test can share it::

    state = TableState(my_fingerprint=identity.fingerprint)
    def on_event(self, event):
        self.state = self.state.apply(event)

Every captured card was face up when it was taken, so each side's captures are known to
everyone; other seats' hands are known only by their size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .game.cards import Card
from .game.events import CutEvent, DealEvent, PlayEvent, SweepEvent
from .game.hand import CutterChoice, Hand, side_of, sides_count
from .game.ruleset import Ruleset
from .game.seating import Seating
from .link.events import Lobby, Restored, Resumed, Spectators, Waiting
from .observe.rating import bot_level
from .transcript.clocks import Limits
from .transcript.events import (
    Aborted,
    CardsSeen,
    FirstDealerDrawn,
    HandScored,
    HandStarted,
    MatchDone,
    MatchOver,
    RedealEvent,
    TableReady,
)
from .transcript.table import TableInfo

__all__ = ["SideCaptures", "TableState", "side_captures"]


@dataclass(frozen=True)
class SideCaptures:
    """One side's captures in the hand in progress: what the end-of-hand points count."""

    cards: int = 0
    diamonds: int = 0
    sevens: int = 0
    sixes: int = 0
    haya: bool = False
    chkobbas: int = 0


def side_captures(pile: Sequence[Card], chkobbas: int = 0) -> SideCaptures:
    """Count a pile of captured cards."""
    return SideCaptures(
        cards=len(pile),
        diamonds=sum(1 for c in pile if c.is_diamond),
        sevens=sum(1 for c in pile if c.value == 7),
        sixes=sum(1 for c in pile if c.value == 6),
        haya=any(c.is_haya for c in pile),
        chkobbas=chkobbas,
    )


@dataclass(frozen=True)
class TableState:
    """One seat's picture of the table.  Unknown things are None or empty until an event
    tells them (a joining peer learns its seat from the lobby, the ruleset at its first
    decision or from :meth:`with_table`)."""

    #: Fingerprint of the local identity: finds the local seat in lobby events.
    my_fingerprint: str | None = None
    #: The local seat (0 at the host).
    seat: int | None = None
    players: int | None = None
    rules: Ruleset | None = None
    #: Display names and key fingerprints per seat (None: seat still free).
    names: tuple[str | None, ...] = ()
    fingerprints: tuple[str | None, ...] = ()
    #: Before the game, per seat: its person confirmed the seating (the ready check).
    ready: tuple[bool, ...] = ()
    #: Each seat's identity key, when known (the lobby, the genesis).
    keys: tuple[bytes | None, ...] = ()
    #: Per seat, the bot level its host vouched for in the lobby (PROTOCOL.md 5.6).
    bots: tuple[str | None, ...] = ()
    #: Whether the table's shuffles carry zero-knowledge proofs (None: not known yet).
    shuffle_proofs: bool | None = None
    #: 1-based number of the hand in progress; 0 before the first.
    hand_number: int = 0
    dealer: int | None = None
    #: The local seat's cards.
    hand: tuple[Card, ...] = ()
    #: How many cards each seat holds.
    counts: tuple[int, ...] = ()
    table: tuple[Card, ...] = ()
    #: Cards not dealt yet.
    stock: int = 40
    #: Captured cards per side, and chkobbas per side, in the hand in progress.
    piles: tuple[tuple[Card, ...], ...] = ()
    chkobbas: tuple[int, ...] = ()
    #: Match points per side after the hands scored so far.
    totals: tuple[int, ...] = ()
    #: The seat expected to play next (None while dealing or between hands).
    turn: int | None = None
    #: True while the cutter holds the drawn card and must keep or place it.
    cutting: bool = False
    #: The card the local seat drew as cutter (only it sees it).
    drawn: Card | None = None
    last_play: PlayEvent | None = None
    last_capturer: int | None = None
    #: Every hand scored so far, in order.
    scored: tuple[HandScored, ...] = ()
    #: First-dealer draw cards per seat (the latest round of the draw).
    first_draw: dict[int, Card] = field(default_factory=dict, compare=False)
    redeals: int = 0
    #: Seats that dropped, with the seconds they have left to come back.
    waiting: tuple[tuple[int, int], ...] = ()
    #: Who is watching (spectators' names, as the host reports them).
    spectators: tuple[str, ...] = ()
    #: Of those, the seats that said they were stepping away (not a lost connection).
    away: tuple[int, ...] = ()
    #: The table's clocks, as the host announced them (None: not said).
    limits: Limits | None = None
    #: How many spectators the host admits (0: none; None: not said).
    spectator_limit: int | None = None
    #: The match's end: the winning side (None: not over), or why it stopped.
    winner_side: int | None = None
    done: MatchDone | None = None
    aborted: Aborted | None = None

    # ------------------------------------------------------------------ reading

    @property
    def seating(self) -> Seating:
        """The shape of the table (2 seats until the genesis says otherwise)."""
        return Seating.of(self.players or 2)

    @property
    def teams(self) -> bool:
        """Partners share a side (4 players)."""
        return self.seating.teams

    @property
    def sides(self) -> int:
        return self.seating.sides

    @property
    def cutter(self) -> int | None:
        if self.dealer is None or not self.players:
            return None
        return self.seating.cutter(self.dealer)

    @property
    def target(self) -> int | None:
        return self.rules.target if self.rules is not None else None

    @property
    def started(self) -> bool:
        """True once the first hand has begun."""
        return self.hand_number > 0

    @property
    def over(self) -> bool:
        return self.done is not None or self.aborted is not None

    def side(self, seat: int) -> int:
        """The side a seat scores for (partners face each other at 4 players)."""
        if not self.players:
            return seat  # no table yet: each seat its own side
        return self.seating.side_of(seat)

    @property
    def my_side(self) -> int | None:
        return None if self.seat is None else self.side(self.seat)

    def name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]  # type: ignore[return-value]
        return f"seat {seat}"

    def captures(self, side: int) -> SideCaptures:
        """Counts for one side's captures in the hand in progress."""
        pile = self.piles[side] if side < len(self.piles) else ()
        k = self.chkobbas[side] if side < len(self.chkobbas) else 0
        return side_captures(pile, k)

    def others(self) -> list[int]:
        """Other seats in playing order after the local one: at 4 players the right-hand
        opponent, the partner, then the left-hand opponent."""
        n = self.players or 0
        me = self.seat or 0
        return [(me + i) % n for i in range(1, n)]

    @property
    def last_score(self) -> HandScored | None:
        return self.scored[-1] if self.scored else None

    def bot(self, seat: int) -> str | None:
        """The bot level of ``seat``: the one its host vouched for in the lobby, else
        the level whose well-known key it has; None: a person (or not known)."""
        if seat < len(self.bots) and self.bots[seat] is not None:
            return self.bots[seat]
        key = self.keys[seat] if seat < len(self.keys) else None
        return bot_level(key) if key is not None else None

    # ------------------------------------------------------------------ updating

    def with_table(self, table: TableInfo, seat: int | None) -> TableState:
        """Everything the genesis fixes: players, rules, names, keys, the local seat.
        (A :class:`~chkobba_p2p.transcript.table.TableInfo` given to :meth:`apply` does the same,
        finding the local seat by :attr:`my_fingerprint`.)"""
        return replace(
            self.with_players(table.players), seat=seat, rules=table.rules,
            names=table.display_names(), shuffle_proofs=table.shuffle_proofs,
            fingerprints=tuple(s.fingerprint for s in table.seats),
            keys=tuple(s.key for s in table.seats))

    def sync(self, hand: Hand) -> TableState:
        """Take the rules engine's view of the hand (as given at a decision): it is
        authoritative for everything it shows."""
        n = hand.players
        st = self.with_players(n)
        piles: list[list[Card]] = [[] for _ in range(sides_count(n))]
        for owner, pile in enumerate(hand.piles):
            piles[side_of(owner, n)].extend(pile)
        seat = hand.viewer if hand.viewer is not None else st.seat
        mine = tuple(c for c in hand.hand_of(seat) if c is not None) if seat is not None else ()
        cutting = isinstance(hand.pending, CutterChoice)
        return replace(
            st, seat=seat, rules=hand.ruleset, dealer=hand.dealer, hand=mine,
            counts=tuple(len(h) for h in hand.hands), table=hand.table, stock=hand.stock,
            piles=tuple(map(tuple, piles)), chkobbas=hand.side_chkobbas(),
            turn=hand.cutter if cutting else hand.turn, cutting=cutting,
            drawn=mine[0] if cutting and mine else None,
            last_capturer=hand.last_capturer)

    def apply(self, event: object) -> TableState:
        """The state after one event (events this model does not know are ignored)."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return self
        return handler(self, event)

    def apply_all(self, events: Sequence[object]) -> TableState:
        st = self
        for e in events:
            st = st.apply(e)
        return st

    # ------------------------------------------------------------------ internals

    def with_players(self, players: int) -> TableState:
        """Sized for ``players`` seats (counts and captures reset if the size changes)."""
        if self.players == players and len(self.counts) == players:
            return self
        k = sides_count(players)
        return replace(self, players=players, counts=(0,) * players,
                       piles=((),) * k, chkobbas=(0,) * k,
                       totals=self.totals if len(self.totals) == k else (0,) * k)

    def _fresh_hand(self, dealer: int) -> TableState:
        n = self.players or 2
        k = sides_count(n)
        return replace(self, dealer=dealer, hand=(), counts=(0,) * n, table=(), stock=40,
                       piles=((),) * k, chkobbas=(0,) * k, turn=(dealer + 1) % n,
                       cutting=False, drawn=None, last_play=None, last_capturer=None)

    def _on_table(self, table: TableInfo) -> TableState:
        seat = self.seat
        fps = [s.fingerprint for s in table.seats]
        if self.my_fingerprint in fps:
            seat = fps.index(self.my_fingerprint)
        return self.with_table(table, seat) if seat is not None else replace(
            self.with_players(table.players), rules=table.rules,
            names=table.display_names(), shuffle_proofs=table.shuffle_proofs,
            fingerprints=tuple(fps))

    def _on_lobby(self, ev: Lobby) -> TableState:
        st = self.with_players(len(ev.seats))
        names = tuple(s[0] if s else None for s in ev.seats)
        fps = tuple(s[1] if s else None for s in ev.seats)
        seat = st.seat
        if self.my_fingerprint is not None and self.my_fingerprint in fps:
            seat = fps.index(self.my_fingerprint)
        proofs = ev.shuffle_proofs if ev.shuffle_proofs is not None else st.shuffle_proofs
        return replace(st, names=names, fingerprints=fps, seat=seat, shuffle_proofs=proofs,
                       ready=tuple(ev.ready), keys=tuple(ev.keys), bots=tuple(ev.bots),
                       rules=ev.rules if ev.rules is not None else st.rules,
                       limits=ev.limits if ev.limits is not None else st.limits,
                       spectator_limit=ev.spectators if ev.spectators is not None
                       else st.spectator_limit)

    def _on_first_draw(self, ev: FirstDealerDrawn) -> TableState:
        draws = dict(ev.draws)
        st = self if self.players else self.with_players(len(draws))
        return replace(st, first_draw=draws)

    def _on_hand_started(self, ev: HandStarted) -> TableState:
        return replace(self._fresh_hand(ev.dealer), hand_number=ev.number, redeals=0)

    def _on_redeal(self, ev: RedealEvent) -> TableState:
        return replace(self._fresh_hand(ev.dealer), redeals=self.redeals + 1)

    def _on_deal(self, ev: DealEvent) -> TableState:
        counts = list(self.counts)
        table = list(self.table)
        hand = list(self.hand)
        seat = self.seat
        for who, c in zip(ev.recipients, ev.cards):
            if who is None:
                if c is not None:
                    table.append(c)
                continue
            if seat is None and c is not None:
                seat = who  # only the local seat's cards are dealt visible
            if who < len(counts):
                counts[who] += 1
            if who == seat and c is not None:
                hand.append(c)
        st = replace(self, seat=seat, counts=tuple(counts), table=tuple(table),
                     hand=tuple(hand), stock=max(0, self.stock - len(ev.recipients)))
        if ev.draw:
            drawn = ev.cards[0] if ev.cards and ev.cards[0] is not None else None
            return replace(st, cutting=True, drawn=drawn, turn=self.cutter)
        turn = st.turn if st.turn is not None else self.cutter
        return replace(st, turn=turn)

    def _on_cards_seen(self, ev: CardsSeen) -> TableState:
        """Our cards of a round, dealt before they opened to us (seat-deal/v1): the
        round's deal counted them, unseen; now they are in our hand."""
        return replace(self, hand=self.hand + tuple(ev.cards))

    def _on_cut(self, ev: CutEvent) -> TableState:
        st = replace(self, cutting=False, drawn=None, turn=self.cutter)
        if ev.keep or ev.card is None:
            return st
        counts = list(st.counts)
        if ev.seat < len(counts):
            counts[ev.seat] = max(0, counts[ev.seat] - 1)
        hand = tuple(c for c in st.hand if c != ev.card) if ev.seat == st.seat else st.hand
        return replace(st, counts=tuple(counts), hand=hand, table=(ev.card,) + st.table)

    def _on_play(self, ev: PlayEvent) -> TableState:
        n = self.players or 2
        counts = list(self.counts)
        if ev.seat < len(counts):
            counts[ev.seat] = max(0, counts[ev.seat] - 1)
        hand = self.hand
        if ev.seat == self.seat:
            hand = tuple(c for c in hand if c != ev.card)
        piles = list(self.piles)
        chkobbas = list(self.chkobbas)
        last_capturer = self.last_capturer
        if ev.capture:
            table = tuple(c for c in self.table if c not in ev.capture)
            side = self.side(ev.seat)
            if side < len(piles):
                piles[side] = piles[side] + (ev.card, *sorted(ev.capture))
                chkobbas[side] += int(ev.chkobba)
            last_capturer = ev.seat
        else:
            table = self.table + (ev.card,)
        return replace(self, counts=tuple(counts), hand=hand, table=table,
                       piles=tuple(piles), chkobbas=tuple(chkobbas), last_play=ev,
                       last_capturer=last_capturer, turn=(ev.seat + 1) % n)

    def _on_sweep(self, ev: SweepEvent) -> TableState:
        piles = list(self.piles)
        if ev.seat is not None and ev.cards:
            side = self.side(ev.seat)
            if side < len(piles):
                piles[side] = piles[side] + tuple(ev.cards)
        return replace(self, piles=tuple(piles), table=(), turn=None)

    def _on_scored(self, ev: HandScored) -> TableState:
        return replace(self, totals=tuple(ev.totals), scored=self.scored + (ev,), turn=None)

    def _on_match_over(self, ev: MatchOver) -> TableState:
        return replace(self, totals=tuple(ev.totals), winner_side=ev.winner_side, turn=None)

    def _on_done(self, ev: MatchDone) -> TableState:
        return replace(self, done=ev, winner_side=ev.winner_side, totals=tuple(ev.totals),
                       turn=None)

    def _on_aborted(self, ev: Aborted) -> TableState:
        # A resignation decides the match: the resigner's side loses.
        return replace(self, aborted=ev, turn=None,
                       winner_side=ev.winner_side(self.players or 2))

    def _on_waiting(self, ev: Waiting) -> TableState:
        rest = tuple(w for w in self.waiting if w[0] != ev.seat)
        away = tuple(s for s in self.away if s != ev.seat) + ((ev.seat,) if ev.away else ())
        return replace(self, waiting=rest + ((ev.seat, ev.seconds),), away=away)

    def _on_resumed(self, ev: Resumed) -> TableState:
        # A joining peer's own seat back means its link to the host is up again: the
        # host (seat 0), if it was gone, is back too.
        back = {ev.seat} | ({0} if ev.seat == self.seat and self.seat != 0 else set())
        return replace(self, waiting=tuple(w for w in self.waiting if w[0] not in back),
                       away=tuple(s for s in self.away if s not in back))

    def _on_restored(self, ev: Restored) -> TableState:
        """The whole picture again from a resumed game's replayed events (what the local
        display knew before the crash is dropped: the log is the truth)."""
        st = TableState(my_fingerprint=self.my_fingerprint, limits=self.limits,
                        spectator_limit=self.spectator_limit).with_table(ev.table, ev.seat)
        return st.apply_all(ev.events)


# Each handler takes the event of its type.
_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    TableInfo: TableState._on_table,
    TableReady: lambda st, ev: st.with_table(ev.table, ev.seat),
    FirstDealerDrawn: TableState._on_first_draw,
    Lobby: TableState._on_lobby,
    HandStarted: TableState._on_hand_started,
    RedealEvent: TableState._on_redeal,
    DealEvent: TableState._on_deal,
    CardsSeen: TableState._on_cards_seen,
    CutEvent: TableState._on_cut,
    PlayEvent: TableState._on_play,
    SweepEvent: TableState._on_sweep,
    HandScored: TableState._on_scored,
    MatchOver: TableState._on_match_over,
    MatchDone: TableState._on_done,
    Aborted: TableState._on_aborted,
    Waiting: TableState._on_waiting,
    Resumed: TableState._on_resumed,
    Spectators: lambda st, ev: replace(st, spectators=tuple(ev.names),
                                       spectator_limit=ev.limit),
    Restored: TableState._on_restored,
}
