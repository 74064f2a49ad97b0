"""``chkobba replay LOG --html FILE``: one self-contained page of the audited match.

The page's structure is read back with :mod:`html.parser` (players and fingerprints, the
verdict, every hand with its opening table and plays, the score sheet and totals), every
string from the log is escaped, nothing is fetched; and where Debian's ``chromium`` is
installed, a headless browser renders it at a phone's width and nothing overflows."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support.audit import Played, make_sessions, play
from support.net import REPO_ROOT, cli_command, cli_env

from chkobba_cli.words.i18n import Translator, card_name
from chkobba_p2p.game.cards import Card, FigureConvention, card
from chkobba_p2p.game.rules import PRESETS
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import INVALID, VALID, audit_log
from chkobba_p2p.transcript.bodies import PlayAction
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire.codec import ErrorCode

HOSTILE = '<script>alert("x")</script>'  # 27 printable characters: a legal name
HOSTILE2 = "<img src=x onerror=alert(1)>"


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        out = []
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and (cls is None or cls in c.classes):
                    out.append(c)
                out.extend(c.find_all(tag, cls))
        return out

    def by_id(self, ident: str) -> Node:
        (found,) = [n for n in self.find_all() if n.attrs.get("id") == ident]
        return found


_VOID = {"meta", "br", "img", "link", "input", "hr"}


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def _named(c: Card) -> str:
    """The card's title on an English page of a match at the default (Tunisian) rules."""
    return card_name(Translator("en"), c, FigureConvention.TUNISIAN)


def parse(page: str) -> tuple[Node, list[str]]:
    b = _TreeBuilder()
    b.feed(page)
    b.close()
    assert b.stack == [b.root], "every element is closed"
    return b.root, b.tags


def _hostile_match(n: int) -> Played:
    """A match whose players chose names that are HTML."""
    return _named_match([HOSTILE, HOSTILE2, "Zied & \"Mounir\"", "Héla 'la reine'"][:n])


def _named_match(names: list[str], **kw) -> Played:
    """A match between players with these names (``kw``: as for ``play``)."""
    n = len(names)
    sessions, ids = make_sessions(n, PRESETS["tunisian"], False, key=f"html-{n}".encode())
    table = sessions[0].table
    lobby = Lobby(ids[0], names[0], table.rules, n, shuffle_proofs=False)
    for i in range(1, n):
        lobby.take_seat(ids[i].public, names[i])
    lobby.game = table.game
    host, genesis = Session.create(ids[0], lobby.table())
    ss = [host] + [Session.join(ids[i], genesis, ids[0].public) for i in range(1, n)]
    return play(n, sessions=(ss, ids), **{"seed": 4, **kw})


