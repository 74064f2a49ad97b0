"""The library's coded local errors (issue 41): a log that is not one
(:class:`LogUnreadable`), a typed address or port (:class:`AddressError`), a port a host
cannot listen on (:class:`ListenError`), rules that cannot be (:class:`RulesetError`),
bots that cannot be made or cannot finish (:class:`BotError`), and the library's API
used wrongly, by layer (:class:`GameUsageError`, :class:`TranscriptUsageError`,
:class:`ObserveUsageError`, :class:`LinkUsageError`, :class:`WireUsageError`,
:class:`DealUsageError`) carry a
``code`` and its ``data``, set at every raise site, and the client words each code from
its catalog in English and French; their ``str()`` stays the library's English
sentence."""

from __future__ import annotations

import ast
import errno
import os
import socket
import string
from pathlib import Path

import pytest

import chkobba_p2p
from chkobba_cli.main import main
from chkobba_cli.words.i18n import MESSAGES, Translator, local_error_text
from chkobba_p2p import AddressError, ListenError, check_listen, load_identity, parse_port
from chkobba_p2p.address import ADDRESS_PROBLEMS, LISTEN_PROBLEMS, Address
from chkobba_p2p.bots.learned import PolicyModel
from chkobba_p2p.bots.levels import BOT_PROBLEMS, BotError, make_bot
from chkobba_p2p.bots.simulate import play_match
from chkobba_p2p.errors import CardNotInHand, IllegalMove, NotYourTurn
from chkobba_p2p.game.cards import DECK
from chkobba_p2p.game.record import RECORD_PROBLEMS, RecordError, read_records, replay_records
from chkobba_p2p.game.rules import (
    GAME_PROBLEMS,
    RULESET_PROBLEMS,
    GameUsageError,
    Ruleset,
    RulesetError,
)
from chkobba_p2p.lowlevel import (
    DEAL_PROBLEMS,
    KEY_PROBLEMS,
    LINK_PROBLEMS,
    LOG_PROBLEMS,
    TRANSCRIPT_PROBLEMS,
    WIRE_PROBLEMS,
    DealUsageError,
    KeyUnusable,
    LinkUsageError,
    LogUnreadable,
    TranscriptUsageError,
    WireUsageError,
    read_log,
)
from chkobba_p2p.observe.errors import OBSERVE_PROBLEMS, ObserveUsageError

#: Each coded error class, its table of codes and its catalog prefix.
FAMILIES = {"LogUnreadable": (LOG_PROBLEMS, "lu_"), "AddressError": (ADDRESS_PROBLEMS, "ad_"),
            "ListenError": (LISTEN_PROBLEMS, "ls_"),
            "RulesetError": (RULESET_PROBLEMS, "ru_"), "BotError": (BOT_PROBLEMS, "bo_"),
            "KeyUnusable": (KEY_PROBLEMS, "ik_"),
            "GameUsageError": (GAME_PROBLEMS, "gm_"),
            "TranscriptUsageError": (TRANSCRIPT_PROBLEMS, "tu_"),
            "ObserveUsageError": (OBSERVE_PROBLEMS, "ob_"),
            "LinkUsageError": (LINK_PROBLEMS, "lk_"), "WireUsageError": (WIRE_PROBLEMS, "wu_"),
            "DealUsageError": (DEAL_PROBLEMS, "du_"), "RecordError": (RECORD_PROBLEMS, "rc_")}

CODES = [(name, code) for name, (table, _) in FAMILIES.items() for code in table]
#: Subclasses raised with a family's codes (``code=`` at each raise).
SUBCLASSES = {"NoSuchEvent": "LinkUsageError", "LinkArgumentError": "LinkUsageError",
              "BotArgumentError": "BotError", "DealArgumentError": "DealUsageError"}
#: Subclasses that give their code themselves (in their ``__init__``).
SETS_ITS_CODE = {"LocalStateError": "LinkUsageError"}
LIBRARY = Path(chkobba_p2p.__file__).parent


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("family, code", CODES)
def test_every_code_has_words_in_both_languages(family, code):
    table, prefix = FAMILIES[family]
    en, fr = MESSAGES[prefix + code]
    assert en and fr and en != fr
    # The words need only what the code's data holds (French and English alike).
    assert _fields(en) <= set(table[code]) and _fields(fr) <= set(table[code])


