"""A hostile review of proof-apart/v1 (docs/deal.md 4.1): a shuffler's deck goes in
``deal/shuffle`` at once, its proof later in ``deal/proof``, and no seat releases a
decryption share (``deal/shares``, ``deal/play``, ``deal/complain``) of an instance before
every seat's shuffle proof of it verified there.  Each test is an attack; those that
worked before their fix say so.  Sans-IO: the :class:`Deal` core and test_session's
in-memory :class:`Table` of sessions."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.sessions import Table

from chkobba_p2p.deal import MSG_PROOF, Deal, DealUsageError, PeerMisbehaved
from chkobba_p2p.deal.core import JobResult, Output, ProofJob, StepOpened, run_job
from chkobba_p2p.deal.messages import MSG_SHUFFLE
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import CAP_PROOF_APART
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire

SHARES = ("deal/shares", "deal/play", "deal/complain")
SID = b"hostile-apart-29"


def deal(n: int, seat: int, *, apart: bool = True, defer: bool = True, instance: int = 0,
         cutter: int | None = None) -> Deal:
    return Deal(session_id=SID, hand=1, instance=instance, n=n, seat=seat, cutter=cutter,
                proof_apart=apart, defer_work=defer)


class Net:
    """``n`` deals wired by hand.  Every message a deal returns is queued; :meth:`flush`
    delivers the queue (``drop(sender, receiver, msg)`` True: not to that receiver).
    Every share message of an ``honest`` seat is checked as it leaves: every shuffle
    proof of the instance must have verified at that seat by then."""

    def __init__(self, deals: list[Deal], honest: set[int] | None = None) -> None:
        self.deals = deals
        self.honest = set(range(len(deals))) if honest is None else honest
        self.queue: list[tuple[int, dict[str, Any]]] = []
        self.sent: list[tuple[int, dict[str, Any]]] = []
        self.events: dict[int, list[object]] = {d.seat: [] for d in deals}
        self.jobs: dict[int, list[ProofJob]] = {d.seat: [] for d in deals}

    def take(self, seat: int, out: Output) -> Output:
        d = self.deals[seat]
        for m in out.messages:
            if seat in self.honest and m["t"] in SHARES:
                assert d.proofs_verified, (seat, m["t"], "a share before every proof")
            self.sent.append((seat, m))
            self.queue.append((seat, m))
        self.events[seat] += out.events
        return out

    def flush(self, drop: Any = None) -> None:
        while self.queue:
            sender, m = self.queue.pop(0)
            for d in self.deals:
                if d.seat != sender and not (drop and drop(sender, d.seat, m)):
                    self.take(d.seat, d.receive(sender, m))

    def start(self) -> None:
        for d in self.deals:
            self.take(d.seat, d.start())

    def collect_jobs(self, seat: int) -> list[ProofJob]:
        d = self.deals[seat]
        while (job := d.take_job()) is not None:
            self.jobs[seat].append(job)
        return self.jobs[seat]

    def run_jobs(self, seat: int, kinds: tuple[str, ...] = ("prove", "verify")) -> None:
        self.collect_jobs(seat)
        keep = []
        for job in self.jobs[seat]:
            if job.kind in kinds:
                self.take(seat, self.deals[seat].job_done(job, run_job(job)))
            else:
                keep.append(job)
        self.jobs[seat] = keep

    def opened(self, seat: int) -> list[StepOpened]:
        return [e for e in self.events[seat] if isinstance(e, StepOpened)]


def _shuffled_pair(drop_proof_of_1: bool) -> Net:
    """n=2: seat 0 honest (jobs deferred), seat 1 does its own work in each call; both
    decks in, seat 0's proof sent and verified at seat 1; seat 1's proof dropped on its
    way to seat 0 (or delivered, its check not run yet)."""
    net = Net([deal(2, 0), deal(2, 1, defer=False)], honest={0})
    drop = (lambda s, r, m: s == 1 and m["t"] == MSG_PROOF) if drop_proof_of_1 else None
    net.start()
    net.flush(drop)
    net.run_jobs(0, kinds=("prove",))  # seat 0's own proof; seat 1's check waits
    net.flush(drop)
    d0, d1 = net.deals
    assert d0.phase == "deal" and d1.phase == "deal" and d1.proofs_verified
    assert not d0.proofs_verified
    return net


@pytest.mark.parametrize("withheld", [True, False], ids=["proof-withheld", "check-pending"])
def test_a_step_dealt_to_us_alone_opens_only_after_every_proof(withheld):
    """ATTACK (worked before the fix): a step that deals only to this seat (the cutter's
    drawn card at the default cut-and-draw opening) needs no share of ours, so the other
    seats' shares completed it here while a proof was still unchecked (withheld by a
    cheating seat, or merely not checked yet by our worker): we saw the card, and the
    game let us show it (``deal/play``, our share) or complain about it
    (``deal/complain``, our shares) before every proof verified.  Now the step opens
    only once every proof verified here (and our own has gone)."""
    net = _shuffled_pair(drop_proof_of_1=withheld)
    d0, d1 = net.deals
    for d in (d0, d1):
        net.take(d.seat, d.open({0: [0]}))
    net.flush()
    assert d0.held == 0
    assert not net.opened(0) and d0.card_at(0) is None  # no card from an unchecked deck
    with pytest.raises(DealUsageError):
        d0.play(0)
    if withheld:
        assert (1, MSG_PROOF) in d0.expecting()
        net.queue.append((1, {"t": MSG_PROOF, "proof": d1._proofs[1]}))
        net.flush()
    net.run_jobs(0)
    assert d0.proofs_verified and [e.step for e in net.opened(0)] == [0]
    assert d0.card_at(0) is not None
    net.take(0, d0.play(0))
    assert net.sent[-1][1]["t"] == "deal/play"


def test_a_restore_while_a_complete_step_waits_for_a_proof_opens_it_later():
    """Saved and restored while a step complete here waits for the last proof: the
    restored deal opens it once the proof verified, once."""
    net = _shuffled_pair(drop_proof_of_1=True)
    d0, d1 = net.deals
    for d in (d0, d1):
        net.take(d.seat, d.open({0: [0]}))
    net.flush()
    d0 = net.deals[0] = Deal.from_state(d0.to_state())
    net.jobs[0] = []
    net.queue.append((1, {"t": MSG_PROOF, "proof": d1._proofs[1]}))
    net.flush()
    net.run_jobs(0)
    assert [e.step for e in net.opened(0)] == [0] and d0.card_at(0) is not None


# ---------------------------------------------------------------- sessions (sans-IO)

RULES = Ruleset(target=3)


def _decide(t: Table, s: Session) -> None:
    d = s.decision
    if d is not None:
        bot = t.bots[s.seat]
        s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))


def _apart_table(key: bytes, n: int = 4) -> Table:
    t = Table(n, proofs=True, rules=RULES, key=key)
    assert CAP_PROOF_APART in t.table.caps
    for s in t.sessions:
        s.defer_work = True
    return t


def _drive(t: Table, cheat: Any = None, limit: int = 20000) -> dict[int, GameFault]:
    """Play ``t`` (every seat's jobs run when it holds the floor with nothing else to
    send) until it ends or a seat's session raises a fault; ``cheat(session)`` runs on
    every session before it speaks.  The faults raised, by the seat that raised them."""
    jobs: dict[int, list[ProofJob]] = {s.seat: [] for s in t.sessions}
    faults: dict[int, GameFault] = {}
    for _ in range(limit):
        if faults or all(s.finished for s in t.sessions):
            return faults
        for s in t.sessions:
            jobs[s.seat] += s.jobs()
        for s in t.sessions:
            _decide(t, s)
            if cheat:
                cheat(s)
            e = s.next_entry()
            while e is None and jobs[s.seat] and s.floor == s.seat:
                job = jobs[s.seat].pop(0)
                s.job_done(job, run_job(job))
                _decide(t, s)
                if cheat:
                    cheat(s)
                e = s.next_entry()
            if e is not None:
                deck = s.game.deck
                if deck is not None and deck.deal.proof_apart and not cheat:
                    items = [d for d in e.fields.get("d") or [] if isinstance(d, dict)]
                    if any(d.get("t") in SHARES for d in items):
                        assert deck.deal.proofs_verified, (s.seat, "a share before a proof")
                for o in t.sessions:
                    if o.seat != s.seat:
                        try:
                            o.receive(wire.open_entry(e.body))
                        except GameFault as fault:
                            faults[o.seat] = fault
                break
        else:
            raise AssertionError("nobody can speak")
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("cheat_seat", [1, 3])
def test_a_proof_that_never_comes_blames_its_prover(cheat_seat):
    """ATTACK (worked before the fix for seat 3): seat ``cheat_seat`` sends its deck, its
    shares, empty turns, everything but its deal/proof.  The honest seats hold their
    shares, the turns go round empty, and the stall rule (2n empty turns) blames the
    first seat that owes a deal message: the honest seats that held their shares for
    the missing proof counted as owing them, and the lowest of them was blamed instead
    of the prover.  Now a share is not owed while a proof is missing."""
    t = _apart_table(b"stall")

    def withhold(s: Session) -> None:
        if s.seat == cheat_seat:
            s.game._out[:] = [m for m in s.game._out if m.get("t") != MSG_PROOF]

    faults = _drive(t, withhold)
    honest = [s for s in range(4) if s != cheat_seat]
    faults.pop(cheat_seat, None)  # its own view: it believes it sent its proof
    assert faults and set(faults) <= set(honest)  # (not the stall entry's own sender)
    for seat, fault in faults.items():
        assert fault.blamed_seat == cheat_seat, (seat, fault.blamed_seat, fault.detail)
        assert "stalls" in fault.detail
    # Nobody honest released a share of the hand whose proof never came.
    deck = t.sessions[honest[0]].game.deck
    assert deck is not None and deck.deal.proof_apart and not deck.deal.proofs_verified
    for s in honest:
        entries = [wire.open_entry(b) for b in t.sessions[honest[0]].bodies[1:]]
        start = max(i for i, e in enumerate(entries) if e.kind == "turn" and any(
            isinstance(d, dict) and d.get("t") == MSG_SHUFFLE for d in e.fields.get("d") or []))
        assert not [d for e in entries[start:] if e.seat == s
                    for d in e.fields.get("d") or [] if d.get("t") in SHARES]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_whole_match_releases_no_share_before_every_proof(n):
    """Sessions whose jobs run only when they hold the floor with nothing else to send
    (the laziest worker): no turn of theirs carries a share of a deck whose proofs have
    not all verified at that seat (before the fix the cutter at 2 players showed its
    drawn card first), and the match completes the same everywhere."""
    t = _apart_table(b"whole%d" % n, n)
    assert not _drive(t)
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)


# ---------------------------------------------------------------- deal/proof misuse


def _three(instance: int = 0, drop: Any = None) -> Net:
    """n=3, seat 0 honest with its jobs deferred, seats 1 and 2 doing their work in each
    call; every message delivered but what ``drop`` drops; seat 0's own proof made."""
    net = Net([deal(3, 0, instance=instance)] + [deal(3, s, defer=False, instance=instance)
                                                  for s in (1, 2)], honest={0, 1, 2})
    net.start()
    net.flush(drop)
    net.run_jobs(0, kinds=("prove",))
    net.flush(drop)
    return net


