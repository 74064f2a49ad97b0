"""Shared helpers for the audit tests (no tests here): whole matches between in-process
sessions (the library's own :class:`Session`, real signatures and real deal crypto), with
a hook that lets one seat cheat *before it signs*, so that the logs hold validly signed
cheating entries exactly as a dishonest peer would produce them."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from chkobba_p2p.bots.levels import make_bot
from chkobba_p2p.game.rules import PRESETS, Ruleset
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import AuditReport
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import CAP_PROOF_APART, SPOKEN
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import Phase
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode, Identity, ProtocolError
from chkobba_p2p.wire.logfile import TranscriptWriter

#: ``hook(session)`` runs just before ``session`` signs its next entry; it may change
#: what the seat is about to sign: ``session.game._out`` (the deal items) and
#: ``session._decided`` (the action: a ``PlayAction`` or ``CutAction``).  Return True once
#: it has cheated.
Hook = Callable[[Session], bool]


@dataclass
class Played:
    """An in-process match: every seat's session (their ``bodies`` are their logs)."""

    sessions: list[Session]
    identities: list[Identity]
    events: list[list[object]] = field(default_factory=list)
    cheated_at: int | None = None  # transcript index of the cheating entry

    def write_log(self, path: Path, seat: int = 0) -> Path:
        s = self.sessions[seat]
        w = TranscriptWriter(path)
        w.write_header(game=s.table.game, seat=seat, key=self.identities[seat].public,
                       name=s.table.seats[seat].name, host="in-process")
        for body in s.bodies:
            w.append(body)
        w.close()
        return path


def make_sessions(n: int, rules: Ruleset, proofs: bool, key: bytes | None = None,
                  apart: bool = False, without: tuple[str, ...] = ()
                  ) -> tuple[list[Session], list[Identity]]:
    """A table of ``n`` in-process sessions.  With ``key``, everything a seat would draw at
    random (identity, game id, deal secrets) derives from it: the same key and bot seeds
    give the very same match.  ``apart``: the joiners speak proof-apart/v1 (with proofs,
    each proof then travels in a deal/proof of its own); by default they do not, and the
    proof travels in its deal/shuffle.  ``without``: capabilities the joiners do not
    announce (so the table does not play them)."""
    def derive(label: str) -> bytes:
        assert key is not None
        return hashlib.sha256(key + b"/" + label.encode()).digest()

    if key is None:
        ids = [Identity.generate() for _ in range(n)]
        masters: list[bytes | None] = [None] * n
    else:
        ids = [Identity.from_seed(derive(f"identity {i}")) for i in range(n)]
        masters = [derive(f"master {i}") for i in range(n)]
    lobby = Lobby(ids[0], "host", rules, n, shuffle_proofs=proofs)
    for i in range(1, n):
        lobby.take_seat(ids[i].public, f"peer{i}",
                        tuple(c for c in SPOKEN if c not in without
                              and (apart or c != CAP_PROOF_APART)))
    if key is not None:
        lobby.game = derive("game")[:16]
    table = lobby.table()
    host, genesis = Session.create(ids[0], table, masters[0])
    return [host] + [Session.join(ids[i], genesis, ids[0].public, masters[i])
                     for i in range(1, n)], ids