def _raised_codes() -> dict[str, set[str]]:
    """The codes each coded error is raised with, read from the library's source: the
    string constants of every ``code=`` at a call of the class (every call must give one),
    and for ListenError the codes :func:`listen_problem` returns."""
    found: dict[str, set[str]] = {name: set() for name in FAMILIES}
    for path in LIBRARY.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in SETS_ITS_CODE:
                for call in ast.walk(node):  # the codes its own __init__ gives
                    for k in getattr(call, "keywords", ()):
                        if k.arg == "code" and isinstance(k.value, ast.Constant):
                            found[SETS_ITS_CODE[node.name]].add(k.value.value)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and (node.func.id in FAMILIES or node.func.id in SUBCLASSES):
                family = SUBCLASSES.get(node.func.id, node.func.id)
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                assert code is not None, f"{path}:{node.lineno}: {node.func.id} without a code"
                constants = [c.value for c in ast.walk(code)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                if node.func.id == "ListenError" and not constants:
                    continue  # from_os: listen_problem's codes, below
                assert constants, f"{path}:{node.lineno}: a code that is not literal"
                found[family].update(constants)
            if isinstance(node, ast.FunctionDef) and node.name == "listen_problem":
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                        code = ret.value.elts[1]
                        assert isinstance(code, ast.Constant), ret.lineno
                        found["ListenError"].add(code.value)
    return found


def test_the_library_raises_no_local_error_without_a_code():
    """Every local error the library raises is of a coded family (a bare ``LocalError``
    had only its English for a person)."""
    bare = []
    for path in LIBRARY.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("LocalError", "CodedLocalError"):
                bare.append(f"{path.relative_to(LIBRARY)}:{node.lineno}")
    assert bare == []


def test_every_local_error_family_is_coded():
    """Every class of local error in the library carries a code from its table, except
    those whose data is its own (Tor's ``TorFailure``, a busy seat's process)."""
    import importlib
    import pkgutil

    from chkobba_p2p.errors import CodedLocalError, LocalError

    for info in pkgutil.walk_packages(chkobba_p2p.__path__, "chkobba_p2p."):
        importlib.import_module(info.name)

    def below(cls: type) -> list[type]:
        return [c for s in cls.__subclasses__() for c in (s, *below(s))]

    own_data = {"TorError", "TorUnavailable", "_ControlRefused", "SeatBusy"}
    uncoded = {c.__name__ for c in below(LocalError)
               if not issubclass(c, CodedLocalError) and c.__module__.startswith("chkobba_p2p")}
    assert uncoded == own_data


def test_the_tables_are_the_codes_raised():
    """Every code raised is in its table (so the test above gives it words), and every
    code in a table is raised somewhere (no dead words)."""
    raised = _raised_codes()
    for name, (table, _) in FAMILIES.items():
        assert raised[name] == set(table), name


@pytest.mark.parametrize("call, code, data, text", [
    (lambda: parse_port("x"), "port_not_a_number", {"text": "x"},
     "not a port number: 'x' (a port is 1 to 65535)"),
    (lambda: parse_port(""), "port_empty", {},
     "not a port number: an empty port (a port is 1 to 65535)"),
    (lambda: parse_port(70000), "port_out_of_range", {"port": 70000, "low": 1},
     "port 70000 is out of range (a port is 1 to 65535)"),
    (lambda: Address.parse("[::1"), "bad_brackets", {"text": "[::1"},
     "not an address: '[::1' (expected [IPv6]:PORT)"),
    (lambda: Address.parse("h:7777#zz"), "not_a_fingerprint", {"text": "zz"},
     "not a host key fingerprint: 'zz' (16 hex digits, e.g. 2935-c4f7-816c-a26c)"),
])
def test_an_address_error_carries_its_code_and_keeps_its_sentence(call, code, data, text):
    with pytest.raises(AddressError) as info:
        call()
    assert (info.value.code, info.value.data, str(info.value)) == (code, data, text)
    assert local_error_text(Translator("en"), info.value) == text


def test_a_log_error_carries_its_code(tmp_path):
    missing = tmp_path / "gone.chklog"
    with pytest.raises(LogUnreadable) as info:
        read_log(missing)
    assert (info.value.code, info.value.data) == ("log_missing", {"path": str(missing)})
    assert str(info.value) == f"{missing}: No such file or directory"
    other = tmp_path / "other.chklog"
    other.write_bytes(b"not a log at all")
    with pytest.raises(LogUnreadable) as info:
        read_log(other)
    assert (info.value.code, info.value.data) == ("log_not_chkobba", {"path": str(other)})
    assert local_error_text(Translator("fr"), info.value) == (
        f"{other} : pas un journal de chkobba (un journal est un fichier .chklog "
        "qu'écrivent chkobba play, host, join, bot et watch ; « chkobba history » liste "
        "les vôtres)")


@pytest.mark.slow  # a socket, loopback's
def test_a_port_in_use_carries_its_code():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        with pytest.raises(ListenError) as info:
            check_listen("127.0.0.1", port)
    assert info.value.code == "port_in_use"
    assert info.value.data == {"port": port, "where": f"127.0.0.1:{port}"}
    assert str(info.value).startswith(f"port {port} is already in use (127.0.0.1:{port}:")


@pytest.mark.parametrize("cls", [LogUnreadable, AddressError, ListenError, RulesetError,
                                 BotError, KeyUnusable, GameUsageError, TranscriptUsageError,
                                 ObserveUsageError, LinkUsageError, WireUsageError,
                                 DealUsageError, RecordError])
def test_each_family_is_worded_by_its_own_prefix(cls):
    """The client finds a family's words by the class's default code (it must not import
    the log reader to recognise a log error: a bot peer loads no auditor)."""
    from chkobba_cli.words.i18n import _CODED_FAMILIES

    assert _CODED_FAMILIES[cls.code] == FAMILIES[cls.__name__][1]
    code = next(iter(cls.CODES))
    exc = cls("the library's sentence", code=code,
              data={k: "x" for k in cls.CODES[code]})
    quoted = ("text", "name", "level")  # what was typed: quoted, as the library quotes it
    assert local_error_text(Translator("fr"), exc) == Translator("fr")(
        FAMILIES[cls.__name__][1] + code, **{k: ("'x'" if k in quoted else "x")
                                             for k in cls.CODES[code]})


@pytest.mark.parametrize("call, code, data", [
    (lambda: Ruleset(target=0), "target_out_of_range", {"target": 0, "low": 1, "high": 1000}),
    (lambda: Ruleset(target=1.5), "target_out_of_range",
     {"target": "1.5", "low": 1, "high": 1000}),
    (lambda: Ruleset.preset("scopa"), "unknown_preset",
     {"name": "scopa", "choices": "tunisian, cardavia, chkoum"}),
    (lambda: Ruleset().with_variant("x"), "unknown_variant",
     {"name": "x", "choices": "cut-and-draw, plain, redeal-kings, redeal-any-three, "
                              "no-redeal, forced-capture, free-capture, primiera, barmila, "
                              "french-figures, tunisian-figures"}),
    (lambda: Ruleset.from_dict([]), "not_a_map", {}),  # type: ignore[arg-type]
    (lambda: Ruleset.from_dict({"name": "x"}), "field_missing", {"field": "opening"}),
    (lambda: Ruleset.from_dict({**Ruleset().to_dict(), "forced_capture": 1}), "field_kind",
     {"field": "forced_capture", "kind": "bool"}),
    (lambda: Ruleset.from_dict({**Ruleset().to_dict(), "scoring": ["x"]}), "unknown_value",
     {"field": "scoring", "value": "['x']"}),
])
def test_a_ruleset_error_carries_its_code_and_is_still_a_value_error(call, code, data):
    with pytest.raises(ValueError) as info:
        call()
    assert isinstance(info.value, RulesetError)
    assert (info.value.code, info.value.data) == (code, data)


@pytest.mark.parametrize("field, value, en, fr", [
    ("forced_capture", 1, "true or false", "vrai ou faux"),
    ("name", 7, "a text", "un texte"),
    ("opening", "plain", "one of the openings", "l'une des ouvertures"),
    ("redeal", "kings", "one of the redeal rules", "l'une des règles de redonne"),
    ("scoring", "barmila", "one of the scorings", "l'un des décomptes"),
    ("figures", "tunisian", "one of the figure conventions",
     "l'une des conventions des figures"),
])
def test_a_field_of_the_wrong_kind_says_the_kind_in_words(field, value, en, fr):
    """A ruleset's field of another type: what it must be, in the reader's words, never
    the Python type's name (``bool``, ``str``, ``Opening``...)."""
    with pytest.raises(RulesetError) as info:
        if field in ("forced_capture", "name"):
            Ruleset.from_dict({**Ruleset().to_dict(), field: value})
        else:
            Ruleset(**{field: value})  # an enum's value, not its member
    assert info.value.code == "field_kind"
    assert local_error_text(Translator("en"), info.value) == \
        f"a ruleset's {field} must be {en}"
    assert local_error_text(Translator("fr"), info.value) == \
        f"le champ {field} d'un jeu de règles doit être {fr}"


def test_bot_errors_carry_their_codes():
    with pytest.raises(BotError) as info:
        make_bot("grandmaster")
    assert (info.value.code, info.value.data["level"]) == ("unknown_level", "grandmaster")
    with pytest.raises(BotError) as info:
        make_bot("expert", move_ms=0)
    assert (info.value.code, info.value.data) == ("move_ms_not_positive", {"move_ms": "0"})
    import random

    with pytest.raises(BotError) as info:
        play_match(Ruleset(), [make_bot("random", 1), make_bot("random", 2)],
                   random.Random(1), max_hands=0)
    assert (info.value.code, info.value.data) == ("no_winner", {"hands": 0})
    assert local_error_text(Translator("fr"), info.value) == (
        "aucun gagnant après 0 manches : ces robots n'atteignent jamais l'objectif")


def _opening() -> tuple:
    """A 2-player hand in play (every card open) and the seat whose turn it is."""
    from chkobba_p2p.game.cards import cards
    from chkobba_p2p.game.hand import Hand

    hands, table = [cards("8D 2C 3H"), cards("9S 9C 4S")], cards("7H 3D 9H 1C")
    placed = {c for h in hands for c in h} | set(table)
    rest = [c for c in DECK if c not in placed]
    taken = rest[:len(rest) - 12]
    hand = Hand.from_position(Ruleset(), 2, dealer=1, hands=hands, table=table, turn=0,
                              stock=12, piles=[taken[0::2], taken[1::2]])
    return hand, 0


@pytest.mark.parametrize("level", ["random", "greedy", "heuristic", "expert"])
def test_a_bot_asked_what_its_seat_cannot_decide_says_so_by_code(level):
    """A bot handed the whole hand, or asked to play out of its turn: coded BotErrors
    (they were uncoded LocalErrors, English inside a translated line)."""
    hand, seat = _opening()
    bot = make_bot(level, 1, move_ms=20)
    with pytest.raises(BotError) as info:
        bot.choose_play(hand)  # every card open
    assert info.value.code == "not_a_seat_view"
    assert local_error_text(Translator("fr"), info.value) == \
        "un robot a vu toutes les cartes au lieu de la vue de sa place"
    if level in ("random", "expert"):  # the others look for a move among none
        with pytest.raises(BotError) as info:
            bot.choose_play(hand.view(1 - seat))
        assert info.value.code == "not_its_turn"
        assert local_error_text(Translator("en"), info.value) == \
            "a bot was asked to play when it was not its turn"


def test_the_expert_asked_a_cut_it_did_not_draw():
    from chkobba_p2p.game.hand import CutterChoice, DealStep, Hand

    hand = Hand.new(Ruleset(), 2, dealer=0)
    while not isinstance(hand.pending, CutterChoice):  # the opening's deal, then the draw
        step = hand.pending
        assert isinstance(step, DealStep)
        known = hand.known_cards()
        hand = hand.deal([c for c in DECK if c not in known][:len(step.recipients)])
    with pytest.raises(BotError) as info:
        make_bot("expert", 1, move_ms=20).choose_cut(
            hand.view(1 - hand.cutter))
    assert info.value.code == "not_the_cutter"
    assert local_error_text(Translator("fr"), info.value).startswith(
        "on a demandé à un robot de garder ou de poser une carte coupée")


@pytest.mark.parametrize("make, code", [
    (lambda: PolicyModel.from_json("not json"), "model_unreadable"),
    (lambda: PolicyModel.from_json('{"features": ["x"], "weights": []}'),
     "model_other_features"),
    (lambda: PolicyModel([1.0]), "model_weights"),
])
def test_a_damaged_policy_weights_file_is_a_coded_bot_error(make, code):
    with pytest.raises(BotError) as info:
        make()
    assert info.value.code == code
    assert local_error_text(Translator("fr"), info.value).endswith(
        "(réinstallez chkobba-p2p)")


@pytest.mark.parametrize("exc, en, fr", [
    (NotYourTurn("seat 1 may not play now"), "illegal move: not your turn",
     "coup interdit : pas votre tour"),
    (CardNotInHand("8C is not in this seat's hand"), "illegal move: card not in hand",
     "coup interdit : carte absente de la main"),
    (IllegalMove("no such move"), "illegal move", "coup interdit"),
])
def test_a_move_the_rules_refuse_is_worded_by_its_rule(exc, en, fr):
    """An IllegalMove reaching the reader (the host's or a bot's controller refused too
    often): the rule broken in their words, not the engine's English."""
    assert local_error_text(Translator("en"), exc) == en
    assert local_error_text(Translator("fr"), exc) == fr


def test_an_error_without_a_code_is_said_as_the_library_says_it():
    """A caller outside the library may raise one without a code: its sentence."""
    exc = LogUnreadable("somewhere: odd")
    assert exc.code == "log_unreadable" and exc.data == {}
    assert local_error_text(Translator("fr"), exc) == "somewhere: odd"
    assert local_error_text(Translator("fr"), ValueError("plain")) == "plain"


# -- end to end, in process: the reader's language from the command line


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.strip()


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba replay: {p}: no such file"),
    ("fr", "chkobba replay: {p} : fichier introuvable"),
])
def test_replay_of_a_missing_log(tmp_path, capsys, lang, line):
    path = tmp_path / "gone.chklog"
    assert main(["replay", str(path), "--lang", lang]) == 2
    assert _err(capsys) == line.format(p=path)


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba join: error: not a port number: 'notaport' (a port is 1 to 65535)"),
    ("fr", "chkobba join: erreur : pas un numéro de port : 'notaport' (un port va de 1 à "
           "65535)"),
])
def test_join_a_bad_address(capsys, lang, line):
    assert main(["join", "host:notaport", "--lang", lang]) == 2
    assert _err(capsys) == line


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba host: error: port {port} is already in use (127.0.0.1:{port}: another "
           "host, or another program, listens there); choose another with --port"),
    ("fr", "chkobba host: erreur : le port {port} est déjà pris (127.0.0.1:{port} : un "
           "autre hôte, ou un autre programme, y écoute) ; choisissez-en un autre avec "
           "--port"),
])
@pytest.mark.slow  # a socket, loopback's
def test_host_on_a_port_in_use(capsys, lang, line):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        code = main(["host", "--headless", "--bind", "127.0.0.1", "--port", str(port),
                     "--lang", lang])
    assert code == 2
    assert _err(capsys) == line.format(port=port)


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba {cmd}: the target must be a whole number of points from 1 to 1000, "
           "not 0"),
    ("fr", "chkobba {cmd}: l'objectif doit être un nombre entier de points de 1 à 1000, "
           "pas 0"),
])
@pytest.mark.parametrize("command", [
    ["simulate"], ["arena", "--a", "greedy", "--b", "random"], ["host", "--headless"]])
