"""Game records: a JSON Lines format for finished hands and matches (like PGN for chess).

One JSON object per line.  Every finished hand gives a ``"type": "hand"`` object; the end
of a match gives a ``"type": "match"`` object.  A file may hold several matches, one after
the other; ``"match"`` numbers them from 1.  Cards are canonical text (``"7D"``); seats
are integers in playing order; sides are integers (at 4 players side 0 = seats 0 and 2).

Hand object (keys)::

    type "hand", match, number (1-based), ruleset {...}, players, seats [names],
    teams [[seats of side 0], [seats of side 1], ...], dealer, cutter,
    redeals: [{"table": [cards], "events": [...]} for each abandoned opening],
    events: [ {"deal": {"to": [seat|null...], "cards": [card|null...], "draw": bool}}
            | {"cut": {"seat": s, "keep": bool, "card": card|null}}
            | {"play": {"seat": s, "card": c, "capture": [cards], "chkobba": bool}}
            | {"sweep": {"seat": s|null, "cards": [cards]}} ... ],
    opening_table: [cards], piles: [[cards of side 0], ...],
    score: {cards, diamonds, sevens, sixes, primiera, categories, chkobbas, points},
    totals: [running total per side]

Match object: type "match", match, ruleset, players, seats, teams, first_dealer, hands,
totals, winner (side), result (a fixed English summary, "seat 0 wins 11-7", kept as it
always was for the readers of older records; it is no words for a person: a client words
the result from ``winner``, ``totals``, ``teams`` and ``seats``, in its reader's language).

Records are written with every card known (simulation, and the audit of a log once every
deck's seeds are open); :func:`replay_records` checks them through the rules engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ChkobbaError, CodedLocalError
from .cards import Card, card
from .errors import shown
from .events import CutEvent, DealEvent, PlayEvent, SweepEvent
from .hand import Hand
from .match import Match
from .ruleset import Ruleset
from .seating import Seating

__all__ = [
    "Record",
    "RecordError",
    "RECORD_PROBLEMS",
    "MatchRecorder",
    "hand_record",
    "match_record",
    "teams",
    "read_records",
    "write_records",
    "replay_records",
]

#: A record object, as it is written in JSON.
Record = dict[str, Any]

#: Largest record line accepted when reading (a hand is a few kilobytes).
MAX_LINE = 256 * 1024


#: Every :attr:`RecordError.code`, with the keys of its :attr:`~RecordError.data`
#: (``line``: a line's number in the file, from 1; ``max``: the most characters a line
#: holds; ``hand``: the hand's ``number`` as the record gives it, its ``repr`` when it
#: is no number; ``event``: an event's kind as the record gives it, its ``repr``).
#: A record file comes from outside: each is a clear error, never a traceback.  A code
#: is never renamed; a client words each (the terminal client: ``rc_`` + the code).
RECORD_PROBLEMS: dict[str, tuple[str, ...]] = {
    # Reading a file (read_records).
    "line_too_long": ("line", "max"),
    "not_json": ("line",),
    "not_a_record": ("line",),  # JSON, but no hand or match object
    # Replaying it (replay_records): what it claims that the rules do not give.
    "chkobba_flag": ("hand",),
    "sweep_too_early": ("hand",),
    "unknown_event": ("hand", "event"),
    "hand_after_match": ("hand",),
    "redeal_not_due": ("hand",),
    "hand_unfinished": ("hand",),  # its events stop before the hand ends
    "hand_disagrees": ("hand",),  # dealer, piles, score or totals
    "result_too_early": (),  # a match result before its match is over
    "result_disagrees": (),
    "malformed": (),  # a field missing or of the wrong kind, or a move the rules refuse
    # Writing one (match_record): its caller's mistake.
    "match_not_over": (),
}


class RecordError(CodedLocalError, ValueError):
    """A record that is malformed or does not replay to what it claims (see
    :data:`RECORD_PROBLEMS`); a ValueError, as it always was."""

    CODES = RECORD_PROBLEMS
    code = "record_error"


def teams(players: int) -> list[list[int]]:
    seating = Seating.of(players)
    return [list(seating.seats_of(side)) for side in range(seating.sides)]


def _cards(cs: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else c.text for c in cs]


def _event(e: object) -> Record:
    if isinstance(e, DealEvent):
        return {"deal": {"to": list(e.recipients), "cards": _cards(e.cards), "draw": e.draw}}
    if isinstance(e, CutEvent):
        return {"cut": {"seat": e.seat, "keep": e.keep,
                        "card": None if e.card is None else e.card.text}}
    if isinstance(e, PlayEvent):
        return {"play": {"seat": e.seat, "card": e.card.text,
                         "capture": _cards(sorted(e.capture)), "chkobba": e.chkobba}}
    if isinstance(e, SweepEvent):
        return {"sweep": {"seat": e.seat, "cards": _cards(e.cards)}}
    raise TypeError(f"not a hand event: {e!r}")


def _opening_table(hand: Hand) -> list[str | None]:
    """The four table cards the first player faced (dealt face up: never None)."""
    table: list[Card | None] = []
    for e in hand.events:
        if isinstance(e, CutEvent) and e.card is not None:
            table.append(e.card)
        elif isinstance(e, DealEvent) and not e.draw:
            table.extend(c for who, c in zip(e.recipients, e.cards) if who is None)
            return _cards(table)
    return _cards(table)


def hand_record(hand: Hand, *, match: int, number: int, totals: Sequence[int],
                seats: Sequence[str], redeals: Sequence[Hand] = ()) -> Record:
    """The record object of a finished hand."""
    score = hand.score
    return {
        "type": "hand",
        "match": match,
        "number": number,
        "ruleset": hand.ruleset.to_dict(),
        "players": hand.players,
        "seats": list(seats),
        "teams": teams(hand.players),
        "dealer": hand.dealer,
        "cutter": hand.cutter,
        "redeals": [{"table": _cards(r.table), "events": [_event(e) for e in r.events]}
                    for r in redeals],
        "events": [_event(e) for e in hand.events],
        "opening_table": _opening_table(hand),
        "piles": [_cards(p) for p in hand.side_piles()],
        "score": score.to_dict(),
        "totals": list(totals),
    }


def result_sentence(winner: int, totals: Sequence[int], players: int) -> str:
    """The match record's ``result`` field (the file format's fixed English, byte for byte
    as older versions wrote it), and the observer's developer's English in a verdict's
    :attr:`~chkobba_p2p.observe.verdict.Verdict.reason`: never a person's words (the
    terminal client words a result from the winner and the totals)."""
    who = f"team {winner + 1} (seats {' & '.join(map(str, teams(players)[winner]))})" \
        if Seating.of(players).teams else f"seat {winner}"
    return f"{who} wins {'-'.join(map(str, totals))}"


def match_record(m: Match, *, match: int, seats: Sequence[str]) -> Record:
    """The closing record object of a won match."""
    if m.winner is None:
        raise RecordError("the match is not over", code="match_not_over")
    return {
        "type": "match",
        "match": match,
        "ruleset": m.ruleset.to_dict(),
        "players": m.players,
        "seats": list(seats),
        "teams": teams(m.players),
        "first_dealer": m.first_dealer,
        "hands": len(m.results),
        "totals": list(m.totals),
        "winner": m.winner,
        "result": result_sentence(m.winner, m.totals, m.players),
    }


@dataclass
class MatchRecorder:
    """Collects the record objects of one match while it is played."""

    match: int
    seats: Sequence[str]
    records: list[Record] = field(default_factory=list)
    _redeals: list[Hand] = field(default_factory=list)

    def note_redeal(self, hand: Hand) -> None:
        """Remember an abandoned opening (``hand.needs_redeal``) for the next hand record."""
        self._redeals.append(hand)

    def note_hand(self, finished: Match, hand: Hand) -> None:
        """Record ``hand`` just scored into ``finished`` (the match after finish_hand)."""
        self.records.append(hand_record(
            hand, match=self.match, number=len(finished.results), totals=finished.totals,
            seats=self.seats, redeals=self._redeals))
        self._redeals = []
        if finished.is_over:
            self.records.append(match_record(finished, match=self.match, seats=self.seats))


def write_records(path: str | Path, records: Iterable[Record], append: bool = False) -> None:
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_records(path: str | Path) -> Iterator[Record]:
    """The objects of a record file, one per line; RecordError on a malformed line."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if len(line) > MAX_LINE:
                raise RecordError(f"line {lineno}: longer than {MAX_LINE} characters",
                                  code="line_too_long", data={"line": lineno, "max": MAX_LINE})
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"line {lineno}: not JSON ({exc.msg})", code="not_json",
                                  data={"line": lineno}) from None
            if not isinstance(obj, dict) or obj.get("type") not in ("hand", "match"):
                raise RecordError(f"line {lineno}: not a hand or match record",
                                  code="not_a_record", data={"line": lineno})
            yield obj


