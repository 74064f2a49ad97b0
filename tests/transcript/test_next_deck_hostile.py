"""A dishonest seat against next-deck/v1 (issue 44): what a cheater can put in a turn's
``b`` (the next hand's first deck, built during the current hand), and the verdict of
every honest peer and of the auditor (``audit_bodies``/``audit_log``, what ``chkobba
replay`` runs) for each.

Two ways to cheat, both in memory with real signatures and real deal crypto:

* a hook (``support.audit.play``) that changes what the cheater's own session is about
  to sign: its queue for the next deck (``game._next_out``), so its own session carries
  on as a real cheater's would;
* a forged entry: an honest table (``support.sessions.Table``, deterministic from a key)
  up to the entry wanted, whose ``b`` is replaced and which is signed again with its
  seat's key, then given to every other seat and to the auditor.

What must hold: the sender is blamed, with the code PROTOCOL.md 6.1/6.2 gives, by every
honest peer and by the auditor, at the entry that carried it; nobody else is; a clean
refusal (no traceback, no hang)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import trio
from support.audit import play, said
from support.sessions import Table, deal_releases, offer_to_others
from test_next_deck import SHARED, honest

from chkobba_p2p._shell.net import ClientPeer
from chkobba_p2p._shell.peer import Outcome
from chkobba_p2p.deal.core import ProofJob, run_job
from chkobba_p2p.deal.messages import KeyItem, ProofItem, ShuffleItem, parse_item
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.game.ruleset import RedealRule
from chkobba_p2p.link.joiner import SeatLink
from chkobba_p2p.observe.audit import INVALID, VALID, audit_bodies, audit_log
from chkobba_p2p.testing import InMemoryTable, RecordingController
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import CAP_NEXT_DECK, SPOKEN
from chkobba_p2p.transcript.events import Standing
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode
from chkobba_p2p.wire.logfile import TranscriptWriter, read_log

WITHOUT = tuple(c for c in SPOKEN if c != CAP_NEXT_DECK)
_COMMON = ("g", "seat", "n", "prev", "k")


def _types(e: wire.Entry, field: str) -> list[str]:
    return [str(d.get("t")) for d in e.fields.get(field) or [] if isinstance(d, dict)]


# ------------------------------------------------------------------ forged entries


def _resign(t: Table, e: wire.Entry, b: Any) -> bytes:
    """``e`` with ``b`` for its field ``b``, signed again by its seat (as
    ``wire.make_entry`` signs, without its size check: a cheater need not have one)."""
    fields = dict(e.fields)
    fields["b"] = b
    payload = wire.encode(fields)
    sig = t.ids[e.seat].sign(wire.ENTRY_DOMAIN, payload)
    return wire.encode({"t": "sig", "p": payload, "s": sig})


def _reference(players: int, key: bytes, **kw: Any) -> list[tuple[int, int, bool]]:
    """An honest run of the table ``key``: per entry, (seat 0's hand number before it,
    after it, whether the match is over after it)."""
    t = Table(players, key=key, **{"rules": Ruleset(target=3), **kw})
    out = []
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            return out
        g = t.sessions[0].game
        before = g.hand_no
        assert t.step() is not None
        out.append((before, g.hand_no, g.over))
    raise AssertionError("the match did not end")


def _forge(players: int, key: bytes, index: int | None, b: Any, *,
           pick: Any = None, **kw: Any
           ) -> tuple[int, list[bytes], dict[int, BaseException | None]]:
    """Play the honest table ``key`` up to the entry at ``index`` of the chain (or the
    first turn ``pick(t, entry)`` accepts), replace its ``b`` with ``b``, sign it again
    with its seat's key and give it to every other seat.  Returns the forger's seat,
    the chain up to the forged entry and what each other seat raised (None: took it)."""
    t = Table(players, key=key, **{"rules": Ruleset(target=3), **kw})
    for _ in range(20000):
        s, e = t.speak()
        at = len(s.bodies) - 1
        if e.kind == "turn" and (at == index if pick is None else pick(t, e)):
            forged = _resign(t, e, b)
            raised = offer_to_others(t, s, forged)
            _TABLES[s.seat, forged] = t
            return s.seat, [*s.bodies[:-1], forged], raised
        t.deliver(e, s.seat)
    raise AssertionError("no such entry")


# The table each forged entry was made at (to resume its honest seats from the chain).
_TABLES: dict[tuple[int, bytes], Table] = {}


def _first_turn(t: Table, e: wire.Entry) -> bool:
    assert t.sessions[0].game.hand_no == 0  # the first dealer's draw
    return True


def _carries_b(t: Table, e: wire.Entry) -> bool:
    return bool(e.fields.get("b"))


def _blamed_everywhere(seat: int, chain: list[bytes],
                       raised: dict[int, BaseException | None], code: ErrorCode,
                       reason: str = "") -> None:
    """Every other seat refused the entry blaming ``seat`` with ``code``, and so does
    the auditor, at that entry."""
    for other, exc in raised.items():
        assert isinstance(exc, GameFault), (other, exc)
        assert (exc.blamed_seat, exc.error_code) == (seat, code), (other, exc)
    report = audit_bodies(chain, workers=0)
    assert (report.verdict, report.blamed, report.code) == (INVALID, seat, code.name.lower()), \
        said(report)
    assert report.entry == len(chain) - 1
    assert report.reason.startswith(reason), report.reason
    # An honest seat rebuilt from its log (a resume) reaches the same verdict there.
    t = _TABLES[seat, chain[-1]]
    for other in raised:
        resumed = Session.resume(t.ids[other], chain, t.ids[0].public,
                                 t.sessions[other].master)
        a = resumed.aborted  # the verdict signed, owed to the others (as live)
        assert resumed.owes_abort and a is not None, (other, a)
        assert (a.blamed_seat, a.code) == (seat, code)


JUNK = {
    # b is not an array: the turn's fields are wrong.
    "not_an_array": (7, ErrorCode.PROTOCOL_VIOLATION, ""),
    "a_map": ({"t": "deal/key"}, ErrorCode.PROTOCOL_VIOLATION, ""),
    # An item that is not a map.
    "item_not_a_map": ([7], ErrorCode.PROTOCOL_VIOLATION, ""),
    # A map without a type, one of a type nobody knows.
    "item_without_type": ([{"x": 1}], ErrorCode.DEAL_FAILURE, ""),
    "unknown_type": ([{"t": "deal/bogus"}], ErrorCode.DEAL_FAILURE, ""),
    # Nothing that opens a card, nor a reveal, ever rides in b.
    "shares": ([{"t": "deal/shares", "step": 0, "pos": [0], "d": [bytes(32)],
                 "proof": bytes(64)}], ErrorCode.DEAL_FAILURE, "unexpected:"),
    "play": ([{"t": "deal/play", "pos": 0, "d": bytes(32), "proof": bytes(64)}],
             ErrorCode.DEAL_FAILURE, "unexpected:"),
    "reveal": ([{"t": "deal/reveal", "seed": bytes(32)}], ErrorCode.DEAL_FAILURE,
               "unexpected:"),
    "complain": ([{"t": "deal/complain", "step": 0}], ErrorCode.DEAL_FAILURE,
                 "unexpected:"),
}


@pytest.mark.parametrize("junk", sorted(JUNK))
def test_junk_in_b_during_a_hand(junk):
    """A ``b`` that is not an array of deal messages, or holds one that opens a card,
    on the first turn that carries a ``b``: its sender is blamed by everyone and by the
    auditor."""
    b, code, reason = JUNK[junk]
    seat, chain, raised = _forge(2, b"hostile-junk", None, b, pick=_carries_b)
    _blamed_everywhere(seat, chain, raised, code, reason)


@pytest.mark.parametrize("junk", ["shares", "reveal", "unknown_type", "not_an_array"])
def test_junk_in_b_at_four_players(junk, tmp_path):
    """The same at four players: three honest peers, one verdict."""
    b, code, reason = JUNK[junk]
    seat, chain, raised = _forge(4, b"hostile-junk-4", None, b, pick=_carries_b)
    assert len(raised) == 3
    _blamed_everywhere(seat, chain, raised, code, reason)
    # ...and ``chkobba replay`` of a log file ending there.
    w = TranscriptWriter(tmp_path / "x.chklog")
    t = _TABLES[seat, chain[-1]]
    w.write_header(game=t.table.game, seat=(seat + 1) % 4, key=t.ids[(seat + 1) % 4].public,
                   name="x", host="in-process")
    for body in chain:
        w.append(body)
    w.close()
    report = audit_log(tmp_path / "x.chklog", workers=0)
    assert (report.verdict, report.blamed, report.code) == (INVALID, seat, code.name.lower())


def _ends(ref: list[tuple[int, int, bool]], match: bool) -> int:
    """The index (in the chain: the genesis is 0, so +1) of the first entry ending a hand
    (not the match), or of the one ending the match."""
    i = next(i for i, (before, after, over) in enumerate(ref)
             if (over if match else (after > before and before >= 1 and not over)))
    return i + 1


@pytest.mark.parametrize("match", [False, True], ids=["hand_end", "match_end"])
@pytest.mark.parametrize("junk", ["shares", "reveal", "unknown_type"])
def test_junk_in_b_of_the_turn_that_ends_a_hand_or_the_match(match, junk):
    """In the turn that ends a hand (its ``b`` goes to the deck it makes current) or the
    match (its ``b`` goes to a deck dropped, its items still checked: PROTOCOL.md 6.2):
    the sender is blamed all the same."""
    key = b"hostile-end"
    index = _ends(_reference(2, key), match)
    b, code, reason = JUNK[junk]
    seat, chain, raised = _forge(2, key, index, b)
    _blamed_everywhere(seat, chain, raised, code, reason)


def test_b_in_the_first_dealer_draw_is_blamed_by_the_auditor_too():
    """A ``b`` in the first dealer's draw (no next deck yet): ``protocol_violation``,
    live and in the audit."""
    seat, chain, raised = _forge(2, b"hostile-draw", None, [{"t": "deal/cut", "k": 1}],
                                 pick=_first_turn)
    assert wire.open_entry(chain[-1]).kind == "turn"
    _blamed_everywhere(seat, chain, raised, ErrorCode.PROTOCOL_VIOLATION)


def test_an_empty_b_in_the_draw_is_no_fault():
    """``b: []`` carries nothing (the bytes an honest peer never sends, but nothing to
    blame): taken, and the audit of the chain so far finds nothing wrong."""
    seat, chain, raised = _forge(2, b"hostile-draw-empty", None, [], pick=_first_turn)
    assert all(exc is None for exc in raised.values()), raised
    assert audit_bodies(chain, workers=0).verdict != INVALID


def test_an_oversized_b_is_refused_as_too_large():
    """A ``b`` that makes the turn larger than a turn may be: refused before anything
    is read (``entry_too_large``, as any oversized entry: the link refuses the frame)."""
    seat, chain, raised = _forge(2, b"hostile-huge", None,
                                 [{"t": "deal/key", "pad": bytes(20000)}], pick=_carries_b)
    for exc in raised.values():
        assert isinstance(exc, wire.ProtocolError), exc
        assert exc.error_code == ErrorCode.ENTRY_TOO_LARGE


def test_b_where_the_capability_is_not_in_effect_is_an_unknown_field():
    """At a table without next-deck/v1: a small ``b`` of junk is an unknown field,
    ignored by everyone; one over the unknown fields' budget (section 2.1) is its
    sender's ``entry_too_large``, live and in the audit."""
    def first_play(t: Table, e: wire.Entry) -> bool:
        return isinstance(e.fields.get("a"), dict)

    seat, chain, raised = _forge(2, b"hostile-old", None, [{"t": "deal/shares"}],
                                 pick=first_play, caps=WITHOUT)
    assert all(exc is None for exc in raised.values()), raised
    assert audit_bodies(chain, workers=0).verdict != INVALID
    seat, chain, raised = _forge(2, b"hostile-old", None, [{"t": "x", "pad": bytes(300)}],
                                 pick=first_play, caps=WITHOUT)
    _blamed_everywhere(seat, chain, raised, ErrorCode.ENTRY_TOO_LARGE)


