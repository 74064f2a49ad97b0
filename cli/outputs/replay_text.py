"""``chkobba replay``'s text: the audited match for a person (table, dealers, every
hand's points, the score sheet, the winner, why a game stopped) and the coach's review, in
the players' names, the game's card notation and the reader's language."""

from __future__ import annotations

from collections.abc import Callable

from chkobba_p2p import ErrorCode, Standing
from chkobba_p2p.game.cards import FigureConvention, card
from chkobba_p2p.game.seating import Seating
from chkobba_p2p.observe.audit import INVALID, VALID, AbortClaim, AuditReport
from chkobba_p2p.observe.review import Review

from ..words import coach
from ..words.event_words import note_words, words
from ..words.i18n import Translator, abort_reason, card_letters, ruleset_text
from . import scoresheet

__all__ = ["describe", "review_lines", "stop_line"]

_EN = Translator("en")  # the text's default language (the command follows --lang)


def _side(side: int, players: int, names: list[str]) -> str:
    """A side in people's words: a name at 2 and 3 players, "hana & sami" at 4."""
    return " & ".join(names[s] for s in Seating.of(players).seats_of(side))


class _Speaker:
    """Names and cards as the game showed them: seat names, and the card notation of the
    table's figures (``J♣``), or its ASCII form (``JC``) when symbols cannot be shown, in
    ``t``'s language's figure letters (``V♣`` in French)."""

    def __init__(self, names: list[str], figures: FigureConvention, symbols: bool,
                 t: Translator = _EN) -> None:
        self.names = names
        self.figures = figures
        self.symbols = symbols
        self.t = t

    def who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("vd_nobody") if seat is None else self.t("ab_seat", n=seat)

    def card(self, text: object) -> str:
        if not isinstance(text, str):
            return "??"
        try:  # French figure letters in French (R/D/V), as the table shows them
            return card_letters(card(text).label(self.figures, self.symbols), self.t.lang)
        except ValueError:
            return text

    def cards(self, texts: list) -> str:
        return " ".join(self.card(c) for c in texts)


def _hand_lines(r: dict, sp: _Speaker, players: int, review: Review | None = None
                ) -> list[str]:
    """A hand record, play by play, with the players' names and the game's cards (and the
    coach's grade of each decision, with ``review``)."""
    grades = {(g.kind, g.number): g for g in review.grades if g.hand == r["number"]} \
        if review is not None else {}

    def graded(kind: str, number: int) -> str:
        g = grades.get((kind, number))
        # English keeps the plain text's ASCII grade; another language the screen's words.
        t = None if sp.t.lang == "en" else sp.t
        return f"  [{coach.short_grade(g, sp.card, t)}]" if g is not None else ""
    t = sp.t
    # The first column, its words padded to the longest ("draw  ", "cut   ").
    col = {k: t(f"rp_col_{k}") for k in ("draw", "deal", "cut", "play", "end")}
    width = max(map(len, col.values())) + 2

    def head(kind: str) -> str:
        return "  " + col[kind].ljust(width)
    plays = 0
    out = [t("rp_hand_deals", n=r["number"], dealer=sp.who(r["dealer"]),
             cutter=sp.who(r["cutter"]))]
    drawn: object = None  # the cut's card, known once the hand is revealed
    for i, rd in enumerate(r.get("redeals", []), 1):
        out.append("  " + t("rp_redeal", n=i, cards=sp.cards(rd["table"])))
    for ev in r["events"]:
        (kind, b), = ev.items()
        if kind == "deal":
            if b["draw"] and b["cards"]:
                drawn = b["cards"][0]
            by: dict[str, list[str]] = {}
            for who, c in zip(b["to"], b["cards"], strict=True):
                by.setdefault(t("rp_table") if who is None else sp.who(who), []).append(
                    sp.card(c) if c else "??")
            what = "; ".join(t("rp_cards_of", who=k, cards=" ".join(v)) for k, v in by.items())
            out.append(head("draw" if b["draw"] else "deal") + what)
        elif kind == "cut":
            if b["keep"]:
                did = t("rp_keeps", who=sp.who(b["seat"]), card=sp.card(drawn)) if drawn \
                    else t("rp_keeps_drawn", who=sp.who(b["seat"]))
            else:
                did = t("rp_places", who=sp.who(b["seat"]), card=sp.card(b["card"]))
            out.append(head("cut") + did + graded("cut", 0))
        elif kind == "play":
            take = t("rp_takes", cards=" + ".join(sp.card(c) for c in b["capture"])) \
                if b["capture"] else t("rp_stays")
            plays += 1
            out.append(head("play") + t("rp_plays", who=sp.who(b["seat"]),
                                        card=sp.card(b["card"]), take=take)
                       + ("  CHKOBBA" if b["chkobba"] else "") + graded("play", plays))
        elif kind == "sweep" and b["cards"]:
            out.append(head("end") + t("rp_rest", who=sp.who(b["seat"]),
                                       cards=sp.cards(b["cards"])))
    out.extend("  " + line for line in _score_lines(r, sp, players))
    return out


