"""A table a person can follow and trust, read off a real terminal (pexpect + pyte): the
lobby holds until every person pressed Enter, with the fingerprints on screen; both
people get their cards while the first to act thinks; another player's move is shown
before the table changes; help and hints; pure ASCII when asked or when the locale needs
it; a too-small terminal says so; a whole match in each language.

Every wait polls the screen against a deadline; the one fixed wait is in the lobby test,
whose point is that time passes.
"""

from __future__ import annotations

import re
import time

import pytest
from test_cli_play_pty import Screen

FINGERPRINT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}")
# The local hand: its title, then card numbers (large cards) or numbered chips (compact).
HAND = re.compile(r"(Your hand|Votre main)[^\n]*\n\s*1\s+2\s+3\b|"
                  r"(Your hand|Votre main): 1 \[\S+\] 2 \[\S+\] 3 \[\S+\]")
TURN = ("Your turn", "À vous")
CUT = ("keep it", "la garder")


def _open_table(tmp_path, *extra: str) -> tuple[Screen, Screen, str]:
    host = Screen(["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--lang",
                   "en", "--name", "amel", "--pace", "0", *extra], tmp_path / "h")
    text = host.wait_for(lambda t: re.search(r"127\.0\.0\.1:(\d+)", t), 20, "the address")
    port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
    guest = Screen(["join", f"127.0.0.1:{port}", "--lang", "en", "--name", "sami",
                    "--pace", "0"], tmp_path / "g")
    return host, guest, port


def _lobby_full(t: str) -> bool:
    return "amel" in t and "sami" in t and len(FINGERPRINT.findall(t)) >= 2 \
        and "press Enter to start" in t


def test_the_lobby_waits_for_every_person_then_both_get_their_cards_at_once(tmp_path):
    host, guest, _ = _open_table(tmp_path)
    try:
        hfull = host.wait_for(_lobby_full, 20, "the full lobby at the host")
        gfull = guest.wait_for(_lobby_full, 20, "the full lobby at the guest")
        # Both see the same two fingerprints.
        assert set(FINGERPRINT.findall(hfull)) == set(FINGERPRINT.findall(gfull))
        # Time passes (the point of this test): nobody pressed Enter, nothing starts.
        until = time.monotonic() + 2.0
        while time.monotonic() < until:
            host.pump(0.1)
            guest.pump(0.1)
        for s in (host, guest):
            assert _lobby_full(s.text) and "Table" not in s.text, s.text
        guest.press("\r")
        host.wait_for(lambda t: re.search(r"sami\s+✓ ready", t), 10, "the guest ready")
        assert _lobby_full(host.text)  # still the lobby: the host has not confirmed
        guest.wait_for(lambda t: "waiting for amel" in t, 10, "the guest waiting")
        host.press("\r")
        # The cutter keeps its card; then the first to play thinks (does nothing), and
        # the other player already holds three cards.
        screens = {"host": host, "guest": guest}
        deadline = time.monotonic() + 40
        acting = None
        while acting is None:
            assert time.monotonic() < deadline, host.text + "\n" + guest.text
            for name, s in screens.items():
                s.pump()
                if any(c in s.text for c in CUT):
                    s.press("k")
                elif any(w in s.text for w in TURN):
                    acting = name
        thinker = screens[acting]
        other = screens["guest" if acting == "host" else "host"]
        other.wait_for(lambda t: HAND.search(t), 20, "the other player's three cards")
        assert "waiting for" in other.text
        assert any(w in thinker.text for w in TURN)  # still thinking
        assert HAND.search(thinker.text)
        for s in (host, guest):
            s.press("q")
            s.press("y")
    finally:
        host.kill()
        guest.kill()