def _to_0(seat: int) -> Any:
    return lambda s, r, m: s == seat and r == 0 and m["t"] == MSG_PROOF


def _proof_of(net: Net, seat: int) -> bytes:
    p = net.deals[seat]._proofs[seat]
    assert isinstance(p, bytes)
    return p


def _blamed_on_check(net: Net, sender: int, proof: bytes) -> PeerMisbehaved:
    d0 = net.deals[0]
    net.take(0, d0.open({0: [0], 1: [1], 2: [2]}))
    net.take(0, d0.receive(sender, {"t": MSG_PROOF, "proof": proof}))
    with pytest.raises(PeerMisbehaved) as exc:
        net.run_jobs(0)
    assert not [m for s, m in net.sent if s == 0 and m["t"] in SHARES]
    assert d0.phase == "failed"
    return exc.value


def test_a_second_proof_is_unexpected():
    net = _three()
    d0 = net.deals[0]
    with pytest.raises(PeerMisbehaved) as exc:
        d0.receive(1, {"t": MSG_PROOF, "proof": _proof_of(net, 1)})
    assert exc.value.blamed_seat == 1 and exc.value.code == "unexpected"


def test_another_seats_proof_blames_its_sender():
    """Seat 2 sends seat 1's (valid) proof as its own: checked against seat 2's decks, it
    fails, and seat 2 is blamed; seat 0 released nothing."""
    net = _three(drop=_to_0(2))
    exc = _blamed_on_check(net, 2, _proof_of(net, 1))
    assert exc.blamed_seat == 2 and exc.code == "bad_shuffle_proof"


