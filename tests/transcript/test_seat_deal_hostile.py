"""A dishonest seat against seat-deal/v1 (issue 44): shares of a round released before
the rules allow it, for the wrong step or positions, or twice; and the same at a table
without the capability.  The cheater's own session makes the cheat (its deal releases
what it should not, or its queue is changed before it signs), so every share is real:
signed, with a valid proof.

What must hold: the sender is blamed, with the code PROTOCOL.md 6.2 gives, by every honest
peer and by the auditor at the same entry; nobody else is; a clean refusal."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.audit import said
from support.sessions import Table

from chkobba_p2p.deal.messages import SharesItem, parse_item
from chkobba_p2p.game.hand import Turn
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import INVALID, VALID, audit_bodies
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import CAP_SEAT_DEAL, SPOKEN
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode

WITHOUT = tuple(c for c in SPOKEN if c != CAP_SEAT_DEAL)

Cheat = Callable[[Session], bool]


def _play_cheat(players: int, key: bytes, cheat: Cheat, *, caps: tuple[str, ...] | None = None,
                ) -> tuple[int, list[bytes], dict[int, GameFault | None], Table]:
    """Play the table ``key`` until ``cheat(s)``, called on the seat about to speak (its
    choice made), says it changed that seat's session; that seat's next entry is given to
    every other seat.  Returns the cheater, the chain up to its entry, what each other
    seat raised (None: took it), and the table."""
    t = Table(players, key=key, rules=Ruleset(target=3), caps=caps)
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        for s in t.sessions:
            t.decide(s)
            if s.floor != s.own_seat:
                continue
            cheated = cheat(s)
            e = s.next_entry()
            if e is None:
                assert not cheated
                continue
            if not cheated:
                t.deliver(e, s.own_seat)
                break
            raised: dict[int, GameFault | None] = {}
            for o in t.sessions:
                if o is s:
                    continue
                try:
                    o.receive(wire.open_entry(e.body))
                    raised[o.own_seat] = None
                except GameFault as exc:
                    raised[o.own_seat] = exc
            return s.own_seat, list(s.bodies), raised, t
        else:
            raise AssertionError("nobody can speak")
    raise AssertionError("no chance to cheat")


def _blamed(seat: int, chain: list[bytes], raised: dict[int, GameFault | None],
            violation: str) -> None:
    """Every other seat refused the cheater's last entry, blaming it, ``deal_failure``
    with ``violation`` first in its reason; the auditor says the same of that entry."""
    for other, exc in raised.items():
        assert exc is not None, f"seat {other} took the cheat"
        assert (exc.error_code, exc.blamed_seat) == (ErrorCode.DEAL_FAILURE, seat), exc
        assert exc.detail.startswith(violation), exc.detail
    report = audit_bodies(chain, workers=0)
    assert (report.verdict, report.blamed, report.code, report.entry) == (
        INVALID, seat, "deal_failure", len(chain) - 1), said(report)
    assert report.reason.startswith(violation), report.reason


def _early_for_other(s: Session) -> int | None:
    """A step of the next round open early, for another seat, that ``s`` has not released."""
    g = s.game
    deck = g.deck
    if deck is None or g.hand is None:
        return None
    for x, k in g._early_steps.items():
        if x != s.own_seat and k in deck.deal._withheld:
            return k
    return None


@pytest.mark.parametrize("players", [3, 4])
def test_a_share_before_the_senders_hand_is_empty(players):
    """A seat still holding cards releases its share of another seat's next cards (open
    early: that seat's hand is empty): ``unexpected``, blamed on the sender alone."""
    def cheat(s: Session) -> bool:
        g = s.game
        if g.hand is None or not g.hand.hands[s.own_seat] or s.decision is not None:
            return False
        k = _early_for_other(s)
        if k is None or s._decided is None:
            return False
        g.deck.release(k)
        return True

    seat, chain, raised, _ = _play_cheat(players, b"early-sender-%d" % players, cheat)
    _blamed(seat, chain, raised, "unexpected")