def _card_or_none(text: str | None) -> Card | None:
    return None if text is None else card(text)


def _drive(hand: Hand, events: list[Record], number: object) -> Hand:
    """Apply recorded events to ``hand`` through the engine, checking what it derives."""
    for ev in events:
        (kind, body), = ev.items()
        if kind == "deal":
            hand = hand.deal([_card_or_none(c) for c in body["cards"]])
        elif kind == "cut":
            hand = hand.choose_cut(body["keep"], _card_or_none(body["card"]))
        elif kind == "play":
            n = len(hand.events)
            hand = hand.play(body["seat"], card(body["card"]),
                             [card(c) for c in body["capture"]])
            played = hand.events[n]
            if not isinstance(played, PlayEvent) or played.chkobba != body["chkobba"]:
                raise RecordError(f"hand {number}: chkobba flag disagrees with the rules",
                                  code="chkobba_flag", data={"hand": shown(number)})
        elif kind == "sweep":
            if not hand.is_over:
                raise RecordError(f"hand {number}: a sweep before the end of the hand",
                                  code="sweep_too_early", data={"hand": shown(number)})
        else:
            raise RecordError(f"hand {number}: unknown event {kind!r}", code="unknown_event",
                              data={"hand": shown(number), "event": shown(kind)})
    return hand


