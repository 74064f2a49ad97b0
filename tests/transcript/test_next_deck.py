"""next-deck/v1 (issue 44): the next hand's first deck is built during the current hand.
Its keys, shuffles (with their proofs) and cut ride in a turn's field ``b``, applied after
the turn's ``d``, action and ``p``; so when the last card of a hand is played, the next
deck is shuffled and cut, and only the reveals and the first shares remain between the
hands (PROTOCOL.md 6.2, 7.1).  Nothing that opens a card ever rides in ``b``.

Sans-IO tables (sessions wired by hand, as test_session.py) for the rules, the blame and
the resume; real peers in memory (``InMemoryTable``) for a table of new peers and a mixed
one; and the vector ``transcript_next``."""

from __future__ import annotations

import functools
import json

import pytest
from support.audit import play, said
from support.net import old_joiner, play_mixed_table
from support.sessions import (
    Step,
    Table,
    play_crashing_the_floor,
    play_through,
    played_through,
    speak_lazily,
)
from support.vectors import REGEN, VECTORS, regenerate_two_seat_vector, seed

from chkobba_p2p.deal import crypto as dc
from chkobba_p2p.deal.core import ProofJob
from chkobba_p2p.deal.messages import ShuffleItem, parse_item
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.events import Outcome
from chkobba_p2p.observe.audit import INVALID, VALID, AuditReport, audit_bodies, audit_log
from chkobba_p2p.transcript.bodies import GameFault, TurnBody
from chkobba_p2p.transcript.caps import (
    CAP_NEXT_DECK,
    CAP_SHARES_RIDE,
    SPOKEN,
    TABLE_CAPABILITIES,
)
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase, SeatInfo, TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import read_log

WITHOUT = tuple(c for c in SPOKEN if c != CAP_NEXT_DECK)
BUILD = {"deal/key", "deal/shuffle", "deal/proof", "deal/cut"}
OPENS = {"deal/shares", "deal/play", "deal/complain", "deal/reveal"}


def _types(e: wire.Entry, *fields: str) -> list[str]:
    return [str(d.get("t")) for f in fields for d in e.fields.get(f) or []
            if isinstance(d, dict)]


#: The honest matches with shuffle proofs several tests read (:func:`honest`), by players.
HONEST = {n: Ruleset(target=3 if n == 2 else 6) for n in (2, 3, 4)}
#: The tests that read them share a worker (pytest-xdist's loadgroup), here and in
#: test_next_deck_hostile.py and test_shares_ride.py: each match is played once a run.
SHARED = pytest.mark.xdist_group("next_deck_honest")


def honest(players: int, *, without: bool = False) -> tuple[Table, tuple[Step, ...]]:
    """The same honest match at ``players`` with shuffle proofs (same secrets, same bots),
    with next-deck/v1 or ``without`` it (the joiners leave it out: the old order), two
    hands or more; played once per test process (``support.sessions.played_through``).
    Read only."""
    return played_through(players, proofs=True, rules=HONEST[players],
                          key=honest_key(players), caps=WITHOUT if without else None)


def honest_key(players: int) -> bytes:
    """The key of :func:`honest`'s match (its secrets) at ``players``."""
    return f"hostile-fair-{players}".encode()


@functools.cache
def honest_audit(players: int) -> AuditReport:
    """The audit of :func:`honest`'s chain (with next-deck/v1), run once per process."""
    return audit_bodies(list(honest(players)[0].sessions[0].bodies), workers=0)


def _run(t: Table) -> list[tuple[wire.Entry, int, int]]:
    """Play ``t`` to its end: every entry with the hand and the instance seat 0's game
    is at once it is applied (:func:`support.sessions.play_through`)."""
    return play_through(t)


def _is_play(e: wire.Entry) -> bool:
    a = e.fields.get("a")
    return isinstance(a, dict) and a.get("t") == "play"


def _between_hands(run: list[tuple[wire.Entry, int, int]]
                   ) -> list[list[tuple[wire.Entry, bool]]]:
    """For each hand h >= 2 dealt from its first deck (no redeal), the entries strictly
    between hand h-1's last play and hand h's first, each with whether hand h had begun
    before it (its ``b`` then builds hand h+1's deck)."""
    out = []
    for h in sorted({hand for _, hand, _ in run if hand >= 2}):
        last = max(i for i, (e, hand, _) in enumerate(run) if hand == h - 1 and _is_play(e))
        first = min(i for i, (e, hand, _) in enumerate(run) if hand == h and _is_play(e))
        if run[first][2] == 0:
            out.append([(e, run[i - 1][1] == h) for i, (e, _, _) in
                        enumerate(run) if last < i < first])
    return out


