"""Why a game stopped, in the players' words: the events panel, the game-stopped dialog
and the line printed once the screen closes all say it the same way.

No protocol code and no seat number: names (or "you"), a reason in the player's
language, and an accusation the log does not prove worded as the signer's claim.  The
abort's own ``detail`` is the signer's text (English, with seat numbers): the replay
shows it, the screen does not.
"""

from __future__ import annotations

from chkobba_p2p import Aborted, ErrorCode, Standing
from chkobba_p2p.text import safe_text

from ..i18n import elide
from .view import TableView

__all__ = ["stop_sentences", "reason"]

# What each code means for a player (English, French), as what the blamed side sent or
# did; the liveness codes (timeout, peer_left) have sentences of their own below.
_REASONS: dict[ErrorCode, tuple[str, str]] = {
    ErrorCode.FRAME_TOO_LARGE: ("an oversized message", "un message trop long"),
    ErrorCode.MALFORMED: ("an unreadable message", "un message illisible"),
    ErrorCode.UNKNOWN_TYPE: ("a message of an unknown kind", "un message d'un type inconnu"),
    ErrorCode.BAD_FIELD: ("a message with a missing or wrong field",
                          "un message dont un champ manque ou est faux"),
    ErrorCode.VERSION_MISMATCH: ("no protocol version in common",
                                 "aucune version du protocole en commun"),
    ErrorCode.BAD_PROOF_OF_POSSESSION: ("a key it could not prove it holds",
                                        "une clé dont il n'a pas prouvé la possession"),
    ErrorCode.TABLE_FULL: ("a full table", "une table complète"),
    ErrorCode.ALREADY_SEATED: ("a second connection for the same seat",
                               "une deuxième connexion pour la même place"),
    ErrorCode.UNKNOWN_GAME: ("another game than the one running",
                             "une autre partie que celle en cours"),
    ErrorCode.HANDSHAKE_TIMEOUT: ("no greeting in time", "pas de salutation à temps"),
    ErrorCode.SPECTATORS_CLOSED: ("a spectator too many", "un spectateur de trop"),
    ErrorCode.BAD_SIGNATURE: ("a move whose signature does not check out",
                              "un coup dont la signature est fausse"),
    ErrorCode.BAD_CHAIN: ("a move that does not follow the one before it in the log",
                          "un coup qui ne suit pas le précédent dans le journal"),
    ErrorCode.OUT_OF_TURN: ("a move out of turn", "un coup hors de son tour"),
    ErrorCode.BAD_SEQUENCE: ("a move out of order (an old one sent again)",
                             "un coup dans le désordre (un ancien renvoyé)"),
    ErrorCode.WRONG_GAME: ("a move from another game", "un coup d'une autre partie"),
    ErrorCode.ENTRY_TOO_LARGE: ("an oversized move", "un coup trop long"),
    ErrorCode.TRANSCRIPT_TOO_LONG: ("a log grown to its maximum size",
                                    "un journal arrivé à sa taille maximale"),
    ErrorCode.ILLEGAL_MOVE: ("a move the rules forbid", "un coup que les règles interdisent"),
    ErrorCode.DEAL_FAILURE: ("a deal message that fails its check",
                             "un message de la donne qui ne se vérifie pas"),
    ErrorCode.RESULT_MISMATCH: ("a different result of the match",
                                "un autre résultat de la partie"),
    ErrorCode.PROTOCOL_VIOLATION: ("a move that makes no sense here",
                                   "un coup qui n'a pas de sens ici"),
    ErrorCode.RESIGNED: ("a resignation", "un abandon"),
    ErrorCode.TIMEOUT: ("too long a wait for a move", "une trop longue attente d'un coup"),
    ErrorCode.PEER_LEFT: ("too long an absence", "une trop longue absence"),
    ErrorCode.SHUTDOWN: ("a program that was closed", "un programme fermé"),
}

_WORDS: dict[str, tuple[str, str]] = {
    # The local peer measured it: said as what happened.
    "away": ("{name} stayed away (or out of reach) longer than the allowance of time "
             "away: the game is over.",
             "{name} : absence (ou silence) plus longue que le temps accordé : "
             "la partie est finie."),
    "slow": ("{name} took longer than the time allowed for a move: the game is over.",
             "{name} a mis plus que le temps accordé pour un coup : la partie est finie."),
    "away_me": ("you stayed away (or out of reach) longer than the allowance of time "
                "away: the game is over.",
                "votre absence (ou silence) a duré plus que le temps accordé : "
                "la partie est finie."),
    "slow_me": ("you took longer than the time allowed for a move: the game is over.",
                "vous avez mis plus que le temps accordé pour un coup : la partie est "
                "finie."),
    # Another seat signed it: its claim.
    "says_away": ("{by} says {name} stayed away too long;",
                  "{by} dit que l'absence de {name} a trop duré ;"),
    "says_away_me": ("{by} says you stayed away too long;",
                     "{by} dit que votre absence a trop duré ;"),
    "says_slow": ("{by} says {name} took too long to play;",
                  "{by} dit que {name} a mis trop longtemps à jouer ;"),
    "says_slow_me": ("{by} says you took too long to play;",
                     "{by} dit que vous avez mis trop longtemps à jouer ;"),
    "says": ("{by} says {name} is at fault ({why});",
             "{by} dit que {name} est en faute ({why}) ;"),
    "says_me": ("{by} says you are at fault ({why});",
                "{by} dit que vous êtes en faute ({why}) ;"),
    "you_say": ("you say {name} is at fault ({why});",
                "vous dites que {name} est en faute ({why}) ;"),
    "broke": ("{name} broke the rules ({why}): the game is over.",
              "{name} a enfreint les règles ({why}) : la partie est finie."),
    "broke_me": ("the others' checks found a fault in your moves ({why}): the game is over.",
                 "les vérifications des autres ont trouvé une faute dans vos coups ({why}) : "
                 "la partie est finie."),
    "nobody": ("{by} ended the game without blaming anyone ({why}).",
               "{by} a mis fin à la partie sans accuser personne ({why})."),
    "nobody_me": ("you ended the game without blaming anyone ({why}).",
                  "vous avez mis fin à la partie sans accuser personne ({why})."),
    # A flag the flagged seat disputed with its own clock (PROTOCOL.md 12.6).
    "disputed": ("{by} flagged {name} on time, and {name} disputes it: by {name}'s own "
                 "clock there was time left. One word against the other: the match counts "
                 "for nobody.",
                 "{by} déclare {name} hors temps, et {name} le conteste : selon sa propre "
                 "horloge il restait du temps. Parole contre parole : la partie ne compte "
                 "pour personne."),
    "disputed_me": ("{by} flagged you on time, but your own clock showed time left: you "
                    "disputed it (signed in your log). The match counts for nobody.",
                    "{by} vous déclare hors temps, mais votre horloge montrait du temps "
                    "restant : vous l'avez contesté (signé dans votre journal). La partie "
                    "ne compte pour personne."),
    "disputed_by_me": ("you flagged {name} on time, and {name} disputes it with its own "
                       "clock. One word against the other: the match counts for nobody.",
                       "vous avez déclaré {name} hors temps, et {name} le conteste avec sa "
                       "propre horloge. Parole contre parole : la partie ne compte pour "
                       "personne."),
    "refuted": ("the entry it cites passes every check: the claim is refuted.",
                "l'entrée citée passe toutes les vérifications : l'accusation est réfutée."),
}