@pytest.mark.parametrize("players", [3, 4])
def test_a_share_before_the_recipients_hand_is_empty(players):
    """A share of the next round for a seat that still holds cards (its step is not open
    anywhere): ``unexpected``, blamed on the sender."""
    def cheat(s: Session) -> bool:
        g = s.game
        hand = g.hand
        if hand is None or not isinstance(hand.pending, Turn) or not hand.stock \
                or g.deck is None or g._early_steps or s._decided is None:
            return False
        x = next(o for o in range(players) if o != s.own_seat and hand.hands[o])
        g.deck.open_early(x, list(range(g.top, g.top + 3)))
        g.deck.release(g.deck.deal.steps - 1)
        return True

    seat, chain, raised, _ = _play_cheat(players, b"early-recipient-%d" % players, cheat)
    _blamed(seat, chain, raised, "unexpected")


def _ride_cheat(change: Callable[[list[dict]], bool]) -> Cheat:
    """A cheat on what a seat's own entry causes (its ``p``): the first time the items
    its deal makes while applying its entry hold a share of a step opened early,
    ``change`` alters them before the entry is signed."""
    done: list[bool] = []

    def cheat(s: Session) -> bool:
        g = s.game
        if done or "outbox" in vars(g):
            return False
        make = g.outbox

        def outbox() -> list:
            out = make()
            deck = g.deck
            if not done and deck is not None and any(
                    isinstance(parse_item(m), SharesItem) and deck.deal.is_early(m["step"])
                    for m in out):
                done.append(change(out))
            return out

        g.outbox = outbox  # type: ignore[method-assign]
        return False

    def cheated(s: Session) -> bool:
        if done and done[0] is not None and "outbox" in vars(s.game):
            del s.game.outbox
            return True
        return cheat(s)

    return cheated


def _early_share(out: list[dict]) -> dict:
    return next(m for m in out if isinstance(parse_item(m), SharesItem))


def _play_ride_cheat(key: bytes, change: Callable[[list[dict]], bool]
                     ) -> tuple[int, list[bytes], dict[int, GameFault | None]]:
    """Like :func:`_play_cheat`, the cheat riding in ``p`` (made while the entry is
    signed, so found after it): the entry that carries it is the cheater's last."""
    t = Table(4, key=key, rules=Ruleset(target=3))
    cheat = _ride_cheat(change)
    changed: list[int] = []
    for _ in range(20000):
        assert not all(s.finished for s in t.sessions), "no chance to cheat"
        for s in t.sessions:
            t.decide(s)
            if s.floor != s.own_seat:
                continue
            cheat(s)
            e = s.next_entry()
            if e is None:
                continue
            if "outbox" in vars(s.game) and cheat(s):
                changed.append(s.own_seat)
            if not changed:
                t.deliver(e, s.own_seat)
                break
            raised: dict[int, GameFault | None] = {}
            for o in t.sessions:
                if o is not s:
                    try:
                        o.receive(wire.open_entry(e.body))
                        raised[o.own_seat] = None
                    except GameFault as exc:
                        raised[o.own_seat] = exc
            return s.own_seat, list(s.bodies), raised
    raise AssertionError("no chance to cheat")


def test_a_share_sent_twice():
    """The same early share twice in one entry: the second is ``unexpected``."""
    def twice(out: list[dict]) -> bool:
        out.append(dict(_early_share(out)))
        return True

    seat, chain, raised = _play_ride_cheat(b"early-twice", twice)
    _blamed(seat, chain, raised, "unexpected")


def test_a_share_for_the_wrong_positions():
    """An early share naming positions that are not its step's: ``wrong_positions``."""
    def shifted(out: list[dict]) -> bool:
        m = _early_share(out)
        m["pos"] = [p + 1 for p in m["pos"]]
        return True

    seat, chain, raised = _play_ride_cheat(b"early-positions", shifted)
    _blamed(seat, chain, raised, "wrong_positions")


