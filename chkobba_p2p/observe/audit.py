"""Audit a game's signed log: check everything, from the outside, with no seat and no secret.

One peer's log file (PROTOCOL.md, "The log file") holds every seat's signed entries, so
it is enough to audit the whole match.  :func:`audit_log` replays it through an
:class:`~chkobba_p2p.observe.observer.Observer`: the same session, game driver, deal and
rules-engine code every peer runs (:mod:`chkobba_p2p.transcript.session`, :mod:`chkobba_p2p.deal`,
:mod:`chkobba_p2p.game.rules`), fed every seat's entries and holding none of their secrets:

* the file's framing and size, then for every entry: its signature with the key the
  genesis gives its seat, the hash chain, the floor, the sequence numbers;
* the genesis: protocol version, ruleset and its hash, seats and keys; every ``ready``;
* every deal message of every seat: key proofs, shuffle proofs, decryption-share proofs,
  plays, complaints, and at the end of every deck the opened seeds against their
  commitments with every shuffle step recomputed;
* every move and cut with the rules engine, every hand's score, the match result and
  every seat's signed ``done``.

Once a deck's seeds are open the auditor knows every card of it, so after each hand it
replays the hand once more *with every hand known* (the players themselves cannot: they
never see each other's cards).  That also checks the forced-capture variant, which no
live peer can check for an opponent.  The full-knowledge replay gives the game records
(:mod:`chkobba_p2p.game.record`).

The verdict (:class:`AuditReport`): **valid** (complete and correct), **invalid** (the
first violation: the entry, the code, the seat to blame when a signature proves who did
it, a sentence) or **incomplete** (no violation, but the match did not finish: an abort,
a truncated file), or **unsupported** (the table plays a capability this auditor does
not know: it cannot audit the match, and blames no one).  A file that is not a log at all
raises :class:`~chkobba_p2p.wire.logfile.LogUnreadable`.  :meth:`AuditReport.result` is
the verdict and why as data (:class:`AuditResult`); the library words nothing for people:
a client says it in its players' names and language.

An ``abort`` that ended the game is the peers' claim.  When it carries as evidence an entry
this log lacks (its writer got the abort first), that entry is checked as the next one:
a violation in it is blamed as usual, and an entry that passes refutes the claim.  If the
game ended before every seed of the last deck was opened, the seeds that were are checked
anyway (a peer that found a shuffle mismatch stops before sending its own seed).  Under
late-reveal/v1 a hand scored at its last play counts even when the game ended before its
reveals were in (they were not due): its record comes from the cards its plays showed,
and the audit's totals are the ones the peers showed (PROTOCOL.md 6.2, 14).

Shuffle proofs are most of the work.  Each deck's wait for its seeds: once they are open
and every step recomputed, the witness makes each proof's check a third cheaper, exactly
(:func:`chkobba_p2p.deal.shuffle_proof.verify_shuffle`'s ``opened``); a deck whose seeds never
all open has its proofs checked in full at the end.  With :func:`audit_log`'s ``workers``
(by default, on a machine of two cores or more) worker processes check them while the
replay goes on.  The earliest refused proof is still the first violation: the verdict is
the same either way.

The checking is :class:`chkobba_p2p.observe.observer.Observer`'s, the library's public observer
(the one a spectator runs live); this module reads the file and reports.

Blame in a log: an entry that is correctly signed and extends the chain but breaks a rule
is its signer's (or, for the deal, the seat the deal's checks name).  An entry whose
signature fails, or that does not extend the chain (dropped, reordered, spliced), cannot
be pinned on a seat: no honest peer logs such an entry, so the file was altered after it
was written; it is reported as tampering with no seat blamed -- except an entry that
verifies under *another* seat's key, which that seat signed in someone else's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..deal.messages import item_label
from ..game.cards import Card
from ..transcript.table import TableInfo
from ..wire import codec as wire
from ..wire.codec import ProtocolError
from ..wire.logfile import read_log
from .observer import Observer
from .proofs import default_workers
from .verdict import (
    INCOMPLETE,
    INVALID,
    UNSUPPORTED,
    VALID,
    AbortClaim,
    Note,
    Verdict,
)

__all__ = [
    "VALID",
    "INVALID",
    "INCOMPLETE",
    "UNSUPPORTED",
    "EXIT_VALID",
    "EXIT_INVALID",
    "EXIT_USAGE",
    "EXIT_INCOMPLETE",
    "EXIT_UNSUPPORTED",
    "AbortClaim",
    "AuditResult",
    "AuditReport",
    "audit_log",
    "audit_bodies",
    "default_workers",
]

#: Exit statuses of ``chkobba replay`` (also :attr:`AuditReport.exit_code`).
EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3
#: The table plays a capability this auditor does not know: it cannot audit the match,
#: and blames no one (:data:`~chkobba_p2p.observe.observer.UNSUPPORTED`).
EXIT_UNSUPPORTED = 4

# ---------------------------------------------------------------------------- report


@dataclass(frozen=True)
class AuditResult:
    """An audit's result as data (:meth:`AuditReport.result`): the verdict and why, with
    the players' names, and no sentence.  A client words it for people, in its players'
    names and its language (the terminal client: ``chkobba_cli.words.event_words.words``, the
    line ``chkobba replay`` and ``chkobba history`` print); a program reads the fields.
    :meth:`to_json` and :meth:`from_json` keep it as plain JSON (the history's cache).

    ``verdict``, ``code``, ``entry``, ``blamed`` and ``reason`` are the
    :class:`AuditReport`'s (``reason`` the observer's own sentence, in seat numbers: for
    logs and JSON, and for a violation, whose check no name changes); ``entries`` how
    many entries were read; ``names`` and ``fingerprints`` the seats' (the genesis's
    order; empty when the log has no readable genesis); ``outcome`` the observer's
    :class:`Verdict` (None for a file it never read); ``abort`` the abort that ended the
    game (the first, with what the log shows of it), if any."""

    verdict: str
    code: str | None
    entries: int
    names: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()
    entry: int | None = None
    blamed: int | None = None
    reason: str = ""
    outcome: Verdict | None = None
    abort: AbortClaim | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data for JSON (:meth:`from_json` reads it back)."""
        d = asdict(self)
        for k in ("names", "fingerprints"):
            d[k] = list(d[k])
        if self.outcome is not None:
            d["outcome"]["totals"] = list(self.outcome.totals)
            d["outcome"]["unknown_caps"] = list(self.outcome.unknown_caps)
            d["outcome"]["facts"] = [list(f) for f in self.outcome.facts]
        if self.abort is not None:
            d["abort"]["facts"] = [list(f) for f in self.abort.facts]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AuditResult:
        """The result :meth:`to_json` gave.  Raises KeyError, TypeError or ValueError for
        anything else (a cache written by another format is not read)."""
        def opt_int(x: object) -> int | None:
            return None if x is None else _int(x)

        def opt_str(x: object) -> str | None:
            return None if x is None else _str(x)
        o, a = d["outcome"], d["abort"]
        outcome = None if o is None else Verdict(
            _str(o["verdict"]), opt_str(o["code"]), _str(o["reason"]),
            blamed=opt_int(o["blamed"]), entry=opt_int(o["entry"]),
            standing=opt_str(o["standing"]), by_seat=opt_int(o["by_seat"]),
            winner=opt_int(o["winner"]), totals=tuple(_int(x) for x in o["totals"]),
            loser=opt_int(o["loser"]),
            unknown_caps=tuple(_str(x) for x in o["unknown_caps"]),
            finding=opt_str(o.get("finding")),
            facts=tuple((_str(k), _fact(v)) for k, v in o.get("facts", ())),
            violation=opt_str(o.get("violation")))
        abort = None if a is None else AbortClaim(
            _int(a["index"]), _int(a["by_seat"]), _str(a["code"]), opt_int(a["blamed"]),
            _str(a["why"]), _str(a["standing"]), bool(a["on_time"]),
            opt_str(a.get("violation")),
            tuple((_str(k), _fact(v)) for k, v in a.get("facts", ())))
        return cls(_str(d["verdict"]), opt_str(d["code"]), _int(d["entries"]),
                   tuple(_str(x) for x in d["names"]),
                   tuple(_str(x) for x in d["fingerprints"]),
                   opt_int(d["entry"]), opt_int(d["blamed"]), _str(d["reason"]),
                   outcome, abort)


