"""A peer process imports what its role needs and no more (issue 44: a peer's memory).

Each entry runs in a fresh interpreter, as a peer starts: the bot process ``chkobba play``
starts (``chkobba_cli.tui.botproc``, run up to reading its address: stdin closed, it ends)
and a library peer (the face, the network shell, a greedy bot).  Not timed and not
measured: what is checked is which modules are loaded, and in which order, which is what
the memory follows (``benchmarks/latency.py`` prints ``peak_rss_peer_Np``;
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
    "bot process": "import chkobba_cli.tui.botproc as b; b.main(['-'])",
    "library peer": ("from chkobba_p2p import BotController, JoinConfig, join_match; "
                     "import chkobba_p2p._shell.net; BotController('greedy', 1)"),
}

#: What no bot peer loads: the terminal client, LAN discovery and port mapping (a host
#: that announces or maps loads them), Tor, the expert's search and learned policy (an
#: expert bot loads them), the table as a client draws it, cryptography's serialization
#: formats (the keys' raw bytes need none), the test tools rbcl imports for itself, the
#: client's catalog of words.
ABSENT = (
    "prompt_toolkit", "zeroconf", "asyncio",
    "chkobba_p2p._shell.discovery", "chkobba_p2p._shell.portmap", "chkobba_p2p._shell.tor",
    "chkobba_p2p.bots.expert", "chkobba_p2p.bots.learned", "chkobba_p2p.tablestate",
    "cryptography.hazmat.primitives.serialization",
    "doctest", "unittest", "pdb", "difflib", "statistics",
    "chkobba_cli.i18n",
)

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
    assert [m for m in ABSENT if m in loaded] == []
    # rbcl's first import holds libsodium's bytes twice for a moment (some 12 MB): first,
    # before trio, that memory is reused by what follows instead of topping trio's.
    assert loaded.index("rbcl") < loaded.index("trio")
    assert result["testmod"] is True
