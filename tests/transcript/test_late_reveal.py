"""late-reveal/v1 (issue 44): with every shuffle proven and the next deck built during the
hand (next-deck/v1), a hand that does not end the match is scored at the entry of its
last play, the next hand starts there, and each seat's ``deal/reveal`` of the finished
deck rides on its next turn, in the field ``r``, checked where it arrives.  Every reveal
of a deck is due before the next deck finishes (a redeal, or the next hand's end); the
match's last hand is revealed before it is scored, as ever (PROTOCOL.md 6.2, 7.4, 12.2).

Sans-IO tables (``support.sessions.Table``) for the rules, the blame and the resume;
forged entries (an honest table up to the entry wanted, one field replaced and signed
again by its seat) for what a cheater can put in ``r``; real peers in memory for a table
of new peers and a mixed one; and the vector ``transcript_late``."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.audit import said
from support.net import old_joiner, play_mixed_table
from support.sessions import Table, offer_to_others, play_crashing_the_floor

from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.observe.audit import INVALID, VALID, audit_bodies, audit_log
from chkobba_p2p.timeline import build_timeline
from chkobba_p2p.transcript.bodies import GameFault, TurnBody
from chkobba_p2p.transcript.caps import (
    CAP_LATE_REVEAL,
    CAP_NEXT_DECK,
    CAP_SHUFFLE_PROOFS,
    SPOKEN,
)
from chkobba_p2p.transcript.events import HandScored, Standing
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode
from chkobba_p2p.wire.logfile import TranscriptWriter, read_log

VECTORS = Path(__file__).parent.parent / "vectors"
REGEN = os.environ.get("REGENERATE_WIRE_VECTORS") == "1"
WITHOUT = tuple(c for c in SPOKEN if c != CAP_LATE_REVEAL)


def _types(e: wire.Entry, *fields: str) -> list[str]:
    return [str(d.get("t")) for f in fields for d in e.fields.get(f) or []
            if isinstance(d, dict)]


def _is_play(e: wire.Entry) -> bool:
    a = e.fields.get("a")
    return isinstance(a, dict) and a.get("t") == "play"


def _table(players: int, key: bytes, **kw: Any) -> Table:
    return Table(players, proofs=True, key=key,
                 **{"rules": Ruleset(target=5 if players == 2 else 6), **kw})


def _run(t: Table) -> list[tuple[wire.Entry, list[object]]]:
    """Play ``t`` to its end: every entry with the events seat 0's session reported
    once it was applied."""
    out = []
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        e = t.step()
        assert e is not None, "nobody can speak"
        out.append((e, list(t.sessions[0].take_events())))
    else:
        raise AssertionError("the match did not end")
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    return out


# ------------------------------------------------------------------ honest tables


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_hand_is_scored_at_its_last_play(players):
    """Every hand but the last is scored at the entry of its last play (no reveal in
    between); each seat's reveal of it then rides in an ``r`` of the next hand, one per
    seat and deck; the last hand is revealed in ``d``/``p`` before its score, as ever;
    the audit is VALID and its records are every hand."""
    t = _table(players, f"late-{players}".encode())
    assert CAP_LATE_REVEAL in t.table.caps
    run = _run(t)
    assert all(s.game.late_reveal for s in t.sessions)
    scored = [(i, ev) for i, (_, evs) in enumerate(run) for ev in evs
              if isinstance(ev, HandScored)]
    hands = len(scored)
    assert hands >= 2
    for i, ev in scored[:-1]:
        assert _is_play(run[i][0]), (ev, run[i][0].fields)  # scored at its last play
    # The last hand: scored at the entry that carries its last reveal, after its play.
    last_at = scored[-1][0]
    assert "deal/reveal" in _types(run[last_at][0], "d", "p")
    entries = [e for e, _ in run]
    late = [(e.seat, x) for e in entries for x in _types(e, "r")]
    assert all(x == "deal/reveal" for _, x in late)
    assert sorted(late) == sorted((s, "deal/reveal") for s in range(players)
                                  for _ in range(hands - 1))
    # No reveal of a hand's deck in d or p between its scoring and the end of the match,
    # but the last hand's own (and a redeal's).
    report = audit_bodies(list(t.sessions[0].bodies), workers=0)
    assert report.verdict == VALID, said(report)
    assert sum(1 for r in report.records if r["type"] == "hand") == hands


def test_the_reveal_travels_on_the_next_turns():
    """At 4 players no entry between a hand's last play and the next hand's first play
    carries a reveal in ``d`` or ``p``; every seat's reveal is in the chain before the
    next hand's last play (it rides on the seat's first turn after the hand ended)."""
    t = _table(4, b"late-between")
    run = _run(t)
    entries = [e for e, _ in run]
    ends = [i for i, (_, evs) in enumerate(run)
            if any(isinstance(ev, HandScored) for ev in evs)]
    for end in ends[:-1]:
        first = next(i for i in range(end + 1, len(entries)) if _is_play(entries[i]))
        assert not any("deal/reveal" in _types(entries[i], "d", "p")
                       for i in range(end + 1, first))
        riding = [i for i in range(end, len(entries)) if _types(entries[i], "r")]
        assert len(riding) == 4
        # each seat's on its first turn from the one that ended the hand
        assert riding == [end + k for k in range(4)], (end, riding)


def test_the_timeline_shows_each_hand_with_its_own_cards():
    """``chkobba replay``'s timeline: each hand's score frame gets that hand's opened
    deck, though its seeds open during the next hand, and its deals know every hand."""
    t = _table(2, b"late-timeline")
    _run(t)
    tl = build_timeline(list(t.sessions[0].bodies))
    assert tl.verdict is not None and tl.verdict.verdict == VALID
    scores = [f for f in tl.frames if isinstance(f.event, HandScored)]
    assert len(scores) >= 2
    for f in scores:
        assert f.revealed is not None and f.revealed.hand == f.event.number
    assert all(f.held is not None for f in tl.frames
               if type(f.event).__name__ == "DealEvent")


def test_a_redeal_waits_for_the_reveals_before_it():
    """Hand 2 (or later) is redealt (any three of a kind on the opening table): the
    deck it abandons finishes only once every reveal of the hand before is in, the
    redeal's own reveals go in ``d`` as ever, and the match completes, VALID."""
    from chkobba_p2p.game.ruleset import RedealRule
    from chkobba_p2p.transcript.events import HandStarted, RedealEvent

    t = _table(2, b"late-redeal-19", rules=Ruleset(target=5, redeal=RedealRule.ANY_THREE))
    hand, redeals = 0, 0
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        assert t.step() is not None
        g = t.sessions[0].game
        for ev in t.sessions[0].take_events():
            if isinstance(ev, HandStarted):
                hand = ev.number
            elif isinstance(ev, RedealEvent) and hand >= 2:
                redeals += 1
                assert g.revealing is None  # the hand before was revealed first
    assert redeals >= 1
    bodies = list(t.sessions[0].bodies)
    assert any(wire.open_entry(b).fields.get("r") for b in bodies)
    report = audit_bodies(bodies, workers=0)
    assert report.verdict == VALID, said(report)