def test_a_proof_from_another_instance_blames_its_sender():
    """Seat 1's valid proof of instance 0 replayed in instance 1 (same decks would not
    even be needed: the context binds the instance): refused, seat 1 blamed."""
    old = _three(instance=0)
    net = _three(instance=1, drop=_to_0(1))
    exc = _blamed_on_check(net, 1, _proof_of(old, 1))
    assert exc.blamed_seat == 1 and exc.code == "bad_shuffle_proof"


@pytest.mark.parametrize("size", [0, 5280, 5282, 1 << 20])
def test_a_proof_of_the_wrong_size_blames_its_sender(size):
    net = _three(drop=_to_0(2))
    exc = _blamed_on_check(net, 2, bytes(size))
    assert exc.blamed_seat == 2 and exc.code == "malformed_shuffle_proof"


def test_a_proof_before_its_deck_is_held_then_checked():
    """Seat 2's proof reaches seat 0 before seat 2's deck (before the keys, even): held,
    not used; once the deck came it is checked and the match goes on.  A flood of early
    proofs is refused (``flood``); a second early proof is a second proof."""
    ref = _three()
    d0 = deal(3, 0)
    early = {"t": MSG_PROOF, "proof": _proof_of(ref, 2)}
    d0.receive(2, early)
    assert d0.held == 1
    with pytest.raises(PeerMisbehaved) as exc:
        for _ in range(20):
            d0.receive(2, early)
    assert exc.value.blamed_seat == 2 and exc.value.code == "flood"
    net = Net([deal(3, 0)] + [deal(3, s, defer=False) for s in (1, 2)])
    d0 = net.deals[0]
    net.take(0, d0.receive(2, {"t": MSG_PROOF, "proof": bytes(5281)}))
    assert d0.held == 1 and (2, MSG_PROOF) not in d0.expecting()
    net.start()
    net.flush(_to_0(2))
    net.run_jobs(0, kinds=("prove",))
    net.flush(_to_0(2))
    assert d0.held == 0 and d0._proofs[2] == bytes(5281)  # the early one, now in use
    with pytest.raises(PeerMisbehaved) as exc:
        net.run_jobs(0)
    assert exc.value.blamed_seat == 2