def _current_hand(m: Match, number: object) -> Hand:
    if m.hand is None:
        raise _after_match(number)
    return m.hand


def _after_match(number: object) -> RecordError:
    return RecordError(f"hand {number}: a hand record after its match ended",
                       code="hand_after_match", data={"hand": shown(number)})


def _canonical(obj: Record) -> str:
    # JSON text, so that 1 and true, or 1 and 1.0, are told apart.
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def replay_records(records: Iterable[Record]) -> list[Record]:
    """Re-drive every recorded hand through the engine and re-emit the records.

    Raises :class:`RecordError` at the first disagreement (an illegal move, a wrong
    score or total, a redeal that was not due); for a faithful record the returned list
    equals the input.
    """
    out: list[Record] = []
    m: Match | None = None
    recorder: MatchRecorder | None = None
    for rec in records:
        try:
            if rec["type"] == "hand":
                number = rec["number"]
                if m is None:
                    ruleset = Ruleset.from_dict(rec["ruleset"])
                    m = Match.new(ruleset, rec["players"], rec["dealer"])
                    recorder = MatchRecorder(rec["match"], rec["seats"])
                if recorder is None or m.hand is None:
                    raise _after_match(number)
                for abandoned in rec["redeals"]:
                    h = _drive(_current_hand(m, number), abandoned["events"], number)
                    if not h.needs_redeal:
                        raise RecordError(f"hand {number}: a recorded redeal was not due",
                                          code="redeal_not_due", data={"hand": shown(number)})
                    recorder.note_redeal(h)
                    m = m.with_hand(h).redeal()
                hand = _drive(_current_hand(m, number), rec["events"], number)
                if not hand.is_over:
                    raise RecordError(f"hand {number}: the events stop before the hand ends",
                                      code="hand_unfinished", data={"hand": shown(number)})
                m = m.with_hand(hand).finish_hand()
                recorder.note_hand(m, hand)
                idx = -2 if m.is_over else -1
                if _canonical(recorder.records[idx]) != _canonical(rec):
                    raise RecordError(f"hand {number}: the record disagrees with a replay "
                                      "(dealer, piles, score or totals)",
                                      code="hand_disagrees", data={"hand": shown(number)})
                if not m.is_over:
                    out.extend(recorder.records)
                    recorder.records = []
            else:
                if m is None or recorder is None or not m.is_over:
                    raise RecordError("a match result before its match is over",
                                      code="result_too_early")
                if _canonical(recorder.records[-1]) != _canonical(rec):
                    raise RecordError("the match result disagrees with a replay",
                                      code="result_disagrees")
                out.extend(recorder.records)
                m, recorder = None, None
        except RecordError:
            raise
        except (ChkobbaError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"malformed or illegal record: {exc}",
                              code="malformed") from None
    if recorder is not None:
        out.extend(recorder.records)
    return out
