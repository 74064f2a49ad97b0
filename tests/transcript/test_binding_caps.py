"""The binding table capabilities (early-deal/v1, proof-apart/v1) and a lying host (issue
29): only the host sees the hellos, so the genesis alone cannot say that every seat plays
a capability.  Each seat's ``ready`` lists the genesis's capabilities that it plays
(``ready.caps``), and a binding one is in effect only when the genesis holds it and every
ready lists it (PROTOCOL.md 3, 6.1; :func:`chkobba_p2p.transcript.caps.effective_caps`).  A host
that puts one in the genesis for a seat that does not speak it gets the old way for
everyone, and is itself blamed if it then plays the new way.

Sans-IO (in-memory sessions, as test_hostile_apart.py), and one table of real peers in
memory (as test_proof_apart.py)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from support.tiers import covering
from test_proof_apart import OldJoiner

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p.bots.levels import make_bot
from chkobba_p2p.deal import MSG_PROOF
from chkobba_p2p.deal.core import ProofJob, run_job
from chkobba_p2p.deal.messages import MSG_SHUFFLE
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.events import Outcome
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import INCOMPLETE, INVALID, VALID, audit_bodies, audit_log
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.testing import InMemoryTable, RecordingController
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import (
    BINDING_CAPABILITIES,
    CAP_EARLY_DEAL,
    CAP_PROOF_APART,
    CAP_READY_CAPS,
    CAP_SHARES_RIDE,
    CAP_SHUFFLE_PROOFS,
    IMPLEMENTED_CAPABILITIES,
    SPOKEN,
    TABLE_CAPABILITIES,
    effective_caps,
)
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import TableInfo
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity
from chkobba_p2p.wire.logfile import read_log

RULES = Ruleset(target=3)  # a short match: a hand or two
VECTORS = Path(__file__).parent.parent / "vectors"


# ------------------------------------------------------------------ stand-ins for peers


class OldSession(Session):
    """A peer of before ``ready.caps``: its ready has no ``caps`` field, and it plays the
    genesis's capabilities that it knows (``speaks``), ignoring the others."""

    def ready_caps(self) -> tuple[str, ...] | None:
        return None

    def effective_caps(self) -> tuple[str, ...]:
        return tuple(c for c in self.table.caps if c in self.speaks)


class GenesisSession(Session):
    """A seat that trusts the genesis alone (the rule before this one), whatever the
    readies say; its own ready lists what it plays all the same.  As a host: one that
    lies in the genesis and then plays what it wrote there."""

    def effective_caps(self) -> tuple[str, ...]:
        return tuple(c for c in self.table.caps if c in self.speaks)


class SilentHost(Session):
    """A host whose own ready leaves a binding capability out: it lists
    :data:`IMPLEMENTED_CAPABILITIES` but those."""

    def ready_caps(self) -> tuple[str, ...] | None:
        return tuple(c for c in self.table.caps if c not in BINDING_CAPABILITIES)


def without(cap: str) -> tuple[str, ...]:
    return tuple(c for c in IMPLEMENTED_CAPABILITIES if c != cap)


def _lying_table(n: int, key: bytes, old: dict[int, tuple[str, ...]], *, proofs: bool,
                 lie: str) -> tuple[TableInfo, list[Identity], list[bytes]]:
    """The table an honest host would make with the joiners of ``old`` announcing only
    their caps in their hellos, plus ``lie`` in the genesis: the host's lie."""
    def derive(label: str) -> bytes:
        return hashlib.sha256(key + b"/" + label.encode()).digest()

    ids = [Identity.from_seed(derive(f"id{i}")) for i in range(n)]
    lobby = Lobby(ids[0], "host", RULES, n, shuffle_proofs=proofs)
    for i in range(1, n):
        lobby.take_seat(ids[i].public, f"p{i}", *((old[i],) if i in old else ()))
    lobby.game = derive("game")[:16]
    honest = lobby.table()
    assert lie not in honest.caps  # the honest host leaves it out
    table = dataclasses.replace(honest, caps=honest.caps + (lie,))
    return table, ids, [derive(f"master{i}") for i in range(n)]