def test_a_redeal_waits_for_a_withheld_reveal():
    """Seat 1 withholds its reveal of hand 1, and hand 2 is redealt: the redeal
    does not finish (its deck is not revealed, no new deck is built) until it comes, and
    the stall blames seat 1 there."""
    from chkobba_p2p.game.ruleset import RedealRule

    # hand 2 of this table is redealt
    t = _table(2, b"late-redeal-47", rules=Ruleset(target=5, redeal=RedealRule.ANY_THREE))
    _withholding(t, 1)
    honest = t.sessions[0]
    assert _until_the_honest_seats_fault(t, 1) == (1, "stalled_owing")
    g = honest.game
    assert g.hand_no == 2 and g._finishing == "redeal" and g.instance == 0
    assert g.revealing is not None and g.owed() == (1,)


def test_without_shuffle_proofs_the_reveal_comes_first():
    """A host without shuffle proofs leaves late-reveal/v1 out of the genesis; a genesis
    that holds it without shuffle-proof/v1 has it not in play (the reveal is then the
    deck's only check): every hand waits for its reveals, none rides in ``r``."""
    t = Table(2, proofs=False, key=b"late-noproofs", rules=Ruleset(target=5))
    assert CAP_LATE_REVEAL not in t.table.caps
    caps = t.table.caps + (CAP_LATE_REVEAL,)
    table = dataclasses.replace(t.table, caps=caps)
    masters = [s.master for s in t.sessions]
    host, genesis = Session.create(t.ids[0], table, masters[0])
    t.sessions = [host, Session.join(t.ids[1], wire.open_entry(genesis.body),
                                     t.ids[0].public, masters[1])]
    run = _run(t)
    assert all(not s.game.late_reveal and CAP_LATE_REVEAL in s.caps for s in t.sessions)
    assert not any(e.fields.get("r") for e, _ in run)
    assert audit_bodies(list(t.sessions[0].bodies), workers=0).verdict == VALID


