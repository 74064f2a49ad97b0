"""At 2 players a seat whose proof work is under way keeps its turn for it when what it
would send gives the other seat nothing to do before that work is done: its proof, its
cut, the deck's last shuffle (issue 44; PROTOCOL.md 6.2, "proof work and the floor").
Sent alone, those messages cost two trips of the floor (the other seat's turn, then ours
with the proof or the shares the check released); kept, they travel with the work's
result.  At 3 and 4 players a seat's deck (and its cut) waits for its proof, so the
proofs take no pass of the floor of their own.  Nothing on the wire changes.

Sans-IO tables (test_session.py) under proof-apart/v1 with the proof work deferred and
the slowest worker there is: a seat's jobs run only when it holds the floor and its
session has no entry to send (the work is slower than the line)."""

from __future__ import annotations

import functools

import pytest
from support.audit import said
from support.sessions import Table as _Table
from support.sessions import deal_releases, speak_lazily

from chkobba_p2p.deal.core import ProofJob
from chkobba_p2p.deal.messages import parse_item
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import VALID, audit_bodies
from chkobba_p2p.transcript.caps import CAP_NEXT_DECK, CAP_PROOF_APART, CAP_SHARES_RIDE, SPOKEN
from chkobba_p2p.wire import codec as wire

RULES = Ruleset(target=8)  # three hands or so: a deck built between hands, each seat cutting
#: These tests are about a deck built between hands: tables without next-deck/v1 (which
#: builds it during the hand before, test_next_deck.py).
BETWEEN = tuple(c for c in SPOKEN if c != CAP_NEXT_DECK)


def Table(*args, **kwargs):  # noqa: N802 - the support's Table, between hands
    kwargs.setdefault("caps", BETWEEN)
    return _Table(*args, **kwargs)


def _lazy(t: Table, defer: bool = True, crash_kept: bool = False
          ) -> tuple[list[bytes], list[tuple[int, int | None]]]:
    """Play ``t`` to its end, each seat's proof jobs run only when it holds the floor and
    has no entry to send.  Returns the chain and, for every time a seat kept its turn with
    deal messages in its outbox, (that seat, the seat its session says owes the next
    message).  ``crash_kept``: whenever the seat that holds the floor keeps its turn (deal
    messages in its outbox, its proof work pending), it is rebuilt from its log before it
    speaks (its jobs and its outbox lost), once at each length of the chain."""
    for s in t.sessions:
        s.defer_work = defer
    jobs: dict[int, list[ProofJob]] = {s.seat: [] for s in t.sessions}
    kept: list[tuple[int, int | None]] = []
    crashed: set[int] = set()  # the chain's lengths at which a keeping seat was rebuilt
    for _ in range(50000):  # an entry delivered each round
        if all(s.finished for s in t.sessions):
            break
        k = next(s.seat for s in t.sessions if s.floor == s.seat or s.finished)
        s = t.sessions[k]
        if crash_kept and not s.finished and s.game.has_outbox and jobs[k] \
                and len(s.bodies) not in crashed:
            crashed.add(len(s.bodies))
            t.sessions[k] = _Table.clone(t, s)
            t.sessions[k].defer_work = defer
            jobs[k] = []
        speak_lazily(t, jobs, kept)
    else:
        raise AssertionError("the match did not end")
    if crash_kept:
        assert crashed, "no seat kept its turn: the case was not tested"
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    return list(t.sessions[0].bodies), kept


@functools.cache
def _hold_a() -> tuple[_Table, list[bytes], list[tuple[int, int | None]]]:
    """The 2-player match ``hold-a`` played with the slow worker (:func:`_lazy`), once
    per test process for the tests that only read it (its table, chain and kept turns).
    Read only."""
    t = Table(2, proofs=True, rules=RULES, key=b"hold-a")
    bodies, kept = _lazy(t)
    return t, bodies, kept


#: The tests that read ``_hold_a`` share a worker (pytest-xdist's loadgroup).
HOLD_A = pytest.mark.xdist_group("test_proof_hold")


def _kinds(e: wire.Entry) -> list[str]:
    items = (parse_item(d) for f in ("d", "p") for d in e.fields.get(f) or [])
    return [item.type for item in items if item is not None]


def _between_plays(bodies: list[bytes]) -> list[list[wire.Entry]]:
    """The turns without an action between two plays that follow one another in the
    chain (a cut between them counts as a turn without a play, and so in), for every
    such stretch that builds a deck (it holds a ``deal/shuffle``)."""
    out: list[list[wire.Entry]] = []
    stretch: list[wire.Entry] | None = None
    for b in bodies:
        e = wire.open_entry(b)
        if e.kind != "turn":
            continue
        a = e.fields.get("a")
        if isinstance(a, dict) and a.get("t") == "play":
            if stretch is not None and any("deal/shuffle" in _kinds(x) for x in stretch):
                out.append(stretch)
            stretch = []
        elif stretch is not None:
            stretch.append(e)
    return out