def test_an_early_share_at_a_table_without_it():
    """Without seat-deal/v1 in effect a share of a step the rules have not dealt is held
    (as ever) and checked when the step opens: it does not match the step (one share
    per seat covering every position it owes), and its sender alone is blamed, by every
    honest peer and by the auditor."""
    def cheat(s: Session) -> bool:
        g = s.game
        hand = g.hand
        if hand is None or not isinstance(hand.pending, Turn) or hand.stock < 3 * 4 \
                or g.deck is None or s._decided is None or g.deck.deal.phase != "deal":
            return False
        x = (s.own_seat + 1) % 4
        g.deck.open_early(x, list(range(g.top, g.top + 3)))
        g.deck.release(g.deck.deal.steps - 1)
        return True

    seat, chain, raised, t = _play_cheat(4, b"early-without", cheat, caps=WITHOUT)
    assert all(CAP_SEAT_DEAL not in s.caps for s in t.sessions)
    assert all(exc is None for exc in raised.values())  # held, not judged yet
    # The honest seats play on (the cheater too): the held share is judged when its
    # step opens, against its sender.
    fault: GameFault | None = None
    for _ in range(2000):
        try:
            t.step()
        except GameFault as exc:
            fault = exc
            break
    assert fault is not None
    assert (fault.error_code, fault.blamed_seat) == (ErrorCode.DEAL_FAILURE, seat), fault
    honest = next(o for o in t.sessions if o.own_seat != seat)
    report = audit_bodies(list(honest.bodies), workers=0)
    assert (report.verdict, report.blamed, report.code, report.entry) == (
        INVALID, seat, "deal_failure", len(honest.bodies) - 1), said(report)


def test_an_honest_table_is_never_blamed():
    """The honest match at 3 and 4 players: every peer agrees, the audit is VALID."""
    for players in (3, 4):
        t = Table(players, key=b"seat-deal-honest-%d" % players, rules=Ruleset(target=3))
        t.run()
        assert all(CAP_SEAT_DEAL in s.caps for s in t.sessions)
        report = audit_bodies(list(t.sessions[0].bodies), workers=0)
        assert report.verdict == VALID, said(report)


def test_a_seat_that_withholds_its_shares_of_a_round_is_the_one_blamed():
    """A seat that never releases its shares of the next round (neither early, which it
    need not, nor once the round is dealt, which it must): the match goes on until the
    round is dealt, then stalls on a seat that cannot see its cards; the stall blames
    the withholding seat, never the seat waiting for its cards, live and in the audit."""
    t = Table(4, key=b"seat-deal-withhold", rules=Ruleset(target=3))
    cheater = t.sessions[1]
    make = cheater.game.make_deck

    def make_deck(*args: object, **kwargs: object):
        deck = make(*args, **kwargs)  # type: ignore[arg-type]
        release = deck.release

        def withheld(k: int, *, due: bool = False) -> None:
            if k in deck.deal._withheld:  # our shares of the step: never made
                deck.deal._withheld.remove(k)
            release(k, due=due)

        deck.release = withheld  # type: ignore[method-assign]
        return deck

    cheater.game.make_deck = make_deck  # type: ignore[method-assign]
    fault: GameFault | None = None
    for _ in range(5000):
        try:
            assert t.step() is not None
        except GameFault as exc:
            fault = exc
            break
    assert fault is not None
    assert (fault.error_code, fault.blamed_seat) == (ErrorCode.PROTOCOL_VIOLATION, 1), fault
    assert fault.violation == "stalled_owing"
    honest = t.sessions[0]
    # The round was dealt; the seat to play cannot see its cards (the cheater's share of
    # them is missing): it is not waited for, the cheater is.
    hand = honest.game.hand
    assert honest.game._round_steps and hand is not None and isinstance(hand.pending, Turn)
    assert hand.pending.seat != 1 and not honest.game.waits_for(hand.pending.seat)
    assert 1 in honest.game.owed() and hand.pending.seat not in honest.game.owed()
    report = audit_bodies(list(honest.bodies), workers=0)
    assert (report.verdict, report.blamed, report.code) == (
        INVALID, 1, "protocol_violation"), said(report)