def test_a_seat_without_the_capability_gets_the_old_order():
    """A joiner whose hello lacks late-reveal/v1: the genesis lacks it, every hand's
    reveals come before its score, and the match is the same one."""
    key = b"late-mixed"
    new, old = _table(3, key), _table(3, key, caps=WITHOUT)
    assert CAP_LATE_REVEAL not in old.table.caps and CAP_NEXT_DECK in old.table.caps
    run_old = _run(old)
    _run(new)
    assert new.sessions[0].done == old.sessions[0].done
    assert not any(e.fields.get("r") for e, _ in run_old)
    assert audit_bodies(list(old.sessions[0].bodies), workers=0).verdict == VALID


@pytest.mark.parametrize("players", [2, 4])
def test_crashes_anywhere(players):
    """The seat holding the floor is rebuilt from its log every fifth entry, proof work
    handed out to the slowest worker: the same chain and result everywhere (a resumed
    seat never sends its reveal twice, nor forgets it), VALID."""
    t = _table(players, f"late-crash-{players}-b".encode())
    rebuilt = play_crashing_the_floor(t)
    assert rebuilt >= 10
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    bodies = list(t.sessions[0].bodies)
    rs = [(wire.open_entry(b).seat, x) for b in bodies for x in _types(wire.open_entry(b), "r")]
    done = t.sessions[0].done
    assert done is not None and done.hands >= 2
    assert len(rs) == players * (done.hands - 1)  # each seat's reveal of each deck, once
    assert audit_bodies(bodies, workers=0).verdict == VALID


def test_turn_body_r_on_the_wire():
    """``r`` is written only when it holds something (an empty one is the same bytes as
    before the field) and read only where late-reveal/v1 is in play."""
    item = {"t": "deal/reveal", "seed": bytes(32)}
    assert "r" not in TurnBody([], None, None, None, []).to_wire()
    assert TurnBody([], None, None, None, [item]).to_wire()["r"] == [item]
    assert TurnBody.from_wire({"d": [], "r": [item]}, 0, b"").reveal is None
    assert TurnBody.from_wire({"d": [], "r": [item]}, 0, b"", late=True).reveal == [item]
    with pytest.raises(GameFault):
        TurnBody.from_wire({"d": [], "r": item}, 0, b"", late=True)


# ------------------------------------------------------------------ forged entries


def _resign(t: Table, e: wire.Entry, field: str, value: Any) -> bytes:
    fields = dict(e.fields)
    fields[field] = value
    payload = wire.encode(fields)
    sig = t.ids[e.seat].sign(wire.ENTRY_DOMAIN, payload)
    return wire.encode({"t": "sig", "p": payload, "s": sig})


def _forge(players: int, key: bytes, pick: Any, value: Any, field: str = "r", **kw: Any
           ) -> tuple[Table, int, list[bytes], dict[int, BaseException | None]]:
    """Play the honest table ``key`` until the first turn ``pick(t, entry)`` accepts,
    replace its field ``field`` with ``value(t, entry)``, sign it again with its seat's
    key and give it to every other seat.  Returns the table, the forger's seat, the
    chain up to the forged entry and what each other seat raised (None: took it)."""
    t = _table(players, key, **kw)
    for _ in range(20000):
        s, e = t.speak()
        if e.kind == "turn" and pick(t, e):
            forged = _resign(t, e, field, value(t, e))
            raised = offer_to_others(t, s, forged)
            return t, s.seat, [*s.bodies[:-1], forged], raised
        t.deliver(e, s.seat)
    raise AssertionError("no such entry")