# ------------------------------------------------------------------ a cheater's own b


def _inject(make, when):
    """Once ``when(session)`` holds while the current deck is dealing (so the cheater's
    next turn carries a ``b``), ``make(session)`` changes the cheater's queue for the
    next deck."""
    def hook(s: Session) -> bool:
        g = s.game
        if g.next_deck is None or g.deck is None or g.deck.deal.phase != "deal" \
                or not when(s):
            return False
        make(s)
        return True
    return hook


def _sent_b(s: Session, kind: str) -> dict[str, Any] | None:
    """The cheater's own item of ``kind`` in a ``b`` of this hand's chain, if any."""
    for body in reversed(s.bodies):
        e = wire.open_entry(body)
        if e.kind == "turn" and e.seat == s.seat:
            for d in e.fields.get("b") or []:
                if isinstance(d, dict) and d.get("t") == kind:
                    return d
    return None


def _key_again(s: Session) -> None:
    s.game._next_out.append(dict(_sent_b(s, "deal/key") or {}))


def _shuffles(s: Session) -> int:
    nd = s.game.next_deck
    assert nd is not None
    return len(nd.deal._decks) - 1


def _keys_in(s: Session) -> bool:
    nd = s.game.next_deck
    return nd is not None and all(k is not None for k in nd.deal._keys)


def _bad_proof(s: Session) -> None:
    for m in s.game._next_out:
        item = parse_item(m)
        if isinstance(item, ShuffleItem | ProofItem) and isinstance(m.get("proof"), bytes):
            p = m["proof"]
            m["proof"] = p[:-1] + bytes([p[-1] ^ 1])
            return
    raise AssertionError("no proof queued")


def _queued(kind: type) -> Any:
    return lambda s: any(isinstance(parse_item(m), kind) and "proof" in m
                         for m in s.game._next_out)