def _count(t: Translator, n: int, key: str) -> str:
    """``1 card``, ``3 cards``: ``rp_KEY_1`` for one (and zero in French: "0 six",
    "0 carte"), ``rp_KEY_n`` for any other number."""
    return t(f"rp_{key}_1" if t.singular(n) else f"rp_{key}_n", n=n)


def _score_lines(r: dict, sp: _Speaker, players: int) -> list[str]:
    """A hand's points, per side, by name."""
    s, t = r["score"], sp.t
    cats = s["categories"]
    sides = range(len(s["points"]))
    names = [_side(i, players, sp.names) for i in sides]
    counts = []
    for i in sides:
        parts = [_count(t, s["cards"][i], "cards"),
                 _count(t, s["diamonds"][i], "diamonds"),
                 _count(t, s["sevens"][i], "sevens")]
        if "barmila" in cats:
            parts.append(_count(t, s["sixes"][i], "sixes"))
        if s["chkobbas"][i]:
            parts.append(_count(t, s["chkobbas"][i], "chkobbas"))
        counts.append(t("rp_counts", who=names[i], counts=", ".join(parts)))
    won = ", ".join(f"{cat} {t('rp_beji') if w is None else names[w]}"
                    for cat, w in cats.items())
    pts = ", ".join(f"{names[i]} {s['points'][i]}" for i in sides)
    tot = ", ".join(f"{names[i]} {r['totals'][i]}" for i in sides)
    return counts + [t("rp_points", won=won, points=pts, totals=tot)]


def _sheet(report: AuditReport, names: list[str], players: int,
           t: Translator = _EN) -> list[str]:
    """The score sheet: every hand's categories and points per side, the totals."""
    hands = [scoresheet.from_record(r) for r in report.records if r["type"] == "hand"]
    if not hands:
        return []
    sides = [_side(i, players, names) for i in range(len(hands[0].points))]
    return [t("rp_sheet")] + ["  " + line for line in
                              scoresheet.sheet_lines(hands, sides, t)]


def _when(report: AuditReport, t: Translator = _EN) -> str:
    """When the game stopped, as a player counts: the hand being played (the hands the
    audit completed, plus the one under way), or before the first deal."""
    if any(r["type"] == "match" for r in report.records):
        return t("rp_after_match")
    if report.first_dealer is None:
        return t("rp_before_first")
    done = sum(1 for r in report.records if r["type"] == "hand")
    return t("rp_during_hand", n=done + 1)


def stop_line(a: AbortClaim, who: Callable[[int], str], when: str,
              t: Translator = _EN) -> str:
    """Why the game stopped, for a person: names, the hand, a reason in words (never a
    wire code or the signer's text with seat numbers, which ``--json`` and the web page
    keep), the log's entry last for whoever checks it.  An abort is its signer's word:
    only what the log shows is stated as fact."""
    try:
        code = ErrorCode[a.code.upper()]
        why = abort_reason(t, code)
    except KeyError:
        why = abort_reason(t, ErrorCode.PROTOCOL_VIOLATION, unknown=a.code)
    by = who(a.by_seat)
    at = t("sl_at", n=a.index)
    blamed = None if a.blamed is None else who(a.blamed)
    if blamed is None:
        return t("sl_nobody", by=by, when=when, why=why, at=at)
    if a.code == "resigned" and a.blamed == a.by_seat:
        return t("sl_resigned", by=by, when=when, at=at)
    if a.on_time:
        return t("sl_on_time", late=blamed, by=by, when=when, at=at)
    if a.standing == Standing.SELF:
        return t("sl_ran_out" if a.code == "timeout" else "sl_left", by=by, when=when, at=at)
    if a.standing == Standing.PROVEN:
        return t("sl_proven", by=by, blamed=blamed, when=when, why=why, at=at)
    said = t("sl_says", by=by, blamed=blamed, when=when, why=why)
    if a.standing == Standing.OWED:
        return t("sl_owed", said=said, blamed=blamed, by=by, at=at)
    if a.standing == Standing.REFUTED:
        return t("sl_refuted", said=said, at=at)
    if a.standing == Standing.DISPUTED:
        return t("sl_disputed", said=said, at=at)
    return t("sl_claimed", said=said, at=at)


