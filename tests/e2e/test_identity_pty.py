"""host and join on one computer share the person's one key (issue 43): a join of the
host's own table is refused as already seated and says how to join it (another key)."""

from __future__ import annotations

import re

import pytest
from test_cli_play_pty import Screen

from chkobba_p2p import load_identity

KEY = "identity.key"


@pytest.mark.parametrize("lang, said", [
    ("en", "to join your own table from this computer, give the join another key"),
    ("fr", "pour rejoindre votre propre table depuis cet ordinateur, donnez une autre clé")])
def test_host_and_join_on_one_computer_share_the_key(tmp_path, lang, said):
    """host and join of one data directory have the same key: the join is refused as
    already seated and told how to join its own table (another key); with one, it sits."""
    host = Screen(["host", "--port", "0", "--bind", "127.0.0.1", "--no-beacon", "--lang",
                   lang, "--name", "amel"], tmp_path)
    try:
        text = host.wait_for(lambda t: re.search(r"127\.0\.0\.1:(\d+)", t), 20, "the address")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        guest = Screen(["join", f"127.0.0.1:{port}", "--lang", lang, "--name", "sami"],
                       tmp_path)
        assert guest.finish(30) == 2
        out = " ".join(guest.raw.decode("utf-8", "replace").split())
        assert said in out and "--identity" in out, out
        other = Screen(["join", f"127.0.0.1:{port}", "--lang", lang, "--name", "sami",
                        "--identity", str(tmp_path / "guest.key")], tmp_path)
        try:
            other.wait_for(lambda t: "sami" in t and "amel" in t, 30, "the lobby")
        finally:
            other.kill()
        assert sorted(p.name for p in tmp_path.glob("*.key")) == ["guest.key", KEY]
        assert load_identity(tmp_path / KEY, create=False).fingerprint in text
    finally:
        host.kill()
