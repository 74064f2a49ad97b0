"""Sans-IO sessions wired by hand (no link, no clock): the transcript's own tests and
those above it that play a match of real sessions in one process."""

from __future__ import annotations

import functools
import hashlib

from chkobba_p2p.bots.levels import make_bot
from chkobba_p2p.deal.core import ProofJob, run_job
from chkobba_p2p.deal.messages import ProofItem, parse_item
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import SPOKEN
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import Identity


class Table:
    """n sessions wired by hand: an entry one makes is received by all the others."""

    def __init__(self, n: int, proofs: bool = False, rules: Ruleset | None = None,
                 key: bytes | None = None, caps: tuple[str, ...] | None = None,
                 add_caps: tuple[str, ...] = ()) -> None:
        """``key``: derive identities, game id and deal secrets from it (a deterministic
        match: the same key plays the same game).  ``caps``: what each joiner's hello
        announces (default this version's); ``add_caps``: table capabilities the host
        and every joiner speak besides (one this version does not announce yet)."""
        def derive(label: str) -> bytes:
            assert key is not None
            return hashlib.sha256(key + b"/" + label.encode()).digest()

        if key is None:
            self.ids = [Identity.generate() for _ in range(n)]
            masters: list[bytes | None] = [None] * n
        else:
            self.ids = [Identity.from_seed(derive(f"id{i}")) for i in range(n)]
            masters = [derive(f"master{i}") for i in range(n)]
        lobby = Lobby(self.ids[0], "host", rules or Ruleset(), n, shuffle_proofs=proofs)
        lobby.caps += add_caps
        for i in range(1, n):
            spoken = (SPOKEN if caps is None else caps) + add_caps
            lobby.take_seat(self.ids[i].public, f"p{i}", spoken)
        if key is not None:
            lobby.game = derive("game")[:16]
        self.table = lobby.table()
        host, self.genesis = Session.create(self.ids[0], self.table, masters[0])
        self.sessions = [host] + [
            Session.join(self.ids[i], wire.open_entry(self.genesis.body), self.ids[0].public,
                         masters[i])
            for i in range(1, n)]
        self.bots = [make_bot("greedy", i) for i in range(n)]

    def decide(self, s: Session) -> None:
        """``s``'s bot answers the choice its session waits for, if any."""
        d = s.decision
        if d is not None:
            bot = self.bots[s.own_seat]
            s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))

    def speak(self) -> tuple[Session, wire.Entry]:
        """:meth:`step` without the delivery: the seat that speaks and its entry."""
        for s in self.sessions:
            self.decide(s)
            e = s.next_entry()
            if e is not None:
                return s, e
        raise AssertionError("nobody can speak")

    def step(self) -> wire.Entry | None:
        """Let the seat holding the floor decide and speak; deliver its entry."""
        for s in self.sessions:
            self.decide(s)
            e = s.next_entry()
            if e is not None:
                self.deliver(e, s.seat)
                return e
        return None

    def deliver(self, e: wire.Entry, sender: int) -> None:
        for o in self.sessions:
            if o.seat != sender:
                o.receive(wire.open_entry(e.body))

    @staticmethod
    def clone(t: Table, session: Session) -> Session:
        """A fresh copy of ``session`` (rebuilt from its transcript and secret)."""
        return Session.resume(t.ids[session.seat], list(session.bodies), t.ids[0].public,
                              session.master)

    def run(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if all(s.finished for s in self.sessions):
                return
            assert self.step() is not None, "nobody can speak"
        raise AssertionError("the match did not end")


#: One entry of a match played through (:func:`played_through`): the entry, and the hand
#: and the instance seat 0's game is at once it is applied.
Step = tuple[wire.Entry, int, int]


@functools.cache
def played_through(n: int, *, key: bytes, proofs: bool = False,
                   rules: Ruleset | None = None, caps: tuple[str, ...] | None = None
                   ) -> tuple[Table, tuple[Step, ...]]:
    """The match ``Table(n, proofs, rules, key, caps)`` plays to its end (deterministic:
    a ``key``), played once per test process and shared by every test that asks for it
    with the same arguments, with every entry as it was applied (:data:`Step`).  Every
    seat ended the same match with the same chain (asserted here).  Read only: a test
    that feeds its sessions more, or changes its lists, builds its own :class:`Table`.
    (Most of such a test's time is playing it: shuffles and their proofs made and checked
    at every seat.)"""
    t = Table(n, proofs=proofs, rules=rules, key=key, caps=caps)
    return t, tuple(play_through(t))


def play_through(t: Table) -> list[Step]:
    """Play ``t`` to its end: every entry with the hand and the instance seat 0's game is
    at once it is applied; every seat ended the same match with the same chain
    (asserted here)."""
    out: list[Step] = []
    for _ in range(20000):
        if all(s.finished for s in t.sessions):
            break
        e = t.step()
        assert e is not None, "nobody can speak"
        g = t.sessions[0].game
        out.append((e, g.hand_no, g.instance))
    else:
        raise AssertionError("the match did not end")
    assert all(s.done is not None and s.done == t.sessions[0].done for s in t.sessions)
    assert all(s.bodies == t.sessions[0].bodies for s in t.sessions)
    return out


def speak_lazily(t: Table, jobs: dict[int, list[ProofJob]],
                 kept: list[tuple[int, int | None]] | None = None) -> None:
    """Deliver ``t``'s next entry with the proof work deferred (each session's
    ``defer_work`` on) and done by the slowest worker there is: each seat's new jobs queue
    in ``jobs``, and a seat runs them only while it holds the floor and has no entry to
    send (the work is slower than the line).  ``kept``: gets (the seat, the seat its
    session says owes the next message) each time a seat keeps its turn with deal
    messages in its outbox.  AssertionError when nobody can speak."""
    for s in t.sessions:
        jobs[s.own_seat] += s.jobs()
    for s in t.sessions:
        t.decide(s)
        e = s.next_entry()
        while e is None and jobs[s.own_seat] and s.floor == s.own_seat:
            if kept is not None and s.game.has_outbox:
                kept.append((s.own_seat, s.owing))
            job = jobs[s.own_seat].pop(0)
            s.job_done(job, run_job(job))
            t.decide(s)  # a step that waited for this proof may open: a choice comes
            e = s.next_entry()
        if e is not None:
            t.deliver(e, s.own_seat)
            return
    raise AssertionError("nobody can speak")


def offer_to_others(t: Table, sender: Session, body: bytes) -> dict[int, BaseException | None]:
    """Give the entry ``body`` (signed by ``sender``'s seat, a forgery say) to every other
    session of ``t``: what each raised (:class:`GameFault` or ``wire.ProtocolError``),
    by seat; None where it took the entry."""
    raised: dict[int, BaseException | None] = {}
    for o in t.sessions:
        if o is sender:
            continue
        try:
            o.receive(wire.open_entry(body))
            raised[o.seat] = None
        except (GameFault, wire.ProtocolError) as exc:
            raised[o.seat] = exc
    return raised


def play_crashing_the_floor(t: Table, every: int = 5, limit: int = 50000) -> int:
    """Play ``t`` to its end with the proof work deferred to the slowest worker
    (:func:`speak_lazily`), rebuilding the seat that holds the floor from its log every
    ``every`` entries (its queued jobs lost, as a process that dies loses them).  The
    number of rebuilds.  AssertionError when the match does not end."""
    for s in t.sessions:
        s.defer_work = True
    jobs: dict[int, list[ProofJob]] = {s.own_seat: [] for s in t.sessions}
    rebuilt = 0
    for i in range(limit):
        if all(s.finished for s in t.sessions):
            return rebuilt
        if i % every == every - 1:
            k = next(s.own_seat for s in t.sessions if s.floor == s.own_seat)
            if not t.sessions[k].finished:
                t.sessions[k] = Table.clone(t, t.sessions[k])
                t.sessions[k].defer_work = True
                jobs[k] = []
                rebuilt += 1
        speak_lazily(t, jobs)
    raise AssertionError("the match did not end")


def deal_releases(bodies: list[bytes]) -> list[tuple[int, tuple[str, int], int]]:
    """Every deal message but a proof in the chain ``bodies``, in order, as (seat, (its
    kind, its ordinal among that seat's messages of that kind), the actions applied
    before it: those of earlier entries, and its own entry's when it rides in ``p``,
    ``b`` (next-deck/v1) or ``r`` (late-reveal/v1), applied after the action)."""
    out: list[tuple[int, tuple[str, int], int]] = []
    count: dict[tuple[int, str], int] = {}
    actions = 0
    for b in bodies:
        e = wire.open_entry(b)
        if e.kind != "turn":
            continue
        acted = isinstance(e.fields.get("a"), dict)
        for field in ("d", "p", "b", "r"):  # r: late-reveal/v1, applied last
            if field == "p" and acted:
                actions += 1
            for d in e.fields.get(field) or []:
                item = parse_item(d)
                if item is None or isinstance(item, ProofItem):
                    continue
                t = item.type
                k = count.get((e.seat, t), 0)
                count[(e.seat, t)] = k + 1
                out.append((e.seat, (t, k), actions))
    return out