@HOLD_A
def test_two_players_build_the_next_deck_in_six_turns_without_an_empty_one():
    """Between the last play of a hand and the first of the next, at most six turns
    without a play besides the cut: the two reveals (the second carries its key), the
    other key, the two shuffles (the last with its cut and proof, or the proof with the
    cut), the other proof with the draw's shares, and the last shares of the hand (the
    cut carries the cutter's).  Without the hold a slow worker put the proof, the cut
    or the last shuffle in turns of their own: eight (three hands, each seat cutting
    once: both orders of the shuffle phase)."""
    t, bodies, kept = _hold_a()
    assert CAP_PROOF_APART in t.table.caps
    assert CAP_SHARES_RIDE in t.sessions[0].caps
    stretches = _between_plays(bodies)
    assert len(stretches) == 2
    assert {e.seat for s in stretches for e in s if isinstance(e.fields.get("a"), dict)} \
        == {0, 1}  # each seat cut once
    for stretch in stretches:
        no_cut = [e for e in stretch if not isinstance(e.fields.get("a"), dict)]
        assert len(no_cut) <= 6, [(e.seat, _kinds(e)) for e in stretch]
        assert all(_kinds(e) for e in no_cut), "an empty turn"
        # The draw's shares leave with the proof whose check released them.
        assert any({"deal/proof", "deal/shares"} <= set(_kinds(e)) for e in stretch)
    # A seat kept its turn with messages to send, and only while it owed the next one
    # (the floor's holder: the time is on its own clock, PROTOCOL.md 12.2).
    assert kept and all(seat == owing for seat, owing in kept)
    report = audit_bodies(bodies, workers=0)
    assert report.verdict == VALID, said(report)


@HOLD_A
def test_two_players_nothing_is_released_after_fewer_actions():
    """The same match (same secrets, same bots) with the proof work done at once (no
    work is ever under way: nothing is kept) and with the slow worker (kept): every deal
    message but a proof is the same, and each one is in the chain after no fewer
    actions with the hold than without it.  Nobody holds a card, a key or a reveal
    earlier in the game: the kept messages travel in the same entry or a later one."""
    quick = Table(2, proofs=True, rules=RULES, key=b"hold-a")
    slow, slow_bodies, slow_kept = _hold_a()
    quick_bodies, quick_kept = _lazy(quick, defer=False)
    assert not quick_kept and slow_kept
    assert quick.sessions[0].done == slow.sessions[0].done
    before, after = deal_releases(quick_bodies), deal_releases(slow_bodies)
    assert sorted((s, k) for s, k, _ in before) == sorted((s, k) for s, k, _ in after)
    at_quick = {(s, k): a for s, k, a in before}
    for s, k, a in after:
        assert a >= at_quick[(s, k)], (s, k, a, at_quick[(s, k)])


def _proofs_ride_with_their_decks(bodies: list[bytes]) -> int:
    """Asserts every ``deal/proof`` of ``bodies`` is in the entry that carries its
    sender's ``deal/shuffle``, and the other way round (a seat's key that completes the
    keys goes with them: it shuffles first); returns how many there are.  The first
    dealer's draw deck (revealed before any hand's deck is built) has no proofs."""
    proofs, drawn = 0, False
    for b in bodies:
        e = wire.open_entry(b)
        kinds = _kinds(e) if e.kind == "turn" else []
        drawn = drawn or "deal/reveal" in kinds
        if drawn and ("deal/proof" in kinds or "deal/shuffle" in kinds):
            proofs += 1
            assert {"deal/shuffle", "deal/proof"} <= set(kinds), (e.seat, kinds)
    return proofs


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_send_a_shuffle_with_its_proof(players):
    """At 3 and 4 players a seat keeps its shuffle (and its cut) until its proof is
    made, and sends them together: every proof is in the entry of its deck, so the
    proofs take no pass of the floor of their own (without the hold, a slow worker's
    proofs each went on the sender's next turn, a pass after its deck, before any share
    of the deck could go).  A seat keeps its turn only while it holds the floor: the
    time is its own (PROTOCOL.md 12.2).  Nothing is released after fewer actions than
    with the work done at once."""
    slow = Table(players, proofs=True, rules=Ruleset(target=1), key=b"hold-three")
    bodies, kept = _lazy(slow)
    assert _proofs_ride_with_their_decks(bodies) == players  # the hand's deck (one hand)
    assert kept and all(seat == owing for seat, owing in kept)
    assert audit_bodies(bodies, workers=0).verdict == VALID
    quick = Table(players, proofs=True, rules=Ruleset(target=1), key=b"hold-three")
    quick_bodies, quick_kept = _lazy(quick, defer=False)
    assert not quick_kept and quick.sessions[0].done == slow.sessions[0].done
    before, after = deal_releases(quick_bodies), deal_releases(bodies)
    assert sorted((s, k) for s, k, _ in before) == sorted((s, k) for s, k, _ in after)
    at_quick = {(s, k): a for s, k, a in before}
    for s, k, a in after:
        assert a >= at_quick[(s, k)], (s, k, a, at_quick[(s, k)])


@HOLD_A
def test_two_players_crash_and_resume_while_a_turn_is_kept():
    """The seat holding the floor is rebuilt from its log whenever it keeps its turn,
    before it speaks (its jobs and its kept messages lost, its replay redoing the proof
    work): it sends what it owes once (the chain has as many entries as without
    crashes), both seats end the same, the audit VALID.  (Rebuilding it every third entry
    all match long tested the same case in about five times the CPU.)"""
    t = Table(2, proofs=True, rules=RULES, key=b"hold-a")
    bodies, kept = _lazy(t, crash_kept=True)
    assert kept
    _, reference, _ = _hold_a()
    assert t.sessions[0].done is not None
    assert len(bodies) == len(reference)  # the same turns: a resume sends nothing twice
    report = audit_bodies(bodies, workers=0)
    assert report.verdict == VALID, said(report)


def test_three_players_the_last_key_waits_with_the_deck_it_starts():
    """The seat whose key completes the next deck's keys shuffles first: its key waits
    with its deck for its proof, all in one entry (sent alone, the key and the deck went
    at once and the proof a pass later).  A few hands: the seat that sends the last key
    moves with the end of the hand."""
    t = Table(3, proofs=True, rules=RULES, key=b"hold-key")
    bodies, _ = _lazy(t)
    _proofs_ride_with_their_decks(bodies)
    assert any({"deal/key", "deal/shuffle"} <= set(_kinds(e))
               for e in map(wire.open_entry, bodies) if e.kind == "turn")