def test_a_deal_proof_at_a_table_without_the_capability_is_unexpected():
    d0 = deal(2, 0, apart=False)
    d0.start()
    with pytest.raises(PeerMisbehaved) as exc:
        d0.receive(1, {"t": MSG_PROOF, "proof": bytes(5281)})
    assert exc.value.blamed_seat == 1 and exc.value.code == "unexpected"


def test_a_deal_shuffle_with_a_proof_at_a_proof_apart_table_is_malformed():
    """Seat 1's deck arrives with its (valid) proof inside, the old way."""
    net = Net([deal(2, 0), deal(2, 1, defer=False)])
    net.start()
    net.flush(lambda s, r, m: s == 1 and m["t"] in (MSG_SHUFFLE, MSG_PROOF))
    shuffle = next(m for s, m in net.sent if s == 1 and m["t"] == MSG_SHUFFLE)
    with pytest.raises(PeerMisbehaved) as exc:
        net.deals[0].receive(1, {**shuffle, "proof": _proof_of(net, 1)})
    assert exc.value.blamed_seat == 1 and exc.value.code == "malformed"


# ---------------------------------------------------------------- jobs


def test_a_job_result_twice_or_from_elsewhere_is_refused():
    net = _three(drop=_to_0(2))
    d0 = net.deals[0]
    net.take(0, d0.receive(2, {"t": MSG_PROOF, "proof": _proof_of(net, 2)}))
    jobs = net.collect_jobs(0)
    assert [(j.kind, j.seat) for j in jobs] == [("verify", 1), ("verify", 2)]
    assert d0.take_job() is None  # handed out once
    # Out of order: seat 2's check first; the shares wait for seat 1's.
    net.take(0, d0.open({0: [0], 1: [1], 2: [2]}))
    net.take(0, d0.job_done(jobs[1], run_job(jobs[1])))
    assert not d0.proofs_verified and not [m for s, m in net.sent if s == 0
                                           and m["t"] in SHARES]
    with pytest.raises(DealUsageError):
        d0.job_done(jobs[1], run_job(jobs[1]))  # twice
    with pytest.raises(DealUsageError):
        d0.job_done(dataclasses.replace(jobs[0]), JobResult())  # an equal job, not ours
    restored = Deal.from_state(d0.to_state())
    with pytest.raises(DealUsageError):
        restored.job_done(jobs[0], JobResult())  # handed out before the restore
    net.take(0, d0.job_done(jobs[0], run_job(jobs[0])))
    assert d0.proofs_verified and [m for s, m in net.sent if s == 0 and m["t"] in SHARES]


