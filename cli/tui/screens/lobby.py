"""The lobby screen, before the first hand: where to connect or what address to give,
the rules, the seats as they fill (names and key fingerprints), and whether the match is
about to start: the ready check (press Enter once the fingerprints are checked; its key
is in :mod:`..keys`) and what the known players say of each seat (:mod:`..parts.trust`).
"""

from __future__ import annotations

from chkobba_p2p import KnownPlayers, PortMapped, PortMapUnavailable
from chkobba_p2p.text import safe_text

from ...options.tor import tor_installed
from ...support.reach import join_code, table_address
from ...words.i18n import Translator
from ..model.past import PastGames
from ..model.view import TableView
from ..parts.render import Line, wrap_line
from ..parts.terms import spare, terms_lines
from ..parts.trust import changed_seats, missing_names, seat_lines

__all__ = ["lobby_lines", "reach_text", "team_lines"]


def team_lines(view: TableView, width: int) -> list[Line]:
    """Who partners whom at a table of two teams (4 seats: partners face each other,
    seats 1 & 3 against 2 & 4), our side first: "teams: you & bilel against sami &
    dora"; a free seat is said free.  Nothing at 2 or 3 seats."""
    st, t = view.state, view.t
    if len(st.names) != 4:
        return []

    def who(seat: int) -> str:
        return view.who(seat) if st.names[seat] else t("lobby_free")

    me = st.seat if st.seat is not None and 0 <= st.seat < 4 else 0
    # Ours from our own seat, then the other side's in seat order.
    sides = [" & ".join(who(s) for s in (first, (first + 2) % 4))
             for first in (me, 1 - me % 2)]
    return wrap_line([("class:title", " " + t("lobby_teams", us=sides[0], them=sides[1]))],
                     width - 1, "   ")


def reach_text(t: Translator, ev: PortMapped | PortMapUnavailable,
               fingerprint: str | None) -> str:
    """What the router said about the host's port: the code for friends on the
    internet, or how to forward the port by hand."""
    if isinstance(ev, PortMapUnavailable):
        return t("lobby_no_router", port=ev.port, lan=ev.lan_ip)
    if not ev.public:
        return t("lobby_double_nat", port=ev.external_port, via=ev.method,
                 ip=safe_text(ev.external_ip, 64))  # the router's word
    where = (join_code(ev.external_ip, ev.external_port, fingerprint) if ev.external_ip
             else f"port {ev.external_port}")
    return t("lobby_internet", addr=where, via=ev.method)


def _code_lines(sentence: str, code: str, width: int) -> list[Line]:
    """``sentence`` (its ``\\0`` the place of ``code``) on one line when it fits; else its
    words, then the code on a line of its own; and where even that is too long (an
    onion join code, 87 characters, at 80 columns), the code broken at its ``#`` only
    (the table's address whole, then its key), never inside the onion address."""
    said = "   " + sentence.replace("\0", code)
    if len(said) <= width - 1:
        return [[("", said)]]
    before, after = sentence.split("\0", 1)
    out = wrap_line([("", "   " + before.rstrip())], width - 1, "   ")
    pieces = [code] if len(code) + 5 <= width - 1 else \
        [code.split("#", 1)[0], "#" + code.split("#", 1)[1]] if "#" in code else [code]
    for piece in pieces:
        out += wrap_line([("class:turn", "     " + piece)], width - 1, "     ")
    if after.strip():
        out += wrap_line([("", "   " + after.strip())], width - 1, "   ")
    return out


