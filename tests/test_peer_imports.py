"""A peer process imports what its role needs and no more (issue 44: a peer's memory).

Each entry runs in a fresh interpreter, as a peer starts: the bot process ``chkobba play``
starts (``chkobba_cli.support.botproc``, run up to reading its address: stdin closed, it ends),
``chkobba bot`` (the same, through the command line), ``chkobba host --headless`` (up to
its first check) and a library peer (the face, the network shell, a greedy bot).  Not timed
and not measured: what is checked is which modules are loaded, and in which order, which is
what the memory follows (``benchmarks/latency.py`` prints ``peak_rss_peer_Np``;
``benchmarks/startup.py`` prints each entry's peak).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

ENTRIES = {
    "bot process": "import chkobba_cli.support.botproc as b; b.main(['-'])",
    # chkobba bot (the headless bot host --headless --bots starts) as its console script
    # runs it, up to reading its address (stdin closed: none, it ends with exit 2)
    "chkobba bot": "from chkobba_cli.main import main; assert main(['bot', '-']) == 2",
    # chkobba host --headless, up to its first check (too many bots: exit 2, before the
    # network): the headless peers' module, not the terminal client's
    "chkobba host --headless": ("from chkobba_cli.main import main; assert main(["
                                "'host', '--headless', '--bots', '2', '--players', '2']) == 2"),
    "library peer": ("from chkobba_p2p import BotController, JoinConfig, join_match; "
                     "import chkobba_p2p._shell.net; BotController('greedy', 1)"),
}

#: What no bot peer loads: the terminal client, LAN discovery and port mapping (a host
#: that announces or maps loads them), ssl and the OpenSSL it loads (trio's TLS streams,
#: which no peer uses, import it on first use), hashlib, hmac and secrets with the system's
#: libcrypto (the peers hash with cryptography, chkobba_p2p._digest; trio's DTLS cookies
#: import hmac on first use), Tor, the expert's search and learned policy (an
#: expert bot loads them), the table as a client draws it, cryptography's serialization
#: formats (the keys' raw bytes need none), the test tools rbcl imports for itself, the
#: client's catalog of words (but chkobba bot's: it words its events and result), the
#: auditor and what sees a game from no seat (its process pool and pickle with it).
ABSENT = (
    "prompt_toolkit", "zeroconf", "asyncio", "ssl", "_ssl",
    "hashlib", "_hashlib", "hmac", "secrets",
    "chkobba_p2p._shell.discovery", "chkobba_p2p._shell.portmap", "chkobba_p2p._shell.tor",
    "chkobba_p2p.bots.expert", "chkobba_p2p.bots.learned", "chkobba_p2p.tablestate",
    "cryptography.hazmat.primitives.serialization",
    "doctest", "unittest", "pdb", "difflib", "statistics",
    "chkobba_p2p.observe.audit", "chkobba_p2p.observe.observer",
    "multiprocessing", "concurrent.futures", "pickle",
    "chkobba_cli.words.i18n", "chkobba_cli.commands.host", "chkobba_cli.commands.join",
    "chkobba_cli.support.player",
)
#: What a joiner does not load: the host's shell and the host's side of the link (its
#: table, its door and admission, the matches it ended), apart in
#: ``_shell/hostpeer.py``.  The library peer's entry imports the joiner's shell.
HOST_ONLY = ("chkobba_p2p._shell.hostpeer", "chkobba_p2p._shell.accept",
             "chkobba_p2p.link.host", "chkobba_p2p.link.door", "chkobba_p2p.link.admission",
             "chkobba_p2p.transcript.ended")
#: What an entry loads that the others need not (chkobba bot: its words).
NEEDS = {"chkobba bot": ("chkobba_cli.words.i18n", "chkobba_cli.words.event_words"),
         "chkobba host --headless": ("chkobba_cli.words.i18n", "chkobba_cli.words.event_words")}

PROBE = """
import sys
{entry}
loaded = list(sys.modules)
import doctest  # the real one: rbcl's placeholder was only for its own import
print(json.dumps({{"loaded": loaded, "testmod": callable(getattr(doctest, "testmod", None))}}))
"""


def _loaded(entry: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", "import json\n" + PROBE.format(entry=entry)],
                         cwd=ROOT, env=dict(os.environ), stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ENTRIES))
def test_a_bot_peer_loads_no_module_its_role_does_not_need(name):
    result = _loaded(ENTRIES[name])
    loaded = result["loaded"]
    assert isinstance(loaded, list)
    assert "chkobba_p2p.deal" in loaded and "trio" in loaded  # the entry did load the peer
    needs = NEEDS.get(name, ())
    assert [m for m in needs if m not in loaded] == []
    assert [m for m in ABSENT if m in loaded and m not in needs] == []
    if name == "library peer":
        assert "chkobba_p2p._shell.net" in loaded
        assert [m for m in HOST_ONLY if m in loaded] == []
    # rbcl's first import holds libsodium's bytes twice for a moment (some 12 MB): first,
    # before trio, that memory is reused by what follows instead of topping trio's.
    assert loaded.index("rbcl") < loaded.index("trio")
    assert result["testmod"] is True


TLS_PROBE = """
import sys
import chkobba_p2p._shell  # imports trio, its TLS module holding the stand-in for ssl
import trio
assert "ssl" not in sys.modules and "_ssl" not in sys.modules, "ssl loaded with trio"
import ssl
assert type(ssl).__name__ == "module" and "_ssl" in sys.modules  # the real one
stream = trio.SSLStream(trio.testing.MemorySendStream(), ssl.create_default_context(),
                        server_hostname="example.org")  # trio reads ssl.MemoryBIO