# ---------------------------------------------------------------- random schedules

STEPS: list[tuple[dict[int, list[int]], list[int]]] = [
    ({0: [0]}, []), ({1: [1]}, []), ({2: [2]}, []), ({0: [3], 1: [4], 2: [5]}, [6])]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_share_leaves_before_every_proof_over_random_schedules(data):
    """Three honest seats with deferred jobs; messages delivered one channel head at a
    time (any interleaving of channels), jobs done in any order at any time, each seat
    opening its steps and showing its cards when it can.  No share leaves a seat, and no
    step opens there, before every proof verified at that seat; everything completes."""
    net = Net([deal(3, s) for s in range(3)])
    chans: dict[tuple[int, int], list[dict[str, Any]]] = {
        (a, b): [] for a in range(3) for b in range(3) if a != b}
    opened = [0, 0, 0]
    played: list[set[int]] = [set(), set(), set()]

    def route() -> None:
        for sender, m in net.queue:
            for r in range(3):
                if r != sender:
                    chans[sender, r].append(m)
        net.queue.clear()

    def check() -> None:
        for d in net.deals:
            if net.opened(d.seat):
                assert d.proofs_verified and not d._own_proof_due

    net.start()
    route()
    for _ in range(2000):
        actions: list[tuple[str, int, Any]] = [("deliver", a, b) for (a, b), q in
                                               chans.items() if q]
        for s, d in enumerate(net.deals):
            for job in net.collect_jobs(s):
                hash(job)  # immutable all through: the worker thread shares nothing
            actions += [("job", s, i) for i in range(len(net.jobs[s]))]
            if d.phase == "deal" and opened[s] < len(STEPS):
                actions.append(("open", s, None))
            for pos in d.hand_positions():
                if d.card_at(pos) is not None and pos not in played[s] and d.phase == "deal":
                    actions.append(("play", s, pos))
        if not actions:
            break
        kind, a, b = data.draw(st.sampled_from(actions))
        if kind == "deliver":
            m = chans[a, b].pop(0)
            net.take(b, net.deals[b].receive(a, m))
        elif kind == "job":
            job = net.jobs[a].pop(b)
            net.take(a, net.deals[a].job_done(job, run_job(job)))
        elif kind == "open":
            private, public = STEPS[opened[a]]
            opened[a] += 1
            net.take(a, net.deals[a].open(private, public))
        else:
            played[a].add(b)
            net.take(a, net.deals[a].play(b))
        route()
        check()
    else:
        raise AssertionError("no end")
    for s, d in enumerate(net.deals):
        assert d.proofs_verified and len(net.opened(s)) == len(STEPS), s
        assert played[s] == {s, s + 3}
        assert d.held == 0 and d.phase == "deal"


# ---------------------------------------------------------------- resume, capability