def describe(report: AuditReport, hand: int | None = None, symbols: bool = True,
             review: Review | None = None, verbose: bool = False,
             t: Translator = _EN) -> list[str]:
    """The match as text: table, first dealer, every hand's points, totals, winner, in
    the players' names, the game's card notation and ``t``'s language.  ``verbose``: also
    each abort as signed (its wire code and its signer's own text)."""
    out = [t("rp_log", path=report.path)]
    h = report.header
    if h.get("spectator") is True:
        out.append(t("rp_by_spectator", name=h.get("name", "?"),
                     software=h.get("software", "?"), created=h.get("created", "?")))
    table = report.table
    names = [s.name for s in table.seats] if table is not None else []
    if isinstance(h.get("seat"), int):
        writer = names[h["seat"]] if 0 <= h["seat"] < len(names) \
            else t("ab_seat", n=h["seat"])
        out.append(t("rp_by_peer", writer=writer, software=h.get("software", "?"),
                     created=h.get("created", "?")))
    if table is None:
        return out
    sp = _Speaker(names, table.rules.figures, symbols, t)
    proofs = "shuffle-proof/v1" in table.caps
    out.append(t("rp_game_proofs" if proofs else "rp_game_no_proofs", game=table.game.hex(),
                 n=table.players, rules=ruleset_text(t, table.rules)))
    for s in table.seats:
        partner = table.seating.partner_of(s.seat)
        side = t("rp_partner", name=names[partner]) if partner is not None else ""
        out.append("  " + t("rp_seat", name=s.name, fp=s.fingerprint, partner=side))
    for d in report.draws:
        out.append(t("rp_draw", draws=", ".join(f"{sp.who(s)} {sp.card(str(c))}"
                                                 for s, c in sorted(d.items()))))
    if report.first_dealer is not None:
        out.append(t("rp_first_dealer", who=sp.who(report.first_dealer)))
    for r in report.records:
        if r["type"] == "hand":
            if hand is not None and r["number"] != hand:
                continue
            if hand is not None:
                out.extend(_hand_lines(r, sp, table.players, review))
                continue
            redeals = t("rp_redealt", times=_count(t, len(r["redeals"]), "times")) \
                if r["redeals"] else ""
            out.append(t("rp_hand", n=r["number"], dealer=sp.who(r["dealer"]),
                         redeals=redeals))
            out.extend("  " + line for line in _score_lines(r, sp, table.players))
        elif hand is None:
            tot = ", ".join(f"{_side(i, table.players, names)} {x}"
                            for i, x in enumerate(r["totals"]))
            out.append(t("rp_result", hands=_count(t, r["hands"], "hands"), totals=tot))
    if hand is None:
        out.extend(_sheet(report, names, table.players, t))
    for w in report.warnings:
        out.append(t("rp_warning", warning=note_words(w, t, sp.who)))
    for a in report.aborts:
        out.append(stop_line(a, sp.who, _when(report, t), t))
        if verbose:
            out.append("  " + t("rp_as_signed", n=a.index, said=words(a, t, name=sp.who)))
    if report.offending:
        out.append(t("rp_offending", n=report.entry, entry=report.offending))
    if report.verdict == INVALID and report.records and hand is None:
        out.append(t("rp_before_violation"))
    if report.verdict == VALID and report.winner is not None and hand is None:
        out.append(t("rp_winner", side=_side(report.winner, table.players, names)))
    return out


def review_lines(report: AuditReport, review: Review, symbols: bool,
                 t: Translator = _EN) -> list[str]:
    """The coach's review of the graded decisions, in the game's card notation."""
    table = report.table
    if table is None:
        return []
    sp = _Speaker(report.names, table.rules.figures, symbols, t)
    return coach.review_lines(review, report.names, sp.card, t)