def play(n: int = 2, *, rules: Ruleset | None = None, proofs: bool = False,
         key: bytes | None = None,
         cheater: int | None = None, hook: Hook | None = None,
         sessions: tuple[list[Session], list[Identity]] | None = None,
         stop_after: int | None = None, abort_by: int | None = None,
         abort_code: ErrorCode = ErrorCode.TIMEOUT, seed: int = 1,
         cheater_rules: Ruleset | None = None, levels: tuple[str, ...] = ("greedy",),
         apart: bool = False, without: tuple[str, ...] = ()) -> Played:
    """Play a match between in-process sessions with greedy bots.

    ``cheater``/``hook``: the hook changes what that seat signs (see :data:`Hook`).  The
    honest seats react as a real peer does: a refused entry makes the receiver sign an
    ``abort`` blaming the seat at fault, which every other seat receives.
    ``cheater_rules``: the cheater's own session plays by these rules instead of the
    table's (its engine then lets it make moves the table's rules forbid).
    ``stop_after``: after that many transcript entries, ``abort_by`` signs an abort with
    ``abort_code`` blaming the seat holding the floor (a timeout), and the game ends;
    with ``ErrorCode.RESIGNED``, ``abort_by`` resigns instead; with
    ``ErrorCode.PEER_LEFT``, ``abort_by`` leaves the match (an abort against itself).
    ``levels``: bot levels, cycled over the seats.  ``key``, ``without``: see
    :func:`make_sessions`."""
    if sessions is None:
        sessions = make_sessions(n, rules or PRESETS["tunisian"], proofs, key, apart, without)
    ss, ids = sessions
    if cheater is not None and cheater_rules is not None:
        c = ss[cheater]
        genesis = wire.open_entry(c.bodies[0])
        # Its own master secret: with a ``key`` the match stays the very same each run.
        ss[cheater] = Session(ids[cheater], replace(c.table, rules=cheater_rules), cheater,
                              genesis, c.master)
    bots = [make_bot(levels[i % len(levels)], seed + i) for i in range(n)]
    played = Played(ss, ids, [[] for _ in range(n)])
    cheated = False

    def broadcast(sender: int, entry: wire.Entry) -> None:
        # As the host relays: every seat gets the entry before anyone's abort about it.
        aborts = []
        for j, other in enumerate(ss):
            if j == sender or other.finished:
                continue
            try:
                other.receive(entry)
            except GameFault as fault:
                # As a seat's shell does: its own check's finding is proven.
                aborts.append((j, other.abort(fault.error_code, fault.blamed_seat,
                                              fault.detail, fault.evidence, proven=True,
                                              violation=fault.violation,
                                              facts=fault.facts)))
            except ProtocolError as err:
                aborts.append((j, other.abort(err.error_code, 0, err.detail, entry.body)))
            played.events[j].extend(other.take_events())
        for j, ab in aborts:
            broadcast(j, ab)

    for _ in range(100_000):
        if all(s.finished for s in ss):
            break
        live = [s for s in ss if not s.finished]
        if stop_after is not None and live[0].length >= stop_after:
            who = abort_by if abort_by is not None else 0
            s = ss[who]
            if abort_code == ErrorCode.RESIGNED:
                ab = s.resign()
            elif abort_code == ErrorCode.PEER_LEFT:  # it leaves: against itself
                ab = s.abort(abort_code, who, "the player left")
            else:
                ab = s.abort(abort_code, s.floor, f"seat {s.floor} did not send in time")
            broadcast(who, ab)
            break
        progressed = False
        for i, s in enumerate(ss):
            if s.finished or s.floor != i:
                continue
            d = s.decision
            if d is not None:
                bot = bots[i]
                s.decide(bot.choose_play(d.hand) if d.kind == "play" else bot.choose_cut(d.hand))
            if hook is not None and i == cheater and not cheated and s.phase == Phase.PLAYING:
                cheated = hook(s)
                if cheated:
                    played.cheated_at = s.length
            try:
                entry = s.next_entry()
            except GameFault:
                # The cheater's own engine refuses what it signed (a forged move): it is
                # signed and in its transcript all the same; send it.
                entry = wire.open_entry(s.bodies[-1])
            played.events[i].extend(s.take_events())
            if entry is None:
                continue
            progressed = True
            broadcast(i, entry)
        if not progressed:
            break
    return played


@functools.cache
def played_once(n: int = 2, *, seed: int = 1, key: bytes, rules: Ruleset | None = None,
                proofs: bool = False, levels: tuple[str, ...] = ("greedy",),
                stop_after: int | None = None, abort_by: int | None = None,
                abort_code: ErrorCode = ErrorCode.TIMEOUT) -> Played:
    """The match :func:`play` plays with these arguments (a ``key``: deterministic), played
    once per test process and shared by every test that asks for it: most of a test that
    reads a whole match (its bodies, its log, its seats) is playing it.  Read only: a test
    that feeds its sessions more, or changes its lists, calls :func:`play`."""
    return play(n, seed=seed, key=key, rules=rules, proofs=proofs, levels=levels,
                stop_after=stop_after, abort_by=abort_by, abort_code=abort_code)


def a_match(n: int) -> Played:
    """A whole match at ``n`` players (greedy bots, the Tunisian rules to 11), played once
    per test process (:func:`played_once`) for every test that reads a match and needs
    nothing particular of it: the client's words, screens and pages.  Read only."""
    return played_once(n, seed=3, key=b"watch-end-box")


def said(report: AuditReport, lang: str = "en") -> str:
    """An audit's result as the client words it (``chkobba replay``'s last line): the
    library gives data (:meth:`AuditReport.result`), the words are the client's."""
    from chkobba_cli.words.event_words import words
    from chkobba_cli.words.i18n import Translator
    return words(report.result(), Translator(lang))


def verdict_said(report: AuditReport, lang: str = "en") -> str:
    """How the match ended, in the players' names (the verdict, without the audit's
    head): the client's words for :attr:`AuditReport.outcome`."""
    from chkobba_cli.words.event_words import words
    from chkobba_cli.words.i18n import Translator
    if report.outcome is None:
        return report.reason
    return words(report.outcome, Translator(lang), names=report.names)