def _builds_between(stretch: list[tuple[wire.Entry, bool]]) -> list[tuple[int, list[str]]]:
    """The entries of ``stretch`` that carry a message building hand h's deck: in
    ``d`` or ``p`` (the current deck), or in a ``b`` before hand h began."""
    return [(e.seat, _types(e, "d", "p", "b")) for e, begun in stretch
            if set(_types(e, "d", "p", *(() if begun else ("b",)))) & BUILD]


@SHARED
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_next_deck_is_built_during_the_hand(players):
    """With shuffle proofs: between a hand's last play and the next hand's first, no
    key, shuffle, proof or cut (the next deck was built on the plays); no message that
    opens a card ever in ``b``; the match ends with a deck built for a hand that never
    comes (dropped), and the audit finds it all VALID."""
    t, run = honest(players)
    assert CAP_NEXT_DECK in t.table.caps
    assert all(CAP_NEXT_DECK in s.caps and s.game.build_next for s in t.sessions)
    entries = [e for e, _, _ in run]
    assert not any(set(_types(e, "b")) & OPENS for e in entries)
    assert any("deal/shuffle" in _types(e, "b") for e in entries)
    stretches = _between_hands(run)
    assert stretches, "no second hand dealt from its first deck"
    for stretch in stretches:
        assert not _builds_between(stretch), stretch
    # The last hand's next deck was built (and is dropped): every seat's shuffle of it
    # rode in a ``b`` of the last hand.
    last_hand = run[-1][1]
    assert sum("deal/shuffle" in _types(e, "b") for i, (e, hand, _) in enumerate(run)
               if hand == last_hand and run[i - 1][1] == last_hand) == players
    report = honest_audit(players)
    assert report.verdict == VALID, said(report)


@SHARED
def test_fewer_turns_than_between_hands():
    """The same match (same secrets, same bots) with and without the capability: the
    same result, and fewer entries with it (the next deck's turns ride on plays)."""
    (new, new_run), (old, old_run) = honest(3), honest(3, without=True)
    assert CAP_NEXT_DECK in new.table.caps and CAP_NEXT_DECK not in old.table.caps
    assert new.sessions[0].done == old.sessions[0].done
    assert not any("b" in e.fields for e, _, _ in old_run)
    # Between hands without it: keys and shuffles between the last play and the next.
    assert _between_hands(old_run)
    assert all(_builds_between(s) for s in _between_hands(old_run))
    assert len(new_run) < len(old_run)


def test_a_seat_without_the_capability_gets_the_old_order():
    """A seat whose ready leaves it out (the genesis holds it): not in effect anywhere,
    no ``b``, the next deck built between hands as before; VALID."""
    t = Table(2, proofs=True, rules=Ruleset(target=3), key=b"next-ready")
    genesis = wire.open_entry(t.genesis.body)
    seat = t.sessions[1]
    t.sessions[1] = Session.join(t.ids[1], genesis, t.ids[0].public, seat.master,
                                 speaks=tuple(c for c in seat.speaks if c != CAP_NEXT_DECK))
    assert CAP_NEXT_DECK in t.table.caps
    run = _run(t)
    assert all(CAP_NEXT_DECK not in s.caps and not s.game.build_next for s in t.sessions)
    assert not any("b" in e.fields for e, _, _ in run)
    assert audit_bodies(list(t.sessions[0].bodies), workers=0).verdict == VALID


def test_a_seat_that_never_uses_b_is_waited_for_only_between_hands():
    """``b`` is the sender's choice: a seat that sends nothing in it (its messages for
    the next deck all go between hands, in ``d``) is never waited for during a hand --
    the game waits for the next deck only once it is the current one -- and the match
    completes at every seat, VALID (3 players: the others' next deck waits for its key
    and its shuffle)."""
    t = Table(3, proofs=True, rules=Ruleset(target=8), key=b"next-lazy-seat")
    t.sessions[1].game.next_outbox = lambda: []  # type: ignore[method-assign]
    run = _run(t)
    assert not any(e.fields.get("b") for e, _, _ in run if e.seat == 1)
    assert any(e.fields.get("b") for e, _, _ in run if e.seat != 1)
    assert len({hand for _, hand, _ in run}) >= 3  # two hands and more
    assert audit_bodies(list(t.sessions[0].bodies), workers=0).verdict == VALID