def _sessions(table: TableInfo, ids: list[Identity], masters: list[bytes],
              kinds: dict[int, type[Session]], speaks: dict[int, tuple[str, ...]]
              ) -> list[Session]:
    host_cls = kinds.get(0, Session)
    host, genesis = host_cls.create(ids[0], table, masters[0], speaks=speaks.get(0))
    return [host] + [
        kinds.get(i, Session).join(ids[i], wire.open_entry(genesis.body), ids[0].public,
                                   masters[i], speaks=speaks.get(i))
        for i in range(1, table.players)]


def _drive(sessions: list[Session], *, slow: Sequence[int] = (), limit: int = 20000,
           until: Callable[[list[Session]], bool] | None = None,
           early: list[int] | None = None) -> dict[int, GameFault]:
    """Play the sessions (deferred proof work, each seat's jobs run only when it holds the
    floor with nothing else to send) until the match ends, ``until`` holds, or a seat's
    session refuses an entry (returned: the faults, by the seat that raised them).  A
    ``slow`` seat thinks: when it may send its deal messages before its choice
    (early-deal/v1 in effect at its seat) it does, and chooses on a later pass; the index
    of each such turn goes in ``early``."""
    bots = [make_bot("greedy", s.own_seat) for s in sessions]
    jobs: dict[int, list[ProofJob]] = {s.own_seat: [] for s in sessions}
    faults: dict[int, GameFault] = {}

    def decide(s: Session) -> None:
        d = s.decision
        if d is not None:
            bot = bots[s.own_seat]
            s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))

    for s in sessions:
        s.defer_work = True
    for _ in range(limit):
        if faults or all(s.finished for s in sessions) or (until and until(sessions)):
            return faults
        for s in sessions:
            jobs[s.own_seat] += s.jobs()
        for s in sessions:
            seat = s.own_seat
            if seat not in slow:
                decide(s)
            pending = s.decision is not None
            e = s.next_entry()
            if e is not None and pending and "a" not in e.fields and early is not None:
                early.append(s.length - 1)
            if e is None:
                decide(s)
                e = s.next_entry()
            while e is None and jobs[seat] and s.floor == seat:
                job = jobs[seat].pop(0)
                s.job_done(job, run_job(job))
                decide(s)
                e = s.next_entry()
            if e is not None:
                for o in sessions:
                    if o is not s:
                        try:
                            o.receive(wire.open_entry(e.body))
                        except GameFault as fault:
                            faults[o.own_seat] = fault
                break
        else:
            raise AssertionError("nobody can speak")
    raise AssertionError("the match did not end")


def _items(bodies: list[bytes]) -> list[tuple[int, int, dict]]:
    """(entry index, seat, deal item) of every turn's deal items."""
    out = []
    for i, b in enumerate(bodies):
        e = wire.open_entry(b)
        if e.kind == "turn":
            out += [(i, e.seat, d) for d in e.fields.get("d") or [] if isinstance(d, dict)]
    return out


# ------------------------------------------------------------------ the rule itself

_CAPS = st.sampled_from(IMPLEMENTED_CAPABILITIES + ("future/v9",))


@settings(max_examples=300, deadline=None)
@given(genesis=st.lists(_CAPS, unique=True),
       readies=st.lists(st.one_of(st.none(), st.lists(_CAPS, unique=True).map(tuple)),
                        min_size=2, max_size=4))
def test_a_binding_capability_needs_the_genesis_and_every_ready(genesis, readies):
    got = effective_caps(genesis, readies)
    assert all(c in genesis for c in got)  # a ready never adds one
    legacy = all(r is None for r in readies)
    for c in genesis:
        if c not in BINDING_CAPABILITIES or legacy:
            assert c in got  # the others, and a log of before ready.caps: the genesis
        else:
            assert (c in got) == all(r is not None and c in r for r in readies)
    # Taking a capability out of one ready (that has the field) never puts one in.
    for i, r in enumerate(readies):
        if r:
            fewer = list(readies)
            fewer[i] = r[1:]
            assert set(effective_caps(genesis, fewer)) <= set(got)


