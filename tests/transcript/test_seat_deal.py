"""seat-deal/v1 (issue 44): at 3 and 4 players a seat releases its shares of another
seat's next cards (the next round of the same deck) once both hands are empty, before the
rules deal the round; so the round's last play deals it and every seat holds its cards
when the floor reaches it, with no floor round of entries carrying nothing but shares
(PROTOCOL.md 6.2, "Shares without a floor round").

Sans-IO tables (sessions wired by hand, ``support.sessions.Table``, deterministic from a
key): the same match with and without the capability, its fairness (no card opens to its
holder earlier in the game), the audit, a mixed table, a resume with a seat's cards not
open to it yet; and the pure pieces (the deal core's early steps, the engine's cards
dealt unseen)."""

from __future__ import annotations

import json

import pytest
from support.audit import said
from support.net import old_joiner, play_mixed_table
from support.sessions import Table
from support.vectors import REGEN, VECTORS, play_until
from support.vectors import seed as _seed

from chkobba_p2p.deal import Deal, DealUsageError
from chkobba_p2p.errors import InvalidDeal, LocalError
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.events import CutEvent, DealEvent, PlayEvent
from chkobba_p2p.game.hand import DealStep, Hand, Turn
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import VALID, audit_bodies
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.transcript.caps import (
    CAP_SEAT_DEAL,
    IMPLEMENTED_CAPABILITIES,
    SPOKEN,
    TABLE_CAPABILITIES,
)
from chkobba_p2p.transcript.events import CardsSeen
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import TranscriptWriter, read_log

WITHOUT = tuple(c for c in SPOKEN if c != CAP_SEAT_DEAL)


def _table(players: int, key: bytes, seat_deal: bool, **kw: object) -> Table:
    kw.setdefault("rules", Ruleset(target=3))
    t = Table(players, key=key, caps=None if seat_deal else WITHOUT, **kw)  # type: ignore[arg-type]
    assert (CAP_SEAT_DEAL in t.table.caps) is seat_deal
    return t


def _learned(t: Table) -> dict[int, list[tuple[Card, int]]]:
    """Play ``t`` to its end; per seat, each of its own cards in the order it learned
    them, with the number of actions (plays and cuts) in the chain then.  Each seat's
    picture of the table (:class:`TableState`, from its events alone) shows the hand its
    rules engine holds after every entry."""
    states = {s.own_seat: TableState() for s in t.sessions}
    actions = {s.own_seat: 0 for s in t.sessions}
    got: dict[int, list[tuple[Card, int]]] = {s.own_seat: [] for s in t.sessions}
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        assert t.step() is not None, "nobody can speak"
        for s in t.sessions:
            me = s.own_seat
            events = s.take_events()
            states[me] = states[me].apply_all(events)
            hand = s.game.hand
            if hand is not None and not s.game.over and states[me].seat is not None:
                assert sorted(states[me].hand) == sorted(c for c in hand.hands[me]
                                                         if c is not None)
            for ev in events:
                if isinstance(ev, PlayEvent | CutEvent):
                    actions[me] += 1
                elif isinstance(ev, DealEvent) and not ev.draw:
                    got[me] += [(c, actions[me]) for who, c in zip(ev.recipients, ev.cards)
                                if who == me and c is not None]
                elif isinstance(ev, CardsSeen):
                    got[me] += [(c, actions[me]) for c in ev.cards]
    else:
        raise AssertionError("the match did not end")
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    return got


def _share_only_turns(bodies: list[bytes]) -> int:
    """Turns that carry shares and no action."""
    n = 0
    for b in bodies:
        e = wire.open_entry(b)
        items = [d for f in ("d", "p") for d in e.fields.get(f) or [] if isinstance(d, dict)]
        if e.kind == "turn" and "a" not in e.fields \
                and any(d.get("t") == "deal/shares" for d in items):
            n += 1
    return n