def test_a_target_out_of_range_in_the_readers_words(capsys, lang, line, command):
    with pytest.raises(SystemExit) as info:
        main([*command, "--target", "0", "--lang", lang])
    assert info.value.code == 2
    assert _err(capsys) == line.format(cmd=command[0])


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba simulate: unknown bot level 'sage'; choose among random, greedy, "
           "heuristic, expert"),
    ("fr", "chkobba simulate: niveau de robot inconnu : 'sage' ; choisissez parmi random, "
           "greedy, heuristic, expert"),
])
def test_simulate_an_unknown_level_in_the_readers_words(capsys, lang, line):
    assert main(["simulate", "--bots", "greedy,sage", "--lang", lang]) == 2
    assert _err(capsys) == line



# -- the OS's own words: its error number's name in the data, the common ones worded


def test_the_os_refusals_carry_the_errnos_name(tmp_path):
    with pytest.raises(LogUnreadable) as info:
        read_log(tmp_path)
    assert info.value.code == "log_cannot_read" and info.value.data["errno"] == "EISDIR"
    exc = ListenError.from_os(OSError(errno.EMFILE, os.strerror(errno.EMFILE)),
                              "127.0.0.1", 7452)
    assert exc.code == "listen_failed"
    assert exc.data == {"where": "127.0.0.1:7452", "why": os.strerror(errno.EMFILE),
                        "errno": "EMFILE"}
    assert local_error_text(Translator("fr"), exc) == (
        "impossible d'écouter sur 127.0.0.1:7452 : trop de fichiers sont ouverts")
    # A number this catalog has no words for: the OS's own.
    odd = ListenError.from_os(OSError(errno.ENOBUFS, "No buffer space available"),
                              "127.0.0.1", 7452)
    assert local_error_text(Translator("fr"), odd) == (
        "impossible d'écouter sur 127.0.0.1:7452 : No buffer space available")


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba replay: cannot read {p}: it is a folder"),
    ("fr", "chkobba replay: impossible de lire {p} : c'est un dossier"),
])
def test_replay_of_a_folder(tmp_path, capsys, lang, line):
    assert main(["replay", str(tmp_path), "--lang", lang]) == 2
    assert _err(capsys) == line.format(p=tmp_path)


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba replay: cannot read {p}: a folder on its path is a file"),
    ("fr", "chkobba replay: impossible de lire {p} : un dossier de son chemin est un "
           "fichier"),
])
def test_replay_through_a_file(tmp_path, capsys, lang, line):
    (tmp_path / "file").write_text("")
    path = tmp_path / "file" / "match.chklog"
    assert main(["replay", str(path), "--lang", lang]) == 2
    assert _err(capsys) == line.format(p=path)