def test_another_players_move_is_shown_before_the_table_changes(tmp_path):
    s = Screen(["play", "--lang", "en", "--bots", "greedy", "--seed", "4", "--pace", "3"],
               tmp_path)
    try:
        seen = None
        deadline = time.monotonic() + 60
        while seen is None:
            assert time.monotonic() < deadline, s.text
            s.pump()
            text = s.text
            m = re.search(r"bot1 plays (\S+)( and takes [^\n│]+)?", text)
            if m:
                seen = (m.group(0), text)
            elif "keep it" in text:
                s.press("k")
            elif "several ways" in text or "Your turn" in text:
                s.press("1")
        line, text = seen
        # The card played is on the table, drawn reversed, while the line says it.
        card = line.split()[2]
        row = next(i for i, ln in enumerate(s.screen.display) if "bot1 plays" in ln)
        assert row >= 0
        highlighted = [
            "".join(ch.data for ch in s.screen.buffer[y].values() if ch.reverse)
            for y in range(s.screen.lines)]
        assert any(card in h for h in highlighted), (card, text)
        # Then the table changes and it is our turn again.
        s.wait_for(lambda t: "Your turn" in t or "keep it" in t or "Enter: continue" in t,
                   20, "the next state")
    finally:
        s.kill()


def test_help_shows_the_keys_and_the_words_of_the_game(tmp_path):
    s = Screen(["play", "--lang", "en", "--bots", "greedy", "--pace", "0"], tmp_path)
    try:
        s.wait_for(lambda t: "Your hand" in t, 30, "the table")
        s.press("z")
        s.wait_for(lambda t: "that key does nothing here" in t, 5, "the hint")
        s.press("?")
        text = s.wait_for(lambda t: "Words of the game" in t, 5, "the help")
        for word in ("carta", "dinari", "barmila", "haya", "chkobba", "cutter", "beji",
                     "←→ page 1/3"):
            assert word in text, text
        # At 80x24 how to play (a capture, the cut) and the rules are its second page,
        # and a worked example of a hand's scoring its third.
        s.child.send("\x1b[C")  # →
        text = s.wait_for(lambda t: "How to play" in t, 5, "the help's second page")
        for words in ("cards that add up to its value", "must take", "Keep it (k)",
                      "Rules in play: tunisian", "←→ page 2/3"):
            assert words in text, text
        s.child.send("\x1b[C")  # →
        text = s.wait_for(lambda t: "A worked example" in t, 5, "the help's third page")
        assert "←→ page 3/3" in text, text
        s.press(" ")
        s.wait_for(lambda t: "Words of the game" not in t, 5, "the help closed")
    finally:
        s.kill()
    f = Screen(["play", "--lang", "fr", "--bots", "greedy", "--pace", "0"], tmp_path / "fr")
    try:
        f.wait_for(lambda t: "Votre main" in t, 30, "the table")
        f.child.send("\x1bOP")  # F1
        text = f.wait_for(lambda t: "Les mots du jeu" in t, 5, "the French help")
        for word in ("carta", "dinari", "coupeur", "beji", "←→ page 1/3"):
            assert word in text, text
        f.child.send("\x1b[C")  # →
        text = f.wait_for(lambda t: "Comment jouer" in t, 5, "the French second page")
        for words in ("des cartes dont la somme fait sa valeur",
                      "garder (g) : c'est une de vos 3 cartes", "tunisienne"):
            assert words in text, text
        f.child.send("\x1b")  # Esc alone closes it (no next key needed, none lost)
        f.wait_for(lambda t: "Les mots du jeu" not in t, 5, "the help closed by Esc")
        f.press("?")
        f.wait_for(lambda t: "Les mots du jeu" in t, 5, "the help again")
    finally:
        f.kill()