from trio import _ssl
assert _ssl._stdlib_ssl.MemoryBIO is ssl.MemoryBIO
assert isinstance(stream, trio.SSLStream)
print("ok")
"""


@pytest.mark.slow
def test_trio_without_ssl_still_makes_tls_streams_and_ssl_is_the_real_module():
    """The shell imports trio with a stand-in for ssl (its TLS streams import the real
    one on first use): a later ``import ssl`` is the real module, and trio's TLS stream,
    made afterwards, reads ssl's names through the stand-in."""
    code = TLS_PROBE.replace("import trio\n", "import trio\nimport trio.testing\n", 1)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


DTLS_PROBE = """
import sys
import chkobba_p2p._shell  # imports trio, its DTLS module holding the stand-in for hmac
import trio
loaded = [m for m in ("hmac", "hashlib", "_hashlib") if m in sys.modules]
assert loaded == [], f"loaded with trio: {loaded}"
import hmac
assert type(hmac).__name__ == "module" and "hashlib" in sys.modules  # the real one
from trio import _dtls
key, salt = bytes(range(_dtls.KEY_BYTES)), bytes(_dtls.SALT_BYTES)
cookie = _dtls._make_cookie(key, salt, 7, ("127.0.0.1", 4433), b"hello")  # reads hmac.digest
assert _dtls.hmac.digest is hmac.digest
assert len(cookie) == _dtls.COOKIE_LENGTH and cookie[:len(salt)] == salt
print("ok")
"""


@pytest.mark.slow
def test_trio_without_hmac_still_makes_dtls_cookies_and_hmac_is_the_real_module():
    """The shell imports trio with a stand-in for hmac (its DTLS cookies import the real
    one on first use): hmac, hashlib and the system's libcrypto stay out of a peer, a
    later ``import hmac`` is the real module, and trio's cookie reads hmac's names
    through the stand-in."""
    out = subprocess.run([sys.executable, "-c", DTLS_PROBE], cwd=ROOT, env=dict(os.environ),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


BEACON_PROBE = """
import sys
{before}
from chkobba_p2p._shell import discovery
discovery._import_zeroconf()
import asyncio, asyncio.sslproto, zeroconf
loaded = [m for m in ("ssl", "_ssl", "hashlib", "_hashlib", "hmac") if m in sys.modules]
import ssl
assert type(ssl).__name__ == "module" and "_ssl" in sys.modules  # the real one, later
print(loaded, asyncio.sslproto.ssl is ssl)
"""


@pytest.mark.slow
@pytest.mark.parametrize(("before", "expected"), [
    ("", "[] False"),  # a beaconing host: neither ssl nor its OpenSSL
    ("import asyncio", "['ssl', '_ssl'] True"),  # a program of asyncio's keeps its TLS
])
def test_a_beacon_imports_zeroconf_and_asyncio_without_ssl_unless_asyncio_came_first(
        before, expected):
    """LAN discovery imports zeroconf and asyncio as on a Python without ssl (asyncio's
    TLS then unavailable in the process; zeroconf never uses it), a later ``import ssl``
    is the real module, and a process that imported asyncio first is left as it was."""
    out = subprocess.run([sys.executable, "-c", BEACON_PROBE.format(before=before)],
                         cwd=ROOT, env=dict(os.environ), stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected


ADDRESSES_PROBE = """
import sys
import chkobba_p2p
from chkobba_p2p._shell.discovery import host_addresses
assert host_addresses("0.0.0.0")[0] == chkobba_p2p.lan_address()
chkobba_p2p.global_ipv6()
print("chkobba_p2p._shell.portmap" in sys.modules)
"""


@pytest.mark.slow
def test_the_addresses_a_host_announces_and_shows_load_no_port_mapping():
    """A beaconing host's addresses (and the face's ``lan_address``, ``global_ipv6``,
    which the command line shows) come from the transport's module, not port mapping's
    (a host that maps a port loads it)."""
    out = subprocess.run([sys.executable, "-c", ADDRESSES_PROBE], cwd=ROOT,
                         env=dict(os.environ), stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_a_peer_over_tor_and_the_history_load_no_hashlib():
    """Tor's module (a headless peer with ``--tor``: onion addresses, the control port's
    SAFECOOKIE) and the history (its audit cache) hash with cryptography: neither loads
    hashlib, hmac, secrets and the system's libcrypto."""
    probe = ("import sys\nimport chkobba_p2p._shell.tor, chkobba_p2p.observe.history\n"
             "print([m for m in ('hashlib', '_hashlib', 'hmac', 'secrets') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=dict(os.environ),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


_READ_IN_ITS_WINDOW = """
import sys
from chkobba_p2p._shell import _OnFirstUse
assert "colorsys" not in sys.modules
standin = _OnFirstUse("colorsys", "a stand-in")
sys.modules["colorsys"] = standin
from colorsys import rgb_to_hsv  # read while the stand-in still stands: no recursion
real = sys.modules["colorsys"]
print(rgb_to_hsv(1.0, 0.0, 0.0), real is not standin, standin.hls_to_rgb is real.hls_to_rgb)
"""


@pytest.mark.slow
def test_a_stand_in_read_while_it_stands_imports_the_real_module():
    """A module trio imports may read a stood-in module's name during trio's own import
    (a future trio's ``from hmac import compare_digest``): the stand-in steps aside and
    the real module answers, instead of recursing until the interpreter gives up."""
    out = subprocess.run([sys.executable, "-c", _READ_IN_ITS_WINDOW], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-1500:]
    assert out.stdout.split() == ["(0.0,", "1.0,", "1.0)", "True", "True"]
