"""``chkobba replay LOG --html FILE``: the audited match as one self-contained web page.

What a player sends to a friend who doubts the result: the players and their key
fingerprints, the verdict, every hand (its opening table, what each seat was dealt, each
play with the cards it took, the score sheet) and the running totals, with the cards drawn
as people know them (red hearts and diamonds).  One file: no script, no font, no image,
nothing fetched; it reads on a phone.  Every string that comes from the log (names, reasons,
header fields) is escaped: a log is untrusted input.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chkobba_p2p.game.cards import Card, FigureConvention, card
from chkobba_p2p.game.rules import CutEvent, DealEvent, PlayEvent, Ruleset
from chkobba_p2p.game.seating import SHAPES, Seating
from chkobba_p2p.observe.audit import INVALID, UNSUPPORTED, VALID, AuditReport
from chkobba_p2p.observe.review import BLUNDER, MISTAKE, Grade, Review
from chkobba_p2p.observe.verdict import LEFT

from ..words.coach import shown_label, why_words
from ..words.event_words import claim_why, note_words, words
from ..words.i18n import (
    Translator,
    card_letters,
    card_name,
    decimal,
    ruleset_text,
    unsupported_words,
)
from . import scoresheet
from .replay_css import CSS as _CSS

__all__ = ["render_html"]

#: The verdict in one word, by the audit's verdict.
_VERDICT_KEYS = {VALID: "rh_valid", INVALID: "au_invalid", UNSUPPORTED: "rh_unsupported"}


class _Page:
    def __init__(self, report: AuditReport, lang: str) -> None:
        self.r = report
        self.interrupted: list[object] = []
        self.review: Review | None = None
        self.lang = lang if lang in ("en", "fr") else "en"
        table = report.table
        self.players = table.players if table is not None else 0
        self.names = [s.name for s in table.seats] if table is not None else []
        rules = table.rules if table is not None else Ruleset()
        self.figures: FigureConvention = rules.figures

    # -------------------------------------------------------------- words

    def t(self, key: str) -> str:
        """A phrase of the page from the client's one catalog (:mod:`..words.i18n`), escaped.
        Its values are filled by :meth:`tx` after escaping: they are HTML already."""
        return html.escape(Translator(self.lang)(key))

    def tx(self, key: str, **kw: object) -> str:
        """A sentence with values that are already HTML (escaped by the caller)."""
        return self.t(key).format(**kw)

    def seat(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return f'<span class="who">{html.escape(self.names[seat])}</span>'
        return self.t("rh_nobody")

    @property
    def teams(self) -> bool:
        """Partners share a side (4 players): the score's columns are teams."""
        return self.players in SHAPES and Seating.of(self.players).teams

    def side(self, side: int) -> str:
        """A side by its players' names: "hana", "hana &amp; sami" at 4 players."""
        return self._side_short(side)

    @property
    def _team(self) -> str:
        """The suffix of a sentence whose subject is a side: a team's verb agrees."""
        return "_team" if self.teams else ""

    # -------------------------------------------------------------- cards

    def card(self, text: object) -> str:
        if not isinstance(text, str):
            return '<span class="c hidden">?</span>'
        try:
            c: Card = card(text)
        except ValueError:
            return f'<span class="c hidden">{html.escape(text)}</span>'
        colour = "red" if c.suit.is_red else "black"
        name = html.escape(card_name(Translator(self.lang), c, self.figures))
        label = html.escape(card_letters(c.label(self.figures), self.lang))
        return f'<span class="c {colour}" title="{name}">{label}</span>'

    def cards(self, texts: Iterable[object]) -> str:
        return "".join(self.card(x) for x in texts) or "—"

    # -------------------------------------------------------------- sections

    def render(self) -> str:
        r = self.r
        parts = [self.verdict(), self.players_section()]
        hands = [x for x in r.records if x.get("type") == "hand"]
        for h in hands:
            parts.append(self.hand(h))
        if self.interrupted:
            parts.append(self.unfinished(len(hands) + 1))
        if hands:
            parts.append(self.sheet(hands))
        parts.append(self.coach())
        parts.append(self.notes())
        title = self.t("rh_title")
        doc = "\n".join(p for p in parts if p)
        foot = self.tx("rh_footer", path=f"<code>{html.escape(r.path)}</code>")
        return (f'<!DOCTYPE html>\n<html lang="{self.lang}">\n<head>\n<meta charset="utf-8">\n'
                '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
                f"<h1>{title}</h1>\n{doc}\n<footer>{foot}</footer>\n</main>\n</body>\n</html>\n")

    def verdict(self) -> str:
        r = self.r
        v = r.verdict
        lines = [f'<p class="big">{self.t(_VERDICT_KEYS.get(v, "au_incomplete"))}</p>']
        if v == VALID:
            lines.append(f"<p>{self.t('rh_valid_long')}</p>")
            if r.winner is not None and r.code == "resigned":
                lines.append(self.resignation(r.winner))
            elif r.winner is not None and r.code == "on_time":
                flagger = next((a.by_seat for a in r.aborts if a.on_time), 0)
                line = self.tx("rh_on_time" + self._team, late=self.seat(r.blamed),
                               entry=str(r.entry), who=self.side(r.winner),
                               signer=self.seat(flagger))
                lines.append(f"<p class='outcome'>{line}</p>")
            elif r.winner is not None and r.code == LEFT:
                # A seat left while the match was played: its side loses (no totals: the
                # match stopped there).  It raised an IndexError on the totals before.
                lines.append("<p class='outcome'>" + self.tx(
                    "rh_left" + self._team, by=self.seat(r.outcome.by_seat if r.outcome
                                                          else None),
                    entry=str(r.entry), who=self.side(r.winner)) + "</p>")
            elif r.code == "resigned":  # at 3 players: the match stops, nobody wins
                lines.append("<p class='outcome'>" + self.tx(
                    "rh_resigned_nobody", by=self.seat(self._resigner()), entry=str(r.entry))
                    + "</p>")
            elif r.winner is not None:
                # The winner's total first: "12 – 11"; at 3 players whose each is,
                # "hana 9 – sami 5 – amel 3".
                w = r.winner
                order = [w, *(i for i in range(len(r.totals)) if i != w)]
                totals = " – ".join(
                    (f"{self._side_short(i)} {r.totals[i]}" if len(r.totals) > 2
                     else str(r.totals[i])) for i in order)
                who = self.side(w)
                lines.append("<p class='outcome'>"
                             f"{self.tx('rh_winner' + self._team, who=who, totals=totals)}</p>")
        elif v == INVALID:
            lines.append(f"<p>{self.tx('rh_invalid_long', entry=str(r.entry))}</p>")
            if r.blamed is None:
                lines.append(f'<p class="blame">{self.t("rh_blamed_nobody")}</p>')
            else:
                who = self.blame(r.blamed)
                lines.append(f'<p class="blame">{self.tx("rh_blamed", who=who)}</p>')
        elif v == UNSUPPORTED:  # a table capability this version does not know: no judgement
            caps = r.outcome.unknown_caps if r.outcome is not None else ()
            why = unsupported_words(Translator(self.lang), caps)
            lines.append(f"<p>{html.escape(why[:1].upper() + why[1:])}.</p>")
        else:
            lines.append(f"<p>{self.t('rh_incomplete_long')}</p>")
            if r.blamed is not None:
                lines.append(f"<p>{self.tx('rh_claim', who=self.blame(r.blamed))}</p>")
        if v not in (VALID, UNSUPPORTED):
            # The check's or the observer's code in the reader's words and the players'
            # names; the auditor's own sentence only for a violation without a code.
            found = r.outcome is not None and (r.outcome.finding is not None
                                               or r.outcome.violation is not None)
            why = r.reason if (v == INVALID and not found) or r.outcome is None \
                else words(r.outcome, Translator(self.lang), names=r.names)
            lines.append(f"<p><b>{self.t('rh_reason')}</b>: {html.escape(r.code or '')}: "
                         f"{html.escape(why)}</p>")
        if r.offending:
            lines.append(f"<p><b>{self.t('rh_offending')}</b>: <code>"
                         f"{html.escape(r.offending)}</code></p>")
        return (f'<section id="verdict" class="verdict {html.escape(v)}">'
                f"<h2>{self.t('rh_verdict')}</h2>{''.join(lines)}</section>")

    def _resigner(self) -> int | None:
        r = self.r
        if r.outcome is not None and r.outcome.by_seat is not None:
            return r.outcome.by_seat
        return next((a.by_seat for a in r.aborts if a.code == "resigned"), None)

    def resignation(self, winner: int) -> str:
        """The verdict of a resigned match: who resigned, who wins, the score then."""
        r = self.r
        line = self.tx("rh_resigned" + self._team, by=self.seat(self._resigner()),
                       entry=str(r.entry), who=self.side(winner))
        out = f"<p class='outcome'>{line}</p>"
        if r.totals and r.table is not None:
            totals = " – ".join(f"{self._side_short(i)} {t}" for i, t in enumerate(r.totals))
            target = str(r.table.rules.target)
            out += f"<p>{self.tx('rh_resigned_score', totals=totals, target=target)}</p>"
        return out

    def _side_short(self, side: int) -> str:
        if self.teams:
            return " &amp; ".join(self.seat(s) for s in Seating.of(4).seats_of(side))
        return self.seat(side)

    def blame(self, seat: int) -> str:
        fp = ""
        if self.r.table is not None and 0 <= seat < self.players:
            fp = f" <code>{html.escape(self.r.table.seats[seat].fingerprint)}</code>"
        return f"{self.seat(seat)}{fp}"

    def players_section(self) -> str:
        t = self.r.table
        if t is None:
            return ""
        rows = []
        for s in t.seats:
            side = self.tx("rh_team", n=t.seating.side_of(s.seat) + 1) if self.teams else ""
            # The key under the name: a 27-letter name, its side and a key side by side do
            # not fit a phone's width, and a name is never broken to make room.
            rows.append(f"<tr><td class='n'>{s.seat}</td><td>{self.seat(s.seat)}<br>"
                        f"<code class='fp'>{html.escape(s.fingerprint)}</code></td>"
                        + (f"<td>{side}</td>" if self.teams else "") + "</tr>")
        head = (f"<tr><th class='n nw'>{self.t('rh_seat')}</th><th>{self.t('rh_name')}"
                "</th>" + (f"<th class='nw'>{self.t('rh_side')}</th>" if self.teams else "")
                + "</tr>")
        rules = ruleset_text(Translator(self.lang), t.rules)
        info = [self.tx("rh_game", id=t.game.hex()[:16], players=t.players),
                f"{self.t('rh_rules')}: {html.escape(rules)}"]
        for d in self.r.draws:
            info.append(f"{self.t('rh_draw')}: " + ", ".join(
                f"{self.seat(s)} {self.card(c.text)}" for s, c in sorted(d.items())))
        if self.r.first_dealer is not None:
            info.append(self.tx("rh_first_dealer", who=self.seat(self.r.first_dealer)))
        return (f'<section id="players"><h2>{self.t("rh_players")}</h2><table>{head}'
                f"{''.join(rows)}</table>"
                + "".join(f'<p class="muted">{line}</p>' for line in info) + "</section>")

    def hand(self, h: dict) -> str:
        n = h.get("number")
        out = [f"<h2>{self.tx('rh_hand', n=html.escape(str(n)))}</h2>"]
        who = self.tx("rh_dealer", who=self.seat(h.get("dealer")))
        if self.r.table is not None and self.r.table.rules.opening.name == "CUT_AND_DRAW":
            who += ", " + self.tx("rh_cutter", who=self.seat(h.get("cutter")))
        out.append(f'<p class="muted">{who}</p>')
        for rd in h.get("redeals", []):
            table = self.cards(rd["table"])
            out.append(f'<p class="muted">{self.tx("rh_redeal", cards=table)}</p>')
        out.append(f"<h3>{self.t('rh_opening')}</h3><p class='opening'>"
                   f"{self.cards(h.get('opening_table', []))}</p>")
        dealt: dict[int, list[object]] = {}
        for ev in h["events"]:
            (kind, b), = ev.items()
            if kind == "deal":
                for to, c in zip(b["to"], b["cards"], strict=True):
                    if to is not None:
                        dealt.setdefault(to, []).append(c)
        out.append(f"<h3>{self.t('rh_dealt')}</h3><table class='dealt'>"
                   + "".join(f"<tr><td>{self.seat(s)}</td><td>{self.cards(cs)}</td></tr>"
                             for s, cs in sorted(dealt.items())) + "</table>")
        out.append(f"<h3>{self.t('rh_plays')}</h3><p class='muted'>{self.t('rh_face_up')}</p>"
                   f"<ul class='plays'>{self.plays(h)}</ul>")
        out.append(self.score(h))
        return f'<section class="hand" id="hand-{html.escape(str(n))}">{"".join(out)}</section>'

    def unfinished(self, number: int) -> str:
        """The hand the game stopped in, as the table saw it, and where it stopped."""
        items = []
        played = 0
        for ev in self.interrupted:
            if isinstance(ev, DealEvent):
                table = [c.text for who, c in zip(ev.recipients, ev.cards, strict=True)
                         if who is None and c is not None]
                if table:
                    items.append(f"<li class='deal'>{self.t('rh_opening')}: "
                                 f"{self.cards(table)}</li>")
            elif isinstance(ev, CutEvent):
                key = "rp_keeps_drawn" if ev.keep else "rp_places"
                card_html = self.card(ev.card.text if ev.card is not None else None)
                line = self.tx(key, who=self.seat(ev.seat), card=card_html)
                items.append(f"<li class='cut'>{self.move_no(0)}{line}</li>")
            elif isinstance(ev, PlayEvent):
                what = (f"{self.t('rh_takes')} {self.cards(c.text for c in sorted(ev.capture))}"
                        if ev.capture else f"<span class='muted'>{self.t('rh_stays')}</span>")
                played += 1
                items.append(f"<li class='play'>{self.move_no(played)}{self.seat(ev.seat)} "
                             f"{self.card(ev.card.text)} {what}</li>")
        r = self.r
        if r.verdict == INVALID:
            stop = self.tx("rh_stopped", entry=str(r.entry), who=self.seat(r.blamed))
        elif r.code == "resigned":
            stop = self.tx("rh_resigned_here", who=self.seat(self._resigner()))
        elif r.code == "on_time":
            stop = self.tx("rh_on_time_here", who=self.seat(r.blamed))
        else:
            stop = self.t("rh_stopped_here")
        items.append(f"<li class='stop'><b>{stop}</b></li>")
        return (f'<section class="hand unfinished" id="hand-{number}">'
                f"<h2>{self.tx('rh_hand', n=number)}</h2><h3>{self.t('rh_plays')}</h3>"
                f"<ul class='plays'>{''.join(items)}</ul></section>")

    def plays(self, h: dict) -> str:
        items = []
        deals = 0
        drawn: object = None
        # Every seat's cards in hand, followed play by play: the record is written once the
        # hand's seeds opened, so each play shows what its player held (face up).
        held: dict[int, list[str]] = {}
        plays = 0
        for ev in h["events"]:
            (kind, b), = ev.items()
            if kind == "deal":
                for to, c in zip(b["to"], b["cards"], strict=True):
                    if to is not None and isinstance(c, str):
                        held.setdefault(to, []).append(c)
            if kind == "cut" and not b["keep"] and b["card"] in held.get(b["seat"], []):
                held[b["seat"]].remove(b["card"])
            if kind == "deal" and b["draw"]:
                drawn = b["cards"][0] if b["cards"] else None
            elif kind == "deal":
                deals += 1
                if deals > 1:  # the opening deal is told above
                    each = sum(1 for to in b["to"] if to == b["to"][0])
                    items.append(f"<li class='deal muted'>{self.tx('rh_deal_more', n=each)}</li>")
            elif kind == "cut":
                # Once the hand is revealed the kept card is known: the one drawn.
                kept = drawn if b["keep"] else None
                key = ("rp_keeps" if kept else "rp_keeps_drawn") if b["keep"] \
                    else "rp_places"
                line = self.tx(key, who=self.seat(b["seat"]),
                               card=self.card(kept if b["keep"] else b["card"]))
                items.append(f"<li class='cut'>{self.move_no(0)}{line}"
                             f"{self.grade(h.get('number'), 0, 'cut')}</li>")
            elif kind == "play":
                if b["capture"]:
                    what = f"{self.t('rh_takes')} {self.cards(b['capture'])}"
                else:
                    what = f"<span class='muted'>{self.t('rh_stays')}</span>"
                chk = " <span class='chk'>CHKOBBA</span>" if b["chkobba"] else ""
                hand = sorted(held.get(b["seat"], []), key=lambda c: card(c).id)
                shown = (f" <span class='held' title='{self.t('rh_held')}'>("
                         f"{self.cards(hand)})</span>" if hand else "")
                plays += 1
                items.append(f"<li class='play'>{self.move_no(plays)}{self.seat(b['seat'])}{shown} "
                             f"{self.card(b['card'])} {what}{chk}"
                             f"{self.grade(h.get('number'), plays, 'play')}</li>")
                if b["card"] in held.get(b["seat"], []):
                    held[b["seat"]].remove(b["card"])  # played: no longer in that hand
            elif kind == "sweep" and b["cards"]:
                line = self.tx("rh_rest", who=self.seat(b["seat"]), cards=self.cards(b["cards"]))
                items.append(f"<li class='sweep'>{line}</li>")
        return "".join(items)

    # -------------------------------------------------------------- the coach

    def _grade_of(self, hand: object, number: int, kind: str) -> Grade | None:
        if self.review is None:
            return None
        for g in self.review.grades:
            if g.hand == hand and g.kind == kind and (kind == "cut" or g.number == number):
                return g
        return None

    def move_no(self, n: int) -> str:
        """A move's number, as the coach's text and ``--view`` give it: "play 5" (the
        hand's fifth card played), "the cut" (0)."""
        words = self.tx("move_play", n=n) if n else self.t("move_cut")
        return f"<span class='no'>{words}</span> "

    def _move(self, move: Mapping[str, Any]) -> str:
        taken = move.get("capture") or []
        if taken:
            return self.tx("cg_taking", card=self.card(move["card"]), cards=self.cards(taken))
        return self.tx("cg_on_table", card=self.card(move["card"]))

    def grade(self, hand: object, number: int, kind: str) -> str:
        """The coach's grade beside a move: its label as a player reads it (a loss is
        never called good: :func:`..words.coach.shown_label`), its loss, the better move, and why
        (:func:`..words.coach.why_words`)."""
        g = self._grade_of(hand, number, kind)
        if g is None:
            return ""
        shown = shown_label(g)
        label = self.t("cg_" + shown)
        out = f" <span class='grade {html.escape(shown)}'>{label}"
        if shown not in ("forced", "best"):
            out += f" −{decimal(g.loss, self.lang)}"
        out += "</span>"
        if g.best != g.played and shown in ("inaccuracy", "mistake", "blunder"):
            better = (self.t("cg_keep") if g.best.get("keep") else self.t("cg_place")) \
                if g.kind == "cut" else self._move(g.best)
            out += f" <span class='better'>{self.tx('rh_g_better', move=better)}</span>"
            # Why, in the rules' words (the review's reasons; their cards are HTML here).
            why = why_words(g, self.card, self.tx)
            if why:
                out += f" <span class='why'>{why}</span>"
        return out

    def coach(self) -> str:
        """The coach's summary: per player, decisions, mean loss, mistakes, blunders,
        accuracy; the thresholds."""
        rv = self.review
        if rv is None:
            return ""
        # One small table per player (a wide one would not fit a phone beside long names).
        parts = []
        for s in rv.summaries():
            rows = [("rh_g_decisions", str(s.decisions)), ("rh_g_mean", f"{s.mean_loss:.3f}"),
                    ("rh_g_mistakes", str(s.mistakes)), ("rh_g_blunders", str(s.blunders)),
                    ("rh_g_accuracy", f"{s.accuracy:.1f}%")]
            parts.append(f"<h3>{self.seat(s.seat)}</h3><table class='coach' "
                         f"data-seat='{s.seat}'>" + "".join(
                             f"<tr><th>{self.t(k)}</th><td class='n'>{v}</td></tr>"
                             for k, v in rows) + "</table>")
        how = self.tx("rh_g_how", mistake=str(MISTAKE), blunder=str(BLUNDER),
                      samples=str(rv.samples), seed=str(rv.seed))
        return (f'<section id="coach"><h2>{self.t("rh_g_title")}</h2>{"".join(parts)}'
                f"<p class='muted'>{how}</p></section>")

    def _sides(self) -> list[str]:
        """Column heads of the score tables: the seats, or the teams by number, their
        members in the players' table (two whole names a column would not fit a phone:
        a name is never broken).  Everywhere else a team is its players' names."""
        if self.teams:
            return [self.tx("rh_team", n=i + 1) for i in range(2)]
        return [self.seat(i) for i in range(self.players)]

    def score(self, h: dict) -> str:
        s = h["score"]
        sides = self._sides()
        head = "<tr><th></th>" + "".join(f"<th class='n'>{x}</th>" for x in sides) + "</tr>"
        rows = []

        def row(label: str, values: Sequence[object]) -> None:
            rows.append(f"<tr><th>{label}</th>" + "".join(
                f"<td class='n'>{html.escape(str(v))}</td>" for v in values) + "</tr>")

        row(self.t("rh_cards"), s["cards"])
        row(self.t("rh_diamonds"), s["diamonds"])
        row(self.t("rh_sevens"), s["sevens"])
        if "barmila" in s["categories"]:
            row(self.t("rh_sixes"), s["sixes"])
        row(self.t("rh_chkobbas"), s["chkobbas"])
        for cat, winner in s["categories"].items():
            marks = ["●" if winner == i else "" for i in range(len(sides))]
            label = html.escape(cat) + ("" if winner is not None else
                                        f" <span class='muted'>{self.t('rh_beji')}</span>")
            row(label, marks)
        row(f"<b>{self.t('rh_points')}</b>", s["points"])
        row(f"<b>{self.t('rh_total')}</b>", h["totals"])
        return (f"<h3>{self.t('rh_score')}</h3><table class='score'>{head}{''.join(rows)}"
                "</table>")

    def sheet(self, hands: list[dict]) -> str:
        """Every hand: per side by name, the categories it scored (barmila with its
        sevens), its chkobbas, its points and the running total; then the totals with
        each side's tally of categories."""
        sides = self._sides()
        tr = Translator(self.lang)
        lines = [scoresheet.from_record(h) for h in hands]
        head = (f"<tr><th>{self.t('rh_after')}</th>" + "".join(
            f"<th class='n'>{x}</th>" for x in sides) + "</tr>")
        rows = []
        for line in lines:
            rows.append(f"<tr><td>{line.number}</td>" + "".join(
                f"<td class='n'>+{p} → <b>{t}</b><br><span class='muted cats'>"
                f"{html.escape(scoresheet.side_words(line, i, tr))}</span></td>"
                for i, (p, t) in enumerate(zip(line.points, line.totals, strict=False)))
                + "</tr>")
        counts = scoresheet.tally(lines)
        rows.append(f"<tr class='totals'><th>{self.t('rh_total')}</th>" + "".join(
            f"<td class='n'><b>{t}</b><br><span class='muted cats'>"
            f"{html.escape(scoresheet.tally_words(counts[i]))}</span></td>"
            for i, t in enumerate(lines[-1].totals)) + "</tr>")
        return (f'<section id="sheet"><h2>{self.t("sheet_title")}</h2><table>{head}'
                f"{''.join(rows)}</table></section>")

    def notes(self) -> str:
        r = self.r
        out = []
        # A resignation is told in the verdict; other aborts are listed here.
        aborts = [a for a in r.aborts if not (r.code == "resigned" and a.code == "resigned")]
        if aborts:
            out.append(f"<h2>{self.t('rh_aborts')}</h2><ul>" + "".join(
                "<li>" + self.tx("rh_abort", index=str(a.index), by=self.seat(a.by_seat),
                                 code=html.escape(a.code),
                                 why=html.escape(claim_why(a, Translator(self.lang), r.names)
                                                 or "—"))
                + "</li>" for a in aborts) + "</ul>")
        if r.warnings:
            out.append(f"<h2>{self.t('rh_warnings')}</h2><ul>" + "".join(
                f"<li>{html.escape(note_words(w, Translator(self.lang), r.names))}</li>"
                for w in r.warnings) + "</ul>")
        return f'<section id="notes">{"".join(out)}</section>' if out else ""


def render_html(report: AuditReport, lang: str = "en",
                interrupted: Sequence[object] = (), review: Review | None = None) -> str:
    """The audited match as a self-contained HTML page, in English or French.
    ``interrupted``: for a game stopped in the middle of a hand (a violation), the public
    events of that hand up to there (:mod:`chkobba_p2p.timeline`), shown before the end."""
    page = _Page(report, lang)
    page.interrupted = list(interrupted)
    page.review = review
    return page.render()