def _blamed_everywhere(t: Table, seat: int, chain: list[bytes],
                       raised: dict[int, BaseException | None], code: ErrorCode,
                       reason: str = "") -> None:
    """Every other seat refused the entry blaming ``seat`` with ``code``, and so does the
    auditor, at that entry; an honest seat rebuilt from the chain too."""
    for other, exc in raised.items():
        assert isinstance(exc, GameFault), (other, exc)
        assert (exc.blamed_seat, exc.error_code) == (seat, code), (other, exc)
        assert str(exc).startswith(reason) or exc.detail.startswith(reason), exc.detail
    report = audit_bodies(chain, workers=0)
    assert (report.verdict, report.blamed, report.code) == (INVALID, seat, code.name.lower()), \
        said(report)
    assert report.entry == len(chain) - 1
    assert report.reason.startswith(reason), report.reason
    for other in raised:
        resumed = Session.resume(t.ids[other], chain, t.ids[0].public,
                                 t.sessions[other].master)
        a = resumed.aborted  # the verdict signed, owed to the others (as live)
        assert resumed.owes_abort and a is not None, (other, a)
        assert (a.blamed_seat, a.code) == (seat, code)


def _carries_r(t: Table, e: wire.Entry) -> bool:
    return bool(e.fields.get("r"))


def _late_seat(seat: int) -> Any:
    """The first turn of ``seat`` that carries an ``r`` (not the one ending the hand)."""
    def pick(t: Table, e: wire.Entry) -> bool:
        return e.seat == seat and bool(e.fields.get("r")) and not _is_play(e)
    return pick


def _bad_seed(t: Table, e: wire.Entry) -> list[Any]:
    return [{"t": "deal/reveal", "seed": bytes(range(32))}]


def _seed_of_the_current_deck(t: Table, e: wire.Entry) -> list[Any]:
    """The sender's true seed, of another instance: the deck in play (the next hand's)."""
    deck = t.sessions[e.seat].game.deck
    assert deck is not None and deck.own_seed is not None
    return [{"t": "deal/reveal", "seed": deck.own_seed}]


def _a_key(t: Table, e: wire.Entry) -> list[Any]:
    return [{"t": "deal/key", "pk": bytes(32), "commit": bytes(32), "proof": bytes(64)}]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(("value", "code", "reason"), [
    (_bad_seed, ErrorCode.DEAL_FAILURE, "bad_opening"),
    (_seed_of_the_current_deck, ErrorCode.DEAL_FAILURE, "bad_opening"),
    (_a_key, ErrorCode.DEAL_FAILURE, "unexpected"),
    (lambda t, e: ["junk"], ErrorCode.PROTOCOL_VIOLATION, ""),
], ids=["bad-seed", "wrong-instance", "not-a-reveal", "not-a-map"])
def test_a_bad_reveal_riding_late_is_blamed_on_its_sender(players, value, code, reason):
    """A seat's ``r`` carries a seed its commitment refuses, its true seed of another
    deck (the one in play), or something else than a reveal: the sender is blamed at
    that entry by every other seat, the auditor and a resumed honest seat."""
    t, seat, chain, raised = _forge(players, f"late-bad-{players}".encode(),
                                    _late_seat(1), value)
    assert seat == 1
    _blamed_everywhere(t, seat, chain, raised, code, reason)


def test_r_while_no_deck_awaits_its_reveals_is_refused():
    """An ``r`` during the first hand (no deck scored yet) is its sender's
    ``protocol_violation``, live and in the audit."""
    def pick(t: Table, e: wire.Entry) -> bool:
        return t.sessions[0].game.hand_no == 1 and _is_play(e) and e.seat == 1

    t, seat, chain, raised = _forge(2, b"late-early", pick, _bad_seed)
    _blamed_everywhere(t, seat, chain, raised, ErrorCode.PROTOCOL_VIOLATION)


def test_r_at_a_table_without_the_capability_is_an_unknown_field():
    """Where late-reveal/v1 is not in play ``r`` is an unknown field: ignored by every
    seat and the auditor (as a peer of before it ignores it), nobody blamed."""
    def pick(t: Table, e: wire.Entry) -> bool:
        return t.sessions[0].game.hand_no == 2 and e.seat == 1

    t, seat, chain, raised = _forge(2, b"late-unknown", pick, _bad_seed, caps=WITHOUT)
    assert CAP_LATE_REVEAL not in t.table.caps
    assert raised == {0: None}
    assert audit_bodies(chain, workers=0).verdict != INVALID