@pytest.mark.parametrize("players", [3, 4])
def test_the_same_match_without_a_floor_round_and_no_card_opens_earlier(players):
    """The same match (same secrets, same bots) with and without seat-deal/v1: the same
    result; with it fewer entries, fewer turns of shares alone, some seat's cards dealt
    before they opened to it (and shown to it later); and no seat learns any card of
    its own after fewer actions than without it: nobody holds a card earlier in the game.
    The auditor finds the match VALID."""
    key = b"seat-deal-%d" % players
    old, new = _table(players, key, False), _table(players, key, True)
    before, after = _learned(old), _learned(new)
    assert all(CAP_SEAT_DEAL in s.caps and s.game.seat_deal for s in new.sessions)
    assert old.sessions[0].done == new.sessions[0].done
    old_bodies, new_bodies = list(old.sessions[0].bodies), list(new.sessions[0].bodies)
    assert len(new_bodies) < len(old_bodies)
    assert _share_only_turns(new_bodies) < _share_only_turns(old_bodies)
    for seat in before:
        assert [c for c, _ in after[seat]] == [c for c, _ in before[seat]]
        for (c, a_new), (_, a_old) in zip(after[seat], before[seat]):
            assert a_new >= a_old, (seat, c, a_new, a_old)
    report = audit_bodies(new_bodies, workers=0)
    assert report.verdict == VALID, said(report)


def test_every_seat_holds_its_cards_when_the_floor_reaches_it():
    """4 players: from the second round of a hand on, no turn without an action (the
    floor round of shares alone is gone), and a seat's cards open to it at the latest
    in the entry before its first play of the round.  While steps are open early, the
    game waits for no seat's shares of them (none is owed yet): only for the seat to
    play, and for a peer's own messages not sent yet."""
    t = _table(4, b"seat-deal-floor", True)
    seen_late = []
    early = 0
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        for o in t.sessions:
            hand = o.game.hand
            if o.game._early_steps and hand is not None:
                early += 1
                to_play = {hand.pending.seat} if isinstance(hand.pending, Turn) else set()
                assert set(o.game.owed()) <= to_play | {o.own_seat}
        s, e = t.speak()
        g = s.game
        hand = g.hand
        if e.kind == "turn" and hand is not None and isinstance(hand.pending, Turn) \
                and hand.pending.seat == s.own_seat and g._round_steps and "a" not in e.fields:
            seen_late.append((len(s.bodies), s.own_seat))
        t.deliver(e, s.own_seat)
    assert all(s.finished for s in t.sessions)
    assert seen_late == [] and early > 0


@pytest.mark.parametrize("players", [3, 4])
def test_with_proofs_the_audit_is_valid(players):
    t = _table(players, b"seat-deal-proofs-%d" % players, True, proofs=True,
               rules=Ruleset(target=1))
    _learned(t)
    report = audit_bodies(list(t.sessions[0].bodies), workers=0)
    assert report.verdict == VALID, said(report)


def test_two_players_play_as_without_it():
    """At 2 players the capability changes nothing (the round's last play already deals
    the round with shares-ride/v1): the same chain, entry for entry in kind and count."""
    old, new = _table(2, b"seat-deal-2", False), _table(2, b"seat-deal-2", True)
    _learned(old)
    _learned(new)
    assert not new.sessions[0].game.seat_deal
    assert len(old.sessions[0].bodies) == len(new.sessions[0].bodies)


def test_a_mixed_table_plays_the_old_way():
    """A seat that does not play seat-deal/v1 (its ready leaves it out): not in effect
    for anyone; the match completes as without it."""
    key = b"seat-deal-mixed"
    t = _table(3, key, True)
    seat = t.sessions[2]
    t.sessions[2] = Session.join(t.ids[2], wire.open_entry(t.genesis.body),
                                 t.ids[0].public, seat.master,
                                 speaks=tuple(c for c in IMPLEMENTED_CAPABILITIES
                                              if c != CAP_SEAT_DEAL))
    old = _table(3, key, False)
    _learned(t)
    _learned(old)
    assert all(CAP_SEAT_DEAL not in s.caps and not s.game.seat_deal for s in t.sessions)
    assert t.sessions[0].done == old.sessions[0].done
    assert _share_only_turns(list(t.sessions[0].bodies)) \
        == _share_only_turns(list(old.sessions[0].bodies))