@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba simulate: cannot write {p}: the file or its folder does not exist"),
    ("fr", "chkobba simulate: impossible d'écrire {p} : le fichier ou son dossier n'existe "
           "pas"),
])
def test_simulate_records_nowhere(tmp_path, capsys, lang, line):
    path = tmp_path / "gone" / "records.json"
    assert main(["simulate", "--games", "1", "--record", str(path), "--lang", lang]) == 1
    assert _err(capsys) == line.format(p=path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
@pytest.mark.parametrize("lang, line", [
    ("en", "chkobba replay: cannot read {p}: permission denied"),
    ("fr", "chkobba replay: impossible de lire {p} : permission refusée"),
])
def test_replay_of_a_log_nobody_may_read(tmp_path, capsys, lang, line):
    path = tmp_path / "match.chklog"
    path.write_bytes(b"x")
    path.chmod(0)
    assert main(["replay", str(path), "--lang", lang]) == 2
    assert _err(capsys) == line.format(p=path)


@pytest.mark.parametrize("lang, said", [
    ("en", "this key file can be read by other users of this computer"),
    ("fr", "d'autres utilisateurs de cet ordinateur peuvent lire ce fichier de clé")])
def test_a_key_file_others_can_read_is_said_in_the_readers_language(tmp_path, lang, said):
    """walk6 (fr): 'chkobba bot --identity FILE' with a key others could read said
    "erreur : FILE is readable by others; chmod 600 it", the library's English."""
    key = tmp_path / "id.key"
    key.write_bytes(bytes(32))
    key.chmod(0o644)
    with pytest.raises(KeyUnusable) as info:
        load_identity(key)
    assert (info.value.code, info.value.data) == ("key_readable_by_others",
                                                   {"path": str(key)})
    text = local_error_text(Translator(lang), info.value)
    assert said in text and f"chmod 600 {key}" in text
    key.write_bytes(b"short")
    key.chmod(0o600)
    with pytest.raises(KeyUnusable) as info:
        load_identity(key)
    assert info.value.code == "key_not_an_identity"
    with pytest.raises(KeyUnusable) as info:
        load_identity(tmp_path / "none.key", create=False)
    assert info.value.code == "key_missing"


# -- the library's API used wrongly: every LocalError it raises carries a code


def _no_pending_decision() -> None:
    from support.sessions import Table

    t = Table(2)
    t.sessions[1].decide(True)  # nothing asked yet: the genesis alone


def _lobby(name: str, players: int) -> None:
    from chkobba_p2p.link.handshake import Lobby
    from chkobba_p2p.lowlevel import Identity

    Lobby(Identity.generate(), name, Ruleset(), players)


def _graded_open_hand() -> None:
    import random

    from chkobba_p2p.observe.review import grade_play

    hand, _ = _opening()
    grade_play(hand, hand.legal_moves()[0], rng=random.Random(1))


def _graded_out_of_turn() -> None:
    import random

    from chkobba_p2p.observe.review import grade_play

    hand, seat = _opening()
    grade_play(hand.view(1 - seat), hand.legal_moves()[0], rng=random.Random(1))


def _unfinished_hand_scored() -> None:
    from chkobba_p2p.game.hand import Hand

    Hand.new(Ruleset(), 2, dealer=0).score  # noqa: B018


@pytest.mark.parametrize("call, cls, code, data", [
    (lambda: __import__("chkobba_p2p.game.seating", fromlist=["x"]).Seating.of(5),
     GameUsageError, "players_unsupported", {"players": 5}),
    (lambda: __import__("chkobba_p2p.game.seating", fromlist=["x"]).Seating.of(2)
     .check_seat(2), GameUsageError, "seat_out_of_range", {"seat": 2, "players": 2}),
    (lambda: __import__("chkobba_p2p.game.seating", fromlist=["x"]).Seating.of(4)
     .seats_of(2), GameUsageError, "side_out_of_range", {"side": 2, "sides": 2}),
    (lambda: __import__("chkobba_p2p.game.hand", fromlist=["x"]).resolve_first_dealer({}),
     GameUsageError, "nobody_drew", {}),
    (lambda: __import__("chkobba_p2p.game.hand", fromlist=["x"]).Hand.new(
        Ruleset(), 2, dealer=3), GameUsageError, "dealer_out_of_range",
     {"dealer": 3, "players": 2}),
    (_unfinished_hand_scored, GameUsageError, "hand_not_over", {}),
    (lambda: __import__("chkobba_p2p.game.match", fromlist=["x"]).Match.new(
        Ruleset(), 2, 0).redeal(), GameUsageError, "no_redeal_due", {}),
    (lambda: __import__("chkobba_p2p.game.match", fromlist=["x"]).Match.new(
        Ruleset(), 2, 0).finish_hand(), GameUsageError, "hand_not_over", {}),
    (lambda: __import__("chkobba_p2p.bots.expert", fromlist=["x"]).ExpertBot(
        1, move_ms=None), BotError, "no_budget", {}),
    (lambda: __import__("chkobba_p2p.bots.expert", fromlist=["x"]).ExpertBot(
        1, playout="wild"), BotError, "unknown_playout",
     {"playout": "wild", "choices": "greedy, sharp"}),
    (_no_pending_decision, TranscriptUsageError, "no_decision_pending", {}),
    (_graded_open_hand, ObserveUsageError, "open_hand_graded", {}),
    (_graded_out_of_turn, ObserveUsageError, "not_its_turn", {}),
    (lambda: _lobby("a\u200bb", 2), LinkUsageError, "name_invisible",
     {"name": "a\u200bb", "value": "U+200B"}),
    (lambda: _lobby("x" * 33, 2), LinkUsageError, "name_unusable",
     {"name": "x" * 33, "max": 32}),
    (lambda: _lobby("host", 5), LinkUsageError, "players_unsupported",
     {"players": 5, "choices": "2, 3, 4"}),
    (lambda: __import__("chkobba_p2p.lowlevel", fromlist=["x"]).frame(bytes(2 ** 20 + 1)),
     WireUsageError, "frame_too_large", {"size": 2 ** 20 + 1, "max": 2 ** 20}),
    (lambda: __import__("chkobba_p2p.lowlevel", fromlist=["x"]).Deal(
        session_id=b"g", hand=0, instance=0, n=5, seat=0), DealUsageError,
     "players_unsupported", {"players": 5}),
    (lambda: __import__("chkobba_p2p.lowlevel", fromlist=["x"]).Deal(
        session_id=b"g", hand=0, instance=0, n=2, seat=None).start(), DealUsageError,
     "observer_has_no_key", {}),
])
def test_the_api_used_wrongly_says_so_by_code(call, cls, code, data):
    """Session misuse, the rules model's, the expert's arguments, the review's, the
    link's and the wire's: a coded local error each (they were bare LocalErrors, their
    English the only words a person could be shown), worded in both languages from the
    catalog, not the library's sentence."""
    with pytest.raises(cls) as info:
        call()
    exc = info.value
    assert (exc.code, exc.data) == (code, data)
    prefix = FAMILIES[cls.__name__][1]
    for lang in ("en", "fr"):
        said = local_error_text(Translator(lang), exc)
        assert said == Translator(lang)(prefix + code, **{
            k: (repr(v) if k in ("name", "level") else v) for k, v in data.items()})
    assert local_error_text(Translator("fr"), exc) != str(exc)


def test_a_card_in_a_misuse_is_said_with_the_readers_letters():
    """A card id in the data: its label with the reader's figure letters (R/D/V)."""
    from chkobba_p2p.game.cards import card

    exc = TranscriptUsageError("QH is not in this seat's hand", code="card_not_held",
                               data={"card": card("8H").id})
    assert local_error_text(Translator("en"), exc) == "Q♥ is not in this seat's hand"
    assert local_error_text(Translator("fr"), exc) == "D♥ n'est pas dans la main de cette place"


# -- argument checks that were plain ValueErrors: coded, and ValueErrors still


def _admission_twice() -> None:
    from chkobba_p2p.link.admission import Admission, AdmissionPolicy

    door: Admission[str] = Admission(AdmissionPolicy())
    door.opened("c", "10.0.0.1", 0.0)
    door.opened("c", "10.0.0.1", 0.0)


def _shuffle(**changes) -> None:
    from chkobba_p2p.deal import group
    from chkobba_p2p.deal.shuffle_proof import prove_shuffle

    pk = group.base_mul(7)
    deck = [(group.base_mul(i + 1), group.base_mul(i + 2)) for i in range(3)]
    args = {"inputs": deck, "outputs": deck, "perm": [0, 1, 2], "rands": [1, 2, 3]}
    args.update(changes)
    prove_shuffle(b"ctx", pk, args["inputs"], args["outputs"], args["perm"], args["rands"])


@pytest.mark.parametrize("call, cls, code, data", [
    (lambda: __import__("chkobba_p2p.link.admission", fromlist=["x"]).AdmissionPolicy(
        strangers=0), LinkUsageError, "strangers_below_one", {"strangers": 0}),
    (lambda: __import__("chkobba_p2p.link.admission", fromlist=["x"]).AdmissionPolicy(
        greeting=0.0), LinkUsageError, "greeting_not_positive", {"seconds": "0.0"}),
    (lambda: __import__("chkobba_p2p.link.admission", fromlist=["x"]).AdmissionPolicy(
        spectators=-1), LinkUsageError, "spectators_negative", {"spectators": -1}),
    (_admission_twice, LinkUsageError, "already_admitted", {}),
    (lambda: __import__("chkobba_p2p.link.spectators", fromlist=["x"]).SpectatorAnnouncer(
        -1), LinkUsageError, "window_negative", {"seconds": -1}),
    (lambda: __import__("chkobba_p2p.bots.arena", fromlist=["x"]).arena(
        "random", "greedy", 1, players=5), BotError, "arena_players",
     {"players": 5, "choices": "2, 3, 4"}),
    (lambda: __import__("chkobba_p2p.bots.arena", fromlist=["x"]).arena(
        "random", "greedy", 0), BotError, "games_below_one", {"games": 0}),
    (lambda: __import__("chkobba_p2p.bots.arena", fromlist=["x"]).round_robin(
        ["random", "random"], 1), BotError, "ladder_levels", {}),
    (lambda: __import__("chkobba_p2p.bots.arena", fromlist=["x"]).elo_ratings(
        [], "greedy"), BotError, "anchor_not_playing", {"anchor": "greedy"}),
    (lambda: _shuffle(perm=[0, 0, 1]), DealUsageError, "not_a_permutation", {}),
    (lambda: _shuffle(rands=[0, 1, 2]), DealUsageError, "randomizer_range", {}),
    (lambda: _shuffle(perm=[0, 1]), DealUsageError, "lengths_differ", {}),
    (lambda: _shuffle(inputs=[], outputs=[], perm=[], rands=[]), DealUsageError,
     "empty_shuffle", {}),
])
def test_argument_checks_are_coded_and_still_value_errors(call, cls, code, data):
    """The admission policy's, the spectator list's, the arena's and a shuffle proof's
    argument checks raised plain ValueErrors, their English the only words: now their
    layer's coded usage error (worded in both languages from the catalog), and a
    ValueError still for callers that catch one."""
    with pytest.raises(ValueError) as info:
        call()
    exc = info.value
    assert isinstance(exc, cls)
    assert (exc.code, exc.data) == (code, data)
    prefix = FAMILIES[cls.__name__][1]
    for lang in ("en", "fr"):
        assert local_error_text(Translator(lang), exc) == Translator(lang)(prefix + code,
                                                                           **data)


def test_no_plain_value_error_is_left_in_the_argument_checks():
    """The four modules house11 found raising uncoded ValueErrors raise none now."""
    plain = []
    for module in ("link/admission.py", "link/spectators.py", "bots/arena.py",
                   "deal/shuffle_proof.py"):
        for node in ast.walk(ast.parse((LIBRARY / module).read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and isinstance(node.exc.func, ast.Name) \
                    and node.exc.func.id in ("ValueError", "TypeError"):
                plain.append(f"{module}:{node.lineno}")
    assert plain == []


# -- a game record file from outside (game/record.py): coded, worded by the client


def _records_after(tmp_path, lines: list[str]) -> RecordError:
    path = tmp_path / "records.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(RecordError) as info:
        replay_records(read_records(path))
    return info.value


def _match_records() -> list[dict]:
    import json
    import random

    from chkobba_p2p.bots.simulate import play_match

    _, records = play_match(Ruleset(target=1), [make_bot("greedy", 1), make_bot("greedy", 2)],
                            random.Random(3))
    return [json.loads(json.dumps(r)) for r in records]


def test_a_record_file_that_does_not_replay_says_so_by_code(tmp_path):
    """RecordError had only its English (``hand 2: ...``): now a code and its data, the
    words the reader's; the file's own values quoted, never shown raw."""
    import json

    exc = _records_after(tmp_path, ['{"type": "hand"', "[1, 2]"])
    assert (exc.code, exc.data) == ("not_json", {"line": 1})
    assert local_error_text(Translator("fr"), exc) == \
        "la ligne 1 des enregistrements n'est pas du JSON"
    exc = _records_after(tmp_path, ["", "[1, 2]"])
    assert (exc.code, exc.data) == ("not_a_record", {"line": 2})
    records = _match_records()
    hand = dict(records[0])
    hand["events"] = [*hand["events"][:1], {"dance": {}}]
    exc = _records_after(tmp_path, [json.dumps(hand)])
    assert (exc.code, exc.data) == ("unknown_event", {"hand": 1, "event": "'dance'"})
    assert local_error_text(Translator("en"), exc) == \
        "hand 1 of the records: an unknown event 'dance'"
    hand = dict(records[0], totals=[99, 99])
    exc = _records_after(tmp_path, [json.dumps(hand)])
    assert (exc.code, exc.data) == ("hand_disagrees", {"hand": 1})
    exc = _records_after(tmp_path, [json.dumps({"type": "hand"})])
    assert (exc.code, exc.data) == ("malformed", {})
    assert isinstance(exc, ValueError)