def test_a_ready_lists_the_genesis_caps_it_plays_and_a_bad_list_is_its_signers_fault():
    table, ids, masters = _lying_table(3, b"ready", {2: without(CAP_PROOF_APART)},
                                       proofs=True, lie=CAP_PROOF_APART)
    ss = _sessions(table, ids, masters, {}, {2: without(CAP_PROOF_APART)})
    e = ss[0].next_entry()
    assert e is not None and e.kind == "ready" and e.fields["caps"] == list(table.caps)
    # early-deal/v1 is not in it: seat 2's hello (a peer of before ready.caps) lacks
    # ready-caps/v1, so the honest part of the genesis leaves the binding ones out.
    assert set(e.fields["caps"]) == set(TABLE_CAPABILITIES) - set(BINDING_CAPABILITIES) \
        | {CAP_SHUFFLE_PROOFS, CAP_PROOF_APART}
    for o in ss[1:]:
        o.receive(wire.open_entry(e.body))
    # Seat 1 signs a ready whose caps is not an array of str: its own fault, proven.
    bad = wire.make_entry(ids[1], game=table.game, seat=1, seq=0, prev=ss[2].head,
                          kind="ready", body={"caps": ["deal/v1", 7]})
    with pytest.raises(GameFault) as caught:
        ss[2].receive(bad)
    assert caught.value.blamed_seat == 1
    assert caught.value.error_code == ErrorCode.PROTOCOL_VIOLATION


def test_a_ready_that_lists_what_the_genesis_lacks_adds_nothing():
    """An honest genesis without proof-apart/v1 (seat 2 did not announce it); seat 1's
    ready lists every capability anyway: nothing changes, at any seat."""

    class Boaster(Session):
        def ready_caps(self) -> tuple[str, ...] | None:
            return IMPLEMENTED_CAPABILITIES + ("future/v9",)

    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", RULES, 3, shuffle_proofs=True)
    lobby.take_seat(ids[1].public, "p1")
    lobby.take_seat(ids[2].public, "p2", without(CAP_PROOF_APART))
    table = lobby.table()
    assert CAP_PROOF_APART not in table.caps
    ss = _sessions(table, ids, [bytes([i]) * 32 for i in range(3)], {1: Boaster},
                   {2: without(CAP_PROOF_APART)})
    _drive(ss, until=lambda ss: all(s.phase == "playing" for s in ss))
    assert all(s.caps == table.caps and not s.game.proof_apart for s in ss)


# ------------------------------------------------------------------ a lying host, proof-apart


# The fast tier plays each kind of old joiner and each count once (support.tiers.covering).
@pytest.mark.parametrize(("old_kind", "n"), covering([OldSession, Session], [3, 4],
                                                     ids=[["no-field", "lists-others"], None]))
def test_a_lying_host_cannot_impose_proof_apart_on_an_old_joiner(n, old_kind):
    """ATTACK (worked before the fix): the host puts proof-apart/v1 in the genesis although
    seat 2's hello lacked it.  Seat 2 ignores it and sends its proofs inside its
    deal/shuffle; the honest new seats expected them apart and blamed seat 2 (malformed).
    Now seat 2's ready does not list it (no caps field at all, or caps without it), the
    capability is not in effect anywhere, every seat plays the old order, the match
    completes with nobody blamed, the transcript audits VALID and a seat rebuilt from
    its log agrees."""
    old = without(CAP_PROOF_APART)
    table, ids, masters = _lying_table(n, b"lie-apart%d" % n, {2: old}, proofs=True,
                                       lie=CAP_PROOF_APART)
    ss = _sessions(table, ids, masters, {2: old_kind}, {2: old})
    assert not _drive(ss)
    assert all(s.done is not None and s.done == ss[0].done for s in ss)
    assert all(s.bodies == ss[0].bodies for s in ss)
    assert all(CAP_PROOF_APART not in s.caps and CAP_SHUFFLE_PROOFS in s.caps for s in ss)
    items = _items(ss[0].bodies)
    assert not [d for _, _, d in items if d["t"] == MSG_PROOF]
    shuffles = [d for _, _, d in items if d["t"] == MSG_SHUFFLE][n:]  # past the draw
    assert shuffles and all(isinstance(d.get("proof"), bytes) for d in shuffles)
    report = audit_bodies(ss[1].bodies, workers=0)
    assert report.verdict == VALID, report.reason
    # A seat rebuilt from its log after a crash reads the same readies.
    again = Session.resume(ids[1], list(ss[1].bodies), ids[0].public, masters[1])
    assert again.caps == ss[1].caps and again.done == ss[1].done


