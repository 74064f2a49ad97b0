""""Is it rigged?": luck against play in a few sentences (``chkobba replay --luck``, the
end screen's ``l``, ``chkobba history --luck``), from :func:`chkobba_p2p.observe.luck.luck_of`.

The account is the library's numbers worded: the value of the cards dealt to each side
(a fixed table, said in one line), the points each side's play gave away against the
coach's best, and whether every deal was shuffled by all and checked -- the audit's
verdict, never more than it proves.  ``you`` is the side of the log's writer (a log in
the data folder is this player's own copy); without one, the sides are named."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from chkobba_p2p.observe.audit import AuditReport, audit_log
from chkobba_p2p.observe.luck import Luck, luck_of
from chkobba_p2p.observe.review import DEFAULT_LIMIT, DEFAULT_SAMPLES
from chkobba_p2p.text import safe_text

from .i18n import Translator

__all__ = ["luck_lines", "writer_seat", "account"]


def writer_seat(report: AuditReport) -> int | None:
    """The seat whose peer wrote the log (its unsigned header), if it names one."""
    seat = report.header.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < report.players:
        return seat
    return None


def luck_lines(t: Translator, luck: Luck, names: Sequence[str], me: int | None) -> list[str]:
    """The account, a sentence a line.  ``names``: the seats' names; ``me``: the reader's
    seat (its side is "you" when there are two sides), or None."""
    if not luck.sides:
        return [t("luck_unproven", verdict=luck.verdict.upper())]
    if luck.hands == 0:  # nothing dealt was played out: only the deal's word is left
        return [t("luck_no_hand"), _deal_line(t, luck)]
    out = [t("luck_title_1") if luck.hands == 1 else t("luck_title", n=luck.hands)]
    mine = next((s for s in luck.sides if me is not None and me in s.seats), None)
    fair = t.number(luck.fair, 1)
    if mine is not None and len(luck.sides) == 2:
        other = luck.sides[1 - mine.side]
        out.append(t("luck_dealt_you", you=t.points(mine.dealt, 1),
                     them=t.number(other.dealt, 1), fair=fair))
        out.append(t("luck_play_you", you=t.points(mine.loss, 1),
                     them=t.number(other.loss, 1)))
    else:
        def who(seats: Sequence[int]) -> str:
            return " & ".join(safe_text(names[s], 40) if s < len(names) else f"seat {s}"
                              for s in seats)
        out.append(t("luck_dealt_names", fair=fair, list=", ".join(
            f"{who(s.seats)} {t.number(s.dealt, 1)}" for s in luck.sides)))
        out.append(t("luck_play_names", list=", ".join(
            f"{who(s.seats)} {t.number(s.loss, 1)}" for s in luck.sides)))
    if luck.cut_short:
        out.append(t("luck_limit", graded=luck.graded, decisions=luck.decisions))
    out.append(_deal_line(t, luck))
    out.append(t("luck_how"))
    return out


def _deal_line(t: Translator, luck: Luck) -> str:
    """Whether every deal was shuffled by all and checked: no more than the audit proves."""
    by = t("luck_by_2") if luck.shufflers == 2 else t("luck_by_n", n=luck.shufflers)
    if luck.proven:
        return t("luck_proven", by=by)
    if luck.fair_deal:
        return t("luck_checked", by=by)
    return t("luck_unproven", verdict=luck.verdict.upper())


def account(log: Path | str, t: Translator, *, me: int | None = None, writer: bool = True,
            limit: int | None = DEFAULT_LIMIT, samples: int = DEFAULT_SAMPLES,
            workers: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Audit ``log``, ask the coach, and word it (blocking: seconds; run it off the screen's
    thread).  ``me``: the reader's seat (None: the log's writer's, or with ``writer``
    False, nobody's: the sides are named).  Raises
    :class:`~chkobba_p2p.wire.logfile.LogUnreadable` for a file that is not a log."""
    report = audit_log(log, workers=workers)
    luck = luck_of(report, limit=limit, samples=samples, progress=progress)
    if me is None and writer:
        me = writer_seat(report)
    return luck_lines(t, luck, report.names, me)
