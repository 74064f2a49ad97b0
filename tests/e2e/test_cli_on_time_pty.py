"""Losing on time, end to end (issue 26): a real host in a pty (pexpect + pyte, 80x24)
against a bot in its own process that waits longer than the host's short move clock.
The host's screen shows its move clock from the start and says it won on time; then
``chkobba replay`` of its log says VALID, on time, with that winner.  In English and
in French.  Every wait polls the screen against a deadline; nothing sleeps."""

from __future__ import annotations

import re
import time

import pytest
from test_cli_person_pty import act, free_port, headless, host_screen, logs_of, replay

pytest.importorskip("pexpect")

#: The host's move clock (seconds): its own moves come well within it (no shuffle
#: proofs), the bot's wait (--delay) is far longer.
CLOCK = "12"

WON = {"en": "hedi ran out of time: you won on time!",
       "fr": "hedi n'a plus de temps : vous gagnez au temps !"}
# The countdown whole; its words ("left", "encore") give way first on a short seat line.
CLOCK_SHOWN = {"en": re.compile(r"⏱ 0:\d\d(?: left)?"), "fr": re.compile(r"⏱ (?:encore )?0:\d\d")}


def act_fr(s) -> None:
    """The French screen's prompts (act() reads the English one)."""
    s.pump()
    text = s.text
    if "Entrée pour commencer" in text:
        s.press("\r")
    elif "[g]arder" in text:
        s.press("g")
    elif "Entrée : continuer" in text:
        s.press("\r")
    elif "À vous" in text:
        s.press("1")
        if "plusieurs" in s.text:  # a card that takes several ways
            s.press("1")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_seat_that_stalls_past_its_clock_loses_on_time(tmp_path, lang):
    port = free_port()
    host = host_screen(tmp_path, port, "--turn-timeout", CLOCK, "--no-shuffle-proofs",
                       "--lang", lang)
    bot = None
    try:
        host.wait_for(lambda t: f"127.0.0.1:{port}" in t, 20, "the open table")
        bot = headless(["bot", f"127.0.0.1:{port}", "--quiet", "--name", "hedi",
                        "--delay", "600"], tmp_path / "b")
        seen_clock = False
        deadline = time.monotonic() + 120
        while WON[lang] not in host.text:
            assert time.monotonic() < deadline, "no win on time:\n" + host.text
            seen_clock = seen_clock or bool(CLOCK_SHOWN[lang].search(host.text))
            if lang == "fr":
                act_fr(host)
            else:
                act(host)
        # The clock of whoever was to play was on screen (hedi's, or ours).
        assert seen_clock, host.text
        host.press("q")
        assert host.finish() == 0  # a result, not a stopped game
        assert bot.wait(30) == 0
        logs = logs_of(tmp_path / "h")
        assert len(logs) == 1, logs
        status, report = replay(logs[0])
        assert status == 0, report
        assert "VALID" in report and "on time" in report, report
        assert "hedi lost on time" in report and "amel wins the match on time" in report
        assert "the time is the host's word" in report, report
        assert "winner: amel" in report, report
    finally:
        host.kill()
        if bot is not None:
            bot.kill()