def test_before_the_fix_the_honest_seats_disagreed_and_now_the_log_convicts_the_host():
    """The same lie with seats that trust the genesis alone (the rule before): the host's
    deck without its proof is refused by the old joiner and accepted by the honest new
    seat, so one honest seat's word stands against the other's.  The auditor of this
    implementation reads the readies of that very log and convicts the host."""
    old = without(CAP_PROOF_APART)
    table, ids, masters = _lying_table(3, b"lie-apart3", {2: old}, proofs=True,
                                       lie=CAP_PROOF_APART)
    ss = _sessions(table, ids, masters, {0: GenesisSession, 1: GenesisSession,
                                         2: OldSession}, {2: old})
    faults = _drive(ss)
    assert set(faults) == {2} and faults[2].blamed_seat == 0
    assert "missing_shuffle_proof" in faults[2].detail
    assert ss[1].aborted is None and ss[1].bodies[-1] == faults[2].evidence  # accepted
    report = audit_bodies(ss[1].bodies, workers=0)
    assert report.verdict == INVALID and report.blamed == 0, report.reason


def test_a_host_that_leaves_the_cap_out_of_its_own_ready_gets_the_old_way():
    """The genesis holds proof-apart/v1 and every joiner speaks it, but the host's own
    ready leaves it out: not in effect; the match completes the old way, VALID."""
    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", RULES, 3, shuffle_proofs=True)
    for i in (1, 2):
        lobby.take_seat(ids[i].public, f"p{i}")
    table = lobby.table()
    assert CAP_PROOF_APART in table.caps
    ss = _sessions(table, ids, [bytes([i + 1]) * 32 for i in range(3)], {0: SilentHost}, {})
    assert not _drive(ss)
    assert all(s.done is not None and CAP_PROOF_APART not in s.caps for s in ss)
    assert not [d for _, _, d in _items(ss[0].bodies) if d["t"] == MSG_PROOF]
    assert audit_bodies(ss[2].bodies, workers=0).verdict == VALID


@pytest.mark.parametrize("lacking", ["old-joiner", "own-ready"])
def test_a_host_that_plays_apart_where_it_is_not_in_effect_is_blamed(lacking):
    """The host lists proof-apart/v1 in the genesis and then plays it (its deck without
    its proof, the proof in a deal/proof) at a table where it is not in effect: seat 2 is
    an old joiner, or the host's own ready left it out.  Every other seat blames the host,
    the auditor too; nobody else is blamed."""
    old = without(CAP_PROOF_APART)
    if lacking == "old-joiner":
        table, ids, masters = _lying_table(4, b"apart-host", {2: old}, proofs=True,
                                           lie=CAP_PROOF_APART)
        ss = _sessions(table, ids, masters, {0: GenesisSession, 2: OldSession}, {2: old})
    else:
        ids = [Identity.generate() for _ in range(4)]
        lobby = Lobby(ids[0], "host", RULES, 4, shuffle_proofs=True)
        for i in (1, 2, 3):
            lobby.take_seat(ids[i].public, f"p{i}")
        table = lobby.table()

        class Liar(SilentHost, GenesisSession):
            pass

        ss = _sessions(table, ids, [bytes([i + 9]) * 32 for i in range(4)], {0: Liar}, {})
    faults = _drive(ss)
    assert CAP_PROOF_APART in ss[0].caps and CAP_PROOF_APART not in ss[1].caps
    assert set(faults) == {1, 2, 3}
    for seat, fault in faults.items():
        assert fault.blamed_seat == 0, (seat, fault.detail)
        assert fault.error_code == ErrorCode.DEAL_FAILURE
        # Whichever of the host's two lies a seat reads first: its deck without the
        # proof (missing), or its deal/proof where proofs ride inside deal/shuffle (a
        # proof that can arrive before the deck's step is due, with random keys).
        assert ("missing_shuffle_proof" in fault.detail
                or "proof inside deal/shuffle" in fault.detail), (seat, fault.detail)
    report = audit_bodies(ss[1].bodies, workers=0)
    assert report.verdict == INVALID and report.blamed == 0, report.reason