def test_a_seat_resumes_while_its_cards_are_not_open_to_it():
    """A seat whose cards of the round the rules dealt and that has not seen them yet
    crashes: rebuilt from its log and secret, it is in the same state and plays on."""
    t = _table(4, b"seat-deal-resume", True)
    resumed: list[str] = []
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        for i, s in enumerate(t.sessions):
            why = "unseen" if s.game._unseen is not None else \
                "early" if s.game._early_steps else None
            if why is not None and resumed.count(why) < 2:
                clone = Table.clone(t, s)
                assert clone.game._unseen == s.game._unseen
                assert clone.game._early_steps == s.game._early_steps
                # (a share's proof nonce is fresh: the same message, other bytes)
                assert [(m["t"], m.get("step"), m.get("pos")) for m in clone.game._out] \
                    == [(m["t"], m.get("step"), m.get("pos")) for m in s.game._out]
                t.sessions[i] = clone
                resumed.append(why)
        assert t.step() is not None
    assert all(s.finished for s in t.sessions)
    assert sorted(resumed) == ["early", "early", "unseen", "unseen"]
    assert len({s.bodies[-1] for s in t.sessions}) == 1


# ------------------------------------------------------------------ real peers in memory


#: A joiner of before the capability: its hello does not announce it.
OldJoiner = old_joiner(CAP_SEAT_DEAL)


async def test_a_table_of_new_peers(tmp_path, autojump_clock):
    """Four real peers: seat-deal/v1 in effect, every log VALID (support.net)."""
    outcomes = await play_mixed_table(tmp_path, 4, Ruleset(target=3), set(), OldJoiner)
    assert CAP_SEAT_DEAL in outcomes[0].table.caps


async def test_a_mixed_real_table(tmp_path, autojump_clock):
    """One joiner of before the capability: the genesis lacks it, the match completes
    the old way, every log VALID."""
    outcomes = await play_mixed_table(tmp_path, 3, Ruleset(target=3), {2}, OldJoiner)
    assert CAP_SEAT_DEAL not in outcomes[0].table.caps


# ------------------------------------------------------------------ the pure pieces


def test_the_deal_core_opens_a_step_early_and_owes_it_only_once_due():
    """An early step: the recipient owes nothing, nobody is expected to send it, our
    shares wait for :meth:`Deal.release`; shares of it are accepted and open the cards
    to their recipient; ``due`` makes the missing ones owed."""
    n = 3
    deals = [Deal(session_id=b"g", hand=1, instance=0, n=n, seat=s, shuffle_proofs=False)
             for s in range(n)]
    queue = [(s, m) for s, d in enumerate(deals) for m in d.start().messages]
    while queue:
        sender, m = queue.pop(0)
        for s, d in enumerate(deals):
            if s != sender:
                queue += [(s, x) for x in d.receive(sender, m).messages]
    assert all(d.phase == "deal" for d in deals)
    out = [d.open({1: [0, 1, 2]}, [], early=True) for d in deals]
    assert all(o.messages == [] for o in out)
    assert all(d.is_early(0) and d.steps == 1 for d in deals)
    assert all(not any(t == "deal/shares" for _, t in d.expecting()) for d in deals)
    with pytest.raises(DealUsageError):
        deals[0].release(1)
    assert deals[1].release(0).messages == []  # the recipient owes none
    shares = deals[2].release(0).messages
    assert [m["t"] for m in shares] == ["deal/shares"] and shares[0]["pos"] == [0, 1, 2]
    assert deals[2].release(0).messages == []  # once
    deals[1].receive(2, shares[0])
    deals[0].receive(2, shares[0])
    assert not deals[1].step_complete(0)
    out0 = deals[0].release(0, due=True)
    assert not deals[0].is_early(0)
    assert deals[1].card_at(0) is None
    deals[1].receive(0, out0.messages[0])
    assert deals[1].step_complete(0) and deals[1].card_at(0) is not None
    # Once due, a seat still owing its shares is expected.
    assert (0, "deal/shares") not in deals[2].expecting()
    deals[2].release(0, due=True)
    assert (0, "deal/shares") in deals[2].expecting()
    d = Deal.from_state(deals[0].to_state())
    assert not d.is_early(0) and d.step_complete(0) is deals[0].step_complete(0)


