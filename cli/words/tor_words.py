"""What Tor is doing, in the player's words: the library reports tor's start as data
(:class:`~chkobba_p2p.TorStarting`, :class:`~chkobba_p2p.TorBootstrap` steps,
:class:`~chkobba_p2p.TorFailed` with a code, :class:`~chkobba_p2p.SocksFailed` with
tor's reply); this module words them, in English or French (the words are in
:mod:`.i18n`).  The screen (host and join lobbies), the headless peers and the lines
printed after the screen closes all use it."""

from __future__ import annotations

from chkobba_p2p import (
    OutcomeError,
    SocksFailed,
    TorBootstrap,
    TorFailed,
    TorFailure,
    TorStarting,
)
from chkobba_p2p.text import safe_text

from .i18n import MESSAGES, Translator

__all__ = ["TOR_EVENTS", "tor_status_text", "tor_failed_text", "socks_reply_text",
           "socks_failed_text", "phase_text", "tor_stopped"]

#: The events this module words (a client keeps them apart from the table's).
TOR_EVENTS = (TorStarting, TorBootstrap, TorFailed, SocksFailed)

#: Tor's bootstrap tags (control-spec, "Bootstrap phases"), grouped into the few steps a
#: person can follow.
_PHASES = {
    "starting": "starting",
    "conn_pt": "conn", "conn_done_pt": "conn", "conn_proxy": "conn",
    "conn_done_proxy": "conn", "conn": "conn", "conn_done": "conn", "handshake": "conn",
    "handshake_done": "conn", "conn_dir": "conn", "handshake_dir": "conn",
    "onehop_create": "status", "requesting_status": "status", "loading_status": "status",
    "loading_keys": "keys",
    "requesting_descriptors": "descriptors", "loading_descriptors": "descriptors",
    "enough_dirinfo": "descriptors",
    "ap_conn_pt": "circuit", "ap_conn_done_pt": "circuit", "ap_conn_proxy": "circuit",
    "ap_conn_done_proxy": "circuit", "ap_conn": "circuit", "ap_conn_done": "circuit",
    "ap_handshake": "circuit", "ap_handshake_done": "circuit", "circuit_create": "circuit",
    "done": "done",
}


def phase_text(t: Translator, step: TorBootstrap) -> str:
    """Where tor is (its phase in our words; an unknown one in tor's own)."""
    group = _PHASES.get(step.tag)
    if group is not None:
        return t(f"tor_phase_{group}")
    return safe_text(step.summary or step.tag, 80)


def _trouble(t: Translator, step: TorBootstrap) -> str:
    key = f"tor_why_{step.reason}"
    if key in MESSAGES:
        return t(key)
    return safe_text(step.warning or step.reason, 120)


def tor_status_text(t: Translator, event: object, *, joining: bool = False) -> str | None:
    """One line for what tor is doing now (None: not a Tor event, or a failure, which
    :func:`tor_failed_text` words)."""
    if isinstance(event, TorStarting):
        if event.private:
            return t("tor_starting_private")
        return t("tor_starting", where=safe_text(event.where, 120))
    if isinstance(event, TorBootstrap):
        if event.progress >= 100:
            return t("tor_join_ready" if joining else "tor_publishing")
        if event.trouble:
            return t("tor_progress_trouble", n=event.progress, what=phase_text(t, event),
                     trouble=_trouble(t, event))
        return t("tor_progress", n=event.progress, what=phase_text(t, event))
    if isinstance(event, SocksFailed):
        return t("socks_trying", reply=socks_reply_text(t, event.reply))
    return None


def tor_failed_text(t: Translator, event: TorFailed) -> str:
    """The one sentence of what went wrong with Tor and what to check."""
    why = safe_text(event.detail, 300)
    if event.code == TorFailure.NO_NETWORK:
        step = event.bootstrap
        if step is None:
            pct, what = 0, t("tor_phase_starting")
        else:
            pct, what = step.progress, phase_text(t, step)
            if step.trouble:
                what = t("tor_phase_trouble", what=what, trouble=_trouble(t, step))
        return t("tor_fail_no_network", n=f"{event.timeout:g}", pct=pct, what=what)
    key = {
        TorFailure.NETWORK_DISABLED: "tor_fail_disabled",
        TorFailure.START_FAILED: "tor_fail_start",
        TorFailure.NO_CONTROL: "tor_fail_no_control",
        TorFailure.CONTROL_REFUSED: "tor_fail_control",
        TorFailure.CONTROL_CLOSED: "tor_fail_closed",
        TorFailure.NO_SOCKS: "tor_fail_no_socks",
        TorFailure.PUBLISH_FAILED: "tor_fail_publish",
    }.get(event.code, "tor_fail_other")
    return t(key, why=why)


def socks_reply_text(t: Translator, reply: int) -> str:
    key = f"socks_{reply}"
    return t(key) if key in MESSAGES else f"0x{reply:02x}"


def socks_failed_text(t: Translator, event: SocksFailed) -> str:
    """Why a join through Tor failed, after the tries: tor's reply, and what to check."""
    reply = event.reply
    check = ("socks_check_gone" if reply in (4, 0xF0, 0xF1, 0xF2, 0xF3, 0xF7)
             else "socks_check_network" if reply == 6
             else "socks_check_address" if reply in (0xF4, 0xF5, 0xF6)
             else "socks_check_refused" if reply == 5
             else "socks_check_tor")
    return t("socks_fail", reply=socks_reply_text(t, reply), code=f"0x{reply:02x}",
             check=t(check))


def tor_stopped(ui) -> str | None:  # ui: a TuiApp (not imported: it imports this)
    """Why a command through Tor stopped before its match, to print once the screen
    closed (exit 2): tor's failure, or, for a join whose tries at the onion address all
    failed, tor's last SOCKS reply and what to check; None otherwise (or when the person
    left)."""
    if ui.left or ui.state.started:
        return None
    if ui.tor_failed is not None and not ui.tor_kept:  # (kept: said on the screen)
        return tor_failed_text(ui.t, ui.tor_failed)
    o = ui.outcome
    if ui.socks_failed is not None and o is not None \
            and o.error_code == OutcomeError.CONNECT_FAILED:
        return socks_failed_text(ui.t, ui.socks_failed)
    return None