# ------------------------------------------------------------------ a lying host, early-deal


@pytest.mark.parametrize("n", [3, 4])
def test_a_lying_host_cannot_impose_early_deal_on_an_old_joiner(n):
    """ATTACK (worked before the fix, shown in the control below): the host puts
    early-deal/v1 in the genesis although seat 2's hello lacked it.  An honest new seat
    that thinks over the first play of a hand sends its shares first, in a turn without
    its action; seat 2, without the early deal, refuses such a turn (an empty turn while
    the game waits) and blamed that honest seat.  Now early-deal/v1 is not in effect
    anywhere: every seat chooses before it sends, the match completes with nobody blamed,
    VALID."""
    old = without(CAP_EARLY_DEAL)
    table, ids, masters = _lying_table(n, {3: b"lie-early3", 4: b"lie-early4-1"}[n], {2: old},
                                       proofs=False,
                                       lie=CAP_EARLY_DEAL)
    ss = _sessions(table, ids, masters, {2: OldSession}, {2: old})
    early: list[int] = []
    assert not _drive(ss, slow=range(n), early=early)
    assert all(s.done is not None and s.done == ss[0].done for s in ss)
    assert all(CAP_EARLY_DEAL not in s.caps and not s.game.early_deal for s in ss)
    assert not early
    assert audit_bodies(ss[0].bodies, workers=0).verdict == VALID
    # The control: seats that trust the genesis alone (the key: a table where a joiner,
    # not the host, is the first to think over a first play).
    ss = _sessions(table, ids, masters, {0: GenesisSession, 1: GenesisSession,
                                         3: GenesisSession, 2: OldSession}, {2: old})
    faults = _drive(ss, slow=range(n), early=early)
    assert early and faults.get(2) is not None and "waits" in faults[2].detail
    sender = wire.open_entry(ss[2].bodies[early[0]]).seat
    assert faults[2].blamed_seat == sender != 0  # an honest seat


def test_early_deal_in_effect_when_every_ready_lists_it():
    """The honest table: every seat speaks early-deal/v1; a thinking seat sends its deal
    messages before its choice and the match completes, VALID (the rule takes nothing
    away from an honest table).  Without shares-ride/v1: with it, the seat to play
    first at 3 players holds its cards only after the others' turns, and then owes
    nothing more, so it seldom sends its messages before its choice."""
    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", RULES, 3)
    for i in (1, 2):
        lobby.take_seat(ids[i].public, f"p{i}",
                        tuple(c for c in SPOKEN if c != CAP_SHARES_RIDE))
    table = lobby.table()
    ss = _sessions(table, ids, [bytes([i + 20]) * 32 for i in range(3)], {}, {})
    early: list[int] = []
    assert not _drive(ss, slow=range(3), early=early)
    assert all(s.done is not None and s.game.early_deal for s in ss)
    assert early
    assert audit_bodies(ss[0].bodies, workers=0).verdict == VALID


# ------------------------------------------------------------------ logs of before ready.caps


def test_the_published_apart_log_has_no_ready_caps_and_still_audits_clean():
    """tests/vectors/transcript_apart.chklog predates ready.caps: the genesis alone
    decides, the observer plays proof-apart/v1 as the log does, and no violation."""
    log = read_log(VECTORS / "transcript_apart.chklog")
    readies = [wire.open_entry(b) for b in log.bodies[1:3]]
    assert [e.kind for e in readies] == ["ready", "ready"]
    assert all("caps" not in e.fields for e in readies)
    obs = Observer(workers=0)
    for b in log.bodies:
        obs.feed(b)
    assert obs.session is not None and CAP_PROOF_APART in obs.session.caps
    report = audit_log(VECTORS / "transcript_apart.chklog", workers=0)
    assert report.verdict == INCOMPLETE and "no violation" in report.reason, report.reason