def _until_the_honest_seats_fault(t: Table, cheater: int) -> tuple[int | None, str | None]:
    """Play ``t`` until an honest seat finds a fault: in an entry it receives (raised)
    or in its own (it signs an abort); each entry goes to the honest seats first, then to
    the cheater's own session, whose view is not judged.  The blamed seat and the
    violation."""
    honest = [o for o in t.sessions if o.seat != cheater]
    for _ in range(20000):
        for o in honest:
            if o.aborted is not None:
                return o.aborted.blamed_seat, o.aborted.violation
        s, e = t.speak()
        for o in sorted(t.sessions, key=lambda o: o.seat == cheater):
            if o is s:
                continue
            try:
                o.receive(wire.open_entry(e.body))
            except GameFault as exc:
                assert o.seat != cheater, exc
                return exc.blamed_seat, exc.violation
    raise AssertionError("no fault")


def _withholding(t: Table, seat: int) -> None:
    """``seat``'s session never sends its reveal of a deck scored before its reveals."""
    game = t.sessions[seat].game
    game.reveal_outbox = lambda: []  # type: ignore[method-assign]
    # ...and plays on where its own session would call the stall (its view is its own).
    t.sessions[seat]._stalled = lambda seat, entry: None  # type: ignore[method-assign]


def test_a_withheld_reveal_is_waited_for_at_the_next_deck_s_end():
    """Seat 1 never sends its reveal of hand 1: hand 2 is played to its last card all
    the same (nobody owes the reveal before), then the game waits there for it, and the
    stall blames seat 1 alone (live at every honest seat and in the audit); with the
    match over after hand 2, nobody signs ``done``."""
    t = _table(2, b"late-withheld")
    _withholding(t, 1)
    honest = t.sessions[0]
    owed_before: list[tuple[int, ...]] = []
    for _ in range(20000):
        s, e = t.speak()
        if s is not honest:
            try:
                honest.receive(wire.open_entry(e.body))
            except GameFault as exc:
                fault = exc
                break
        else:
            t.sessions[1].receive(wire.open_entry(e.body))
        g = honest.game
        if g.revealing is not None and g._finishing is None:
            assert any(seat == 1 for seat, _ in g.revealing.deal.expecting())
            asked = {seat for seat, _ in g.deck.deal.expecting()} if g.deck else set()
            owed_before.append(tuple(x for x in g.owed() if x == 1 and x not in asked
                                     and not g.waits_for(1)))
    else:
        raise AssertionError("no fault")
    assert (fault.blamed_seat, fault.error_code) == (1, ErrorCode.PROTOCOL_VIOLATION)
    assert fault.violation == "stalled_owing"
    # While hand 2 was played the reveal was missing and owed by nobody: seat 1 owed
    # only what the deck in play or its choice asked of it.
    assert owed_before and all(not stray for stray in owed_before)
    g = honest.game
    assert g.hand_no == 2 and g.revealing is not None and g._finishing == "hand"
    assert g.match is not None and g.match.finish_hand().is_over  # the match's last hand
    assert honest.phase == Phase.PLAYING and honest.done is None
    chain = [*honest.bodies, e.body]
    report = audit_bodies(chain, workers=0)
    assert (report.verdict, report.blamed) == (INVALID, 1), said(report)


def test_only_the_withholding_seat_owes_at_the_wait_point():
    """At 3 players, seat 2 withholds its reveal: at the wait point the game owes
    seat 2's reveal and nothing of seats 0 and 1, which sent theirs."""
    t = _table(3, b"late-owed")
    _withholding(t, 2)
    honest = t.sessions[0]
    assert _until_the_honest_seats_fault(t, 2) == (2, "stalled_owing")
    g = honest.game
    assert g._finishing == "hand" and g.revealing is not None
    assert g.owed() == (2,) and t.sessions[1].game.owed() == (2,)