CHEATS = {
    # Its key for the next deck, sent again.
    "key_twice": (2, False, False, _key_again,
                  lambda s: _sent_b(s, "deal/key") is not None
                  and not any(isinstance(parse_item(m), KeyItem) for m in s.game._next_out),
                  "unexpected:"),
    # At three players seat 2 shuffles before seat 1 (every key in, seat 0's shuffle
    # in or not): out of the deal's order.
    "shuffle_out_of_order": (3, False, False,
                             lambda s: s.game._next_out.append(
                                 {"t": "deal/shuffle", "deck": bytes(2560)}),
                             lambda s: s.seat == 2 and _keys_in(s) and _shuffles(s) < 2,
                             "unexpected:"),
    # A shuffle before every key of the next deck is in.
    "shuffle_before_the_keys": (3, False, False,
                                lambda s: s.game._next_out.append(
                                    {"t": "deal/shuffle", "deck": bytes(2560)}),
                                lambda s: not _keys_in(s), "unexpected:"),
    # The next hand's cutter cuts before the last shuffle.
    "cut_before_the_last_shuffle": (2, False, False,
                                    lambda s: s.game._next_out.append(
                                        {"t": "deal/cut", "k": 3}),
                                    lambda s: s.game.next_deck.cutter == s.seat
                                    and _shuffles(s) < 2, "unexpected:"),
    # The next hand's cutter cuts again after its cut rode in a b.
    "cut_twice": (2, False, False,
                  lambda s: s.game._next_out.append(dict(_sent_b(s, "deal/cut") or {})),
                  lambda s: s.game.next_deck.cutter == s.seat
                  and s.game.next_deck.deal.phase == "deal"
                  and _sent_b(s, "deal/cut") is not None, "unexpected: a second cut"),
    # A cut from a seat that does not cut the next deck, after the last shuffle.
    "cut_by_another_seat": (3, False, False,
                            lambda s: s.game._next_out.append({"t": "deal/cut", "k": 3}),
                            lambda s: s.game.next_deck.cutter != s.seat
                            and _shuffles(s) == 3, "not_cutter:"),
    # A shuffle whose proof does not verify (in the shuffle; apart, in its deal/proof).
    "bad_proof": (2, True, False, _bad_proof, _queued(ShuffleItem), "bad_shuffle_proof:"),
    "bad_proof_apart": (2, True, True, _bad_proof, _queued(ProofItem), "bad_shuffle_proof:"),
    # proof-apart/v1: a deal/proof before its shuffle.
    "proof_before_its_shuffle": (2, True, True,
                                 lambda s: s.game._next_out.insert(0, {
                                     "t": "deal/proof", "proof": bytes(64)}),
                                 lambda s: _keys_in(s) and _shuffles(s) == 0
                                 and s.seat == 1, "unexpected:"),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cheat_in_b_is_blamed_on_its_sender(cheat):
    """The cheater's session signs it (its own ``b`` is never checked by itself); every
    honest peer blames it with ``deal_failure`` at that entry, nobody else is blamed,
    and the audit of every seat's log agrees."""
    players, proofs, apart, make, when, reason = CHEATS[cheat]
    cheater = players - 1
    played = play(players, proofs=proofs, apart=apart, cheater=cheater,
                  hook=_inject(make, when), seed=5, key=f"hostile-{cheat}".encode(),
                  rules=Ruleset(target=11))
    assert played.cheated_at is not None, "the cheat never happened"
    at = played.cheated_at
    cheat_entry = wire.open_entry(played.sessions[cheater].bodies[at])
    assert cheat_entry.seat == cheater and cheat_entry.fields.get("b")
    for seat, s in enumerate(played.sessions):
        if seat == cheater:
            continue
        assert s.aborted is not None, seat
        assert (s.aborted.blamed_seat, s.aborted.code) == (cheater, ErrorCode.DEAL_FAILURE)
    for seat in range(players):
        report = audit_bodies(list(played.sessions[seat].bodies), workers=0)
        assert (report.verdict, report.blamed, report.code) == (
            INVALID, cheater, "deal_failure"), said(report)
        assert report.entry == at
        assert report.reason.startswith(reason), report.reason


# ------------------------------------------------------------------ the dropped deck


def _lazy_step(t: Table, jobs: dict[int, list[ProofJob]], cheat: Any,
               slow: Any = lambda seat, job: True) -> bool:
    """``support.sessions.speak_lazily`` with a cheat hook before each seat speaks: the
    proof work ``slow(seat, job)`` picks is done by the slowest worker there is (only
    while its seat holds the floor with nothing to send), the rest as soon as it is
    handed out (a fast worker).  Returns False once nobody can speak."""
    for s in t.sessions:
        seat = s.own_seat
        fresh = [] if s.finished else s.jobs()
        while fresh:
            job = fresh.pop(0)
            if slow(seat, job):
                jobs[seat].append(job)
            elif not s.finished:
                _job_done(t, s, job)
                fresh += [] if s.finished else s.jobs()
    for s in t.sessions:
        if s.finished:
            continue
        t.decide(s)
        cheat(s)
        e = s.next_entry()
        while e is None and jobs[s.own_seat] and s.floor == s.own_seat:
            job = jobs[s.own_seat].pop(0)
            if _job_done(t, s, job):
                return True
            t.decide(s)
            e = s.next_entry()
        if e is not None:
            for o in t.sessions:
                if o is not s and not o.finished:
                    try:
                        o.receive(wire.open_entry(e.body))
                    except GameFault as fault:
                        _abort(t, o, fault)
            return True
    return False


def _abort(t: Table, s: Session, fault: GameFault) -> None:
    """``s`` refuses: it signs an abort, which every other seat still playing takes."""
    ab = s.abort(fault.error_code, fault.blamed_seat, fault.detail, fault.evidence)
    for p in t.sessions:
        if p is not s and not p.finished:
            p.receive(wire.open_entry(ab.body))


def _job_done(t: Table, s: Session, job: ProofJob) -> bool:
    """Give ``s`` a job's result; True if it refused a proof (and aborted)."""
    try:
        s.job_done(job, run_job(job))
    except GameFault as fault:
        _abort(t, s, fault)
        return True
    return False


def _lazy_table(key: bytes, target: int = 3) -> tuple[Table, dict[int, list[ProofJob]]]:
    t = Table(2, proofs=True, rules=Ruleset(target=target), key=key)
    assert "proof-apart/v1" in t.sessions[0].caps
    for s in t.sessions:
        s.defer_work = True
    return t, {s.own_seat: [] for s in t.sessions}


def _lazy_run(key: bytes, cheat: Any = lambda s: None,
              slow: Any = lambda seat, job: False, target: int = 3) -> Table:
    t, jobs = _lazy_table(key, target)
    for _ in range(50000):
        if not _lazy_step(t, jobs, cheat, slow):
            return t
    raise AssertionError("the match did not end")


def test_a_bad_proof_for_the_deck_never_dealt_gets_one_verdict():
    """Proof work handed out (proof-apart/v1, as real peers do it in worker threads),
    quick at seat 1 and slow at seat 0: in the hand that ends the match, seat 1's
    shuffle of the next deck (never to be dealt) rides in ``b`` with a proof that does
    not verify, and seat 0's check of it is still in its worker when the last card is
    played.  The live peers and the auditor must reach one verdict: the auditor blames
    seat 1 (it checks a dropped deck's proofs in full, PROTOCOL.md 7.1), so the honest
    seat must too, before it signs its ``done`` (today it drops the job with the deck
    and signs a completed match)."""
    ref = _lazy_run(b"hostile-dropped")
    assert all(s.done is not None for s in ref.sessions)
    last = ref.sessions[0].game.hand_no
    cheated = []

    def cheat(s: Session) -> None:
        g = s.game
        if s.own_seat == 1 and not cheated and g.hand_no == last and g.deck is not None \
                and g.deck.deal.phase == "deal" and _queued(ProofItem)(s):
            _bad_proof(s)
            cheated.append(len(s.bodies))

    # Seat 0's check of seat 1's proof for the deck never dealt is still in its worker
    # when the match ends (all other work is quick).
    t = _lazy_run(b"hostile-dropped", cheat,
                  lambda seat, job: seat == 0 and job.kind == "verify" and job.hand > last)
    assert cheated, "seat 1's proof never rode in a b of the last hand"
    bad = wire.open_entry(t.sessions[1].bodies[cheated[0]])
    assert bad.seat == 1 and "deal/proof" in _types(bad, "b")
    report = audit_bodies(list(t.sessions[1].bodies), workers=0)
    assert (report.verdict, report.blamed) == (INVALID, 1), said(report)
    honest = t.sessions[0]
    assert honest.aborted is not None and honest.aborted.blamed_seat == 1, honest.done


def test_a_bad_proof_in_b_checked_late_is_blamed_at_its_entry():
    """The same cheat in hand 1 of a longer match, seat 0's check of it slow (still in
    its worker for the rest of hand 1): when the deck becomes hand 2's and the check
    comes back, seat 0 blames seat 1 (``deal_failure``, ``bad_shuffle_proof``), its
    evidence the entry whose ``b`` carried the proof; the auditor names the same seat
    and the same entry."""
    cheated = []

    def cheat(s: Session) -> None:
        g = s.game
        if s.own_seat == 1 and not cheated and g.hand_no == 1 and g.deck is not None \
                and g.deck.deal.phase == "deal" and _queued(ProofItem)(s):
            _bad_proof(s)
            cheated.append(len(s.bodies))

    t = _lazy_run(b"hostile-late", cheat,
                  lambda seat, job: seat == 0 and job.kind == "verify" and job.hand == 2,
                  target=11)
    assert cheated, "seat 1's proof never rode in a b of hand 1"
    honest = t.sessions[0]
    assert honest.aborted is not None
    assert (honest.aborted.blamed_seat, honest.aborted.code) == (1, ErrorCode.DEAL_FAILURE)
    abort = wire.open_entry(honest.bodies[-1])
    assert abort.kind == "abort" and abort.seat == 0
    assert abort.fields.get("evidence") == honest.bodies[cheated[0]]
    for seat in (0, 1):
        report = audit_bodies(list(t.sessions[seat].bodies), workers=0)
        assert (report.verdict, report.blamed, report.code, report.entry) == (
            INVALID, 1, "deal_failure", cheated[0]), said(report)
        assert report.reason.startswith("bad_shuffle_proof:"), report.reason


def test_an_honest_lazy_match_audits_valid():
    """The same table without the cheat: the match completes, VALID (the control of the
    test above)."""
    t = _lazy_run(b"hostile-dropped", slow=lambda seat, job: job.kind == "verify")
    assert all(s.done is not None for s in t.sessions)
    assert audit_bodies(list(t.sessions[0].bodies), workers=0).verdict == VALID


# ------------------------------------------------------------------ a redeal


REDEAL = Ruleset(target=3, redeal=RedealRule.ANY_THREE)
REDEAL_KEY = b"hostile-redeal-1"  # hand 1 is redealt


def test_a_redeal_keeps_the_next_deck():
    """Hand 1 is redealt (instance 1, built between hands as without the capability):
    the deck built for hand 2 during hand 1 survives it and is the one hand 2 is dealt
    from; the match completes at both seats, VALID."""
    t = Table(2, rules=REDEAL, key=REDEAL_KEY)
    seen: list[tuple[int, int, int | None]] = []
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        g = t.sessions[0].game
        nd = g.next_deck
        assert t.step() is not None
        seen.append((g.hand_no, g.instance, None if nd is None else id(nd)))
    assert any(inst == 1 and hand == 1 for hand, inst, _ in seen), "no redeal of hand 1"
    # One next deck object all through hand 1, its two instances.
    assert len({d for hand, _, d in seen if hand == 1 and d is not None}) == 1
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    bodies = list(t.sessions[0].bodies)
    assert any(wire.open_entry(b).fields.get("b") for b in bodies)
    assert audit_bodies(bodies, workers=0).verdict == VALID


def _after_redeal(t: Table, e: wire.Entry) -> bool:
    g = t.sessions[0].game
    return g.hand_no == 1 and g.instance == 1


@pytest.mark.parametrize("junk", ["shares", "reveal", "unknown_type"])
def test_junk_in_b_after_a_redeal(junk):
    """Right after the redeal of hand 1: a ``b`` of junk is blamed on its sender, live,
    on a resume and in the audit."""
    b, code, reason = JUNK[junk]
    seat, chain, raised = _forge(2, REDEAL_KEY, None, b, pick=_after_redeal,
                                 rules=REDEAL)
    _blamed_everywhere(seat, chain, raised, code, reason)


# ------------------------------------------------------------------ who sees what, when


OPENING = {"deal/shares", "deal/play", "deal/reveal", "deal/complain"}


@SHARED
@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_card_opens_sooner_than_without_the_capability(players):
    """The same match (same secrets, same bots) with and without next-deck/v1: every
    message that opens a card (each seat's shares, plays, reveals, in order) comes after
    no fewer actions with it than without, so nobody sees a card of the next hand
    earlier than at a table without it; only keys, shuffles, proofs and cuts move."""
    (new, _), (old, _) = honest(players), honest(players, without=True)
    assert new.sessions[0].done == old.sessions[0].done
    assert new.sessions[0].game.hand_no >= 2  # a hand dealt from a deck built before it
    assert CAP_NEXT_DECK in new.sessions[0].caps and CAP_NEXT_DECK not in old.sessions[0].caps

    def opening(t: Table) -> dict[tuple[int, tuple[str, int]], int]:
        return {(seat, what): acts for seat, what, acts in deal_releases(t.sessions[0].bodies)
                if what[0] in OPENING}

    with_it, without = opening(new), opening(old)
    assert with_it.keys() == without.keys()
    sooner = {k: (with_it[k], without[k]) for k in with_it if with_it[k] < without[k]}
    assert not sooner, sooner
    # ...and the building did move: some key or shuffle comes after fewer actions.
    built = {(seat, what): acts for seat, what, acts in deal_releases(new.sessions[0].bodies)
             if what[0] in ("deal/key", "deal/shuffle")}
    built_old = {(seat, what): acts for seat, what, acts
                 in deal_releases(old.sessions[0].bodies)
                 if what[0] in ("deal/key", "deal/shuffle")}
    assert any(built[k] < built_old[k] for k in built if k in built_old)


# ------------------------------------------------------------------ a false accusation


@pytest.mark.parametrize("bad", [False, True], ids=["sound", "bad"])
def test_an_accusation_citing_a_proof_in_b_being_checked(bad):
    """Three players, proof work apart; seat 2 checks seat 0's proof for the next deck
    (ridden in a ``b``) slowly.  While that check is out, seat 1 signs an abort blaming
    seat 0 (``deal_failure``) citing the entry that carried it.  Seat 2 settles the
    check before it words the claim: a sound proof refutes it (and the auditor agrees),
    a bad one does not."""
    from support.audit import make_sessions

    from chkobba_p2p.bots.levels import make_bot
    from chkobba_p2p.game.rules import PRESETS

    ss, _ = make_sessions(3, PRESETS["tunisian"], True, key=b"hostile-accuse", apart=True)
    watcher = ss[2]
    watcher.defer_work = True
    bots = [make_bot("greedy", i) for i in range(3)]
    held = None
    for _ in range(5_000):
        jobs = watcher.jobs()
        held = next((j for j in jobs if j.kind == "verify" and j.seat == 0
                     and j.hand == watcher.game.hand_no + 1), None)
        if held is not None:
            break
        for job in jobs:
            watcher.job_done(job, run_job(job))
        i = ss[0].floor
        s = ss[i]
        d = s.decision
        if d is not None:
            s.decide(bots[i].choose_play(d.hand) if d.kind == "play"
                     else bots[i].choose_cut(d.hand))
        entry = s.next_entry()
        if entry is None:
            continue
        for j, other in enumerate(ss):
            if j != i:
                other.receive(entry)
    assert held is not None and watcher.phase == Phase.PLAYING
    cited = watcher.bodies[-1]
    assert wire.open_entry(cited).seat == 0 and "deal/proof" in _types(
        wire.open_entry(cited), "b")
    if bad:  # the proof seat 2 holds fails its check (as a forged one would)
        object.__setattr__(held, "proof", bytes(len(held.proof or b"")))
    abort = ss[1].abort(ErrorCode.DEAL_FAILURE, 0, "the host's proof is bad", cited)
    watcher.receive(abort)
    a = watcher.aborted
    assert a is not None and a.blamed_seat == 0
    if bad:
        assert a.standing != Standing.REFUTED, a
    else:
        assert a.standing == Standing.REFUTED, a
        r = audit_bodies(watcher.bodies, workers=0)
        assert r.standing == Standing.REFUTED and r.claim_refuted, said(r)


# ------------------------------------------------------------------ time and blame


def test_a_turn_of_b_alone_while_the_game_waits_for_its_play():
    """A seat the game waits for (its play) sends a turn carrying only its ``b``
    (legitimate items for the next deck) and no play: ``b`` is not what the game waits
    for, so it does not excuse the missing action; every honest peer and the auditor
    reach one verdict, blaming that seat alone (``protocol_violation``)."""
    t = Table(2, rules=Ruleset(target=3), key=b"hostile-b-alone")
    for _ in range(20000):
        s, e = t.speak()
        if e.kind == "turn" and e.fields.get("b") and isinstance(e.fields.get("a"), dict) \
                and not e.fields.get("d"):
            break
        t.deliver(e, s.seat)
    else:
        raise AssertionError("no play with a b alone")
    # Without its play, and so without the shares its play caused (``p``).
    fields = {k: v for k, v in e.fields.items() if k not in ("a", "p")}
    payload = wire.encode(fields)
    forged = wire.encode({"t": "sig", "p": payload,
                          "s": t.ids[e.seat].sign(wire.ENTRY_DOMAIN, payload)})
    other = t.sessions[1 - s.seat]
    with pytest.raises(GameFault) as caught:
        other.receive(wire.open_entry(forged))
    assert (caught.value.blamed_seat, caught.value.error_code) == (
        s.seat, ErrorCode.PROTOCOL_VIOLATION)
    report = audit_bodies([*s.bodies[:-1], forged], workers=0)
    assert (report.verdict, report.blamed, report.code) == (
        INVALID, s.seat, "protocol_violation"), said(report)
    assert report.entry == len(s.bodies) - 1


# ------------------------------------------------------------------ real peers in memory


class _CheatB(Session):
    """A joiner's session, honest but for one ``deal/shares`` slipped into its next
    ``b`` once the current hand is dealing (its own session never checks its own
    ``b``: it signs and sends it)."""

    cheated = False

    def next_entry(self):  # type: ignore[no-untyped-def]
        g = self.game
        if not self.cheated and self.phase == Phase.PLAYING and self.floor == self.seat \
                and g.next_deck is not None and g.deck is not None \
                and g.deck.deal.phase == "deal" and g._next_out:
            g._next_out.append({"t": "deal/shares", "step": 0, "pos": [0],
                                "d": [bytes(32)], "proof": bytes(64)})
            self.cheated = True
        return super().next_entry()


class _SwappedLink(SeatLink):
    def entry(self, body, msg, now):  # type: ignore[no-untyped-def]
        super().entry(body, msg, now)
        if self.session is not None and type(self.session) is Session:
            self.session.__class__ = _CheatB


class _Cheater(ClientPeer):
    link_class = _SwappedLink


async def test_real_peers_blame_a_shares_in_b_on_its_sender(tmp_path, autojump_clock):
    """Three real peers in memory (proof work in their worker threads), seat 1 slipping
    a ``deal/shares`` into a ``b``: the host and seat 2 end the match blaming seat 1
    (``deal_failure``, proven by the entry), no traceback, no hang; their logs replay
    to the same verdict."""
    players = 3
    table = InMemoryTable(tmp_path, players=players, rules=Ruleset(target=11))
    out: dict[int, Outcome] = {}
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
                out[0] = await table.host.run(task_status)

            await nursery.start(host)
            attack = trio.CancelScope()

            async def join(seat: int) -> None:
                cls = _Cheater if seat == 1 else ClientPeer
                peer = cls(table.join_config(seat), table.controllers[seat])
                if seat == 1:
                    with attack:
                        await peer.run()
                    return
                out[seat] = await peer.run()

            for seat in range(1, players):
                nursery.start_soon(join, seat)
                host_ctl = table.controllers[0]
                assert isinstance(host_ctl, RecordingController)
                await host_ctl.until(lambda _, s=seat: table.host.lobby.seats[s] is not None)
            while len(out) < players - 1:
                await trio.sleep(0.05)
            attack.cancel()
    for seat in (0, 2):
        o = out[seat]
        assert o.aborted is not None, (seat, o)
        assert (o.aborted.blamed_seat, o.aborted.code) == (1, ErrorCode.DEAL_FAILURE), o
        assert o.aborted.standing == Standing.PROVEN, o.aborted
        report = audit_log(o.log_path, workers=0)
        assert (report.verdict, report.blamed, report.code) == (
            INVALID, 1, "deal_failure"), said(report)
        assert report.reason.startswith("unexpected:"), report.reason


def test_a_bad_proof_in_the_b_of_the_entry_that_ends_the_match_is_blamed_live():
    """A reviewer's case: seat 0 holds back its next-deck shuffle and proof and sends them,
    the proof flipped, in the ``b`` of the entry that ends the match, with the honest
    seat's checks handed out to a worker.  The dropped deck's checks are settled before
    anyone signs the result: the honest seat blames seat 0 at once, as the auditor does
    (it used to sign ``done`` with seat 0 the winner, the auditor finding it INVALID)."""
    key = b"hostile-dropped"
    last = _lazy_run(key).sessions[0].game.hand_no
    stash: list[Any] = []
    state: dict[str, Any] = {"at": None}

    def cheat(s: Session) -> None:
        g = s.game
        if s.own_seat != 0 or state["at"] is not None or g.hand_no != last or g.deck is None:
            return
        out = g._next_out
        first = next((i for i, m in enumerate(out)
                      if isinstance(parse_item(m), ShuffleItem)), None)
        if first is not None and not stash and any(isinstance(parse_item(m), ProofItem)
                                                   for m in out):
            stash.extend(out[first:])
            del out[first:]
        if stash and g._finishing is not None:  # this entry ends the match
            for m in stash:
                if isinstance(parse_item(m), ProofItem):
                    m["proof"] = m["proof"][:-1] + bytes([m["proof"][-1] ^ 1])
            out.extend(stash)
            state["at"] = len(s.bodies)

    t = _lazy_run(key, cheat, lambda seat, job: job.kind == "verify" and job.hand > last)
    assert state["at"] is not None, "the cheat found no entry that ends the match"
    honest = t.sessions[1]
    assert honest.done is None
    assert honest.aborted is not None and honest.aborted.blamed_seat == 0
    assert honest.aborted.code is ErrorCode.DEAL_FAILURE
    for s in t.sessions:
        r = audit_bodies(list(s.bodies), workers=0)
        assert (r.verdict, r.blamed, r.entry) == (INVALID, 0, state["at"]), r.reason


def test_a_cut_before_a_shuffle_the_chain_lacks_is_refused_by_the_seat_that_made_it():
    """A reviewer's case: seat 1's next-deck shuffle is made (its deal has applied it) but
    waits for its proof; the next hand's cutter, seat 0, sends its cut in ``b`` before
    that shuffle is in the chain.  Seat 1's own deal would take the cut; the chain must
    not, so seat 1 refuses it as the auditor does (it used to play on while the auditor
    blamed seat 0)."""
    t, jobs = _lazy_table(b"rev-cut-a", target=11)
    st: dict[str, Any] = {"at": None}

    def cheat(s: Session) -> None:
        g, nd = s.game, s.game.next_deck
        if st["at"] is not None or nd is None or nd.cutter != s.own_seat \
                or nd.deal.phase != "shuffle" or g.deck is None or g.deck.deal.phase != "deal":
            return
        for o in t.sessions:
            n2 = o.game.next_deck
            if o is not s and n2 is not None and n2.deal.phase == "cut" and any(
                    isinstance(parse_item(m), ShuffleItem) for m in o.game._next_out):
                g._next_out.append({"t": "deal/cut", "k": 3})
                st.update(at=len(s.bodies), ahead=o.own_seat, cutter=s.own_seat)
                return

    def slow(seat: int, job: ProofJob) -> bool:  # seat 1's proving is slow
        return seat == 1 and job.kind != "verify"

    for _ in range(50000):
        if not _lazy_step(t, jobs, cheat, slow) or (
                st["at"] is not None and t.sessions[st["ahead"]].finished):
            break
    assert st["at"] is not None, "no moment for the early cut"
    cheater = t.sessions[st["cutter"]]
    carried = next(i for i in range(st["at"], len(cheater.bodies)) if any(
        isinstance(d, dict) and d.get("t") == "deal/cut"
        for d in wire.open_entry(cheater.bodies[i]).fields.get("b") or []))
    ahead = t.sessions[st["ahead"]]
    # Refused at that very entry, for its order (not later, for a second cut).
    assert ahead.aborted is not None and ahead.aborted.blamed_seat == st["cutter"]
    assert "before its turn in the deal's order" in ahead.aborted.detail
    assert len(ahead.bodies) <= carried + 2  # the entry, and the ahead seat's abort
    r = audit_bodies(list(cheater.bodies[:carried + 1]), workers=0)
    assert (r.verdict, r.blamed, r.entry) == (INVALID, st["cutter"], carried), r.reason


# ------------------------------------------------------------------ the game ends mid-check


def _held_bad_proof(key: bytes, players: int = 2, slow: tuple[int, ...] = (0,)
                    ) -> tuple[Table, dict[int, list[ProofJob]], int]:
    """A lazy table (proof work handed out) where seat 1's ``deal/proof`` for the next
    deck rides in a ``b`` of hand 1 with a proof that does not verify, and the check of
    it by the seats ``slow`` (seat 0 among them) is still in their (slow) workers: the
    table, the held jobs and the index of the entry that carried the proof.  A seat
    not in ``slow`` checks it at once, and aborts: the table is returned then."""
    cheated: list[int] = []

    def cheat(s: Session) -> None:
        g = s.game
        if s.own_seat == 1 and not cheated and g.hand_no == 1 and g.deck is not None \
                and g.deck.deal.phase == "deal" and _queued(ProofItem)(s):
            _bad_proof(s)
            cheated.append(len(s.bodies))

    t = Table(players, proofs=True, rules=Ruleset(target=11), key=key)
    for s in t.sessions:
        s.defer_work = True
    jobs: dict[int, list[ProofJob]] = {s.own_seat: [] for s in t.sessions}
    going = True
    for _ in range(5000):
        if cheated and len(t.sessions[0].bodies) > cheated[0] and (
                t.sessions[0].finished or any(j.kind == "verify" and j.seat == 1
                                              and j.hand == 2 for j in jobs[0])):
            return t, jobs, cheated[0]
        assert going, "nobody can speak"
        going = _lazy_step(t, jobs, cheat, lambda seat, job: seat in slow
                           and job.kind == "verify" and job.hand == 2)
    raise AssertionError("seat 1's bad proof never rode in a b of hand 1")


def _spectator(bodies: list[bytes]) -> tuple[str | None, int | None]:
    """A spectator fed ``bodies`` as they came (every check at once, as it watches)."""
    from chkobba_p2p.observe.observer import Observer
    obs = Observer()
    for body in bodies:
        obs.feed(body)
    v = obs.end()
    return v.code, v.blamed


def _end_honest_resigns(t: Table) -> None:
    t.sessions[0].resign()


def _end_honest_flags(t: Table) -> None:
    s0 = t.sessions[0]
    s0.abort(ErrorCode.TIMEOUT, s0.floor, "out of time", flag=s0.floor)


def _end_cheater_resigns(t: Table) -> None:
    t.sessions[0].receive(wire.open_entry(t.sessions[1].resign().body))


def _end_cheater_leaves(t: Table) -> None:
    left = t.sessions[1].leave()
    assert left is not None
    t.sessions[0].receive(wire.open_entry(left.body))


def _end_cheater_flags(t: Table) -> None:
    """The cheater signs that the host went silent (a claim, or a flag when the host
    holds the floor)."""
    s1 = t.sessions[1]
    ab = s1.abort(ErrorCode.TIMEOUT, 0, "the host went silent", flag=0)
    t.sessions[0].receive(wire.open_entry(ab.body))


ENDINGS = {f.__name__[5:]: f for f in (_end_honest_resigns, _end_honest_flags,
                                       _end_cheater_resigns, _end_cheater_leaves,
                                       _end_cheater_flags)}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_a_game_ended_while_a_bad_proof_is_checked_tells_the_audit_story(ending):
    """Issue 44 (settle): seat 0's check of seat 1's bad proof (ridden in a ``b``) is
    still in its worker when the game ends -- a resignation, a leave, a flag, by either
    seat.  The auditor finds the proof bad (``deal_failure`` against seat 1, at the
    entry that carried it); the honest seat must show the same ending live: it finishes
    the checks its chain owed before it takes the ending, and a refused proof decides.
    So does a spectator watching the same chain."""
    t, _, at = _held_bad_proof(b"settle-ending")
    ENDINGS[ending](t)
    honest = t.sessions[0]
    assert honest.aborted is not None
    report = audit_bodies(list(honest.bodies), workers=0)
    assert (report.verdict, report.code, report.blamed, report.entry) == (
        INVALID, "deal_failure", 1, at), said(report)
    assert report.reason.startswith("bad_shuffle_proof:"), report.reason
    a = honest.aborted
    assert (a.code.name.lower(), a.blamed_seat, a.standing) == (
        report.code, report.blamed, Standing.PROVEN), a
    # A proven cheat loses the match for the cheater (seat 1), live and in the audit,
    # whoever else tried to end the game (it does not void the match).
    assert (a.loser, a.winner_side(2)) == (1, 0), a
    assert (report.loser, report.winner) == (1, 0), said(report)
    # Its signed record cites the entry that carried the proof, and goes out.
    mine = [wire.open_entry(b) for b in honest.bodies
            if wire.open_entry(b).kind == "abort" and wire.open_entry(b).seat == 0]
    assert mine and mine[-1].fields.get("evidence") == honest.bodies[at]
    assert _spectator(list(honest.bodies)) == (report.code, report.blamed)
    # A crash resume replays the log doing every check in line: the same verdict, the
    # abort of ours in the log (nothing more to sign).
    again = Session.resume(t.ids[0], list(honest.bodies), t.ids[0].public, honest.master)
    b = again.aborted
    assert b is not None and not again.owes_abort and again.bodies == honest.bodies
    assert (b.code, b.blamed_seat, b.standing) == (ErrorCode.DEAL_FAILURE, 1, Standing.PROVEN)


@pytest.mark.parametrize("third", ["checks_at_once", "resigns"])
def test_at_three_players_the_slow_checker_tells_the_audit_story(third):
    """Three players, seat 1's bad proof in a ``b``, seat 0's check of it slow.  Seat 2
    either checks it at once and its proven abort (``deal_failure`` against seat 1)
    reaches seat 0 first -- seat 0 finishes its own check and shows the proof refused,
    proven, not seat 2's word -- or seat 2 is slow too and resigns: the resignation
    ends nothing before the refused proof.  Live = audit = spectator."""
    slow = (0,) if third == "checks_at_once" else (0, 2)
    t, _, at = _held_bad_proof(b"settle-three", players=3, slow=slow)
    if third == "resigns":
        s2 = t.sessions[2]
        assert not s2.finished
        resigned = s2.resign()
        for o in t.sessions[:2]:
            o.receive(wire.open_entry(resigned.body))
    honest = t.sessions[0]
    a = honest.aborted
    assert a is not None
    report = audit_bodies(list(honest.bodies), workers=0)
    assert (report.verdict, report.code, report.blamed, report.entry) == (
        INVALID, "deal_failure", 1, at), said(report)
    assert (a.code.name.lower(), a.blamed_seat, a.standing) == (
        report.code, report.blamed, Standing.PROVEN), a
    assert _spectator(list(honest.bodies)) == (report.code, report.blamed)


class _ProofOnly(Session):
    """A joiner's session, honest but for its ``deal/proof`` for the next deck flipped
    in the ``b`` of hand 1."""

    sent_at: int | None = None

    def next_entry(self):  # type: ignore[no-untyped-def]
        g = self.game
        if self.sent_at is None and self.phase == Phase.PLAYING and self.floor == self.seat \
                and g.hand_no == 1 and g.deck is not None and g.deck.deal.phase == "deal" \
                and _queued(ProofItem)(self):
            _bad_proof(self)
            self.sent_at = len(self.bodies)
        return super().next_entry()


class _ProofThenResign(_ProofOnly):
    """:class:`_ProofOnly`, and its resignation at its next turn after that."""

    def next_entry(self):  # type: ignore[no-untyped-def]
        if self.sent_at is not None and not self.finished and self.floor == self.seat \
                and len(self.bodies) > self.sent_at + 1:
            return self.resign()
        return super().next_entry()


def _peer_playing(session_class: type[Session]) -> type[ClientPeer]:
    """A joining peer whose session, once the genesis made it, is a ``session_class``."""
    class Link(SeatLink):
        def entry(self, body, msg, now):  # type: ignore[no-untyped-def]
            super().entry(body, msg, now)
            if self.session is not None and type(self.session) is Session:
                self.session.__class__ = session_class

    class Peer(ClientPeer):
        link_class = Link

    return Peer


_ProofThenResignPeer = _peer_playing(_ProofThenResign)
_ProofOnlyPeer = _peer_playing(_ProofOnly)


async def test_real_peers_a_host_whose_check_is_out_when_the_cheater_resigns(
        tmp_path, autojump_clock):
    """Two real peers in memory, the host's check of the joiner's proof for the next
    deck kept out (its result never comes back: a slow worker), the joiner's proof bad,
    and the joiner resigns.  The host's shell sends the ``deal_failure`` abort its
    session signs as it takes the resignation (the checks it owed, finished first): its
    outcome and its log's audit tell one story, the joiner proven at fault."""
    from chkobba_p2p._shell.hostpeer import HostPeer
    from chkobba_p2p.link.host import HostTable

    kept: list[ProofJob] = []

    class SlowHostTable(HostTable):  # type: ignore[type-arg]
        def job_done(self, job, result, now):  # type: ignore[no-untyped-def]
            if job.kind == "verify" and job.seat == 1 and job.hand >= 2:
                kept.append(job)  # still in the worker when the game ends
                return
            super().job_done(job, result, now)

    class SlowHost(HostPeer):
        table_class = SlowHostTable

    table = InMemoryTable(tmp_path, players=2, rules=Ruleset(target=11),
                          host_class=SlowHost, shuffle_proofs=True)
    out: dict[int, Outcome] = {}
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
                out[0] = await table.host.run(task_status)

            await nursery.start(host)
            peer = _ProofThenResignPeer(table.join_config(1), table.controllers[1])

            async def join() -> None:
                out[1] = await peer.run()

            nursery.start_soon(join)
    assert kept, "the host's check of the bad proof was never handed out"
    o = out[0]
    assert o.aborted is not None, o
    assert (o.aborted.code, o.aborted.blamed_seat, o.aborted.standing) == (
        ErrorCode.DEAL_FAILURE, 1, Standing.PROVEN), o.aborted
    report = audit_log(o.log_path, workers=0)
    assert (report.verdict, report.code, report.blamed) == (
        INVALID, "deal_failure", 1), said(report)
    kinds = [(e.kind, e.seat) for e in map(wire.open_entry, read_log(o.log_path).bodies)
             if e.kind == "abort"]
    assert kinds == [("abort", 1), ("abort", 0)], kinds  # its resignation, then ours


# ------------------------------------------------- a crash while the check is out (resume44)


def _held_and_crashed(key: bytes, later: int) -> tuple[Table, int, list[bytes]]:
    """:func:`_held_bad_proof`, then up to ``later`` more entries accepted live with seat
    0's check of the bad proof still out (its worker never answers): the table, the
    proof's entry and seat 0's log as the crash leaves it."""
    t, jobs, at = _held_bad_proof(key)
    for _ in range(later):
        jobs[0].clear()  # the check is lost with the crash to come: never done here
        if not _lazy_step(t, jobs, lambda s: None,
                          lambda seat, job: seat == 0 and job.kind == "verify"):
            break
    assert not t.sessions[0].finished
    return t, at, list(t.sessions[0].bodies)


@pytest.mark.parametrize("later", [0, 4])
def test_a_host_that_crashes_while_a_bad_proof_is_checked_signs_the_verdict_on_resume(later):
    """Issue 44 (resume44): the host crashes while its check of the joiner's bad proof
    is out.  Its resume replays the log with the checks in line and finds the proof bad
    at its entry: the session is what the live host would have made of it -- every
    logged entry in its transcript (those after the proof linked as the chain says), its
    abort (``deal_failure`` against the prover, proven, the proof's entry as evidence)
    waiting to be sent, the audit's verdict.  (On main the resume raised: a new table.)"""
    t, at, logged = _held_and_crashed(b"resume44-%d" % later, later)
    assert later == 0 or len(logged) > at + 2, (len(logged), at)  # entries past the proof
    host = Session.resume(t.ids[0], logged, t.ids[0].public, t.sessions[0].master)
    assert host.owes_abort and host.length == t.sessions[0].length
    assert host.bodies[:len(logged)] == logged
    abort = host.next_entry()
    assert abort is not None and (abort.kind, abort.seat) == ("abort", 0)
    assert host.next_entry() is None  # sent once
    assert abort.prev == t.sessions[0].head
    assert abort.fields.get("evidence") == logged[at]
    assert host.bodies == [*logged, abort.body]
    report = audit_bodies(list(host.bodies), workers=0)
    assert (report.verdict, report.code, report.blamed, report.entry) == (
        INVALID, "deal_failure", 1, at), said(report)
    a = host.aborted
    assert a is not None and (a.code.name.lower(), a.blamed_seat, a.standing) == (
        report.code, report.blamed, Standing.PROVEN), a
    assert a in host.take_events()  # news of this run, not of the replay
    # The cheater takes it: the same verdict at its seat.
    cheater = t.sessions[1]
    cheater.receive(wire.open_entry(abort.body))
    c = cheater.aborted
    assert c is not None and (c.by_seat, c.code, c.blamed_seat) == (
        0, ErrorCode.DEAL_FAILURE, 1), c
    # A second crash, after the abort was logged: that abort is the ending, no other.
    again = Session.resume(t.ids[0], list(host.bodies), t.ids[0].public,
                           t.sessions[0].master)
    b = again.aborted
    assert not again.owes_abort and again.bodies == host.bodies and b is not None
    assert (b.code, b.blamed_seat, b.standing) == (ErrorCode.DEAL_FAILURE, 1,
                                                   Standing.PROVEN)


def test_a_log_whose_chain_breaks_after_the_refused_proof_is_still_unusable():
    """The entries after the refused one are linked only as the chain says: one altered
    (its signature fails), or one missing (the next names another ``prev``), and the
    resume fails as before (the shell says RESUME_FAILED), never a session that trusts
    them."""
    t, at, logged = _held_and_crashed(b"resume44-broken", 4)
    assert len(logged) > at + 2
    key, master = t.ids[0].public, t.sessions[0].master
    last = logged[-1]
    altered = [*logged[:-1], last[:-1] + bytes([last[-1] ^ 1])]
    with pytest.raises(wire.ProtocolError):
        Session.resume(t.ids[0], altered, key, master)
    with pytest.raises(wire.ProtocolError):
        Session.resume(t.ids[0], [*logged[:at + 1], *logged[at + 2:]], key, master)


async def test_real_peers_a_host_that_restarts_mid_check_signs_the_verdict(
        tmp_path, autojump_clock):
    """Two real peers in memory.  The joiner's proof for the next deck is bad; the
    host's check of it is still in its worker when the host crashes (its task
    cancelled: nothing signed on the way out) a few entries later.  The host restarts
    with the same identity, port and saved game: its resume finds the proof bad at its
    entry and, instead of a new table (RESUME_FAILED on main), sends its signed verdict
    when the joiner comes back.  Both outcomes, the host's log and its audit tell one
    story: the joiner proven at fault."""
    from chkobba_p2p._shell.hostpeer import HostPeer
    from chkobba_p2p.link.events import Notice, NoticeKind
    from chkobba_p2p.link.host import HostTable
    from chkobba_p2p.wire.codec import Identity

    kept: list[ProofJob] = []
    held = trio.Event()

    class SlowHostTable(HostTable):  # type: ignore[type-arg]
        def job_done(self, job, result, now):  # type: ignore[no-untyped-def]
            if job.kind == "verify" and job.seat == 1 and job.hand >= 2:
                kept.append(job)  # still in the worker when the host crashes
                held.set()
                return
            super().job_done(job, result, now)

    class SlowHost(HostPeer):
        table_class = SlowHostTable

    joined = trio.Event()

    class Waiting(RecordingController):
        """The restarted host's person reads the end while the joiner comes back."""

        async def after_match(self, outcome):  # type: ignore[no-untyped-def]
            with trio.move_on_after(120):
                await joined.wait()
            return None

    table = InMemoryTable(tmp_path, players=2, rules=Ruleset(target=11),
                          host_class=SlowHost, shuffle_proofs=True)
    config = dataclasses.replace(table.host.config, port=40999, identity=Identity.generate(),
                                 state_path=tmp_path / "host.state")
    first = table.host = SlowHost(config, table.controllers[0])
    out: dict[int, Outcome] = {}
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            async with trio.open_nursery() as crash:
                await crash.start(first.run)
                peer = _ProofOnlyPeer(table.join_config(1), table.controllers[1])

                async def join() -> None:
                    out[1] = await peer.run()
                    joined.set()

                nursery.start_soon(join)
                await held.wait()
                s = first.session
                assert s is not None
                at = len(s.bodies)
                while len(s.bodies) < at + 3 and not s.finished:  # a few entries more
                    await first.changed.wait()
                assert not s.finished
                crash.cancel_scope.cancel()  # the crash: the check's result never comes
            assert config.state_path.exists()
            host_ctl = Waiting(0)
            again = HostPeer(config, host_ctl)  # restarted: its worker is an honest one
            assert again.session is not None and again.session.owes_abort
            out[0] = await again.run()
    assert kept, "the host's check of the bad proof was never handed out"
    assert not [e for e in host_ctl.events if isinstance(e, Notice)
                and e.kind is NoticeKind.RESUME_FAILED]
    from chkobba_p2p.transcript.events import Aborted
    shown = [e for e in host_ctl.events if isinstance(e, Aborted)]  # the screen's news
    assert [(e.by_seat, e.code, e.blamed_seat) for e in shown] == [
        (0, ErrorCode.DEAL_FAILURE, 1)], shown
    o = out[0]
    assert o.aborted is not None, o
    assert (o.aborted.code, o.aborted.blamed_seat, o.aborted.standing) == (
        ErrorCode.DEAL_FAILURE, 1, Standing.PROVEN), o.aborted
    report = audit_log(o.log_path, workers=0)
    assert (report.verdict, report.code, report.blamed) == (
        INVALID, "deal_failure", 1), said(report)
    aborts = [(e.seat, e.fields.get("code")) for e in map(wire.open_entry,
                                                           read_log(o.log_path).bodies)
              if e.kind == "abort"]
    assert aborts == [(0, int(ErrorCode.DEAL_FAILURE))], aborts  # signed once, logged
    j = out[1].aborted  # the joiner came back and was told the host's verdict
    assert j is not None and (j.by_seat, j.code, j.blamed_seat) == (
        0, ErrorCode.DEAL_FAILURE, 1), out[1]
    assert not config.state_path.exists()  # the match is over: the save is done with


async def test_real_peers_a_joiner_that_restarts_mid_check_signs_the_verdict(
        tmp_path, autojump_clock):
    """The same at a joiner: the host's proof for the next deck is bad, the joiner's
    check of it is out when the joiner crashes a few entries later.  Restarted from its
    log and saved game, it reconnects with a resume and sends its signed verdict (on
    main: RESUME_FAILED, and a join afresh).  Both outcomes and the joiner's audit: the
    host proven at fault."""
    from chkobba_p2p._shell.hostpeer import HostPeer
    from chkobba_p2p.link.events import Notice, NoticeKind
    from chkobba_p2p.link.host import HostTable
    from chkobba_p2p.wire.codec import Identity

    class CheatingHostTable(HostTable):  # type: ignore[type-arg]
        def pump(self, now):  # type: ignore[no-untyped-def]
            if self.session is not None and type(self.session) is Session:
                self.session.__class__ = _ProofOnly
            super().pump(now)

    class CheatingHost(HostPeer):
        table_class = CheatingHostTable

    kept: list[ProofJob] = []
    held = trio.Event()

    class SlowLink(SeatLink):
        def job_done(self, job, result, now):  # type: ignore[no-untyped-def]
            if job.kind == "verify" and job.seat == 0 and job.hand >= 2:
                kept.append(job)  # still in the worker when the joiner crashes
                held.set()
                return
            super().job_done(job, result, now)

    class SlowPeer(ClientPeer):
        link_class = SlowLink

    table = InMemoryTable(tmp_path, players=2, rules=Ruleset(target=11),
                          host_class=CheatingHost, shuffle_proofs=True)
    options = {"identity": Identity.generate(), "state_path": tmp_path / "seat1.state"}
    out: dict[int, Outcome] = {}
    seat_ctl = RecordingController(1)
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
                out[0] = await table.host.run(task_status)

            await nursery.start(host)
            first = SlowPeer(table.join_config(1, **options), table.controllers[1])
            async with trio.open_nursery() as crash:
                crash.start_soon(first.run)
                await held.wait()
                s = first.session
                assert s is not None
                at = len(s.bodies)
                while len(s.bodies) < at + 3 and not s.finished:  # a few entries more
                    await first.changed.wait()
                assert not s.finished
                crash.cancel_scope.cancel()  # the crash: the check's result never comes
            assert options["state_path"].exists()
            again = ClientPeer(table.join_config(1, **options), seat_ctl)
            assert again.session is not None and again.session.owes_abort
            out[1] = await again.run()
    assert kept, "the joiner's check of the bad proof was never handed out"
    assert not [e for e in seat_ctl.events if isinstance(e, Notice)
                and e.kind is NoticeKind.RESUME_FAILED]
    from chkobba_p2p.transcript.events import Aborted
    shown = [e for e in seat_ctl.events if isinstance(e, Aborted)]  # the screen's news
    assert [(e.by_seat, e.code, e.blamed_seat) for e in shown] == [
        (1, ErrorCode.DEAL_FAILURE, 0)], shown
    j = out[1]
    assert j.aborted is not None, j
    assert (j.aborted.by_seat, j.aborted.code, j.aborted.blamed_seat, j.aborted.standing) == (
        1, ErrorCode.DEAL_FAILURE, 0, Standing.PROVEN), j.aborted
    report = audit_log(j.log_path, workers=0)
    assert (report.verdict, report.code, report.blamed) == (
        INVALID, "deal_failure", 0), said(report)
    aborts = [(e.seat, e.fields.get("code")) for e in map(wire.open_entry,
                                                           read_log(j.log_path).bodies)
              if e.kind == "abort"]
    assert aborts == [(1, int(ErrorCode.DEAL_FAILURE))], aborts  # logged before it left
    h = out[0].aborted  # the host got the joiner's verdict
    assert h is not None and (h.by_seat, h.code, h.blamed_seat) == (
        1, ErrorCode.DEAL_FAILURE, 0), out[0]
    assert not options["state_path"].exists()