def test_a_whole_match_of_before_ready_caps_audits_valid_and_resumes():
    """Every seat a peer of before the field (no caps in any ready) at a proof-apart/v1
    table: the genesis decides, proofs travel apart, the audit is VALID, and a seat
    rebuilt from that log by this implementation agrees."""
    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", RULES, 3, shuffle_proofs=True)
    for i in (1, 2):
        lobby.take_seat(ids[i].public, f"p{i}")
    table = lobby.table()
    masters = [bytes([i + 30]) * 32 for i in range(3)]
    ss = _sessions(table, ids, masters, dict.fromkeys(range(3), OldSession), {})
    assert not _drive(ss)
    assert all(s.done is not None and CAP_PROOF_APART in s.caps for s in ss)
    assert [d for _, _, d in _items(ss[0].bodies) if d["t"] == MSG_PROOF]
    assert audit_bodies(ss[1].bodies, workers=0).verdict == VALID
    again = Session.resume(ids[1], list(ss[1].bodies), ids[0].public, masters[1])
    assert again.done == ss[1].done and again.caps == table.caps


# ------------------------------------------------------------------ real peers, in memory


class LyingHost(HostPeer):
    """A host whose genesis holds proof-apart/v1 whatever the hellos said."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        lobby = self.core.lobby
        honest = lobby.table

        def table() -> TableInfo:
            t = honest()
            return t if CAP_PROOF_APART in t.caps else \
                dataclasses.replace(t, caps=t.caps + (CAP_PROOF_APART,))

        lobby.table = table  # type: ignore[method-assign]


async def test_real_peers_at_a_lying_hosts_table_with_an_old_joiner(tmp_path, autojump_clock):
    """Four peers in memory: a lying host, seat 2 a joiner whose hello lacks
    proof-apart/v1 (its ready lists the others), seats 1 and 3 honest and new.  The
    match completes the old way with nobody blamed, every log VALID."""
    table = InMemoryTable(tmp_path, players=4, rules=RULES, shuffle_proofs=True,
                          host_class=LyingHost)
    out: dict[int, Outcome] = {}
    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            async def host(task_status=trio.TASK_STATUS_IGNORED) -> None:
                out[0] = await table.host.run(task_status)

            await nursery.start(host)

            async def join(seat: int) -> None:
                cls = OldJoiner if seat == 2 else ClientPeer
                out[seat] = await cls(table.join_config(seat), table.controllers[seat]).run()

            for seat in range(1, 4):
                nursery.start_soon(join, seat)
                host_ctl = table.controllers[0]
                assert isinstance(host_ctl, RecordingController)
                await host_ctl.until(lambda _, s=seat: table.host.lobby.seats[s] is not None)
    outcomes = [out[s] for s in range(4)]
    assert all(o.done is not None and o.aborted is None and o.error_code is None
               for o in outcomes), [(o.aborted, o.error_reason) for o in outcomes]
    assert CAP_PROOF_APART in outcomes[0].table.caps  # the lie is in the genesis
    bodies = read_log(outcomes[2].log_path).bodies
    readies = [wire.open_entry(b) for b in bodies[1:5]]
    assert [CAP_PROOF_APART in e.fields["caps"] for e in readies] == [True, True, False, True]
    assert not [d for _, _, d in _items(list(bodies)) if d["t"] == MSG_PROOF]
    for o in outcomes:
        report = audit_log(o.log_path, workers=0)
        assert report.verdict == VALID, report.reason


@pytest.mark.parametrize("marker", [True, False])
def test_binding_caps_go_in_the_genesis_only_for_joiners_that_confirm_them(marker):
    """A joiner of before ready.caps announces proof-apart/v1 and early-deal/v1 but never
    lists them in its ready: an honest host that put them in the genesis would have that
    honest joiner play them while the others do not.  Without ready-caps/v1 in every
    hello, the host leaves both out and the table plays the old order."""
    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", RULES, 3, shuffle_proofs=True)
    speaks = SPOKEN if marker else tuple(c for c in SPOKEN if c != CAP_READY_CAPS)
    lobby.take_seat(ids[1].public, "p1", SPOKEN)
    lobby.take_seat(ids[2].public, "p2", speaks)
    caps = lobby.table().caps
    assert (CAP_PROOF_APART in caps) is marker
    assert (CAP_EARLY_DEAL in caps) is marker
    assert CAP_SHUFFLE_PROOFS in caps and CAP_READY_CAPS not in caps  # never in a genesis