def test_forced_capture_broken_is_blamed_at_the_hand_s_end_and_at_the_play():
    """Under forced capture a cheater drops a card while another of its hidden hand
    could capture.  With late-reveal/v1 the hand is scored at its last play, without the
    seeds: the honest seat still re-checks every play there (every card is shown by
    then) and blames the cheater, and the auditor names the offending play's own entry
    (PROTOCOL.md 7.3), not the one that ended the hand."""
    from support.audit import play

    from chkobba_p2p.game.rules import PRESETS

    rules = PRESETS["tunisian"].with_variant("forced-capture")
    played = play(2, rules=rules, cheater=1, cheater_rules=PRESETS["tunisian"],
                  levels=("greedy", "random"), seed=12, key=b"forced-late", proofs=True)
    honest = played.sessions[0]
    assert honest.game.late_reveal
    assert honest.aborted is not None and (honest.aborted.code, honest.aborted.blamed_seat) \
        == (ErrorCode.ILLEGAL_MOVE, 1)
    bodies = list(honest.bodies)
    # The entry that ended the hand (its last play), before the honest seat's abort.
    ended = max(i for i, b in enumerate(bodies) if wire.open_entry(b).kind == "turn")
    assert _is_play(wire.open_entry(bodies[ended]))
    assert not any(wire.open_entry(b).fields.get("r") for b in bodies[:ended])
    report = audit_bodies(bodies, workers=0)
    assert (report.verdict, report.code, report.blamed) == (INVALID, "illegal_move", 1)
    assert "forced capture" in report.reason
    e = wire.open_entry(bodies[report.entry])
    assert report.entry < ended
    assert e.seat == 1 and e.fields["a"]["t"] == "play" and e.fields["a"]["take"] == []


# ------------------------------------------------------------------ real peers in memory


#: A joiner of before the capability: its hello does not announce it.
OldJoiner = old_joiner(CAP_LATE_REVEAL)


def _late(path: Path) -> int:
    return sum(1 for b in read_log(path).bodies if wire.open_entry(b).fields.get("r"))


async def test_a_table_of_new_peers(tmp_path, autojump_clock):
    """Three real peers (proof work in their worker threads): the reveals ride in
    ``r``; every log audits VALID.  The deal is the peers' own (not keyed): a match
    won in its first hand has no hand before its last, so no reveal to ride late
    (1 match in some 15 at this target); such a match is played again."""
    for attempt in range(4):
        folder = tmp_path / f"match{attempt}"
        folder.mkdir()
        outcomes = await play_mixed_table(folder, 3, Ruleset(target=6), set(), OldJoiner,
                                          shuffle_proofs=True)
        if len(audit_log(outcomes[0].log_path, workers=0).records) > 1:
            break
    else:
        raise AssertionError("four matches in a row were won in their first hand")
    assert CAP_LATE_REVEAL in outcomes[0].table.caps
    assert all(_late(o.log_path) > 0 for o in outcomes)


async def test_a_mixed_table(tmp_path, autojump_clock):
    """One joiner of before the capability: the genesis lacks it, nobody sends ``r``."""
    outcomes = await play_mixed_table(tmp_path, 3, Ruleset(target=6), {1}, OldJoiner,
                                      shuffle_proofs=True)
    assert CAP_LATE_REVEAL not in outcomes[0].table.caps
    assert CAP_NEXT_DECK in outcomes[0].table.caps
    assert all(_late(o.log_path) == 0 for o in outcomes)


# ------------------------------------------------------------------ the vector


def _seed(i: int) -> bytes:
    return bytes([i]) * 32


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_late_transcript():
    """A 2-player game at a late-reveal/v1 table (shuffle proofs on: it needs them) up to
    the entry of hand 2 whose ``r`` completes hand 1's reveals."""
    t = Table(2, proofs=True, key=b"late-vector", rules=Ruleset(target=5))
    assert CAP_LATE_REVEAL in t.table.caps and CAP_SHUFFLE_PROOFS in t.table.caps
    bodies = [t.sessions[0].bodies[0]]
    seen = 0
    while seen < 2:
        e = t.step()
        assert e is not None
        bodies.append(e.body)
        seen += len(_types(e, "r"))
    path = VECTORS / "transcript_late.chklog"
    path.unlink(missing_ok=True)
    w = TranscriptWriter(path)
    w.write_header(game=t.table.game, seat=1, key=t.ids[1].public, name="p1",
                   host="127.0.0.1:7777")
    for b in bodies:
        w.append(b)
    w.close()
    (VECTORS / "transcript_late.json").write_text(json.dumps({
        "key": "late-vector",
        "entries": [{"kind": wire.open_entry(b).kind, "seat": wire.open_entry(b).seat,
                     "items": _types(wire.open_entry(b), "d"),
                     "after": _types(wire.open_entry(b), "p"),
                     "next": _types(wire.open_entry(b), "b"),
                     "reveal": _types(wire.open_entry(b), "r"),
                     "id_hex": wire.open_entry(b).id.hex()} for b in bodies],
        "head_hex": wire.open_entry(bodies[-1]).id.hex()}, indent=2, sort_keys=True) + "\n")