def reason(code: ErrorCode, lang: str, unknown: str | None = None) -> str:
    """What ``code`` means for a player, in ``lang`` (``en`` or ``fr``); ``unknown``: the
    code as signed when it is none this program knows (then it says so, with it)."""
    if unknown is not None:
        unknown = safe_text(unknown, 40)  # the signer's value: shown, never obeyed
        return (f"un code d'erreur que ce programme ne connaît pas ({unknown})" if lang == "fr"
                else f"an error code this program does not know ({unknown})")
    pair = _REASONS.get(code, (code.sentence, code.sentence))
    return pair[1] if lang == "fr" else pair[0]


def _w(view: TableView, key: str, **kw: object) -> str:
    pair = _WORDS[key]
    text = pair[1] if view.t.lang == "fr" else pair[0]
    if view.t.lang == "fr":
        text = elide(text, kw)
    return text.format(**kw)


def stop_sentences(view: TableView, a: Aborted) -> list[tuple[str, str]]:
    """Why the game stopped: one or two (style, sentence) pairs, from the local seat's
    point of view.  A resignation and a player who left on purpose are a line of their
    own (the caller's words for them); anything else is said here."""
    me = view.state.seat
    by, blamed = a.by_seat, a.blamed_seat
    why = reason(a.code, view.t.lang, a.unknown_code)
    if a.resigned:
        return [("class:warn", view.said("ev_resigned", by))]
    if a.flag is not None:  # the host's flag on the seat to play: lost on time
        if view.solo:  # no host to speak of: what the clock is
            return [("class:warn", view.said("ev_on_time_solo", a.flag,
                                             why=view.late_note(a.flag, by)))]
        return [("class:warn", view.said("ev_on_time", a.flag, clock=view.clock_of(by)))]
    if a.disputed_by is not None:
        if a.disputed_by == me:
            return [("class:warn", _w(view, "disputed_me", by=view.who(by)))]
        if by == me:
            return [("class:warn", _w(view, "disputed_by_me",
                                      name=view.name(a.disputed_by)))]
        return [("class:warn", _w(view, "disputed", by=view.who(by),
                                  name=view.name(a.disputed_by)))]
    if blamed is not None and blamed == by and a.code is ErrorCode.PEER_LEFT:
        return [("class:warn", view.said("ev_left", by))]
    if blamed is None:
        key = "nobody_me" if by == me else "nobody"
        return [("class:error", _w(view, key, by=view.who(by), why=why))]
    liveness = {ErrorCode.PEER_LEFT: "away", ErrorCode.TIMEOUT: "slow"}.get(a.code)
    if a.standing in (Standing.PROVEN, Standing.SELF):
        if liveness is not None:  # its own signature: it left, or let the time run out
            if blamed == me:  # "vous avez mis", never "vous a mis"
                return [("class:error", _w(view, liveness + "_me"))]
            return [("class:error", _w(view, liveness, name=view.name(blamed)))]
        key = "broke_me" if blamed == me else "broke"
        return [("class:error", _w(view, key, name=view.who(blamed), why=why))]
    if liveness is not None and by == me:
        # Our own peer's clock: what happened here, not somebody's word.
        first = _w(view, liveness, name=view.name(blamed))
        return [("class:error", first)]
    if liveness is not None:
        key = f"says_{liveness}" + ("_me" if blamed == me else "")
        claim = _w(view, key, by=view.who(by), name=view.who(blamed))
    elif by == me:
        claim = _w(view, "you_say", name=view.who(blamed), why=why)
    else:
        key = "says_me" if blamed == me else "says"
        claim = _w(view, key, by=view.who(by), name=view.who(blamed), why=why)
    if a.standing == Standing.OWED:
        shown = view.said("ev_owed", blamed)
    elif a.standing == Standing.REFUTED:
        shown = _w(view, "refuted")
    else:
        shown = view.t("ev_unshown")
    return [("class:error", f"{claim} {shown}")]
