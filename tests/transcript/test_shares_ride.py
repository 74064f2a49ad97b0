"""shares-ride/v1 (issue 44): the deal messages a seat's own turn causes -- the shares of
a dealing step its action opens, its reveal of an instance the entry finishes, its key of
the next instance -- ride in that very entry (``p``), applied after the action, instead
of waiting a full round for the seat's next turn (PROTOCOL.md 6.2).

Sans-IO tables (sessions wired by hand, as test_session.py) for the rules, the fairness
and the resume; tables of real peers in memory (``InMemoryTable``) for new peers, old
ones and a mixed table; and the vector ``transcript_ride``."""

from __future__ import annotations

import json

import pytest
from support.audit import said
from support.net import old_joiner, play_mixed_table
from support.sessions import Table, deal_releases
from support.vectors import REGEN, VECTORS, regenerate_two_seat_vector, seed
from test_next_deck import SHARED, honest, honest_audit

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.events import Outcome
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import VALID, audit_bodies
from chkobba_p2p.transcript.bodies import GameFault, TurnBody
from chkobba_p2p.transcript.caps import (
    CAP_EARLY_DEAL,
    CAP_SEAT_DEAL,
    CAP_SHARES_RIDE,
    CAP_SHUFFLE_PROOFS,
    SPOKEN,
    TABLE_CAPABILITIES,
)
from chkobba_p2p.transcript.events import HandScored, Standing
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import read_log

OLD_CAPS = tuple(c for c in TABLE_CAPABILITIES if c != CAP_SHARES_RIDE)


def _items(body: bytes, field: str) -> list[dict]:
    got = wire.open_entry(body).fields.get(field) or []
    return [d for d in got if isinstance(d, dict)]


def _played(t: Table) -> list[bytes]:
    t.run()
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    return list(t.sessions[0].bodies)


def _releases(bodies: list[bytes]) -> list[tuple[int, int, int]]:
    """Every ``deal/shares`` of the chain, in order, as (seat, its ordinal among that
    seat's shares, the actions applied before it: :func:`deal_releases`)."""
    return [(seat, k, actions) for seat, (t, k), actions in deal_releases(bodies)
            if t == "deal/shares"]


# ------------------------------------------------------------------ sans-IO tables


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shares_ride_on_the_entry_that_opens_the_step_and_no_earlier(players):
    """The same match (same secrets, same bots) with and without the capability: the
    same result; with it, shares travel in ``p`` and the match takes fewer entries; and
    no seat's share of any step is released after fewer actions than the step needs
    (at 3-4 players a seat's next cards only once every hand is empty): never earlier in
    the game than without it, only sooner on the chain."""
    key = b"ride-%d" % players
    old = Table(players, key=key, rules=Ruleset(target=3), caps=OLD_CAPS)
    assert CAP_SHARES_RIDE not in old.table.caps
    # seat-deal/v1 moves shares earlier still, by design (its own test,
    # test_seat_deal.py, pins what moves): this one compares shares-ride/v1 alone.
    new = Table(players, key=key, rules=Ruleset(target=3),
                caps=tuple(c for c in SPOKEN if c != CAP_SEAT_DEAL))
    assert CAP_SHARES_RIDE in new.table.caps
    old_bodies, new_bodies = _played(old), _played(new)
    assert CAP_SHARES_RIDE in new.sessions[0].caps
    assert old.sessions[0].done == new.sessions[0].done
    assert not any("p" in wire.open_entry(b).fields for b in old_bodies)
    rode = [d["t"] for b in new_bodies for d in _items(b, "p")]
    assert "deal/shares" in rode
    assert len(new_bodies) < len(old_bodies)
    before, after = _releases(old_bodies), _releases(new_bodies)
    assert sorted((s, k) for s, k, _ in before) == sorted((s, k) for s, k, _ in after)
    # Each seat's k-th share is of the same step in both games, and that step opens at
    # the same action: without the capability the share left at the seat's next turn,
    # after no more actions (nobody can act on cards not yet dealt).  With it, never
    # after fewer actions: nobody holds a card earlier in the game than before.
    at_old = {(s, k): a for s, k, a in before}
    for s, k, a in after:
        assert a >= at_old[(s, k)], (s, k, a, at_old[(s, k)])
    # Every entry the auditor reads again, with the shares of ``p`` checked as those
    # of ``d``.
    report = audit_bodies(new_bodies, workers=0)
    assert report.verdict == VALID, said(report)