def test_late_transcript_vector():
    """``r`` on the wire: hand 1 scored at its last play, which carries its sender's
    reveal in ``r``; the other seat's reveal in its next turn's ``r``, beside hand 2's
    first shares.  The guest replays it all from its master secret (its reveal not sent
    again), the auditor finds nothing wrong, and a reveal with a wrong seed signed again
    is refused, blaming its seat."""
    v = json.loads((VECTORS / "transcript_late.json").read_text())
    log = read_log(VECTORS / "transcript_late.chklog")
    entries = [wire.open_entry(b) for b in log.bodies]
    assert [(e.kind, e.seat, e.id.hex(), _types(e, "d"), _types(e, "p"), _types(e, "b"),
             _types(e, "r")) for e in entries] == [
        (x["kind"], x["seat"], x["id_hex"], x["items"], x["after"], x["next"], x["reveal"])
        for x in v["entries"]]
    riding = [e for e in entries if e.fields.get("r")]
    assert len(riding) == 2 and {e.seat for e in riding} == {0, 1}
    assert _is_play(riding[0])  # the last play of hand 1 carries its sender's reveal
    t = Table(2, proofs=True, key=v["key"].encode(), rules=Ruleset(target=5))
    guest = Session.resume(t.ids[1], list(log.bodies), t.ids[0].public,
                           t.sessions[1].master)
    assert guest.head.hex() == v["head_hex"] and guest.game.late_reveal
    assert guest.game.revealing is None and not guest.game._reveal_out
    report = audit_bodies(list(log.bodies), workers=0)
    assert report.verdict != INVALID, said(report)
    assert [r["type"] for r in report.records] == ["hand"]
    # A wrong seed in the last r, signed again: its seat is blamed.
    last = entries[-1]
    fields = dict(last.fields)
    fields["r"] = [{"t": "deal/reveal", "seed": bytes(32)}]
    payload = wire.encode(fields)
    forged = wire.encode({"t": "sig", "p": payload,
                          "s": t.ids[last.seat].sign(wire.ENTRY_DOMAIN, payload)})
    bad = audit_bodies([*log.bodies[:-1], forged], workers=0)
    assert (bad.verdict, bad.blamed, bad.code) == (INVALID, last.seat, "deal_failure")


def test_a_late_log_replays_from_a_file(tmp_path):
    """The vector's log read as ``chkobba replay`` reads it."""
    report = audit_log(VECTORS / "transcript_late.chklog", workers=0)
    assert report.verdict != INVALID, said(report)



# At 3 players an honest seat's reveal rides with its first choice of the next hand
# (the cut); at 2 and 4 players the seats' reveals ride with shares the game waits for
# anyway, so the honest tables of this file never send one beside a choice owed.
@pytest.mark.parametrize("players", [3])
def test_a_reveal_alone_while_the_game_waits_for_the_senders_play_is_no_empty_turn(
        players: int) -> None:
    """PROTOCOL 6.2: a seat sends its reveal in ``r`` of any turn up to the wait point,
    and under early-deal/v1 a seat the game waits for may send the deal messages it owes
    before its choice.  A turn carrying only its reveal (no ``d`` item, no action) while
    the game waits for its play is therefore taken by every peer and the audit: the
    seat is not blamed for an empty turn (a fresh-eyes review found every peer blaming
    it, ``empty_turn``)."""
    t = _table(players, f"late-alone-{players}".encode())
    for _ in range(20000):
        s, e = t.speak()
        others = [o for o in t.sessions if o is not s]
        # A choice (a play, a cut) whose ``r`` carries the reveal of a deck scored
        # before it (not the play that ends a hand, whose own reveal rides with it).
        if e.kind == "turn" and e.fields.get("r") and e.fields.get("a") is not None \
                and all(o.game.revealing is not None and o.game.waits_for(e.seat)
                        for o in others):
            fields = {k: v for k, v in e.fields.items() if k not in ("a", "p", "b")}
            fields["d"] = []
            payload = wire.encode(fields)
            sig = t.ids[e.seat].sign(wire.ENTRY_DOMAIN, payload)
            alone = wire.encode({"t": "sig", "p": payload, "s": sig})
            for o in others:
                o.receive(wire.open_entry(alone))  # no GameFault: nobody is blamed
                assert o.game.waits_for(e.seat)  # its play is still owed, nothing more
            report = audit_bodies([*s.bodies[:-1], alone], workers=0)
            assert report.blamed is None, report.reason
            return
        t.deliver(e, s.seat)
    raise AssertionError("no turn carried a reveal beside its choice")