def test_a_restore_between_our_deck_and_our_proof_proves_once():
    """Seat 0 saved right after its deck went, its proof job handed out and lost: the
    restored deal hands the proof out again, sends it once, and refuses the lost job."""
    net = Net([deal(2, 0), deal(2, 1, defer=False)])
    net.start()
    net.flush()
    lost = net.collect_jobs(0)
    assert [j.kind for j in lost] == ["prove", "verify"]
    d0 = net.deals[0] = Deal.from_state(net.deals[0].to_state())
    net.jobs[0] = []
    assert d0._own_proof_due and (0, MSG_PROOF) not in d0.expecting()
    with pytest.raises(DealUsageError):
        d0.job_done(lost[0], run_job(lost[0]))
    net.run_jobs(0)
    net.flush()
    assert [s for s, m in net.sent if m["t"] == MSG_PROOF] == [1, 0]
    assert net.deals[1].proofs_verified and d0.proofs_verified


@pytest.mark.parametrize("joiner_caps", ["all", "no-apart"])
def test_the_genesis_capability_follows_every_hello(joiner_caps):
    """The host puts proof-apart/v1 in the genesis only when every joiner's hello had it
    (a seat without it: the old way, proofs inside deal/shuffle); either way the match is
    the same at every seat and no deal/proof travels at a table without it."""
    from chkobba_p2p.transcript.caps import SPOKEN

    caps = None if joiner_caps == "all" else tuple(c for c in SPOKEN if c != CAP_PROOF_APART)
    t = Table(2, proofs=True, rules=RULES, key=b"caps", caps=caps)
    assert (CAP_PROOF_APART in t.table.caps) == (caps is None)
    for s in t.sessions:
        s.defer_work = True
    assert not _drive(t)
    kinds = [d.get("t") for b in t.sessions[0].bodies[1:]
             for d in (wire.open_entry(b).fields.get("d") or []) if isinstance(d, dict)]
    assert (MSG_PROOF in kinds) == (caps is None)
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)


def test_a_second_proof_in_a_later_turn_is_blamed_with_that_turn_as_evidence():
    """ATTACK (worked before the fix): seat 1 sends its deal/proof again in a later turn.
    Every honest seat blames it (``unexpected``), but the abort's evidence was the entry
    of its first proof (kept for a refused proof), which proves nothing, so that a peer
    that never got the second one could not check the claim; now it is the turn that
    carried the second proof."""
    t = _apart_table(b"twice")
    sent: list[bytes] = []

    def again(s: Session) -> None:
        if s.seat != 1 or sent:
            return
        firsts = [b for b in s.bodies if wire.open_entry(b).seat == 1 and any(
            isinstance(d, dict) and d.get("t") == MSG_PROOF
            for d in wire.open_entry(b).fields.get("d") or [])]
        if firsts and s.floor == 1:
            deck = s.game.deck
            assert deck is not None
            proof = deck.deal._proofs[1]
            sent.append(firsts[-1])
            s.game._out.append({"t": MSG_PROOF, "proof": proof})

    faults = _drive(t, again)
    assert sent and faults and 1 not in faults
    for seat, fault in faults.items():
        assert fault.blamed_seat == 1 and "second shuffle proof" in fault.detail, seat
        assert fault.evidence is not None and fault.evidence != sent[0]
        ev = wire.open_entry(fault.evidence)
        assert ev.seat == 1 and any(d.get("t") == MSG_PROOF for d in ev.fields["d"])


# ---------------------------------------------------------------- the worker's function

_REF: list[ProofJob] = []


def _verify_job() -> ProofJob:
    if not _REF:
        net = _three(drop=_to_0(2))
        net.take(0, net.deals[0].receive(2, {"t": MSG_PROOF, "proof": _proof_of(net, 2)}))
        _REF.extend(j for j in net.collect_jobs(0) if j.seat == 2)
    return _REF[0]


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.integers(0, 2**32).map(lambda k: random.Random(k).randbytes(5281)),
                 st.tuples(st.integers(0, 5280), st.integers(1, 255))))
def test_run_job_refuses_any_forged_proof_and_never_raises(forged):
    """The worker thread runs run_job on a peer's bytes: whatever they are, it returns a
    refusal (an exception there would end the peer's event loop, not blame the prover)."""
    job = _verify_job()
    assert job.proof is not None
    if isinstance(forged, tuple):
        i, x = forged
        proof = bytearray(job.proof)
        proof[i] ^= x
        forged = bytes(proof)
    result = run_job(dataclasses.replace(job, proof=forged))
    assert result.refused is not None and result.proof is None