@SHARED
@pytest.mark.parametrize("players", [2, 4])
def test_with_proofs_every_seat_agrees_and_the_audit_is_valid(players):
    """With shuffle proofs (test_next_deck.py's honest match, every seat ending the same
    chain: ``played_through``), shares ride in ``p`` and the audit is VALID."""
    t, _ = honest(players)
    bodies = list(t.sessions[0].bodies)
    assert CAP_SHUFFLE_PROOFS in t.table.caps and CAP_SHARES_RIDE in t.sessions[0].caps
    assert any(_items(b, "p") for b in bodies)
    report = honest_audit(players)
    assert report.verdict == VALID, said(report)


def test_a_mixed_table_plays_the_old_way():
    """A seat that does not play shares-ride/v1 (its ready leaves it out, the genesis
    holds it): it is in effect for nobody, no turn carries ``p``, the match completes."""
    key = b"ride-mixed"
    t = Table(3, key=key, rules=Ruleset(target=3))
    seat = t.sessions[2]
    t.sessions[2] = Session.join(t.ids[2], wire.open_entry(t.genesis.body),
                                 t.ids[0].public, seat.master,
                                 speaks=tuple(c for c in seat.speaks if c != CAP_SHARES_RIDE))
    bodies = _played(t)
    assert CAP_SHARES_RIDE in t.table.caps
    assert all(CAP_SHARES_RIDE not in s.caps and not s.game.shares_ride
               for s in t.sessions)
    assert not any("p" in wire.open_entry(b).fields for b in bodies)


def test_the_host_leaves_it_out_when_a_joiner_does_not_speak_it():
    ids = [Identity.generate() for _ in range(2)]
    lobby = Lobby(ids[0], "host", Ruleset(), 2)
    lobby.take_seat(ids[1].public, "p1", tuple(c for c in SPOKEN if c != CAP_SHARES_RIDE))
    assert CAP_SHARES_RIDE not in lobby.table().caps
    lobby = Lobby(ids[0], "host", Ruleset(), 2)
    lobby.take_seat(ids[1].public, "p1", SPOKEN)
    assert CAP_SHARES_RIDE in lobby.table().caps


def _first_ride(t: Table) -> tuple[int, wire.Entry]:
    """Play until a turn carries shares in ``p``: (its sender, the entry), not yet
    delivered to the others."""
    for _ in range(2000):
        for s in t.sessions:
            t.decide(s)
            e = s.next_entry()
            if e is None:
                continue
            if any(x.get("t") == "deal/shares" for x in _items(e.body, "p")):
                return s.own_seat, e
            t.deliver(e, s.own_seat)
            break
    raise AssertionError("no share rode in p")


def _body(e: wire.Entry) -> dict:
    """A turn's own fields (``d``, ``a``, ``p``), to sign again altered."""
    return {k: v for k, v in e.fields.items() if k in ("d", "a", "p")}


def _resign(t: Table, seat: int, e: wire.Entry, fields: dict) -> wire.Entry:
    return wire.make_entry(t.ids[seat], game=e.game, seat=seat, seq=e.seq, prev=e.prev,
                           kind="turn", body=fields)


def test_a_bad_share_in_p_is_its_signers_deal_failure_and_a_bad_p_a_violation():
    t = Table(2, key=b"ride-bad")
    seat, e = _first_ride(t)
    other = t.sessions[1 - seat]
    p = [dict(x) for x in e.fields["p"]]
    share = next(x for x in p if x["t"] == "deal/shares")
    share["proof"] = bytes(len(share["proof"]))  # a share whose proof fails
    forged = _resign(t, seat, e, {**_body(e), "p": p})
    clone = Table.clone(t, other)
    with pytest.raises(GameFault) as caught:
        clone.receive(wire.open_entry(forged.body))
    assert caught.value.blamed_seat == seat
    assert caught.value.error_code == ErrorCode.DEAL_FAILURE
    assert caught.value.evidence == forged.body
    for bad in ({"t": "deal/shares"}, 7):
        clone = Table.clone(t, other)
        forged = _resign(t, seat, e, {**_body(e), "p": bad})
        with pytest.raises(GameFault) as caught:
            clone.receive(wire.open_entry(forged.body))
        assert caught.value.blamed_seat == seat
        assert caught.value.error_code == ErrorCode.PROTOCOL_VIOLATION
    # The honest entry is accepted, and the shares it carries count at once: the
    # receiver now sees the cards the step opened for it.
    other.receive(wire.open_entry(e.body))
    hand = other.game.hand
    assert hand is not None and None not in hand.hand_of(other.own_seat)