@pytest.mark.parametrize("how", ["--ascii", "LANG=C"])
def test_ascii_screens_hold_no_other_character(tmp_path, how):
    args = ["play", "--lang", "fr", "--bots", "greedy", "--seed", "2", "--pace", "0",
            "--target", "1"]
    env = None
    if how == "--ascii":
        args.append("--ascii")
    else:
        env = {"LANG": "C", "LC_ALL": "", "LC_CTYPE": ""}
    s = Screen(args, tmp_path, env=env)
    try:
        screens = 0
        s.wait_for(lambda t: "Votre main" in t, 30, "the table")
        s.press("?")
        s.wait_for(lambda t: "Les mots du jeu" in t, 5, "the help")
        assert s.text.isascii(), s.text
        s.press(" ")
        deadline = time.monotonic() + 60
        while "Partie terminee" not in s.text and "Partie arretee" not in s.text:
            assert time.monotonic() < deadline, s.text
            s.pump()
            assert s.text.isascii(), s.text
            screens += 1
            if "la garder" in s.text:
                s.press("g")
            elif "plusieurs facons" in s.text:
                s.press("1")
            elif "Entree : continuer" in s.text:
                s.press("\r")
            elif "A vous" in s.text:
                s.press("1")
        assert s.text.isascii() and screens > 3
    finally:
        s.kill()


def test_a_terminal_too_small_says_what_it_needs(tmp_path):
    s = Screen(["play", "--lang", "en", "--bots", "greedy", "--pace", "0"], tmp_path,
               cols=30, rows=10)
    try:
        s.wait_for(lambda t: "terminal too small" in t and "40x12" in t, 30, "the message")
        s.child.setwinsize(24, 80)
        s.screen.resize(24, 80)
        s.wait_for(lambda t: "Your hand" in t, 20, "the table once it fits")
    finally:
        s.kill()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_match_in_each_language(tmp_path, lang):
    words = {
        "en": ("Your turn", "keep it", "k", "several ways", "Enter: continue",
               "Match over", "Game stopped"),
        "fr": ("À vous", "la garder", "g", "plusieurs façons", "Entrée : continuer",
               "Partie terminée", "Partie arrêtée"),
    }[lang]
    turn, cut, keep, ways, cont, over, stopped = words
    s = Screen(["play", "--lang", lang, "--bots", "greedy", "--seed", "7", "--pace", "0",
                "--target", "3"], tmp_path)
    try:
        deadline = time.monotonic() + 150
        sheets = 0
        while over not in s.text and stopped not in s.text:
            assert time.monotonic() < deadline, s.text
            s.pump()
            text = s.text
            if cut in text:
                s.press(keep)
            elif ways in text:
                s.press("1")
            elif cont in text:
                sheets += 1
                s.press("\r")
            elif turn in text:
                s.press("1")
        text = s.text
        assert over in text, text
        assert sheets >= 1
        # The result in the player's words: a name or "you", never a side number.
        assert re.search(r"You win|bot1 wins|Vous gagnez|bot1 gagne", text), text
        assert not re.search(r"\b(side|camp|seat|place) \d", text), text
        s.press("q")
        assert s.finish() == 0
        out = s.raw.decode("utf-8", "replace")
        assert not re.search(r"\b(side|camp|seat|place) \d", out)
    finally:
        s.kill()


@pytest.mark.parametrize("lang, closed", [
    ("en", "you closed your table before the first deal"),
    ("fr", "vous avez fermé votre table avant la première donne")])
def test_closing_a_table_before_the_first_deal_says_so(tmp_path, lang, closed):
    """No game was left: the host's lobby asks 'Close your table?' and the exit says the
    table closed (it said 'you left the game', and the dialog that the log is kept)."""
    env = {"CHKOBBA_CONFIG_DIR": str(tmp_path / "cfg")}
    s = Screen(["host", "--port", "0", "--no-upnp", "--no-beacon", "--name", "sami",
                "--lang", lang], tmp_path, env=env)
    try:
        s.wait_for(lambda t: "sami" in t and ("key " in t or "clé " in t), 30, "the lobby")
        s.press("q")
        s.wait_for(lambda t: "Close your table?" in t or "Fermer votre table ?" in t, 5,
                   "the question")
        s.child.send("y" if lang == "en" else "o")
        assert s.finish() == 0  # closing on purpose is no interrupt (was 130)
        out = " ".join(s.raw.decode("utf-8", "replace").split())
        assert closed in out, out[-600:]
        assert "the game" not in out.split(closed)[-1] and "la partie" not in \
            out.split(closed)[-1]
    finally:
        s.kill()