def lobby_lines(view: TableView, width: int, *, kind: str, connected: bool = False,
                address: str | None = None, port: int | None = None,
                rematch: bool = False, address6: str | None = None,
                onion: str | None = None, tor: str | None = None,
                tor_wait: float | None = None,
                reach: PortMapped | PortMapUnavailable | None = None,
                asking: bool = False, known: KnownPlayers | None = None,
                past: PastGames | None = None) -> list[Line]:
    """The lobby of a ``kind`` client (``"play"``, ``"host"``, ``"join"`` or ``"watch"``,
    a spectator's: a joining
    client shows whether it reached ``address``; a host shows its join code
    (``address:port#fingerprint``), its global IPv6 one (``address6``), its onion one
    (``onion``, host --tor, once published; until then ``tor``, what tor does, and
    how long it may take, ``tor_wait``) and what the router said (``reach``, with Tor
    offered);
    ``rematch``: the same table plays again.  Every seat with its fingerprint, whether
    its person is ready and what ``known`` (the players met before) says, with ``past``'s
    record against each known player; ``asking``: the
    ready check waits for our Enter."""
    t, st = view.t, view.state
    lines: list[Line] = [[]]
    # A joiner: until it is in; the host: while a seat waits for its player ("are
    # joining" is untrue once everyone sat down).
    full = bool(st.names) and all(st.names)
    if rematch and ((kind == "host" and not full) or (kind != "host" and not connected)):
        text = t("rematch_host") if kind == "host" else t("rematch_join")
        lines += wrap_line([("class:ok", " " + text)], width - 1, " ")
    if kind == "join":
        if not connected:
            # The table's address, without the key and secret after "#" (the joiner
            # typed them; an onion code is 87 characters), and whole: on its own line
            # when the sentence does not fit (an onion address broke across two lines).
            addr = table_address(address or "")
            said = " " + t("join_connecting", addr=addr)
            if len(said) <= width - 1:
                lines.append([("class:title", said)])
            else:
                words = t("join_connecting", addr="\0").split("\0")
                lines += wrap_line([("class:title", " " + words[0].rstrip())], width - 1, "   ")
                lines += wrap_line([("class:title", "   " + addr + words[1])], width - 1, "   ")
            if tor:
                lines += wrap_line([("class:dim", "   " + tor)], width - 1, "     ")
                if tor_wait is not None:
                    lines += spare(wrap_line([("class:dim", "   " + t("tor_wait_join",
                                                                       n=f"{tor_wait:g}"))],
                                             width - 1, "     "), 2)
        else:
            n = st.players or len(st.names)
            lines += wrap_line([("class:ok", " " + t("join_connected", addr=address, n=n))],
                               width - 1, "   ")
    elif kind == "host":
        lines += wrap_line([("class:title", " " + t("lobby_host"))], width - 1, " ")
        if port is not None:
            fp = st.my_fingerprint
            addr = join_code(address or "127.0.0.1", port, fp)
            said = "   " + t("lobby_join_cmd", addr=addr)
            if len(said) <= width - 1:
                lines.append([("", "   "), ("class:turn", addr)])
                lines.append([("class:dim", said)])
            else:  # the command's words, then the code whole on its own line (never cut
                # inside, where a friend copying it would get a code that fails); the
                # code alone above them says it twice, the first to go when short of rows
                # (before the spectators' lines: walk6's 4-player lobby lost those)
                lines += spare([[("", "   "), ("class:turn", addr)]], 0)
                lines.append([("class:dim", "   " + t("lobby_join_cmd", addr="").rstrip())])
                lines.append([("class:dim", "   " + addr)])
            if st.spectator_limit:  # how spectators come in, when the table admits any
                # Without the key's fingerprint: watch does not check one (it checks
                # that the genesis is signed by the key that greeted it).
                watch = join_code(address or "127.0.0.1", port, None)
                lines += spare(wrap_line([("class:dim", "   " + t("lobby_watch_cmd",
                                                                       addr=watch))],
                                         width - 1, "     "), 5)
            if address6:
                lines.append([("", "   " + t("lobby_ipv6", addr=join_code(address6, port, fp)))])
            onion_code = join_code(onion, port, fp) if onion else None
            if onion_code:
                lines += _code_lines(t("lobby_tor", addr="\0"), onion_code, width)
            elif tor:
                # Tor's failure at a table kept for the friends seated: why (the events
                # column says it too) may go when short of rows, not that the table
                # goes on.
                goes_on = t("tor_failed_goes_on")
                why = tor[:-len(goes_on)].rstrip() if tor.endswith(goes_on) else None
                if why:
                    lines += spare(wrap_line([("class:turn", "   " + why)], width - 1,
                                             "     "), 2)
                    lines += wrap_line([("class:turn", "   " + goes_on)], width - 1, "     ")
                else:
                    lines += wrap_line([("class:turn", "   " + tor)], width - 1, "     ")
                if tor_wait is not None:
                    lines += spare(wrap_line([("class:dim", "   " + t("tor_wait_note",
                                                                       n=f"{tor_wait:g}"))],
                                             width - 1, "     "), 2)
            if reach is not None:
                text = reach_text(t, reach, fp)
                if isinstance(reach, PortMapUnavailable) or not reach.public:
                    text += (t("lobby_tor_offer", addr=onion_code) if onion_code
                             else "" if tor else t("lobby_tor_run") if tor_installed()
                             else "")
                # The events column says it too: the first to go when short of rows.
                lines += spare(wrap_line([("", "   " + text)], width - 1, "   "), 1)
    terms = terms_lines(view, width)  # what a person agrees to before pressing Enter
    if terms:
        lines.append([])
        lines += terms
    if st.shuffle_proofs is False:
        lines += wrap_line([("class:warn", " " + t("lobby_no_proofs"))], width - 1, "   ")
    if st.names:
        taken = sum(1 for n in st.names if n)
        lines.append([])
        lines.append([("class:title", " " + t("lobby_seats", taken=taken,
                                               n=len(st.names)))])
        ready_check = kind != "play"
        record = None
        if past is not None and st.seat is not None and st.seat < len(st.keys):
            me = st.keys[st.seat]
            record = lambda key: past.record_against(me, key)  # noqa: E731
        lines += seat_lines(st, t, known, width - 1, ready_check, record)
        lines += team_lines(view, width)
        lines.append([])
        if taken < len(st.names):
            lines.append([("", " " + t("lobby_waiting"))])
        elif asking:
            style = "class:error" if changed_seats(st, known) else "class:turn"
            # compared whole (the prompt says so): the first and last groups alone are
            # 32 bits, a key with them costs days of one computer; all four, 64 bits
            lines += wrap_line([(style, " " + t("lobby_ready_prompt"))], width - 1, " ")
        elif kind == "watch" and missing_names(st, t):  # a spectator is asked nothing
            lines += wrap_line([("class:ok", " " + t("lobby_others_ready",
                                                     names=missing_names(st, t)))],
                               width - 1, " ")
        elif ready_check and missing_names(st, t):
            lines += wrap_line([("class:ok", " " + t("lobby_you_ready",
                                                     names=missing_names(st, t)))],
                               width - 1, " ")
        else:
            lines.append([("class:ok", " " + t("lobby_starting"))])
    return lines