JUNK = ([{"t": "deal/shares"}], 7, "x", {}, b"\0" * 100)


def test_without_the_capability_p_is_an_unknown_field_and_ignored():
    """As a peer of before the field reads it: one verdict at a mixed table."""
    t = Table(2, key=b"ride-off", caps=OLD_CAPS)
    forged_turns = 0
    for _ in range(40):
        s = next(x for x in t.sessions if x.floor == x.seat)
        t.decide(s)
        e = s.next_entry()
        if e is None:
            continue
        other = t.sessions[1 - s.own_seat]
        if e.kind != "turn":
            t.deliver(e, s.own_seat)
            continue
        # Any value, of any type, within the unknown fields' budget: not read at all (a
        # peer of before the field has no rule about its type either).  One kind a turn,
        # in turn, so that each is tried at a handful of turns of every sort (a peer
        # rebuilt from its log for each try: five a turn cost five times the CPU).
        junk = JUNK[forged_turns % len(JUNK)]
        forged_turns += 1
        forged = _resign(t, s.own_seat, e, {**_body(e), "p": junk})
        before = Table.clone(t, other)
        before.receive(wire.open_entry(forged.body))  # no fault
        # Past that budget, refused as a peer of before refuses it (ENTRY_TOO_LARGE at
        # its codec), and blamed on its signer: never passed on for an older joiner to
        # blame the host that relayed it.
        forged = _resign(t, s.own_seat, e, {**_body(e), "p": b"\0" * (wire.MAX_UNKNOWN + 1)})
        before = Table.clone(t, other)
        with pytest.raises(GameFault) as caught:
            before.receive(wire.open_entry(forged.body))
        assert caught.value.blamed_seat == s.own_seat
        assert caught.value.error_code == ErrorCode.ENTRY_TOO_LARGE
        assert caught.value.evidence == forged.body
        t.deliver(e, s.own_seat)
    assert forged_turns > 20
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)


@pytest.mark.parametrize("every", [5, 17])
def test_crash_resume_mid_match(every):
    """Every ``every`` entries each seat's session is rebuilt from its log and master
    secret (a crash): its own ``p`` of before is not sent again, and the match ends."""
    t = Table(2, key=b"ride-resume-%d" % every, rules=Ruleset(target=3))
    for n in range(5000):
        if all(s.finished for s in t.sessions):
            break
        if n % every == every - 1:
            t.sessions = [Table.clone(t, s) for s in t.sessions]
        t.step()
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert any(_items(b, "p") for b in t.sessions[0].bodies)


def test_the_entry_that_crosses_the_bound_is_not_scored_by_its_sender(monkeypatch):
    """The entry that takes the transcript past MAX_TRANSCRIPT stops the table at its
    link, before any peer applies its game.  Its sender, which makes ``p`` by applying
    the entry before signing it, must not score a hand there that nobody else scored: the
    abort's totals are the same at every seat (issue 44's review)."""
    key = b"ride-bound"
    # A first run finds the entry whose own application scores hand 1.
    t = Table(2, key=key)
    k = 0  # the entries before it
    for k in range(2000):  # noqa: B007 (k counts the entries before the one found)
        m = t.sessions[0].game.match
        before = tuple(m.totals) if m is not None else None
        sender, e = t.speak()
        t.deliver(e, sender.own_seat)
        m = t.sessions[0].game.match
        if before is not None and m is not None and m.results and tuple(m.totals) != before:
            break
    else:
        raise AssertionError("no hand was scored")
    # The same match again, the bound set just under that entry.
    t = Table(2, key=key)
    for _ in range(k):
        t.step()
    monkeypatch.setattr(wire, "MAX_TRANSCRIPT", t.sessions[0]._transcript_bytes + 1)
    sender, e = t.speak()
    abort = sender.next_entry()
    assert abort is not None and abort.kind == "abort"
    (other,) = [s for s in t.sessions if s is not sender]
    with pytest.raises(GameFault) as caught:
        other.receive(wire.open_entry(e.body))
    assert caught.value.error_code == ErrorCode.TRANSCRIPT_TOO_LONG
    other.receive(wire.open_entry(abort.body))
    mine, theirs = sender.aborted, other.aborted
    assert mine is not None and theirs is not None
    assert mine.code == theirs.code == ErrorCode.TRANSCRIPT_TOO_LONG
    assert mine.totals == theirs.totals == before
    assert not any(isinstance(ev, HandScored) for ev in sender.take_events())