# ------------------------------------------------------------------ blame


def _inject(make, when):
    """A cheat: once ``when(session)``, the cheater puts ``make(session)`` in the
    queue of what it sends for the next deck (so in its next turn's ``b``)."""
    def hook(s: Session) -> bool:
        g = s.game
        if g.next_deck is None or g.deck is None or g.deck.deal.phase != "deal" \
                or not when(s):
            return False
        g._next_out.append(make(s))
        return True
    return hook


def _no_next_shuffle_yet(s: Session) -> bool:
    nd = s.game.next_deck
    return nd is not None and len(nd.deal._decks) == 1 and all(
        k is not None for k in nd.deal._keys)


CHEATS = {
    # Shares (a message that opens a card) in ``b``: never allowed there.
    "shares": (_inject(lambda s: {"t": "deal/shares", "step": 0, "pos": [0],
                                  "d": dc.public_key(5), "proof": bytes(64)},
                       lambda s: True), "unexpected:"),
    # Seat 1's shuffle before seat 0's: out of the deal's order.
    "early_shuffle": (_inject(lambda s: {"t": "deal/shuffle", "deck": bytes(2560)},
                              _no_next_shuffle_yet), "unexpected:"),
    # A cut from a seat that does not cut the next deck.
    "wrong_cutter": (_inject(lambda s: {"t": "deal/cut", "k": 3},
                             lambda s: s.game.next_deck.cutter != s.seat), "not_cutter:"),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_bad_message_in_b_is_blamed_on_its_sender(cheat, tmp_path):
    """Every honest peer and the auditor blame the sender (``deal_failure``, the deal
    core's code) at the entry that carried it."""
    hook, reason = CHEATS[cheat]
    played = play(2, proofs=False, cheater=1, hook=hook, seed=3,
                  key=f"next-cheat-{cheat}".encode())
    assert played.cheated_at is not None
    honest = played.sessions[0]
    assert honest.aborted is not None and honest.aborted.blamed_seat == 1
    assert honest.aborted.code == ErrorCode.DEAL_FAILURE
    for seat in (0, 1):
        report = audit_log(played.write_log(tmp_path / f"log{seat}.chklog", seat=seat))
        assert (report.verdict, report.blamed, report.code) == (
            INVALID, 1, "deal_failure"), said(report)
        assert report.reason.startswith(reason), report.reason
        assert report.entry == played.cheated_at


def test_b_outside_a_hand_is_refused():
    """A ``b`` before the first hand (the first dealer's draw has no next deck):
    ``protocol_violation`` blaming its sender."""
    t = Table(2, key=b"next-draw")
    while t.sessions[0].phase != Phase.PLAYING:
        t.step()
    s, e = t.speak()
    assert e.kind == "turn"
    forged = wire.make_entry(t.ids[s.own_seat], game=e.game, seat=e.seat, seq=e.seq,
                             prev=e.prev, kind="turn",
                             body={**{k: v for k, v in e.fields.items()
                                      if k not in ("g", "seat", "n", "prev", "k")},
                                   "b": [{"t": "deal/cut", "k": 1}]})
    other = t.sessions[1 - s.own_seat]
    with pytest.raises(GameFault) as caught:
        other.receive(wire.open_entry(forged.body))
    assert caught.value.blamed_seat == s.own_seat
    assert caught.value.error_code == ErrorCode.PROTOCOL_VIOLATION


def test_turn_body_b_on_the_wire():
    """``b`` only when it holds something: a turn without it is the bytes of before; not
    read without the capability in effect."""
    assert TurnBody([], None, None, []).to_wire() == {"d": []}
    assert TurnBody([], None, None, [{"t": "x"}]).to_wire() == {"d": [], "b": [{"t": "x"}]}
    assert TurnBody.from_wire({"d": [], "b": [{"t": "x"}]}, 0, b"", build=True).next == \
        [{"t": "x"}]
    assert TurnBody.from_wire({"d": [], "b": 7}, 0, b"").next is None
    with pytest.raises(GameFault):
        TurnBody.from_wire({"d": [], "b": 7}, 0, b"", build=True)


# ------------------------------------------------------------------ resume and workers


@SHARED
def test_a_seat_resumes_with_its_next_key_sent_and_its_shuffle_not():
    """Seat 1 crashes mid-hand once its key of the next deck is in the chain and its
    shuffle is made but not sent; rebuilt from its log, it sends the shuffle once (the
    chain equals the one played without the crash: :func:`honest`'s) and the match
    completes, VALID."""
    reference, _ = honest(2)
    t = Table(2, proofs=True, rules=HONEST[2], key=honest_key(2))
    crashed = 0
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        s = t.sessions[1]
        g = s.game
        if not crashed and g.next_deck is not None \
                and any(isinstance(parse_item(m), ShuffleItem) for m in g._next_out) \
                and any(e.seat == 1 and "deal/key" in _types(e, "b")
                        for e in map(wire.open_entry, s.bodies)):
            t.sessions[1] = Table.clone(t, s)
            assert any(isinstance(parse_item(m), ShuffleItem)
                       for m in t.sessions[1].game._next_out)
            # ...and its key, sent before the crash, is not sent again.
            assert not any(parse_item(m).type == "deal/key"
                           for m in t.sessions[1].game._next_out)
            crashed += 1
        assert t.step() is not None
    assert crashed
    assert all(s.done == reference.sessions[0].done for s in t.sessions)
    shape = [(wire.open_entry(b).seat, *(_types(wire.open_entry(b), f) for f in "dpb"))
             for b in t.sessions[0].bodies]
    assert shape == [(wire.open_entry(b).seat, *(_types(wire.open_entry(b), f) for f in "dpb"))
                     for b in reference.sessions[0].bodies]
    assert audit_bodies(list(t.sessions[0].bodies), workers=0).verdict == VALID


@pytest.mark.parametrize("players", [2, 4])
def test_proof_work_apart_builds_the_next_deck(players):
    """proof-apart/v1 with the proof work handed out as jobs and done by the slowest
    worker (only when a seat holds the floor with nothing else to send): the next
    deck's jobs are handed out beside the current deck's, a seat's shuffle waits for
    its proof; the match completes at every seat, VALID."""
    t = Table(players, proofs=True, rules=Ruleset(target=3), key=f"next-lazy-{players}".encode())
    for s in t.sessions:
        s.defer_work = True
    jobs: dict[int, list[ProofJob]] = {s.own_seat: [] for s in t.sessions}
    for _ in range(50000):
        if all(s.finished for s in t.sessions):
            break
        speak_lazily(t, jobs)
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    bodies = list(t.sessions[0].bodies)
    for b in bodies:  # a shuffle in ``b`` always travels with its proof
        kinds = _types(wire.open_entry(b), "b")
        assert ("deal/shuffle" in kinds) == ("deal/proof" in kinds) or "deal/shuffle" not in kinds
    assert audit_bodies(bodies, workers=0).verdict == VALID


@pytest.mark.parametrize("players", [2, 4])
def test_crashes_anywhere_with_proof_work_apart(players):
    """The seat holding the floor is rebuilt from its log every fifth entry (its jobs,
    its queues lost; its replay redoes the proof work in line), at a table with the
    proof work handed out to the slowest worker: every seat ends the same match, with
    the same chain, VALID."""
    t = Table(players, proofs=True, rules=Ruleset(target=3),
              key=f"next-crash-lazy-{players}".encode())
    rebuilt = play_crashing_the_floor(t)
    assert rebuilt >= 10
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    bodies = list(t.sessions[0].bodies)
    assert any(wire.open_entry(b).fields.get("b") for b in bodies)
    assert audit_bodies(bodies, workers=0).verdict == VALID


# ------------------------------------------------------------------ real peers in memory


#: A joiner of before the capability: its hello does not announce it.
OldJoiner = old_joiner(CAP_NEXT_DECK)


async def _play(tmp_path, players: int, old: set[int]) -> list[Outcome]:
    return await play_mixed_table(tmp_path, players, Ruleset(target=3), old, OldJoiner)


def _builds(path) -> int:
    return sum(1 for b in read_log(path).bodies if wire.open_entry(b).fields.get("b"))


async def test_a_table_of_new_peers(tmp_path, autojump_clock):
    """Four real peers (proof work in their worker threads): the next decks ride in
    ``b``; every log audits VALID."""
    outcomes = await _play(tmp_path, 4, set())
    assert CAP_NEXT_DECK in outcomes[0].table.caps
    assert _builds(outcomes[-1].log_path) > 0


async def test_a_mixed_table(tmp_path, autojump_clock):
    """One joiner of before the capability: the genesis lacks it, nobody sends ``b``."""
    outcomes = await _play(tmp_path, 3, {2})
    assert CAP_NEXT_DECK not in outcomes[0].table.caps
    assert CAP_SHARES_RIDE in outcomes[0].table.caps
    assert all(_builds(o.log_path) == 0 for o in outcomes)


# ------------------------------------------------------------------ the vector


def _body(e: wire.Entry) -> dict:
    return {k: v for k, v in e.fields.items() if k not in ("g", "seat", "n", "prev", "k")}


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_next_transcript():
    """A 2-player game at a next-deck/v1 table (no shuffle proofs: a small file) up to
    the turn whose ``b`` carries the next deck's cut, in the middle of hand 1."""
    seats = tuple(SeatInfo(i, Identity.from_seed(seed(i + 1)).public, n)
                  for i, n in enumerate(("host", "guest")))
    table = TableInfo(bytes(range(160, 176)), 1, 2, Ruleset(), seats, TABLE_CAPABILITIES)
    assert CAP_NEXT_DECK in table.caps
    regenerate_two_seat_vector(
        "transcript_next", table, (70, 71),
        lambda bodies: "deal/cut" in _types(wire.open_entry(bodies[-1]), "b"),
        lambda e: {"items": _types(e, "d"), "after": _types(e, "p"),
                   "next": _types(e, "b")})


def test_next_transcript_vector():
    """``b`` on the wire: hand 2's keys, shuffles and cut on hand 1's turns, beside
    their plays; the guest replays it all from its master secret (its own ``b`` not
    sent again), the auditor finds nothing wrong, and a ``deal/shares`` slipped into a
    ``b`` and signed again is refused, blaming its seat."""
    v = json.loads((VECTORS / "transcript_next.json").read_text())
    log = read_log(VECTORS / "transcript_next.chklog")
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex(), _types(e, "d"), _types(e, "p"), _types(e, "b"))
            for e in entries] == [(x["kind"], x["seat"], x["id_hex"], x["items"],
                                   x["after"], x["next"]) for x in v["entries"]]
    assert CAP_NEXT_DECK in TableInfo.from_entry(entries[0]).caps
    built = [e for e in entries if e.fields.get("b")]
    assert {t for e in built for t in _types(e, "b")} == {"deal/key", "deal/shuffle",
                                                            "deal/cut"}
    # ...riding on turns that travel anyway (shares, an action), never alone.
    assert all(e.fields.get("d") or e.fields.get("p") or e.fields.get("a") for e in built)
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    guest_id = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    master = bytes.fromhex(v["guest_master_hex"])
    guest = Session.resume(guest_id, list(log.bodies), host_key, master)
    assert guest.head.hex() == v["head_hex"] and CAP_NEXT_DECK in guest.caps
    assert not guest.game._next_out  # everything it made for the next deck went out
    report = audit_bodies(list(log.bodies), workers=0)
    assert report.verdict != INVALID, said(report)
    i, e = next((i, e) for i, e in enumerate(entries) if e.seat == 0 and e.fields.get("b"))
    signer = Identity.from_seed(bytes.fromhex(v["host_seed_hex"]))
    forged = wire.make_entry(signer, game=e.game, seat=e.seat, seq=e.seq, prev=e.prev,
                             kind="turn", body={**_body(e), "b": [
                                 *e.fields["b"], {"t": "deal/shares", "step": 0, "pos": [0],
                                                  "d": bytes(32), "proof": bytes(64)}]})
    resumed = Session.resume(guest_id, list(log.bodies)[:i] + [forged.body], host_key, master)
    a = resumed.aborted  # the verdict signed, owed to the others (as live)
    assert resumed.owes_abort and a is not None
    assert a.blamed_seat == 0
    assert a.code == ErrorCode.DEAL_FAILURE