def test_the_engine_deals_a_round_with_its_viewers_cards_unseen():
    """A round of three during play may be dealt with the viewer's own cards unknown
    (``own_later``); they are seen later, once, and checked as any dealt card."""
    rules = Ruleset()
    kings, last = [Card(i) for i in (9, 19, 29, 39)], [Card(i) for i in range(3)]
    mine = [Card(i) for i in range(4, 7)]
    rest = [Card(i) for i in range(40) if Card(i) not in kings + last + mine][:24]
    full = Hand.from_position(rules, 3, 0, hands=[[last[0]], [last[1]], [last[2]]],
                              table=kings, turn=1, stock=9, piles=[rest, [], []])
    for seat in (1, 2, 0):
        full = full.play(seat, last[seat])
    view = full.view(1)
    step = view.pending
    assert isinstance(step, DealStep) and step.recipients == (1, 1, 1, 2, 2, 2, 0, 0, 0)
    with pytest.raises(InvalidDeal):
        view.deal([None] * 9)
    dealt = view.deal([None] * 9, own_later=True)
    assert dealt.hands[1] == (None, None, None)
    with pytest.raises(InvalidDeal):
        dealt.see_own(mine[:2])
    with pytest.raises(InvalidDeal):
        dealt.see_own([Card(0), *mine[1:]])  # on the table already
    seen = dealt.see_own(mine)
    assert seen.hands[1] == tuple(mine) and seen.pending == Turn(1)
    assert {m.card for m in seen.legal_moves()} == set(mine)
    undealt = [c for c in map(Card, range(40)) if c not in kings + last + mine + rest]
    with pytest.raises(LocalError):  # omniscient: nothing unseen
        full.deal([*mine, *undealt[:6]]).see_own(mine)


# ------------------------------------------------------------------ the vector

_NAMES = ("host", "guest1", "guest2")


def _types(body: bytes, field: str) -> list[str]:
    got = wire.open_entry(body).fields.get(field) or []
    return [str(d.get("t")) for d in got if isinstance(d, dict)]