def test_near_the_bound_a_seat_sends_the_old_way(monkeypatch):
    """Within one turn's maximum of MAX_TRANSCRIPT a seat links its turn before applying
    it, so its own messages go in its next turn (as without the capability); every peer
    takes that, and the match ends the same, with the same transcript everywhere."""
    key = b"ride-near"
    t = Table(2, key=key, rules=Ruleset(target=3))
    bodies = _played(t)
    total = sum(4 + len(b) for b in bodies)
    monkeypatch.setattr(wire, "MAX_TRANSCRIPT", total + 2000)
    near = Table(2, key=key, rules=Ruleset(target=3))
    got = _played(near)
    assert near.sessions[0].done == t.sessions[0].done
    # Far from the bound the turns are the same; near it no turn carries ``p``.
    cut = next(i for i, b in enumerate(bodies)
               if sum(4 + len(x) for x in bodies[:i]) + 4 + wire.entry_limit("turn")
               > total + 2000)
    def shape(b: bytes) -> tuple[object, ...]:  # shares and proofs take fresh nonces
        e = wire.open_entry(b)
        return (e.seat, e.kind, e.fields.get("a"),
                *([d.get("t") for d in _items(b, f)] for f in ("d", "p")))
    assert [shape(b) for b in got[:cut]] == [shape(b) for b in bodies[:cut]]
    assert any(_items(b, "p") for b in bodies[cut:])
    assert not any(_items(b, "p") for b in got[cut:])
    assert audit_bodies(got, workers=0).verdict == VALID


def test_turn_body_p_on_the_wire():
    """``p`` only when it holds something: a turn without it is the bytes of before."""
    assert TurnBody([], {"t": "cut", "keep": True}).to_wire() == \
        {"d": [], "a": {"t": "cut", "keep": True}}
    assert TurnBody([], None, []).to_wire() == {"d": []}
    assert TurnBody([], None, [{"t": "x"}]).to_wire() == {"d": [], "p": [{"t": "x"}]}
    assert TurnBody.from_wire({"d": []}, 0, b"", ride=True).after is None
    assert TurnBody.from_wire({"d": [], "p": [{"t": "x"}]}, 0, b"", ride=True).after == \
        [{"t": "x"}]
    # Without the capability in effect ``p`` is not read, whatever its type.
    assert TurnBody.from_wire({"d": [], "p": 7}, 0, b"").after is None


# ------------------------------------------------------------------ real peers in memory

RULES = Ruleset(target=3)


#: A joiner of before the capability: its hello does not announce it.
OldJoiner = old_joiner(CAP_SHARES_RIDE)


async def _play(tmp_path, players: int, old: set[int]) -> list[Outcome]:
    return await play_mixed_table(tmp_path, players, RULES, old, OldJoiner)


def _rides(path) -> int:
    return sum(1 for b in read_log(path).bodies if _items(b, "p"))


@pytest.mark.parametrize("players", [2, 4])
async def test_a_table_of_new_peers(tmp_path, autojump_clock, players):
    outcomes = await _play(tmp_path, players, set())
    assert CAP_SHARES_RIDE in outcomes[0].table.caps
    assert _rides(outcomes[-1].log_path) > 0


async def test_a_table_of_old_peers(tmp_path, autojump_clock):
    outcomes = await _play(tmp_path, 3, {1, 2})
    assert CAP_SHARES_RIDE not in outcomes[0].table.caps
    assert CAP_EARLY_DEAL in outcomes[0].table.caps
    assert _rides(outcomes[1].log_path) == 0