def _fact(x: object) -> str | int:
    return x if isinstance(x, str) else _int(x)


def _int(x: object) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        raise TypeError(f"not an integer: {x!r}")
    return x


def _str(x: object) -> str:
    if not isinstance(x, str):
        raise TypeError(f"not a string: {x!r}")
    return x


@dataclass
class AuditReport:
    """What :func:`audit_log` found.

    ``verdict``: :data:`VALID`, :data:`INVALID`, :data:`INCOMPLETE` or :data:`UNSUPPORTED`
    (``code`` ``unknown_capability``; :attr:`outcome`'s ``unknown_caps`` the capabilities
    this auditor does not know; nobody blamed).  For an invalid log,
    ``entry`` is the index (0 = the genesis) of the first offending entry, ``code`` the
    wire code name (``illegal_move``, ``deal_failure``, ``bad_signature``...), ``blamed``
    the seat to blame or None when no signature pins it on a seat (the file was altered),
    ``reason`` a sentence.  For an incomplete one, ``code`` is ``aborted`` (with the
    :attr:`aborts` that ended the game) or ``truncated`` or ``unfinished``.

    ``records`` are the game records (:mod:`chkobba_p2p.game.record`) of every hand the audit
    completed, with every card known, and the match record once the match is complete.
    """

    path: str
    verdict: str
    code: str | None = None
    blamed: int | None = None
    reason: str = ""
    entry: int | None = None
    entries: int = 0
    header: dict[str, Any] = field(default_factory=dict)
    table: TableInfo | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    draws: list[dict[int, Card]] = field(default_factory=list)
    first_dealer: int | None = None
    aborts: list[AbortClaim] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    winner: int | None = None
    totals: tuple[int, ...] = ()
    #: The losing side of a match lost by a flag, a resignation, a leave or a conviction
    #: (an INVALID verdict whose blamed seat an entry it signed convicts while the match
    #: was played; at 3 players there may be a loser and no winner: the two others were
    #: level).
    loser: int | None = None
    #: The abort that ended the game gave as evidence an entry that passes every check.
    claim_refuted: bool = False
    #: For an aborted log: what the log shows of the abort's accusation (a
    #: :class:`~chkobba_p2p.transcript.events.Standing`); ``blamed`` is set only when the log
    #: supports it (the seat owed the next message, or it left on its own).
    standing: str | None = None
    #: For an invalid log: the offending entry in a few words (kind, signer, contents).
    offending: str | None = None
    #: The seats that signed at least one entry the audit accepted (the genesis is seat
    #: 0's): a seat's name in the genesis is the host's word about it, and counts as that
    #: key's name only where the key itself signed (history's names_by_key).
    signers: tuple[int, ...] = ()
    #: The observer's verdict itself (data; a client words it: :meth:`result`).
    outcome: Verdict | None = None

    @property
    def exit_code(self) -> int:
        return {VALID: EXIT_VALID, INVALID: EXIT_INVALID, INCOMPLETE: EXIT_INCOMPLETE,
                UNSUPPORTED: EXIT_UNSUPPORTED}[self.verdict]

    @property
    def players(self) -> int:
        return self.table.players if self.table else 0

    @property
    def names(self) -> list[str]:
        """The players' names, in seat order (none before the genesis is read)."""
        return [s.name for s in self.table.seats] if self.table is not None else []

    def result(self) -> AuditResult:
        """The verdict and why, as data (:class:`AuditResult`): what a client words for
        people, in its players' names and language, and what a cache keeps."""
        seats = self.table.seats if self.table is not None else ()
        return AuditResult(
            self.verdict, self.code, self.entries,
            names=tuple(s.name for s in seats),
            fingerprints=tuple(s.fingerprint for s in seats),
            entry=self.entry, blamed=self.blamed, reason=self.reason,
            outcome=self.outcome, abort=self.aborts[0] if self.aborts else None)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (the verdict; the records are separate)."""
        return {"path": self.path, "verdict": self.verdict, "code": self.code,
                "blamed": self.blamed, "reason": self.reason, "entry": self.entry,
                "entries": self.entries, "winner": self.winner, "totals": list(self.totals),
                "loser": self.loser,
                "standing": self.standing,
                "aborts": [a.__dict__ for a in self.aborts], "warnings": list(self.warnings)}


# ---------------------------------------------------------------------------- audit


def audit_log(path: str | Path, *, workers: int | None = None,
              batch: bool = True) -> AuditReport:
    """Audit the log file at ``path``.  Raises :class:`~chkobba_p2p.wire.logfile.LogUnreadable`
    if it is not a log.

    ``workers``: processes that check shuffle proofs while the audit goes on (default
    :func:`default_workers`: one per core beyond this process's own, none on one core; 0:
    everything in this process).  ``batch``: each deck's shuffle proofs are checked once
    its seeds are open, with them (cheaper; False, without workers: each in full as it
    comes, as a seat does; with workers the proofs always wait for their deck's seeds).
    The verdict is the same every way."""
    log = read_log(path)
    return audit_bodies(log.bodies, header=log.header, tail=log.tail, path=log.path,
                        workers=workers, batch=batch)


def _header_warnings(header: dict[str, Any], table: TableInfo) -> list[str]:
    out: list[str] = []
    game, seat, key = header.get("game"), header.get("seat"), header.get("key")
    spectator = header.get("spectator") is True and seat is None and key is None
    if game != table.game:
        out.append(Note("the log header names another game than the genesis (the header is "
                        "not signed)", "header_other_game"))
    if not spectator and not (isinstance(seat, int) and 0 <= seat < table.players
                              and table.seats[seat].key == key):
        out.append(Note("the log header's seat and key do not match the genesis (the header "
                        "is not signed)", "header_seat_mismatch"))
    return out


def _describe_entry(body: bytes) -> str:
    """An entry in a few words, for humans: what it claims to be and hold."""
    try:
        e = wire.open_entry(body)
    except ProtocolError:
        return f"{len(body)} bytes that are not a signed entry"
    f = e.fields
    out = f"{e.kind} entry n={e.seq} in seat {e.seat}'s name"
    items = f.get("d")
    if isinstance(items, list) and items:
        out += ", deal items " + " ".join(item_label(i) for i in items)
    action = f.get("a")
    after = f.get("p")  # shares-ride/v1: the items the entry caused, after its action
    if isinstance(action, dict):
        def show(k: str, v: object) -> str:
            def c(x: object) -> str:
                ok = isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 40
                return Card(x).text if ok else repr(x)  # type: ignore[arg-type]
            if k == "card":
                return f"card={c(v)}"
            if k == "take" and isinstance(v, list):
                return "take=[" + " ".join(c(x) for x in v) + "]"
            return f"{k}={v!r}"
        out += f", action {wire.message_type(action) or '?'} " + " ".join(
            show(k, v) for k, v in sorted(action.items()) if k != "t")
    if isinstance(after, list) and after:
        out += ", then deal items " + " ".join(item_label(i) for i in after)
    nxt = f.get("b")  # next-deck/v1: items for the next hand's deck, applied last
    if isinstance(nxt, list) and nxt:
        out += ", next deck items " + " ".join(item_label(i) for i in nxt)
    rev = f.get("r")  # late-reveal/v1: the reveal of the deck scored before its reveals
    if isinstance(rev, list) and rev:
        out += ", late reveal " + " ".join(item_label(i) for i in rev)
    if e.kind in ("done", "abort"):
        extra = {k: v for k, v in f.items() if k in ("result", "code", "blamed", "why")}
        out += f", {extra}"
    return out


def _signers(obs: Observer) -> tuple[int, ...]:
    """The seats that signed an entry the observer accepted: seat 0 its genesis, any
    seat a link of the chain or an abort (every abort it lists verified), from what it
    already holds (no entry is read again)."""
    session = obs.session
    if session is None:
        return ()
    seats = {0} | {a.by_seat for a in obs.aborts}
    seats |= {seat for seat, n in enumerate(session.chain.next_seq) if n > 0}
    return tuple(sorted(seats))


def audit_bodies(bodies: Sequence[bytes], *, header: dict[str, Any] | None = None,
                 tail: str | None = None, path: str = "<memory>",
                 workers: int | None = None, batch: bool = True) -> AuditReport:
    """Audit a transcript given as its entries' frame bodies (genesis first), as a log
    file holds them.  ``tail`` is how the file ended (see
    :class:`~chkobba_p2p.wire.logfile.LogFile`); ``workers``
    and ``batch`` as for :func:`audit_log`."""
    report = AuditReport(path, INCOMPLETE, header=dict(header or {}))
    obs = Observer(workers=default_workers() if workers is None else workers, batch=batch)
    try:
        for body in bodies:
            obs.feed(body)
            if obs.table is not None and report.table is None:
                report.table = obs.table
                if header is not None:
                    report.warnings.extend(_header_warnings(header, obs.table))
        v = obs.end(tail)
    finally:
        obs.close()
    if not bodies:
        v = Verdict(INCOMPLETE, "unfinished", "the log holds no entry, not even the genesis",
                    finding="empty_log")
    report.verdict, report.code, report.reason = v.verdict, v.code, v.reason
    report.outcome = v
    report.blamed, report.entry = v.blamed, v.entry
    report.entries = obs.stopped_at if obs.stopped_at is not None else len(bodies)
    report.warnings.extend(obs.warnings)
    report.aborts = sorted(obs.aborts, key=lambda a: a.index)
    report.claim_refuted = obs.claim_refuted
    report.standing = v.standing
    if v.verdict == INVALID and v.entry is not None and v.entry < len(bodies):
        report.offending = _describe_entry(bodies[v.entry])
    report.records = obs.kept_records()
    report.draws = list(obs.draws)
    report.first_dealer = obs.first_dealer
    report.totals, report.winner = obs.totals, obs.winner
    report.loser = v.loser
    report.signers = _signers(obs)
    if len(report.records) != len(obs.records):  # a late-found violation voids hands
        report.winner = None
        report.totals = tuple(report.records[-1]["totals"]) if report.records else ()
    if v.verdict == INVALID and v.loser is not None:
        # A seat convicted while the match was played: its side loses (PROTOCOL.md 12.7).
        report.winner = v.winner
    return report