# ------------------------------------------------------------------ an abort before the reveals


def _end_leaves(t: Table, players: int) -> int:
    """The last seat leaves (its reveal of hand 1 not yet sent)."""
    s = t.sessions[players - 1]
    left = s.leave()
    assert left is not None
    t.deliver(left, s.own_seat)
    return s.own_seat


def _end_resigns(t: Table, players: int) -> int:
    s = t.sessions[1]
    t.deliver(s.resign(), 1)
    return 1


def _end_flag(t: Table, players: int) -> int:
    host = t.sessions[0]
    while host.floor == 0:  # the host flags another seat
        assert t.step() is not None
    assert host.game.revealing is not None
    flagged = host.floor
    t.deliver(host.abort(ErrorCode.TIMEOUT, flagged, "out of time", flag=flagged), 0)
    return 0


def _end_claim(t: Table, players: int) -> int:
    """A joiner claims a seat that owes no reveal yet withheld it (a claim)."""
    s = t.sessions[1]
    other = next(x for x in range(players) if x not in (1, s.floor))
    t.deliver(s.abort(ErrorCode.TIMEOUT, other, "no reveal from it"), 1)
    return 1


ABORTS = {f.__name__[5:]: f for f in (_end_leaves, _end_resigns, _end_flag, _end_claim)}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ending", sorted(ABORTS))
def test_an_abort_before_the_reveals_of_a_scored_hand(players, ending):
    """Issue 44 (settle): the match ends (a leave, a resignation, a flag, a claim)
    during hand 2, before every reveal of hand 1 is in.  Hand 1 was scored at its last
    play (PROTOCOL.md 6.2): it counts, live and in the audit alike -- the audit's totals
    and records include it (every card of the deck was shown), the winner and the loser
    of an ending that decides the match are the same, and nobody is blamed for a reveal
    that was not due yet.  A spectator that watched the chain says the same."""
    from chkobba_p2p.observe.observer import Observer

    t = _table(players, f"late-abort-{players}".encode(), rules=Ruleset(target=21))
    for _ in range(20000):
        e = t.step()
        assert e is not None
        g = t.sessions[0].game
        if g.match is not None and g.match.results and g.revealing is not None:
            break
    else:
        raise AssertionError("hand 1 was never scored before its reveals")
    assert not g.revealing.verified
    ABORTS[ending](t, players)
    for s in t.sessions:
        a = s.aborted
        assert a is not None, s.seat
        report = audit_bodies(list(s.bodies), workers=0)
        assert report.verdict != INVALID, said(report)
        live_totals = tuple(s.game.match.totals)
        assert len(s.game.match.results) == 1
        assert a.totals == live_totals
        assert report.totals == live_totals, (said(report), live_totals)
        hands = [r for r in report.records if r["type"] == "hand"]
        assert len(hands) == 1 and tuple(hands[0]["totals"]) == live_totals
        assert report.winner == a.winner_side(players), said(report)
        assert report.loser == a.loser_side(players), said(report)
        claim = report.aborts[0]
        assert (claim.code, claim.blamed) == (a.code.name.lower(), a.blamed_seat)
        if a.standing not in (Standing.OWED, Standing.SELF):
            assert report.blamed is None, said(report)
        obs = Observer()
        for body in s.bodies:
            obs.feed(body)
        v = obs.end()
        assert (v.verdict, v.code, v.blamed, v.winner) == (
            report.verdict, report.code, report.blamed, report.winner)
        assert obs.totals == live_totals