async def test_a_mixed_table(tmp_path, autojump_clock):
    outcomes = await _play(tmp_path, 4, {2})
    assert CAP_SHARES_RIDE not in outcomes[0].table.caps
    assert all(_rides(o.log_path) == 0 for o in outcomes)


# ------------------------------------------------------------------ the vector


def _ride_table() -> TableInfo:
    seats = tuple(SeatInfo(i, Identity.from_seed(seed(i + 1)).public, n)
                  for i, n in enumerate(("host", "guest")))
    return TableInfo(bytes(range(140, 156)), 1, 2, Ruleset(), seats, TABLE_CAPABILITIES)


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_ride_transcript():
    """A 2-player game at a shares-ride/v1 table up to the first play after the opening
    deal, where the opening shares of one seat rode on the cut that opened the step."""
    def until(bodies: list[bytes]) -> bool:
        last = wire.open_entry(bodies[-1]).fields.get("a")
        return any(_items(b, "p") for b in bodies) and isinstance(last, dict) \
            and last.get("t") == "play"

    regenerate_two_seat_vector(
        "transcript_ride", _ride_table(), (60, 61), until,
        lambda e: {"items": [d["t"] for d in _items(e.body, "d")],
                   "after": [d["t"] for d in _items(e.body, "p")]})


def test_ride_transcript_vector():
    """``p`` on the wire: a turn's action, then the shares it caused, in the same signed
    entry; the guest replays it all from its master secret (its own ``p`` not sent
    again), the auditor finds it valid, and the host's ``p`` moved to its next turn's
    ``d`` is another chain."""
    v = json.loads((VECTORS / "transcript_ride.json").read_text())
    log = read_log(VECTORS / "transcript_ride.chklog")
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex(), [d["t"] for d in _items(e.body, "d")],
             [d["t"] for d in _items(e.body, "p")]) for e in entries] == \
        [(x["kind"], x["seat"], x["id_hex"], x["items"], x["after"]) for x in v["entries"]]
    table = TableInfo.from_entry(entries[0])
    assert CAP_SHARES_RIDE in table.caps
    rides = [e for e in entries if e.fields.get("p")]
    assert rides and all(isinstance(e.fields.get("a"), dict) or e.fields.get("d")
                         for e in rides)
    assert any(d["t"] == "deal/shares" for e in rides for d in e.fields["p"])
    host_key = Identity.from_seed(bytes.fromhex(v["host_seed_hex"])).public
    guest_id = Identity.from_seed(bytes.fromhex(v["guest_seed_hex"]))
    guest = Session.resume(guest_id, list(log.bodies), host_key,
                           bytes.fromhex(v["guest_master_hex"]))
    assert guest.head.hex() == v["head_hex"]
    assert CAP_SHARES_RIDE in guest.caps
    report = audit_bodies(list(log.bodies), workers=0)
    assert report.verdict != "invalid", said(report)
    # A share of ``p`` altered, the entry signed by its seat all the same: the replay
    # refuses it at that entry, blaming that seat.
    i, e = next((i, e) for i, e in enumerate(entries)
                if any(d["t"] == "deal/shares" for d in _items(e.body, "p")))
    p = [dict(d) for d in e.fields["p"]]
    share = next(d for d in p if d["t"] == "deal/shares")
    share["proof"] = bytes(len(share["proof"]))
    signer = Identity.from_seed(bytes.fromhex(v["host_seed_hex" if e.seat == 0
                                                else "guest_seed_hex"]))
    forged = wire.make_entry(signer, game=e.game, seat=e.seat, seq=e.seq, prev=e.prev,
                             kind="turn", body={**_body(e), "p": p})
    if e.seat == 0:
        # The resume signs the verdict, owed to the others (as live).
        resumed = Session.resume(guest_id, list(log.bodies)[:i] + [forged.body], host_key,
                                 bytes.fromhex(v["guest_master_hex"]))
        a = resumed.aborted
        assert resumed.owes_abort and a is not None and a.standing == Standing.PROVEN
        assert a.blamed_seat == 0
        assert a.code == ErrorCode.DEAL_FAILURE