def _replay_html(log: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(cli_command("replay", str(log), "--html", str(out), "--quiet", *extra),
                          cwd=REPO_ROOT, env=cli_env(), capture_output=True, text=True,
                          timeout=120)


@pytest.fixture(scope="module")
def four(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("html4")
    log = _hostile_match(4).write_log(d / "four.chklog", seat=2)
    out = d / "four.html"
    done = _replay_html(log, out, "--lang", "en")
    assert done.returncode == 0, done.stderr
    return log, out


@pytest.fixture(scope="module")
def resigned(tmp_path_factory) -> tuple[Path, Path]:
    """alice and bob; bob resigns in the middle of hand 2 (at entry 89)."""
    d = tmp_path_factory.mktemp("html-resigned")
    played = _named_match(["alice", "bob"], stop_after=88, abort_by=1,
                          abort_code=ErrorCode.RESIGNED)
    log = played.write_log(d / "resigned.chklog")
    out = d / "resigned.html"
    done = _replay_html(log, out, "--lang", "en")
    assert done.returncode == 0, done.stderr
    return log, out


def test_a_resigned_match_shows_every_hand_and_says_who_resigned(resigned):
    log, out = resigned
    report = audit_log(log)
    assert (report.verdict, report.code) == (VALID, "resigned")
    hands = [r for r in report.records if r["type"] == "hand"]
    root, _ = parse(out.read_text(encoding="utf-8"))
    verdict = " ".join(root.by_id("verdict").text().split())
    # How the match ended, in the players' names, and the score then (not "5 – 1" alone).
    assert f"bob resigned at entry #{report.entry}: alice wins the match." in verdict
    assert "in a match to 11" in verdict and "seat" not in verdict.lower()
    # Every hand: the finished ones and the one bob resigned in, up to the resignation.
    sections = root.find_all("section", "hand")
    assert [x.attrs["id"] for x in sections] == \
        [f"hand-{n}" for n in range(1, len(hands) + 2)]
    (stop,) = sections[-1].find_all("li", "stop")
    assert stop.text() == "bob resigned here."
    assert sections[-1].find_all("li", "play"), "the plays before the resignation"
    # The resignation is the verdict, not an "Aborts" footnote.
    assert "Aborts" not in root.text()


def _more_matches(d: Path):
    """Two-player matches until one has a hand whose cutter kept the card: the deal's
    randomness is fresh (the shuffle's secrets), so the two fixtures may have none."""
    for i in range(12):
        log = _named_match(["alice", "bob"]).write_log(d / f"more{i}.chklog")
        out = d / f"more{i}.html"
        done = _replay_html(log, out, "--lang", "en")
        assert done.returncode == 0, done.stderr
        yield log, out


def test_the_kept_cut_card_is_named_once_the_hand_is_revealed(resigned, four, tmp_path):
    seen = 0
    for log, out in itertools.chain((resigned, four), _more_matches(tmp_path)):
        if seen:
            break
        report = audit_log(log)
        root, _ = parse(out.read_text(encoding="utf-8"))
        for rec in (r for r in report.records if r["type"] == "hand"):
            events = [next(iter(e.items())) for e in rec["events"]]
            drawn = next(b["cards"][0] for k, b in events if k == "deal" and b["draw"])
            (cut,) = [b for k, b in events if k == "cut"]
            (li,) = root.by_id(f"hand-{rec['number']}").find_all("li", "cut")
            shown = [c.attrs["title"] for c in li.find_all("span", "c")]
            assert shown == [_named(card(drawn if cut["keep"] else cut["card"]))], li.text()
            seen += cut["keep"]
    assert seen, "a hand in which the cutter kept the card"


def test_the_page_holds_the_whole_audited_match(four):
    log, out = four
    report = audit_log(log)
    assert report.verdict == VALID
    root, tags = parse(out.read_text(encoding="utf-8"))
    (html_el,) = root.find_all("html")
    assert html_el.attrs["lang"] == "en"
    verdict = root.by_id("verdict")
    assert "valid" in verdict.classes and "VALID" in verdict.text()
    # The players: names as they chose them, with their key fingerprints.
    rows = root.by_id("players").find_all("tr")[1:]
    assert [r.find_all("td")[1].find_all("span", "who")[0].text() for r in rows] == \
        [s.name for s in report.table.seats]
    assert [r.find_all("code")[0].text() for r in rows] == \
        [s.fingerprint for s in report.table.seats]
    hands = [r for r in report.records if r["type"] == "hand"]
    sections = root.find_all("section", "hand")
    assert len(sections) == len(hands) >= 1
    for sec, rec in zip(sections, hands, strict=True):
        assert sec.attrs["id"] == f"hand-{rec['number']}"
        (opening,) = sec.find_all("p", "opening")
        assert [c.attrs["title"] for c in opening.find_all("span", "c")] == \
            [_named(card(t)) for t in rec["opening_table"]]
        plays = [e["play"] for e in rec["events"] if "play" in e]
        items = sec.find_all("li", "play")
        assert len(items) == len(plays)
        # What each player holds at each play, from the record alone: every deal adds,
        # a placed cut card and every play take away.
        held: dict[int, list[str]] = {}
        expected = []
        for e in rec["events"]:
            if "deal" in e:
                for to, c in zip(e["deal"]["to"], e["deal"]["cards"], strict=True):
                    if to is not None:
                        held.setdefault(to, []).append(_named(card(c)))
            elif "cut" in e and not e["cut"]["keep"]:
                held[e["cut"]["seat"]].remove(_named(card(e["cut"]["card"])))
            elif "play" in e:
                seat = e["play"]["seat"]
                expected.append(sorted(held[seat]))
                held[seat].remove(_named(card(e["play"]["card"])))
        assert all(1 <= len(h) <= 3 for h in expected)
        for li, p, want in zip(items, plays, expected, strict=True):
            # Face up: what the player held when it played (its played card among them),
            # no more: a card played leaves the brackets.
            (hand,) = li.find_all("span", "held")
            in_hand = [c.attrs["title"] for c in hand.find_all("span", "c")]
            assert _named(card(p["card"])) in in_hand
            assert sorted(in_hand) == want
            inside = {id(c) for c in hand.find_all("span", "c")}
            shown = [c.attrs["title"] for c in li.find_all("span", "c") if id(c) not in inside]
            assert shown == [_named(card(t)) for t in [p["card"], *p["capture"]]]
            assert ("CHKOBBA" in li.text()) == p["chkobba"]
        score = sec.find_all("table", "score")[0]
        total_row = score.find_all("tr")[-1]
        assert [td.text() for td in total_row.find_all("td")] == [str(t) for t in rec["totals"]]
    # The score sheet: one line per hand, running totals, ending at the match's result.
    sheet = root.by_id("sheet").find_all("tr")[1:]
    assert len(sheet) == len(hands) + 1  # and the totals
    for tr, rec in zip(sheet, hands, strict=False):
        # Per side: the categories it scored (barmila with its sevens), its chkobbas.
        cells = [td.find_all("span", "cats")[0].text() for td in tr.find_all("td")[1:]]
        s = rec["score"]
        for side, text in enumerate(cells):
            for cat, w in s["categories"].items():
                assert (cat in text) == (w == side), (cat, text)
            if "barmila" in text and len(set(s["sevens"])) > 1:
                assert f"barmila ({s['sevens'][side]} sevens)" in text
            assert ("chkobba" in text) == bool(s["chkobbas"][side]), text
    last = [td.find_all("b")[0].text() for td in sheet[-1].find_all("td")]
    assert last == [str(t) for t in report.totals]
    # Cards people recognise: hearts and diamonds in red, the others in black.
    for span in root.find_all("span", "c"):
        suit = span.text()[-1]
        assert ("red" in span.classes) == (suit in "♥♦") and ("black" in span.classes) == \
            (suit in "♠♣")


def test_every_string_from_the_log_is_escaped_and_nothing_is_fetched(four):
    _, out = four
    page = out.read_text(encoding="utf-8")
    root, tags = parse(page)
    assert "script" not in tags and "img" not in tags and "link" not in tags
    assert not [n for n in root.find_all() if {"src", "href"} & set(n.attrs)]
    assert "http:" not in page and "https:" not in page and "url(" not in page
    text = root.text()
    assert HOSTILE in text and HOSTILE2 in text and 'Zied & "Mounir"' in text


def test_french_page(four, tmp_path):
    log, _ = four
    out = tmp_path / "fr.html"
    done = _replay_html(log, out, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    root, _ = parse(out.read_text(encoding="utf-8"))
    assert root.find_all("html")[0].attrs["lang"] == "fr"
    text = root.text()
    assert "VALIDE" in text and "Feuille de marque" in text and "Manche 1" in text
    titles = [s.attrs["title"] for s in root.find_all("span", "c")]
    assert titles and all(" de " in t for t in titles)  # "Sept de carreau"


def _forge_take(s: Session) -> bool:
    a = s._decided
    if not isinstance(a, PlayAction):
        return False
    table = s.game.hand.table
    s._decided = dataclasses.replace(a, take=() if a.take else (table[0],) if table
                                     else (Card(0),))
    return True


def test_a_cheat_shows_the_blamed_player_and_the_offending_entry(tmp_path):
    played = play(2, cheater=1, hook=_forge_take, seed=9, key=b"html-forged")
    log = played.write_log(tmp_path / "cheat.chklog")
    out = tmp_path / "cheat.html"
    done = _replay_html(log, out)
    assert done.returncode == 1, done.stderr  # the exit status of an invalid log
    report = audit_log(log)
    assert report.verdict == INVALID and report.blamed == 1
    root, _ = parse(out.read_text(encoding="utf-8"))
    verdict = root.by_id("verdict")
    assert "invalid" in verdict.classes
    (blame,) = verdict.find_all("p", "blame")
    assert "peer1" in blame.text() and report.table.seats[1].fingerprint in blame.text()
    assert f"#{report.entry}" in verdict.text() and "illegal_move" in verdict.text()
    # The hand the game stopped in, as the table saw it, up to the refused entry.
    (hand,) = root.find_all("section", "unfinished")
    (stop,) = hand.find_all("li", "stop")
    assert f"#{report.entry}" in stop.text() and "peer1" in stop.text()
    assert hand.find_all("li")[-1] is stop


def test_an_unwritable_page_is_a_usage_error(four, tmp_path):
    log, _ = four
    done = _replay_html(log, tmp_path / "no" / "such" / "dir.html")
    assert done.returncode == 2 and "cannot write" in done.stderr
    assert "Traceback" not in done.stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = (390, 844)
DESKTOP = (1280, 900)
# Headless Chromium lays a page out at least 500 px wide whatever --window-size says, so
# the page is measured in a frame of the wanted size; the measuring script is the
# test's, in a copy (the page itself needs none).  Besides the widths it lists every word
# of a player's name (``.who``) that the layout broke over two lines.
_MEASURE = """<script>
addEventListener('load', () => {
  const d = document.documentElement;
  const broken = [];
  let words = 0;
  for (const el of document.querySelectorAll('.who')) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
        words += 1;
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  parent.document.body.setAttribute('data-measure', JSON.stringify(
    {scroll: d.scrollWidth, client: d.clientWidth, inner: innerWidth, words, broken}));
});
</script>"""


def _chromium(tmp_path: Path, *args: str, size: tuple[int, int] = PHONE
              ) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None
    profile = tmp_path / "profile"  # a fresh profile for every test
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", "--disable-extensions",
         "--allow-file-access-from-files", f"--user-data-dir={profile}",
         f"--window-size={max(size[0], 500)},{size[1]}", *args],
        capture_output=True, text=True, timeout=120)


def _measure(page: str, tmp_path: Path, size: tuple[int, int] = PHONE) -> tuple[dict, Node]:
    """The page's widths in a frame of ``size``, and the rendered page's body."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "measured.html").write_text(page.replace("</body>", _MEASURE + "</body>"),
                                            encoding="utf-8")
    frame = tmp_path / "frame.html"
    frame.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
                     '<body style="margin:0"><iframe src="measured.html" style="border:0;'
                     f'width:{size[0]}px;height:{size[1]}px"></iframe></body></html>',
                     encoding="utf-8")
    done = _chromium(tmp_path, "--dump-dom", frame.as_uri(), size=size)
    assert done.returncode == 0, done.stderr[-2000:]
    root, _ = parse_dom(done.stdout)
    (body,) = root.find_all("body")
    assert "data-measure" in body.attrs, "the page did not load in the frame"
    return json.loads(body.attrs["data-measure"]), body


_NO_CHROMIUM = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not "
                                  "installed (Debian: apt-get install chromium)")


@_NO_CHROMIUM
def test_chromium_renders_the_page_at_a_phones_width(four, tmp_path):
    _, out = four
    page = out.read_text(encoding="utf-8")
    m, _ = _measure(page, tmp_path)
    assert m["inner"] == PHONE[0]
    assert m["scroll"] <= m["client"], f"the page overflows a phone's width: {m}"
    # The measure sees an overflow when there is one.
    wide = page.replace("<main>", '<main><div style="width:600px">wide</div>')
    m_wide, _ = _measure(wide, tmp_path / "wide")
    assert m_wide["scroll"] > m_wide["client"]
    # What the browser shows: the verdict, the names as typed, the cards.
    shot = tmp_path / "page.png"
    done = _chromium(tmp_path, f"--screenshot={shot}", out.as_uri())
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    assert int.from_bytes(shot.read_bytes()[16:20], "big") == 500  # PNG IHDR: the window
    done = _chromium(tmp_path, "--dump-dom", out.as_uri())
    root, tags = parse_dom(done.stdout)
    text = root.text()
    assert "VALID" in text and HOSTILE in text and "Score sheet" in text and "♦" in text
    assert "script" not in tags


@_NO_CHROMIUM
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_chromium_never_breaks_a_name_inside_a_word(four, resigned, size, tmp_path):
    """"alice" is never "ali / ce", nor "bob" "b / o / b", in the tables ("Cards dealt",
    the players, the scores, the coach's) or anywhere else, on a phone or a desktop."""
    reviewed = tmp_path / "reviewed.html"
    done = _replay_html(four[0], reviewed, "--review", "--samples", "2")
    assert done.returncode == 0, done.stderr
    for label, (_, out) in (("four", four), ("resigned", resigned),
                            ("reviewed", (four[0], reviewed))):
        page = out.read_text(encoding="utf-8")
        m, _ = _measure(page, tmp_path / label, size)
        assert m["inner"] == size[0]
        assert m["words"] > 20, m  # every name on the page was looked at
        assert m["broken"] == [], f"{label} at {size[0]} px: names broken {m['broken']}"
        assert m["scroll"] <= m["client"], f"{label} overflows at {size[0]} px: {m}"
        shot = tmp_path / label / f"shot-{size[0]}.png"
        done = _chromium(tmp_path / label, f"--screenshot={shot}", out.as_uri(), size=size)
        assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    # The measure sees a broken name when there is one (the page's old tables did this).
    page = resigned[1].read_text(encoding="utf-8")
    squeezed = page.replace("</style>", "td,.who{overflow-wrap:anywhere;white-space:normal}"
                            "</style>")
    m, _ = _measure(squeezed, tmp_path / "squeezed", size)
    assert m["broken"], m


def parse_dom(dom: str) -> tuple[Node, list[str]]:
    """Chromium's serialized DOM (void elements unclosed, as HTML)."""
    return parse(dom)


def test_the_coachs_grades_are_a_column_and_a_summary(resigned, tmp_path):
    log, _ = resigned
    out = tmp_path / "review.html"
    done = _replay_html(log, out, "--lang", "en", "--review", "--samples", "6")
    assert done.returncode == 0, done.stderr
    report = audit_log(log)
    hands = [r for r in report.records if r["type"] == "hand"]
    root, _ = parse(out.read_text(encoding="utf-8"))
    for rec in hands:
        sec = root.by_id(f"hand-{rec['number']}")
        plays = sec.find_all("li", "play")
        # Every play and the cut carry a grade; a mistake or a blunder names the better move.
        assert all(len(li.find_all("span", "grade")) == 1 for li in plays)
        assert len(sec.find_all("li", "cut")[0].find_all("span", "grade")) == 1
        for i, li in enumerate(plays, 1):
            # Numbered as the coach's text and replay --view number them (issue 43, item 6).
            assert li.find_all("span", "no")[0].text() == f"play {i}"
            (g,) = li.find_all("span", "grade")
            ((label,),) = [g.classes - {"grade"}]
            assert label in {"forced", "best", "good", "inaccuracy", "mistake", "blunder"}
            assert bool(li.find_all("span", "better")) == \
                (label in {"inaccuracy", "mistake", "blunder"})
    coach = root.by_id("coach")
    assert [h.text() for h in coach.find_all("h3")] == ["alice", "bob"]
    tables = coach.find_all("table", "coach")
    assert [t.attrs["data-seat"] for t in tables] == ["0", "1"]
    decisions = sum(1 for rec in hands for e in rec["events"] if {"play", "cut"} & set(e))
    assert sum(int(t.find_all("td")[0].text()) for t in tables) == decisions
    for t in tables:
        assert [th.text() for th in t.find_all("th")] == \
            ["decisions", "mean loss", "mistakes", "blunders", "accuracy"]
    assert "Mistake from 0.5, blunder from 1.0" in coach.text()


def test_a_stopped_match_is_told_in_the_players_names(tmp_path):
    played = _named_match(["alice", "bob"], stop_after=70, abort_by=0,
                          abort_code=ErrorCode.TIMEOUT)
    log = played.write_log(tmp_path / "stopped.chklog")
    out = tmp_path / "stopped.html"
    done = _replay_html(log, out, "--lang", "en")
    assert done.returncode == 3, done.stderr  # incomplete
    root, _ = parse(out.read_text(encoding="utf-8"))
    verdict = " ".join(root.by_id("verdict").text().split())
    assert re.search(r"alice (ended|left) the game", verdict) and "seat" not in verdict, verdict
    assert root.find_all("section", "unfinished"), "the hand it stopped in"