def _seat_table() -> TableInfo:
    seats = tuple(SeatInfo(i, Identity.from_seed(_seed(i + 1)).public, n)
                  for i, n in enumerate(_NAMES))
    return TableInfo(bytes(range(160, 176)), 1, 3, Ruleset(), seats, TABLE_CAPABILITIES)


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_seat_transcript():
    """A 3-player game at a seat-deal/v1 table (no shuffle proofs: a small file) from the
    genesis to the first play of hand 1's second round: the early shares of that round
    in the ``p`` of the plays that emptied the hands, and the round's first play with
    its shares for the seats after it."""
    table = _seat_table()
    ids = [Identity.from_seed(_seed(i + 1)) for i in range(3)]
    host, genesis = Session.create(ids[0], table, master=_seed(70))
    sessions = [host] + [Session.join(ids[i], genesis, ids[0].public, master=_seed(70 + i))
                         for i in (1, 2)]

    def second_round_begun(bodies: list[bytes]) -> bool:
        last = wire.open_entry(bodies[-1]).fields
        return bool(sessions[0].game._round_steps) and isinstance(last.get("a"), dict) \
            and "deal/shares" in _types(bodies[-1], "d")

    bodies = play_until(sessions, [genesis.body], second_round_begun)
    path = VECTORS / "transcript_seat.chklog"
    path.unlink(missing_ok=True)
    w = TranscriptWriter(path)
    w.write_header(game=table.game, seat=2, key=ids[2].public, name="guest2",
                   host="127.0.0.1:7777")
    for b in bodies:
        w.append(b)
    w.close()
    (VECTORS / "transcript_seat.json").write_text(json.dumps({
        "seeds_hex": [_seed(i + 1).hex() for i in range(3)],
        "guest2_master_hex": _seed(72).hex(),
        "entries": [{"kind": wire.open_entry(b).kind, "seat": wire.open_entry(b).seat,
                     "items": _types(b, "d"), "after": _types(b, "p"),
                     "id_hex": wire.open_entry(b).id.hex()} for b in bodies],
        "head_hex": wire.open_entry(bodies[-1]).id.hex()}, indent=2, sort_keys=True) + "\n")


def test_seat_transcript_vector():
    """seat-deal/v1 on the wire: shares of a round in the ``p`` of the play that empties
    its sender's hand, before the round is dealt; a seat replays it all from its master
    secret; the auditor finds it valid; and the same early share moved into the ``d`` of
    that entry (applied before the play, its sender still holding its last card), signed
    again, is refused at that entry, blaming its signer (``unexpected``)."""
    v = json.loads((VECTORS / "transcript_seat.json").read_text())
    log = read_log(VECTORS / "transcript_seat.chklog")
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex(), _types(e.body, "d"), _types(e.body, "p"))
            for e in entries] == \
        [(x["kind"], x["seat"], x["id_hex"], x["items"], x["after"]) for x in v["entries"]]
    assert CAP_SEAT_DEAL in TableInfo.from_entry(entries[0]).caps
    ids = [Identity.from_seed(bytes.fromhex(h)) for h in v["seeds_hex"]]
    master = bytes.fromhex(v["guest2_master_hex"])
    guest = Session.resume(ids[2], list(log.bodies), ids[0].public, master)
    assert guest.head.hex() == v["head_hex"] and CAP_SEAT_DEAL in guest.caps
    assert guest.game._round_steps
    report = audit_bodies(list(log.bodies), workers=0)
    assert report.verdict != "invalid", said(report)
    # The first play whose p carries shares of a step opened early: its shares moved
    # before the play.
    # (steps 0 and 1 are the draw and the opening deal; 2 on, hand 1's second round)
    at = next(i for i, e in enumerate(entries)
              if isinstance(e.fields.get("a"), dict) and e.seat != 2
              and any(d.get("t") == "deal/shares" and d.get("step", 0) >= 2
                      for d in e.fields.get("p") or []))
    e = entries[at]
    fields = {k: v for k, v in e.fields.items() if k not in ("g", "seat", "n", "prev", "k")}
    fields["d"] = list(fields.get("d") or []) + list(fields.pop("p"))
    forged = wire.make_entry(ids[e.seat], game=e.game, seat=e.seat, seq=e.seq, prev=e.prev,
                             kind="turn", body=fields)
    resumed = Session.resume(ids[2], list(log.bodies)[:at] + [forged.body], ids[0].public,
                             master)
    a = resumed.aborted  # the verdict signed, owed to the others (as live)
    assert resumed.owes_abort and a is not None
    assert (a.code, a.blamed_seat) == (ErrorCode.DEAL_FAILURE, e.seat)
    assert a.detail.startswith("unexpected"), a.detail
    report = audit_bodies(list(log.bodies)[:at] + [forged.body], workers=0)
    assert (report.verdict, report.blamed, report.code, report.entry) == (
        "invalid", e.seat, "deal_failure", at), said(report)
