"""A headless peer's output (``chkobba bot``, ``chkobba host --headless``): one line per
event, in English, for logs and scripts (``--quiet``: only the log and the result).

:class:`Narrator` is the headless viewpoint of the one place that words events
(:class:`~..words.event_words.HeadlessVoice`): it prints what that says, and what only a
host shows (its addresses, join codes, the onion's); :func:`report` prints the result,
the log and the peer's figures at the end.  Every line goes through the display filter
(:func:`print_line`): what it quotes came from outside.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from chkobba_p2p import Address, Listening, Outcome, fingerprint
from chkobba_p2p.text import safe_text

from ..options.tor import tor_offer
from ..support.reach import address_lines, host_address, join_code, reach_line
from ..words.event_words import HeadlessVoice, narrate, words
from ..words.i18n import Translator

TYPE_CHECKING = False  # typing's, without importing typing (see main.py)
if TYPE_CHECKING:
    # Tor and port mapping are imported on their paths only (issue 44).
    from chkobba_p2p import PortMapped, PortMapUnavailable, SocksFailed, TorFailed

__all__ = ["ENGLISH", "Narrator", "print_line", "report", "say"]

ENGLISH = Translator("en")  # a headless peer's lines are in English


def print_line(text: str) -> None:
    """One line of a headless peer's output.  What it quotes came from outside (names,
    a router's address, a host's words): the whole line goes through the display filter,
    whatever path the words took to it."""
    print(safe_text(text), flush=True)


def say(quiet: bool, text: str) -> None:
    if not quiet:
        print_line(text)


class Narrator(HeadlessVoice):
    """Prints what happens, one line per event (a headless peer's output)."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.seat: int | None = None
        self.bind: str | None = None  # a host's: its LAN address is shown
        self.fingerprint = ""  # a host's key fingerprint, for its join codes
        self.transport: object = None  # a host's: its onion join code is shown
        self.spectators = 0  # a host's places for spectators: how they connect is shown
        self._onion_code: str | None = None
        self._told_proofs = False
        #: A joiner's log, named (``log: PATH``) once it exists: never a log not written.
        self.log_path: Path | None = None
        self.told_log = False
        #: Through Tor: its failure, and what stops this peer when tor fails before the
        #: match (a host's or a joiner's: the sentence, then exit 2); the last SOCKS
        #: refusal (a joiner's, said if every try fails).
        self.tor_failed: TorFailed | None = None
        self.stop: Callable[[], None] | None = None
        self.socks_failed: SocksFailed | None = None
        self.started = False

    @property
    def onion_code(self) -> str | None:
        """The table's onion join code (host --tor), once published."""
        return self._onion_code

    @onion_code.setter
    def onion_code(self, code: str | None) -> None:
        # Made again through join_code, so that it carries the table's seat secret
        # (host --secret) like every other code this host shows.
        if code is not None:
            with contextlib.suppress(ValueError):
                where = Address.parse(code)
                code = join_code(where.host, where.port, where.fingerprint)
        self._onion_code = code

    def tell_log(self) -> None:
        if not self.told_log and self.log_path is not None and self.log_path.exists():
            self.told_log = True
            print(f"log: {self.log_path}", flush=True)

    def on_event(self, event: object) -> None:
        self.tell_log()
        narrate(event, self)  # the words: words.event_words, a headless peer's viewpoint

    def line(self, text: str) -> None:
        print_line(text)

    def listening_lines(self, ev: Listening) -> None:
        print_line(f"listening on port {ev.port}; host key fingerprint {fingerprint(ev.key)}")
        self.fingerprint = fingerprint(ev.key)
        if self.bind is not None:
            for line in address_lines(self.bind, ev.port, self.fingerprint):
                print_line(line)
            if self.spectators:
                # No fingerprint: watch checks none (the genesis's key is the greeting's).
                code = join_code(host_address(self.bind), ev.port, None)
                print_line(f"spectators type: chkobba watch {code}")

    def reach_line(self, ev: PortMapped | PortMapUnavailable) -> None:
        from chkobba_p2p import PortMapUnavailable  # loaded: the event is the port mapper's

        line = reach_line(ev, self.fingerprint)
        if (isinstance(ev, PortMapUnavailable) or not ev.public) and (
                self.transport is None or self.onion_code is not None):
            line += tor_offer(self.onion_code)  # (tor starting: its code follows)
        print_line(line)


def report(outcome: Outcome, told_log: bool = False) -> int:
    # The OS's words for a failure to connect ("[Errno -2] ...") said for a person.
    # The words come from the outcome's data (an OS failure to connect already said as
    # one sentence): nothing left to parse.
    print(f"result: {words(outcome, ENGLISH)}", flush=True)
    if not told_log and outcome.log_path and Path(outcome.log_path).exists():
        print(f"log: {outcome.log_path}", flush=True)  # none without a table
    try:
        import resource  # POSIX only

        use = resource.getrusage(resource.RUSAGE_SELF)
        rss = (f", peak RSS {use.ru_maxrss / 1024:.1f} MB"  # ru_maxrss is in KiB on Linux
               f", CPU {use.ru_utime + use.ru_stime:.2f} s")
    except ImportError:
        rss = ""
    print(f"stats: sent {outcome.bytes_sent} B, received {outcome.bytes_received} B{rss}",
          flush=True)
    # A resignation or a loss on time is a result (the other side wins; at 3 players the
    # seat that lost it loses, even when the two others are level), not a stopped game.
    return 0 if outcome.concluded else (
        3 if outcome.aborted else 2)
