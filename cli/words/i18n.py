"""The one catalog: every word a person reads, in English and French.

Every sentence the client shows or prints, whatever the output (the screen, a headless
peer's lines, ``watch``'s commentary, the replay's text and page, the end's lines), is a
key of :data:`MESSAGES` here, with both languages; the other modules of :mod:`chkobba_cli.words`
choose which key to say and with what (an event, a result, a grade), never a sentence of
their own.  ``Translator(lang)("key", name=...)`` returns the message in that language
(English if a key lacks a translation).  Game terms stay the game's own words in both languages:
chkobba, carta, dinari, barmila, haya.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from chkobba_p2p.errors import IllegalMove, errno_name
from chkobba_p2p.game.cards import Card, FigureConvention
from chkobba_p2p.game.ruleset import Opening, RedealRule, Ruleset, Scoring
from chkobba_p2p.text import is_invisible, safe_text

if TYPE_CHECKING:
    from chkobba_p2p import ErrorCode, Notice

__all__ = ["LANGS", "MESSAGES", "RULE_NAMES", "Translator", "abort_reason", "detect_lang",
           "elide", "notice_text", "ruleset_text", "ruleset_name", "local_error_text"]

LANGS = ("en", "fr")


def detect_lang(environ: dict[str, str] | None = None) -> str:
    """``fr`` when the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE) is French, else ``en``."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


# key: (English, French)
#
# The game's units, one word each in each language (RULES.md): a *match* ("partie") is
# the whole, played to the target (21 or the table's own); a *hand* ("manche") is one
# deal played out, scored at its end; the *deal* ("donne") is the cards dealt.  A count
# of matches (history, records, the end screen) says "matches"/"parties", never "games"
# (which read as hands); "game" stays only where it names the program's object that a
# log holds (a saved game, "game {id}") or the match as a whole in running words ("the
# game goes on", "la partie continue").
MESSAGES: dict[str, tuple[str, str]] = {
    "app": ("Chkobba", "Chkobba"),
    "hand_no": ("hand {n}", "manche {n}"),
    "target": ("target {n}", "objectif {n}"),
    "you": ("you", "vous"),
    "us": ("us", "nous"),
    "them": ("them", "eux"),
    # A 3-player match's final score: the winner's total, then whose the others are.
    "score_three": ("{first} ({rest})", "{first} ({rest})"),
    "with_partner": ("with {name}", "avec {name}"),
    "opponent": ("opponent", "adversaire"),
    "partner": ("partner", "partenaire"),
    "cards_n": ("{n} cards", "{n} cartes"),
    "cards_1": ("{n} card", "{n} carte"),  # one, or zero in French (Translator.singular)
    "captures": ("captures", "prises"),
    "cap_of": ("{name} captured:", "pris par {name} :"),
    "cap_of_me": ("you captured:", "pris par vous :"),
    "cap_us": ("we captured:", "pris par nous :"),
    "cap_them": ("they captured:", "pris par eux :"),
    "who_says": ("{name}: ", "{name} : "),
    "haya_mark": ("haya", "haya"),
    "stock": ("stock {n}", "talon {n}"),
    "dealer": ("dealer {name}", "donneur {name}"),
    "cutter": ("cutter {name}", "coupeur {name}"),
    "turn_of": ("turn: {name}", "à jouer : {name}"),
    "dealer_is": ("dealer: {name}", "donneur : {name}"),
    "cutting_of": ("{name} is cutting", "{name} coupe"),
    "cutting_of_me": ("you are cutting", "vous coupez"),
    "table": ("Table", "Table"),
    "table_empty": ("(empty)", "(vide)"),
    "last_play": ("last: {name}", "dernier coup : {name}"),
    "your_hand": ("Your hand", "Votre main"),
    "points": ("{n} pts", "{n} pts"),
    "events": ("Events", "Événements"),
    # prompts
    "your_turn": ("Your turn: pick a card (1-{n}, ←→ Enter)",
                  "À vous : choisissez une carte (1-{n}, ←→ Entrée)"),
    "your_turn_1": ("Your turn: play your last card (1 or Enter)",
                    "À vous : jouez votre dernière carte (1 ou Entrée)"),
    "choose_capture": ("{card} can take several ways: pick one (1-{n}, ↑↓ Enter, Esc back)",
                       "{card} peut prendre de plusieurs façons : choisissez (1-{n}, ↑↓ "
                       "Entrée, Échap retour)"),
    "take_option": ("take {cards}", "prendre {cards}"),
    "you_drew": ("You cut and drew {card}: keep it or place it on the table?",
                 "Vous avez coupé et tiré {card} : la garder ou la poser sur la table ?"),
    # Under the two choices: what each changes (a newcomer asked; the help says it too).
    "cut_why": ("keep: it is one of your 3 cards · place: it goes face up on the table, "
                "and you get 3 new cards",
                "garder : elle est une de vos 3 cartes · poser : elle va face visible sur "
                "la table, et vous recevez 3 nouvelles cartes"),
    "keep": ("[k]eep it", "[g]arder"),
    "place": ("[p]lace it", "[p]oser"),
    "replay": ("replay", "relecture"),
    "replay_step": ("step {i}/{n} · entry #{entry}", "étape {i}/{n} · entrée n°{entry}"),
    "replay_step_short": ("step {i}/{n}", "étape {i}/{n}"),
    "keys_replay": ("←→ move · PgUp/PgDn hand · Home/End · s scores · q quit",
                    "←→ coup · PgPréc/PgSuiv manche · Début/Fin · s feuille · q quitter"),
    "verdict_valid": ("VALID: {why}", "VALIDE : {why}"),
    "verdict_invalid": ("INVALID at entry #{entry}: {why}",
                        "INVALIDE à l'entrée n°{entry} : {why}"),
    "verdict_incomplete": ("INCOMPLETE: {why}", "INCOMPLÈTE : {why}"),
    "verdict_won": ("a whole match: {name} wins {score}",
                    "une partie complète : {name} gagne {score}"),
    "verdict_resigned": ("{who} resigned: {name} wins the match",
                         "{who} a abandonné : {name} gagne la partie"),
    "verdict_on_time": ("{who} lost on time, by {clock}: {name} wins the match on "
                        "time", "{who} perd au temps, selon {clock} : {name} "
                        "gagne la partie au temps"),
    # At 4 players the winning side is two people: the verb agrees.
    "verdict_won_team": ("a whole match: {name} win {score}",
                         "une partie complète : {name} gagnent {score}"),
    "verdict_resigned_team": ("{who} resigned: {name} win the match",
                              "{who} a abandonné : {name} gagnent la partie"),
    "verdict_on_time_team": ("{who} lost on time, by {clock}: {name} win the match "
                             "on time", "{who} perd au temps, selon {clock} : "
                             "{name} gagnent la partie au temps"),
    "verdict_resigned_nobody": ("{who} resigned and loses: the two others are level, "
                                "nobody wins",
                                "{who} a abandonné et perd : les deux autres sont à "
                                "égalité, personne ne gagne"),
    # The observer's own findings (Verdict.finding, FINDINGS in the library's observe
    # verdict), with their facts: "of_" + the finding; a transcript's phase by its name.
    "of_no_entry": ("no entry, not even the genesis",
                    "aucune entrée, pas même la genèse"),
    "of_empty_log": ("the log holds no entry, not even the genesis",
                     "le journal ne contient aucune entrée, pas même la genèse"),
    "of_not_started": ("the game had not started when the watching stopped",
                       "la partie n'avait pas commencé quand le suivi s'est arrêté"),
    # walk5: "the transcript stops after entry #56, before the match is complete
    # (playing)" read as a program's state; said as a player says it, the entry kept
    # (replay --view shows it in its header).
    "of_stops_after": ("the log stops {phase}, after entry #{last}: the match did not "
                       "finish; no violation before",
                       "le journal s'arrête {phase}, après l'entrée n°{last} : la partie ne "
                       "s'est pas terminée ; aucune infraction avant"),
    "of_torn_after": ("the file ends in the middle of a frame after entry #{last} (a crash, "
                      "or a cut file); no violation before",
                      "le fichier s'arrête au milieu d'une trame après l'entrée n°{last} (un "
                      "arrêt brutal, ou un fichier coupé) ; aucune infraction avant"),
    "of_damaged_after": ("the file is damaged after entry #{last}: {tail}",
                         "le fichier est endommagé après l'entrée n°{last} : {tail}"),
    "of_short_of_signed": ("the full-knowledge replay does not reach the signed result",
                           "la relecture à cartes ouvertes n'aboutit pas au résultat signé"),
    "of_short_of_decided": ("the full-knowledge replay does not reach the decided result",
                            "la relecture à cartes ouvertes n'aboutit pas au résultat "
                            "décidé"),
    "of_cannot_process": ("the observer cannot process this entry (an internal error: "
                          "{error})",
                          "l'observateur ne peut pas traiter cette entrée (une erreur "
                          "interne : {error})"),
    "of_not_an_entry": ("not a signed entry ({detail})", "pas une entrée signée ({detail})"),
    "of_genesis_refused": ("the genesis entry is refused: {detail}",
                           "la genèse est refusée : {detail}"),
    "of_genesis_not_host": ("the genesis does not seat the host in seat 0",
                            "la genèse ne place pas l'hôte à la place 0"),
    "of_genesis_unsigned": ("the genesis entry is not signed by the key it gives the host "
                            "(seat 0)", "la genèse n'est pas signée par la clé qu'elle donne "
                            "à l'hôte (place 0)"),
    "of_phase_ready": ("before the first deal", "avant la première donne"),
    "of_phase_playing": ("during play", "pendant le jeu"),
    "of_phase_closing": ("while the result was being signed",
                         "pendant la signature du résultat"),
    "of_phase_done": ("after the end", "après la fin"),
    "of_phase_aborted": ("after the game was stopped", "après l'arrêt de la partie"),
    # -- The checks' violations (chkobba_p2p.errors.VIOLATIONS): "vi_" + the code, with its
    # facts (a seat by its player's name, a card in the reader's letters, the other side's
    # texts made safe).  One key per code: tests/client/test_violation_words.py.
    "vi_frame_too_large": ("a frame of {size} bytes was announced (at most {max})",
                           "une trame de {size} octets a été annoncée (au plus {max})"),
    "vi_extension_type": ("a message uses a msgpack extension type, which the protocol forbids",
                          "un message utilise un type d'extension msgpack, que le protocole "
                          "interdit"),
    "vi_key_not_str": ("a map key is not a string",
                       "une clé de dictionnaire n'est pas une chaîne"),
    "vi_duplicate_key": ("a map holds the key {field} twice",
                         "un dictionnaire contient deux fois la clé {field}"),
    "vi_string_too_long": ("a string is longer than {max} bytes",
                           "une chaîne dépasse {max} octets"),
    "vi_float_value": ("a message holds a floating-point number, which the protocol forbids",
                       "un message contient un nombre à virgule, que le protocole interdit"),
    "vi_nested_too_deep": ("a message is nested deeper than {max} levels",
                           "un message est imbriqué sur plus de {max} niveaux"),
    "vi_too_many_values": ("a message holds more than {max} values",
                           "un message contient plus de {max} valeurs"),
    "vi_not_msgpack": ("bytes that are not one valid msgpack value",
                       "des octets qui ne sont pas une valeur msgpack valide"),
    "vi_not_a_message": ("a message is not a map with a text field 't'",
                         "un message n'est pas un dictionnaire avec un champ texte 't'"),
    "vi_field_missing": ("the field {field} is missing", "le champ {field} manque"),
    "vi_field_type": ("the field {field} is not of type {kind}",
                      "le champ {field} n'est pas de type {kind}"),
    "vi_field_size": ("the field {field} does not have the length {size}",
                      "le champ {field} n'a pas la longueur {size}"),
    "vi_field_too_long": ("the field {field} is longer than {max}",
                          "le champ {field} dépasse la longueur {max}"),
    "vi_pop_not_last": ("the proof of possession is not the last field, of 64 bytes",
                        "la preuve de possession n'est pas le dernier champ, de 64 octets"),
    "vi_not_an_entry": ("another message where a signed entry was due",
                        "un autre message là où une entrée signée était attendue"),
    "vi_payload_not_map": ("an entry's signed content is not a map",
                           "le contenu signé d'une entrée n'est pas un dictionnaire"),
    "vi_seat_out_of_range": ("a seat number out of range", "un numéro de place hors limites"),
    "vi_negative_sequence": ("a negative sequence number", "un numéro d'ordre négatif"),
    "vi_entry_too_large": ("a {kind} entry of {size} bytes (at most {max})",
                           "une entrée {kind} de {size} octets (au plus {max})"),
    "vi_unknown_fields_too_large": ("{size} bytes of unknown fields in one entry (at most {max})",
                                    "{size} octets de champs inconnus dans une entrée (au plus "
                                    "{max})"),
    "vi_bad_name": ("a display name is not 1 to {max} printable characters",
                    "un nom affiché ne fait pas de 1 à {max} caractères imprimables"),
    "vi_not_genesis": ("the first entry is not the table's genesis",
                       "la première entrée n'est pas la genèse de la table"),
    "vi_version_unsupported": ("protocol version {version}, which this version does not speak",
                               "la version de protocole {version}, que cette version ne parle "
                               "pas"),
    "vi_players_unsupported": ("a table of {players} players, which this version does not seat",
                               "une table de {players} joueurs, que cette version ne sait pas "
                               "asseoir"),
    "vi_bad_ruleset": ("the table's rules cannot be read",
                       "les règles de la table sont illisibles"),
    "vi_rules_hash_mismatch": ("the rules' fingerprint does not match the rules",
                               "l'empreinte des règles ne correspond pas aux règles"),
    "vi_seat_count": ("the table does not list one entry per seat",
                      "la table ne donne pas une entrée par place"),
    "vi_seat_order": ("the table's seats are not in order",
                      "les places de la table ne sont pas dans l'ordre"),
    "vi_key_holds_two_seats": ("one identity holds two seats",
                               "une même identité occupe deux places"),
    "vi_host_not_seat_0": ("seat 0 is not the host", "la place 0 n'est pas celle de l'hôte"),
    "vi_genesis_signature": ("the genesis is not signed by the host's key",
                             "la genèse n'est pas signée par la clé de l'hôte"),
    "vi_no_seat_for_us": ("the table has no seat for this player",
                          "la table n'a pas de place pour ce joueur"),
    "vi_wrong_game": ("an entry of another game", "une entrée d'une autre partie"),
    "vi_no_such_seat": ("an entry from a seat the table does not have",
                        "une entrée d'une place que la table n'a pas"),
    "vi_bad_signature": ("the signature of an entry in {seat}'s name does not verify",
                         "la signature d'une entrée au nom de {seat} n'est pas valide"),
    "vi_game_over": ("an entry after the game was over", "une entrée après la fin de la partie"),
    "vi_replayed_entry": ("an old entry sent again", "une ancienne entrée renvoyée"),
    "vi_chain_broken": ("an entry that does not follow the last one",
                        "une entrée qui ne suit pas la précédente"),
    "vi_out_of_turn": ("{seat} spoke while {floor} held the floor",
                       "{seat} a parlé alors que la parole était à {floor}"),
    "vi_wrong_sequence": ("an entry out of sequence (number {expected} was due)",
                          "une entrée hors séquence (le numéro {expected} était attendu)"),
    "vi_transcript_too_long": ("the transcript grew over {max} bytes",
                               "le journal a dépassé {max} octets"),
    "vi_unexpected_kind": ("a {got} entry where a {expected} entry was due",
                           "une entrée {got} là où une entrée {expected} était attendue"),
    "vi_result_differs": ("{seat} signed another result", "{seat} a signé un autre résultat"),
    "vi_entry_after_end": ("an entry after the end of the match",
                           "une entrée après la fin de la partie"),
    "vi_stalled_owing": ("the game stalls: {seat} owes its deal message and {turns} turns "
                         "passed without progress",
                         "la partie est bloquée : {seat} doit son message de donne et {turns} "
                         "tours sont passés sans progrès"),
    "vi_stalled": ("the game stalls: nobody acts", "la partie est bloquée : personne n'agit"),
    "vi_not_a_card": ("{value} is not a card", "{value} n'est pas une carte"),
    "vi_not_a_position": ("{value} is not a position in the deck",
                          "{value} n'est pas une position du paquet"),
    "vi_bad_ready_caps": ("a ready's capabilities are not a list of texts",
                          "les capacités d'un « prêt » ne sont pas une liste de textes"),
    "vi_take_not_list": ("the captured cards are not a list",
                         "les cartes prises ne sont pas une liste"),
    "vi_take_twice": ("a capture names the same card twice",
                      "une prise nomme deux fois la même carte"),
    "vi_keep_not_bool": ("the cutter's choice is neither yes nor no",
                         "le choix du coupeur n'est ni oui ni non"),
    "vi_kept_with_position": ("a kept card comes with a position",
                              "une carte gardée est donnée avec une position"),
    "vi_unknown_action": ("an action of unknown type {value}",
                          "une action de type inconnu {value}"),
    "vi_bad_turn_fields": ("a turn's fields are malformed", "les champs d'un tour sont mal formés"),
    "vi_bad_done_result": ("a signed result is not a map",
                           "un résultat signé n'est pas un dictionnaire"),
    "vi_position_not_shown": ("{seat} did not show the card at position {pos} with its action",
                              "{seat} n'a pas montré la carte en position {pos} avec son action"),
    "vi_empty_turn": ("an empty turn while the game waited for {seat}'s choice",
                      "un tour vide alors que la partie attendait le choix de {seat}"),
    "vi_turn_item_not_map": ("a deal message is not a map",
                             "un message de donne n'est pas un dictionnaire"),
    "vi_turn_item_after_end": ("a deal message after the end of the deal",
                               "un message de donne après la fin de la donne"),
    "vi_no_action_due": ("an action when none was due",
                         "une action alors qu'aucune n'était attendue"),
    "vi_card_not_shown": ("{seat} played {card} but showed {shown}",
                          "{seat} a joué {card} mais a montré {shown}"),
    "vi_only_drawn_card": ("only the drawn card may be placed",
                           "seule la carte tirée peut être posée"),
    "vi_action_out_of_phase": ("a {action} action the hand did not wait for",
                               "une action {action} que la manche n'attendait pas"),
    "vi_invalid_deal": ("the cards dealt do not fit the hand",
                        "les cartes distribuées ne correspondent pas à la manche"),
    "vi_illegal_move": ("a move the rules forbid", "un coup que les règles interdisent"),
    "vi_wrong_phase": ("a move the hand did not wait for", "un coup que la manche n'attendait pas"),
    "vi_not_your_turn": ("a card played out of turn", "une carte jouée hors de son tour"),
    "vi_card_not_in_hand": ("a card played that was not in the player's hand",
                            "une carte jouée qui n'était pas dans la main du joueur"),
    "vi_capture_not_on_table": ("a capture of cards that are not on the table",
                                "une prise de cartes qui ne sont pas sur la table"),
    "vi_group_does_not_sum": ("a capture whose cards do not add up to the card played",
                              "une prise dont les cartes ne font pas la valeur de la carte jouée"),
    "vi_rank_match_required": ("a sum taken while a card of the same value could be taken",
                               "une somme prise alors qu'une carte de même valeur pouvait "
                               "l'être"),
    "vi_capture_required": ("a card that could capture was laid down without capturing",
                            "une carte qui pouvait prendre a été posée sans prendre"),
    "vi_forced_capture": ("a card laid down without capturing while a card that captures was "
                          "in hand (forced capture)",
                          "une carte posée sans prendre alors qu'une carte qui prend était en "
                          "main (prise obligatoire)"),
    "vi_deal_malformed": ("a deal message is malformed (a field missing or extra, of a wrong "
                          "type or length)",
                          "un message de donne est mal formé (un champ manquant ou en trop, de "
                          "mauvais type ou de mauvaise longueur)"),
    "vi_deal_bad_point": ("a deal message holds a point that is not a valid group element",
                          "un message de donne contient un point qui n'est pas un élément "
                          "valide du groupe"),
    "vi_deal_flood": ("too many deal messages sent ahead of the protocol",
                      "trop de messages de donne envoyés en avance"),
    "vi_deal_unknown_message": ("a deal message of unknown type",
                                "un message de donne de type inconnu"),
    "vi_deal_unexpected": ("a deal message that was not due (from the past, or not owed)",
                           "un message de donne inattendu (du passé, ou non dû)"),
    "vi_deal_bad_key": ("the deal key is the identity element",
                        "la clé de donne est l'élément neutre"),
    "vi_deal_bad_key_proof": ("the proof of the deal key does not verify",
                              "la preuve de la clé de donne n'est pas valide"),
    "vi_deal_duplicate_ciphertext": ("the shuffled deck holds the same encrypted card twice",
                                     "le paquet mélangé contient deux fois la même carte "
                                     "chiffrée"),
    "vi_deal_missing_shuffle_proof": ("a shuffle came without its proof",
                                      "un mélange est arrivé sans sa preuve"),
    "vi_deal_bad_shuffle_proof": ("the proof of a shuffle does not verify",
                                  "la preuve d'un mélange n'est pas valide"),
    "vi_deal_malformed_shuffle_proof": ("the proof of a shuffle is malformed",
                                        "la preuve d'un mélange est mal formée"),
    "vi_deal_shuffle_not_rerandomized": ("a shuffle did not re-encrypt the cards",
                                         "un mélange n'a pas rechiffré les cartes"),
    "vi_deal_not_cutter": ("a cut by a player who is not the cutter",
                           "une coupe par un joueur qui n'est pas le coupeur"),
    "vi_deal_wrong_positions": ("decryption shares for positions other than those owed",
                                "des parts de déchiffrement pour d'autres positions que celles "
                                "dues"),
    "vi_deal_bad_share_proof": ("a decryption share does not match the player's key",
                                "une part de déchiffrement ne correspond pas à la clé du joueur"),
    "vi_deal_not_dealt_to_you": ("a player showed a card that was not dealt to them",
                                 "un joueur a montré une carte qui ne lui avait pas été "
                                 "distribuée"),
    "vi_deal_already_played": ("a card shown twice", "une carte montrée deux fois"),
    "vi_deal_false_complaint": ("a complaint about valid, unseen cards, or about another "
                                "player's",
                                "une plainte sur des cartes valides et jamais vues, ou sur "
                                "celles d'un autre joueur"),
    "vi_deal_bad_opening": ("a revealed seed does not match its commitment",
                            "une graine révélée ne correspond pas à son engagement"),
    "vi_deal_shuffle_mismatch": ("a shuffle is not the one its seed commits to",
                                 "un mélange n'est pas celui auquel sa graine engage"),
    "vi_deal_unexplained_audit": ("every shuffle is correct, yet a card came out wrong",
                                  "chaque mélange est correct, et pourtant une carte est sortie "
                                  "fausse"),
    "vi_version_not_offered": ("protocol version {version}, which was not offered",
                               "la version de protocole {version}, qui n'était pas proposée"),
    "vi_no_common_version": ("no protocol version in common",
                             "aucune version de protocole en commun"),
    "vi_unknown_message": ("a message of unknown type {value}",
                           "un message de type inconnu {value}"),
    "vi_unexpected_message": ("another message where a {expected} was due",
                              "un autre message là où un {expected} était attendu"),
    "vi_out_of_state": ("a {got} message, which the connection does not take in state {state}",
                        "un message {got}, que la connexion n'accepte pas dans l'état {state}"),
    "vi_already_seated": ("this identity is already connected at this table",
                          "cette identité est déjà connectée à cette table"),
    "vi_seat_refused": ("the host refuses this identity at its table",
                        "l'hôte refuse cette identité à sa table"),
    "vi_table_full": ("every seat at this table is taken",
                      "toutes les places de cette table sont prises"),
    "vi_game_started": ("the game has started", "la partie a commencé"),
    "vi_bad_proof_of_possession": ("the identity key's proof of possession is invalid",
                                   "la preuve de possession de la clé d'identité n'est pas "
                                   "valide"),
    "vi_key_not_knocked": ("the hello's key is not the one its knock proved",
                           "la clé du bonjour n'est pas celle que son appel a prouvée"),
    "vi_shuffle_proofs_required": ("this table's shuffles carry proofs, which this player "
                                   "cannot check",
                                   "les mélanges de cette table portent des preuves, que ce "
                                   "joueur ne sait pas vérifier"),
    "vi_needs_deal_v1": ("the hello does not speak the deal (deal/v1)",
                         "le bonjour ne parle pas la donne (deal/v1)"),
    "vi_foreign_bot_voucher": ("the bot's voucher is not this host's",
                               "le bon du robot n'est pas celui de cet hôte"),
    "vi_bot_key_cannot_return": ("a bot level's well-known key cannot come back to its seat: "
                                 "anyone can sign as it",
                                 "la clé publique d'un niveau de robot ne peut pas revenir à sa "
                                 "place : n'importe qui peut signer en son nom"),
    "vi_empty_bot_level": ("a bot's level is empty", "le niveau d'un robot est vide"),
    "vi_unknown_game": ("the game to resume is not the one running here",
                        "la partie à reprendre n'est pas celle qui se joue ici"),
    "vi_no_seat_here": ("this identity has no seat in the game here",
                        "cette identité n'a pas de place dans la partie d'ici"),
    "vi_secret_required": ("this table seats only those who have its join code's secret: ask "
                           "the host for the whole join code",
                           "cette table n'assoit que ceux qui ont le secret de son code : "
                           "demandez à l'hôte le code entier"),
    "vi_secret_wrong": ("the secret in the join code is not this table's: ask the host for its "
                        "join code again",
                        "le secret du code n'est pas celui de cette table : redemandez son code "
                        "à l'hôte"),
    "vi_welcome_unsigned": ("the host's welcome is not signed by its greeting's key",
                            "l'accueil de l'hôte n'est pas signé par la clé de sa présentation"),
    "vi_wrong_resume_seat": ("the host welcomes us at another seat than the one we resume",
                             "l'hôte nous accueille à une autre place que celle que nous "
                             "reprenons"),
    "vi_game_not_started": ("an entry before the game started",
                            "une entrée avant le début de la partie"),
    "vi_entry_for_other_seat": ("an entry signed for another seat",
                                "une entrée signée pour une autre place"),
    "vi_spectators_full": ("every spectator's place is taken",
                           "toutes les places de spectateur sont prises"),
    "vi_spectators_limit": ("{max} spectators already watching (the most this table admits)",
                            "{max} spectateurs regardent déjà (le plus que cette table admet)"),
    "vi_no_spectators": ("this table admits no spectators",
                         "cette table n'admet pas de spectateurs"),
    "vi_field_range": ("the field {field} is not a whole number from {min} to {max}",
                       "le champ {field} n'est pas un nombre entier de {min} à {max}"),
    "vi_invisible_character": ("a display name holds an invisible character ({value}), which "
                               "would let it pass for another",
                               "un nom affiché contient un caractère invisible ({value}), qui "
                               "le ferait passer pour un autre"),
    "vi_no_seat_list": ("the lobby has no list of seats", "le salon n'a pas de liste de places"),
    "vi_seat_list_size": ("a lobby of {size} seats (at most {max})",
                          "un salon de {size} places (au plus {max})"),
    "vi_seat_not_map": ("the lobby's {seat} is not a map",
                        "le {seat} du salon n'est pas un dictionnaire"),
    "vi_seat_key_size": ("the key of the lobby's {seat} is not 32 bytes",
                         "la clé du {seat} du salon ne fait pas 32 octets"),
    "vi_seat_name_length": ("the name at the lobby's {seat} is not 1 to {max} characters",
                            "le nom du {seat} du salon ne fait pas de 1 à {max} caractères"),
    "vi_seat_name_unprintable": ("the name at the lobby's {seat} is not printable",
                                 "le nom du {seat} du salon n'est pas imprimable"),
    "vi_seat_name_invisible": ("the name at the lobby's {seat} holds an invisible character "
                               "({value})",
                               "le nom du {seat} du salon contient un caractère invisible "
                               "({value})"),
    "vi_bad_chat_line": ("a chat line is not 1 to 200 printable characters",
                         "une ligne de discussion ne fait pas de 1 à 200 caractères imprimables"),
    "vi_accept_not_bool": ("a rematch answer is neither yes nor no",
                           "une réponse à la revanche n'est ni oui ni non"),
    "vi_bad_spectator_list": ("the list of spectators is malformed (at most {max} names)",
                              "la liste des spectateurs est mal formée (au plus {max} noms)"),
    # The observer's findings about a signature or the chain (FINDINGS), with the check's
    # violation words above.
    "of_signed_by_other": ("an entry in {seat}'s name is signed with {signer}'s key",
                           "une entrée au nom de {seat} est signée avec la clé de {signer}"),
    "of_signature_altered": ("the signature of an entry in {seat}'s name does not verify: the "
                             "entry was altered after it was signed (or forged)",
                             "la signature d'une entrée au nom de {seat} n'est pas valide : "
                             "l'entrée a été modifiée après sa signature (ou contrefaite)"),
    "of_not_extending": ("the entry does not extend the transcript: an entry before it is "
                         "missing, reordered or replaced",
                         "l'entrée ne prolonge pas le journal : une entrée avant elle manque, "
                         "a été déplacée ou remplacée"),
    # An auditor's warnings (chkobba_p2p.observe.verdict.WARNINGS): "wa_" + the code.
    "wa_evidence_in_transcript": ("the evidence of {seat}'s abort is an entry of this "
                                  "transcript that passes every check: its claim is refuted",
                                  "la preuve de l'arrêt de {seat} est une entrée de ce journal "
                                  "qui passe tous les contrôles : son accusation est réfutée"),
    "wa_evidence_not_entry": ("the evidence of {seat}'s abort is not a signed entry",
                              "la preuve de l'arrêt de {seat} n'est pas une entrée signée"),
    "wa_evidence_refused": ("the evidence of {seat}'s abort (an entry this transcript lacks) "
                            "is refused by the checks",
                            "la preuve de l'arrêt de {seat} (une entrée absente de ce journal) "
                            "est refusée par les contrôles"),
    "wa_evidence_passes": ("the evidence of {seat}'s abort (an entry this transcript lacks) "
                           "passes every check: its claim is not supported",
                           "la preuve de l'arrêt de {seat} (une entrée absente de ce journal) "
                           "passe tous les contrôles : son accusation n'est pas fondée"),
    "wa_torn_after_end": ("a torn frame after the end of the match was ignored",
                          "une trame coupée après la fin de la partie a été ignorée"),
    "wa_header_other_game": ("the log header names another game than the genesis (the header "
                             "is not signed)",
                             "l'en-tête du journal nomme une autre partie que la genèse "
                             "(l'en-tête n'est pas signé)"),
    "wa_header_seat_mismatch": ("the log header's seat and key do not match the genesis (the "
                                "header is not signed)",
                                "la place et la clé de l'en-tête du journal ne sont pas celles "
                                "de la genèse (l'en-tête n'est pas signé)"),
    # -- end of the violations' words
    "verdict_truncated": ("the log ends in the middle of a message (a crash, or a cut "
                          "file); nothing wrong before it",
                          "le journal s'arrête au milieu d'un message (un arrêt brutal ou un "
                          "fichier coupé) ; rien d'irrégulier avant"),
    "verdict_unfinished": ("the log stops before the end of the match; nothing wrong "
                           "before it", "le journal s'arrête avant la fin de la partie ; "
                           "rien d'irrégulier avant"),
    # An observer (replay, watch) that meets a table capability it does not know: it
    # cannot audit the match and blames no one (PROTOCOL.md 3).
    "verdict_unsupported": ("CANNOT AUDIT: {why}", "AUDIT IMPOSSIBLE : {why}"),
    "unsupported_why": ("the table plays the capability {caps}, which this version does not "
                        "know: it cannot check this match, and blames no player (a version "
                        "that knows it can audit the log)",
                        "la table joue la capacité {caps}, que cette version ne connaît pas : "
                        "elle ne peut pas vérifier cette partie, et ne met aucun joueur en "
                        "faute (une version qui la connaît peut vérifier le journal)"),
    "unsupported_why_pl": ("the table plays the capabilities {caps}, which this version does "
                           "not know: it cannot check this match, and blames no player (a "
                           "version that knows them can audit the log)",
                           "la table joue les capacités {caps}, que cette version ne connaît "
                           "pas : elle ne peut pas vérifier cette partie, et ne met aucun "
                           "joueur en faute (une version qui les connaît peut vérifier le "
                           "journal)"),
    "verdict_blamed": ("blamed: {name} (key {fp})", "en faute : {name} (clé {fp})"),
    "verdict_nobody": ("no player is blamed: the file was altered",
                       "aucun joueur en faute : le fichier a été modifié"),
    "offending_here": ("✗ this entry is refused", "✗ cette entrée est refusée"),
    "cg_forced": ("forced", "forcé"),
    "cg_best": ("best", "meilleur coup"),
    "cg_good": ("good", "bon"),
    "cg_inaccuracy": ("inaccuracy", "imprécision"),
    "cg_mistake": ("mistake", "erreur"),
    "cg_blunder": ("blunder", "gaffe"),
    "cg_better": ("{label} −{loss}: better was {move}", "{label} −{loss} : mieux valait {move}"),
    # A move as a verb: "5♠ on the table" read as a card lying there.
    "cg_on_table": ("playing {card} and taking nothing", "jouer {card} sans rien prendre"),
    "cg_taking": ("playing {card} to take {cards}", "jouer {card} pour prendre {cards}"),
    "cg_keep": ("keeping the card", "garder la carte"),
    "cg_place": ("placing it on the table", "la poser sur la table"),
    "coach_says": ("coach, {name}, {where}: {grade}", "coach, {name}, {where} : {grade}"),
    # ``replay --review``'s text: the mistakes and blunders, each player's summary.
    "cv_where": ("hand {hand}, {what}", "manche {hand}, {what}"),
    "cv_kept": ("{who} kept {card}", "{who} a gardé {card}"),
    "cv_placed": ("{who} placed {card} on the table", "{who} a posé {card} sur la table"),
    "cv_took": ("{who} took {cards} with {card}", "{who} a pris {cards} avec {card}"),
    "cv_put": ("{who} put {card} on the table", "{who} a posé {card} sur la table"),
    "cv_keeping": ("keeping it", "la garder"),
    "cv_head": ("{where}: {played}", "{where} : {played}"),
    "cv_line": ("{head} ({label})", "{head} ({label})"),
    # {loss}, {mean}: a number with its unit (Translator.points: "0,94 point").
    "cv_line_better": ("{head}; {better} was worth {loss} more ({label})",
                       "{head} ; {better} valait {loss} de plus ({label})"),
    "cv_summary": ("{who}: {n} decisions, mean loss {mean} per decision, {mistakes}, "
                   "{blunders}, accuracy {accuracy}%",
                   "{who} : {n} décisions, perte moyenne de {mean} par décision, "
                   "{mistakes}, {blunders}, précision {accuracy} %"),
    "cv_mistakes_1": ("{n} mistake", "{n} erreur"),  # Translator.singular: "0 erreur"
    "cv_mistakes_n": ("{n} mistakes", "{n} erreurs"),
    "cv_blunders_1": ("{n} blunder", "{n} gaffe"),
    "cv_blunders_n": ("{n} blunders", "{n} gaffes"),
    "cv_header": ("review: every decision graded by the expert's search from what the "
                  "player saw then; loss in points of the hand (expected margin) against "
                  "the best move; mistake >= {mistake}, blunder >= {blunder}; {samples} "
                  "sampled worlds per decision, seed {seed}",
                  "revue : chaque décision notée par la recherche de l'expert à partir de "
                  "ce que le joueur voyait alors ; perte en points de la manche (marge "
                  "espérée) face au meilleur coup ; erreur >= {mistake}, gaffe >= "
                  "{blunder} ; {samples} mondes tirés par décision, graine {seed}"),
    "cv_limit": ("the review stopped at its limit: the first {n} of {of} decisions graded "
                 "(--review-limit N grades more, --review-limit 0 every one)",
                 "la revue s'est arrêtée à sa limite : les {n} premières des {of} décisions "
                 "notées (--review-limit N en note plus, --review-limit 0 toutes)"),
    "cv_none": ("no mistake and no blunder", "ni erreur ni gaffe"),
    # Why a move lost points (the review's reason codes, chkobba_p2p.observe.review):
    # one clause each, the two most important after "why:".  English stays ASCII
    # (plain text with --ascii).
    "cv_why": ("why: {reasons}", "pourquoi : {reasons}"),
    "cv_sep": ("; ", " ; "),  # between two clauses (French spaces its semicolon)
    # A mistake no one rule explains one move ahead (the search saw it further on).
    "cv_why_later": ("why: no single rule says it one move ahead; the difference shows "
                     "later in the hand, as the search plays it out",
                     "pourquoi : aucune règle ne le dit un coup à l'avance ; la différence "
                     "se voit plus loin dans la manche, que la recherche joue jusqu'au "
                     "bout"),
    "rs_misses_chkobba": ("misses a sweep of the whole table (a chkobba, 1 point)",
                          "manque la rafle de toute la table (une chkobba, 1 point)"),
    "rs_misses_haya": ("does not take the 7 of dinari ({card}, the haya, 1 point)",
                       "ne prend pas le 7 de carreau ({card}, la haya, 1 point)"),
    "rs_gives_haya": ("leaves the 7 of dinari ({card}, the haya) for the others to take",
                      "laisse le 7 de carreau ({card}, la haya) à prendre aux autres"),
    # The review's progress on stderr: a bar on a terminal, else a line every 5 s.
    "rv_progress_bar": ("reviewing {bar} {done}/{n} decisions",
                        "revue {bar} {done}/{n} décisions"),
    "rv_progress_line": ("reviewing: {done}/{n} decisions graded",
                         "revue : {done}/{n} décisions notées"),
    # Ctrl-C stopped a command: said on a line of its own.
    "interrupted": ("interrupted", "interrompu"),
    "rs_leaves_sweep": ("leaves a sweep (chkobba) open to the next player: {rank} takes "
                        "the whole table",
                        "laisse une chkobba au joueur suivant : {rank} prend toute la "
                        "table"),
    # A rank in words, after the letter the screen draws it with (the figures as the
    # table names them, French letters in French; 8, 9, 10 where the cards show values):
    # "a card of value 1" read as a number where a player says "an ace".
    "rank_A": ("an ace", "un as"),
    "rank_1": ("an ace", "un as"),
    "rank_2": ("a two", "un deux"),
    "rank_3": ("a three", "un trois"),
    "rank_4": ("a four", "un quatre"),
    "rank_5": ("a five", "un cinq"),
    "rank_6": ("a six", "un six"),
    "rank_7": ("a seven", "un sept"),
    "rank_8": ("an 8", "un 8"),
    "rank_9": ("a 9", "un 9"),
    "rank_10": ("a 10", "un 10"),
    "rank_Q": ("a queen", "une dame"),
    "rank_D": ("a queen", "une dame"),
    "rank_J": ("a jack", "un valet"),
    "rank_V": ("a jack", "un valet"),
    "rank_K": ("a king", "un roi"),
    "rank_R": ("a king", "un roi"),
    "rs_last_capture": ("gives up the last capture (the cards left on the table go to "
                        "whoever takes last)",
                        "cède la dernière prise (les cartes restées sur la table vont à "
                        "qui prend en dernier)"),
    "rs_misses_sevens": ("takes fewer sevens for the barmila ({value} fewer)",
                         "prend moins de 7 pour la barmila ({value} de moins)"),
    "rs_gives_seven": ("leaves a seven ({card}) on the table for the others to take "
                       "(barmila)",
                       "laisse un 7 ({card}) sur la table à prendre aux autres (barmila)"),
    "rs_gives_dinari": ("leaves a diamond ({card}) on the table for the others to take "
                        "(dinari)",
                        "laisse un carreau ({card}) sur la table à prendre aux autres "
                        "(dinari)"),
    "rs_fewer_dinari": ("takes fewer diamonds for the dinari ({value} fewer)",
                        "prend moins de carreaux pour les dinari ({value} de moins)"),
    "rs_fewer_cards": ("takes fewer cards for the carta ({value} fewer)",
                       "prend moins de cartes pour la carta ({value} de moins)"),
    "rs_keep_cut": ("{card} was worth more kept in hand", "{card} valait plus gardée en main"),
    "rs_place_cut": ("{card} was worth more placed on the table",
                     "{card} valait plus posée sur la table"),
    "move_play": ("play {n}", "coup {n}"),
    "move_cut": ("the cut", "la coupe"),
    "revealed_note": ("hands face up: revealed at the end of the hand",
                      "jeux visibles : révélés à la fin de la manche"),
    "dealt_was": ("{name} was dealt: {cards}", "{name} avait reçu : {cards}"),
    "sheet_title": ("Score sheet", "Feuille de marque"),
    "sheet_row": ("hand {n}: {points}  →  {totals}", "manche {n} : {points}  →  {totals}"),
    # The score sheet of chkobba replay (cli/outputs/scoresheet.py); barmila's sevens are >= 3.
    "ss_hand": ("hand {n}: {sides} → {totals}", "manche {n} : {sides} → {totals}"),
    "ss_totals": ("totals: {sides}", "total : {sides}"),
    "ss_sevens": ("{n} sevens", "{n} sept"),
    "ss_sixes": ("sevens tied, {n} sixes", "sept à égalité, {n} six"),
    "ss_chkobba_1": ("1 chkobba", "1 chkobba"),
    "ss_chkobbas": ("{n} chkobbas", "{n} chkobbas"),
    "diamonds_1": ("1 diamond", "1 carreau"),
    "diamonds_word": ("{n} diamonds", "{n} carreaux"),
    "ev_watching": ("watching: {names}", "spectateurs : {names}"),
    "ev_left_lobby": ("{name} left the table", "{name} a quitté la table"),
    "ev_ready_lapsed": ("{name} did not confirm within {seconds} s: the seat is free again",
                        "{name} n'a pas confirmé en {seconds} s : la place est de nouveau "
                        "libre"),
    "ev_seated": ("{name} takes a seat", "{name} prend place"),
    "nobody_watching": ("nobody", "personne"),
    # Before a sentence printed on stderr once the screen closed (cli/words/ending.py, print_error).
    "error_prefix": ("error: ", "erreur : "),
    "ev_stopped_watching": ("{name} stopped watching", "{name} ne regarde plus"),
    "waiting_for": ("waiting for {name}…", "on attend {name}…"),
    "hint_takes": ("takes {opts}", "prend {opts}"),
    "hint_stays": ("stays on the table", "reste sur la table"),
    "hint_barred": ("may not be played (forced capture)", "interdite (prise obligatoire)"),
    # h toggles the hints: said in the footer until the next key (nothing else may show
    # it: no card may be asked for at the moment).
    "hints_on": ("hints on: what each card would take shows under your hand (h: off)",
                 "conseils activés : ce que prendrait chaque carte s'affiche sous votre "
                 "main (h : désactiver)"),
    "hints_off": ("hints off (h: on)", "conseils désactivés (h : activer)"),
    "keys_play": ("1-9 card · ←→ Enter · h hints · s sheet · ? help · q leave",
                  "1-9 carte · ←→ Entrée · h conseils · s feuille · ? aide · q quitter"),
    "keys_idle": ("t chat · b a w y c quick chat · h hints · s sheet · ? help · q leave",
                  "t message · b a w y c phrases · h conseils · s feuille · ? aide · "
                  "q quitter"),
    "keys_lobby_idle": ("? help · t chat · q leave", "? aide · t message · q quitter"),
    "keys_sheet": ("s or Esc: back to the table · q leave",
                   "s ou Échap : retour à la table · q quitter"),
    "sheet_your_turn": ("Your turn: s or Esc goes back to the table",
                        "À vous : s ou Échap pour revenir à la table"),
    "sheet_your_turn_in": ("Your turn ({t} left): s or Esc goes back to the table",
                           "À vous (il reste {t}) : s ou Échap pour revenir à la table"),
    "sheet_empty": ("No hand scored yet.", "Aucune manche comptée pour l'instant."),
    "keys_chat": ("type a message · Enter send · Esc cancel",
                  "tapez un message · Entrée envoyer · Échap annuler"),
    "chat_prompt": ("say:", "dire :"),
    "chat_refused": ("message not sent (1-200 printable characters, at most 5 per 10 s)",
                     "message non envoyé (1 à 200 caractères imprimables, 5 par 10 s au plus)"),
    "keys_over": ("q or Enter: quit", "q ou Entrée : quitter"),
    "keys_over_rematch": ("r: play again (rematch) · q or Enter: quit",
                          "r : rejouer (revanche) · q ou Entrée : quitter"),
    "clock_left": ("{t} left", "encore {t}"),
    "clock_hurry": ("Hurry: {t} left to play, then you lose on time!",
                    "Vite : encore {t} pour jouer, sinon vous perdez au temps !"),
    "refused": ("{card} refused: {rule}", "{card} refusée : {rule}"),
    # events
    "ev_listening": ("hosting on port {port}", "table ouverte sur le port {port}"),
    "ev_first_draw": ("first dealer draw (the lowest deals): {draws}",
                      "tirage du donneur (la plus basse donne) : {draws}"),
    "ev_first_redraw": ("a tie for the lowest, drawn again: {draws}",
                        "égalité pour la plus basse, nouveau tirage : {draws}"),
    "ev_hand": ("hand {n}: {name} deals", "manche {n} : {name} donne"),
    "ev_hand_me": ("hand {n}: you deal", "manche {n} : vous donnez"),
    "ev_redeal": ("three kings on the table: {name} deals again",
                  "trois rois sur la table : {name} redonne"),
    "ev_draw": ("{name} cuts and draws a card", "{name} coupe et tire une carte"),
    "ev_draw_me": ("you cut and draw a card", "vous coupez et tirez une carte"),
    "ev_keep": ("{name} keeps the drawn card", "{name} garde la carte tirée"),
    "ev_keep_me": ("you keep the drawn card", "vous gardez la carte tirée"),
    "ev_place": ("{name} places {card} on the table", "{name} pose {card} sur la table"),
    "ev_place_me": ("you place {card} on the table", "vous posez {card} sur la table"),
    "ev_deal": ("new deal: 3 cards each, stock {n}", "nouvelle donne : 3 cartes à chacun, "
                "talon {n}"),
    "ev_play_drop": ("{name}: {card} on the table", "{name} : {card} sur la table"),
    "ev_play_take": ("{name}: {card} takes {cards}", "{name} : {card} prend {cards}"),
    # A no-break space: the event pane wraps at spaces, and left "!" alone on a line.
    "ev_chkobba": ("CHKOBBA!", "CHKOBBA\u00a0!"),
    "ev_sweep": ("{name} takes the last cards: {cards}",
                 "{name} ramasse les dernières cartes : {cards}"),
    "ev_sweep_me": ("you take the last cards: {cards}",
                    "vous ramassez les dernières cartes : {cards}"),
    "ev_scored": ("hand {n} scored: {points}; totals {totals}",
                  "manche {n} comptée : {points} ; total {totals}"),
    "ev_waiting": ("{name} dropped: waiting {n}s for a reconnect",
                   "{name} : connexion perdue, encore {n} s pour revenir"),
    "ev_back": ("{name} is back", "{name} : de retour à la table"),
    "ev_back_me": ("you are at the table again", "vous êtes de nouveau à la table"),
    # A seat reconnecting to a host that restarted: the host was away, not the seat.
    "ev_back_restart_me": ("{name} rejoined after your restart",
                           "{name} a rejoint la table après votre redémarrage"),
    "ev_back_restart": ("{name} rejoined after {host}'s restart",
                        "{name} a rejoint la table après le redémarrage de {host}"),
    "ev_found": ("at the table: {names}", "à la table : {names}"),
    "ev_back_left": ("{name} has {t} of time away left for the match",
                     "il reste à {name} {t} d'absence pour la partie"),
    "ev_allowance_left": ("{t} of your time away left for the match",
                          "il vous reste {t} d'absence pour la partie"),
    "ev_away": ("{name} stepped away: {t} left to come back",
                "{name} : absence, encore {t} pour revenir"),
    "ev_awaited": ("reconnecting with {name}… ({t} left)",
                   "reconnexion avec {name}… (encore {t})"),
    "ev_dropped": ("{name} lost the connection: {t} left to come back",
                   "{name} a perdu la connexion : encore {t} pour revenir"),
    "ev_restored": ("you are back in the game, hand {n}: the table as it stands",
                    "vous êtes de retour dans la partie, manche {n} : la table telle "
                    "qu'elle est"),
    "ev_restored_lobby": ("you are back at the table", "vous êtes de retour à la table"),
    "ev_resigned": ("{name} resigned", "{name} abandonne"),
    "ev_on_time": ("{name} lost on time ({clock})",
                   "{name} perd au temps (selon {clock})"),
    "ev_on_time_me": ("you lost on time ({clock})",
                      "vous perdez au temps (selon {clock})"),
    # A solo game against local bots (play): no host's clock to speak of.
    "ev_on_time_solo": ("{name} lost on time: {why}", "{name} perd au temps : {why}"),
    "ev_on_time_solo_me": ("you lost on time: {why}", "vous perdez au temps : {why}"),
    "solo_late": ("{name} took longer than the move clock ({t})",
                  "{name} a dépassé le temps d'un coup ({t})"),
    "solo_late_me": ("you took longer than the move clock ({t})",
                     "vous avez dépassé le temps d'un coup ({t})"),
    "ev_solo_clock": ("each move has a clock of {t}: past it, the match is lost on time",
                      "chaque coup a une horloge de {t} : au-delà, la partie est perdue "
                      "au temps"),
    "ev_resigned_me": ("you resigned", "vous abandonnez"),
    "ev_chat": ("{name}: {text}", "{name} : {text}"),
    "ev_done": ("match over: every player signed the result",
                "partie finie : chaque joueur a signé le résultat"),
    # The game waited for that seat (its move, its deal message, its choice): true before
    # the first move too, where "owed the next move" was not.
    "ev_owed": ("the log shows the game was waiting for {name}.",
                "le journal montre que la partie attendait {name}."),
    "ev_owed_me": ("the log shows the game was waiting for you.",
                   "le journal montre que la partie vous attendait."),
    "ev_unshown": ("nothing in the log shows it.", "rien dans le journal ne le montre."),
    "ev_bots": ("starting {n} bot peer(s) on loopback", "lancement de {n} robot(s) en local"),
    # scoring
    "score_title": ("Hand {n}: scoring", "Manche {n} : décompte"),
    "sc_carta": ("carta (cards)", "carta (cartes)"),
    "sc_dinari": ("dinari (♦)", "dinari (♦)"),
    "sc_barmila": ("barmila (7s, 6s)", "barmila (7, 6)"),
    "sc_primiera": ("primiera", "primiera"),
    "sc_haya": ("haya (7♦)", "haya (7♦)"),
    "sc_chkobba": ("chkobba", "chkobba"),
    "sc_hand": ("this hand", "cette manche"),
    "sc_totals": ("totals (target {n})", "total (objectif {n})"),
    "sc_beji": ("beji", "beji"),
    "sc_continue": ("Enter: continue", "Entrée : continuer"),
    "sc_continue_in": ("Enter: continue (it goes on by itself in {n} s)",
                       "Entrée : continuer (suite automatique dans {n} s)"),
    # end
    "over_title": ("Match over", "Partie terminée"),
    "over_you_win": ("You win {score}!", "Vous gagnez {score} !"),
    "over_other_wins": ("{name} wins {score}", "{name} gagne {score}"),
    "over_they_win": ("They win {score}", "Ils gagnent {score}"),
    "over_aborted": ("Game stopped", "Partie arrêtée"),
    "over_stopped": ("Game stopped: {why}", "Partie arrêtée : {why}"),
    "over_resigned_me": ("You resigned: {name} wins the match",
                         "Vous avez abandonné : {name} gagne la partie"),
    "over_resigned_us": ("You resigned: they win the match",
                         "Vous avez abandonné : ils gagnent la partie"),
    "over_resigned_nobody": ("{name} resigned and loses: the two others are level, "
                             "nobody wins",
                             "{name} abandonne et perd : les deux autres sont à égalité, "
                             "personne ne gagne"),
    "over_resigned_nobody_me": ("You resigned and lose: the two others are level, nobody "
                                "wins",
                                "Vous avez abandonné et perdez : les deux autres sont à "
                                "égalité, personne ne gagne"),
    "over_left_nobody": ("{name} left the match and loses: the two others are level, "
                         "nobody wins",
                         "{name} a quitté la partie et perd : les deux autres sont à "
                         "égalité, personne ne gagne"),
    "over_left_nobody_me": ("You left the match and lose: the two others are level, "
                            "nobody wins",
                            "Vous avez quitté la partie et perdez : les deux autres sont "
                            "à égalité, personne ne gagne"),
    "over_resigned_other_wins": ("{who} resigned: {name} wins the match (ahead of you)",
                                 "{who} abandonne : {name} gagne la partie (devant vous)"),
    "over_left_other_wins": ("{who} left the match: {name} wins it (ahead of you)",
                             "{who} a quitté la partie : {name} la gagne (devant vous)"),
    "over_left_me": ("You left the match: {name} wins it",
                     "Vous avez quitté la partie : {name} la gagne"),
    "over_left_us": ("You left the match: they win it",
                     "Vous avez quitté la partie : ils la gagnent"),
    "over_left_you_win": ("{name} left the match: you win it!",
                          "{name} a quitté la partie : vous la gagnez !"),
    "over_decided_you_win": ("You win: the result was decided (a seat stopped before "
                             "signing it)",
                             "Vous gagnez : le résultat était acquis (une place s'est "
                             "arrêtée avant de le signer)"),
    "over_decided_other": ("{name} wins: the result was decided (a seat stopped before "
                           "signing it)",
                           "{name} gagne : le résultat était acquis (une place s'est "
                           "arrêtée avant de le signer)"),
    "over_resigned_you_win": ("{name} resigned: you win the match!",
                              "{name} abandonne : vous gagnez la partie !"),
    "over_on_time_you_win": ("{name} ran out of time: you won on time!",
                             "{name} n'a plus de temps : vous gagnez au temps !"),
    "over_on_time_we_win": ("{name} ran out of time: your side won on time!",
                            "{name} n'a plus de temps : votre équipe gagne au temps !"),
    "over_on_time_me": ("You ran out of time: {name} won on time",
                        "Vous n'avez plus de temps : {name} gagne au temps"),
    "over_away_you_win": ("{name} stayed away too long: you won on time!",
                          "Absence de {name} trop longue : vous gagnez au temps !"),
    "over_away_we_win": ("{name} stayed away too long: your side won on time!",
                         "Absence de {name} trop longue : votre équipe gagne au temps !"),
    "over_away_me": ("You stayed away too long: {name} won on time",
                     "Votre absence a été trop longue : {name} gagne au temps"),
    "over_on_time_us": ("Your side ran out of time: they won on time",
                        "Votre équipe n'a plus de temps : ils gagnent au temps"),
    "over_on_time_other": ("{late} ran out of time: {name} won on time",
                           "{late} n'a plus de temps : {name} gagne au temps"),
    "over_on_time_note": ("(the time is {clock}; the log shows whose turn it was)",
                          "(le temps est celui de {clock} ; le journal montre "
                          "à qui c'était de jouer)"),
    # Whose clock a flag reads: the signer's (the host's, or a joiner's on a stalling host).
    "clock_host": ("the host's clock", "l'horloge de l'hôte"),
    "clock_mine": ("your clock", "votre horloge"),
    "clock_seat": ("{name}'s clock", "l'horloge de {name}"),
    "keys_rematch_wait": ("Rematch: waiting for {names}'s answer… · q: quit",
                          "Revanche : on attend la réponse de {names}… · q : quitter"),
    "ev_rematch_yes": ("{name} wants a rematch", "{name} veut une revanche"),
    # At a joiner, before it answers: the host's person pressed r (a rematch-offer).
    "ev_host_offers_rematch": ("{name} wants a rematch and waits for your answer",
                               "{name} veut une revanche et attend votre réponse"),
    "ev_rematch_no": ("{name} declines a rematch", "{name} refuse la revanche"),
    "ev_rematch_gone": ("{name} left the table: no rematch",
                        "{name} a quitté la table : pas de revanche"),
    "ev_host_rematch": ("{name} opens a new table: the rematch starts",
                        "{name} ouvre une nouvelle table : la revanche commence"),
    "ev_host_no_rematch": ("{name} declines a rematch: no new table",
                           "{name} refuse la revanche : pas de nouvelle table"),
    "rematch_host_no": ("{name} declines a rematch: no new table.",
                        "{name} refuse la revanche : pas de nouvelle table."),
    # At 3 or 4 seats the host's no may be another's: one no, or one player gone, is
    # enough (a joiner is not told which): the host's word, blaming nobody.
    "ev_host_no_rematch_many": ("{name}, the host, says: no rematch (someone at the table "
                                "declined or left)",
                                "{name}, l'hôte, annonce : pas de revanche (quelqu'un à la "
                                "table a refusé ou est parti)"),
    "rematch_host_no_many": ("{name}, the host, said: no rematch (someone at the table "
                             "declined or left).",
                             "{name}, l'hôte, a annoncé : pas de revanche (quelqu'un à la "
                             "table a refusé ou est parti)."),
    "rematch_host_silent": ("{name} gave no answer to the rematch: no new table.",
                            "{name} n'a pas répondu pour la revanche : pas de nouvelle "
                            "table."),
    "rematch_gone": ("No rematch: {names} left the table.",
                     "Pas de revanche : {names} a quitté la table."),
    "rematch_no_table": ("No rematch: {names} declined.",
                         "Pas de revanche : {names} a refusé."),
    "saved_elsewhere": ("you have a saved game for this table at {addr}; come back with:",
                        "vous avez une partie sauvegardée pour cette table à {addr} ; "
                        "revenez avec :"),
    "rematch_host": ("Rematch: the players who said yes are joining this table…",
                     "Revanche : les joueurs qui ont dit oui arrivent à cette table…"),
    "rematch_join": ("Rematch: waiting for the host to open the new table…",
                     "Revanche : on attend que l'hôte ouvre la nouvelle table…"),
    "over_left": ("You left the game", "Vous avez quitté la partie"),
    "over_log_title": ("The signed log of this game:", "Le journal signé de cette partie :"),
    "over_replay_title": ("Replay and audit it with:", "Pour la rejouer et la vérifier :"),
    "over_hands": ("hands played: {n}", "manches jouées : {n}"),
    # leaving
    "leave_title": ("Leave the game?", "Quitter la partie ?"),
    "leave_body": ("The log is kept; the other players are told.",
                   "Le journal est gardé ; les autres joueurs sont prévenus."),
    "leave_body_bots": ("Leaving a match under way loses it; the log is kept.",
                        "Quitter une partie en cours la fait perdre ; le journal est "
                        "gardé."),
    "leave_title_host_lobby": ("Close your table?", "Fermer votre table ?"),
    "leave_body_host_lobby": ("Nothing has been played yet; whoever sat down is told.",
                              "Rien n'a encore été joué ; ceux qui se sont assis sont "
                              "prévenus."),
    "leave_title_lobby": ("Leave the table?", "Quitter la table ?"),
    "leave_body_lobby": ("Nothing has been played yet; your seat is freed.",
                         "Rien n'a encore été joué ; votre place est libérée."),
    "leave_keys": ("[y]es / [n]o", "[o]ui / [n]on"),
    "left": ("you left the game", "vous avez quitté la partie"),
    "left_lost": ("you left the match: it counts as a loss",
                  "vous avez quitté la partie : elle compte comme perdue"),
    "left_lobby": ("you left the table before the first deal",
                   "vous avez quitté la table avant la première donne"),
    "left_host_lobby": ("you closed your table before the first deal",
                        "vous avez fermé votre table avant la première donne"),
    "away_title": ("Leave the table?", "Quitter la table ?"),
    "away_step": ("s  step away: the game waits {t} for you; come back with the same "
                  "command", "s  s'absenter : la partie vous attend {t} ; revenez avec la "
                  "même commande"),
    "away_resign": ("x  resign: you lose the match (signed, final; asked again)",
                    "x  abandonner : vous perdez la partie (signé, définitif ; "
                    "redemandé)"),
    "away_stay": ("Esc  keep playing", "Échap  continuer à jouer"),
    "away_keys": ("s step away · x resign · Esc keep playing",
                  "s s'absenter · x abandonner · Échap continuer à jouer"),
    "away_twice": ("(Ctrl-C again: step away at once)",
                   "(Ctrl-C encore : s'absenter tout de suite)"),
    "away_exit": ("You stepped away; the game waits {t} for you.",
                  "Absence en cours ; la partie vous attend {t}."),
    "away_again": ("Come back with the same command:", "Revenez avec la même commande :"),
    # issue 26: the table a newcomer reads (the seats, quick chat, refusals, resigning)
    "resign_title": ("Resign the match?", "Abandonner la partie ?"),
    "resign_body": ("Your side loses the match: a signed result, final.",
                    "Votre camp perd la partie : un résultat signé, définitif."),
    "resign_keys": ("[y]es, resign / [n]o, keep playing",
                    "[o]ui, abandonner / [n]on, continuer"),
    "seats_order": ("order of play: {order}", "ordre de jeu : {order}"),
    "refused_forced": ("{cards} can capture, so play a card that captures (forced capture)",
                       "{cards} peut prendre : jouez une carte qui prend (prise "
                       "obligatoire)"),
    "refused_forced_n": ("{cards} can capture, so play a card that captures (forced "
                         "capture)", "{cards} peuvent prendre : jouez une carte qui prend "
                         "(prise obligatoire)"),
    "refused_capture": ("it can capture, so it must take (a card that can capture must "
                        "capture)", "elle peut prendre, elle doit donc prendre (une carte "
                        "qui peut prendre doit prendre)"),
    "help_figures": ("figures: {figures} (capture values)",
                     "figures : {figures} (valeurs de prise)"),
    "help_k_quick": ("quick chat: {keys}", "phrases : {keys}"),
    "qc_bsahtek": ("bsahtek", "bsahtek"),
    "qc_saha": ("yaatik saha", "yaatik saha"),
    "qc_well": ("well played", "bien joué"),
    "qc_yalla": ("yalla", "yalla"),
    "qc_chkobba": ("chkobba!", "chkobba !"),
    # lobby
    "lobby_host": ("Your table is open. Give your friends this address:",
                   "Votre table est ouverte. Donnez cette adresse à vos amis :"),
    "lobby_join_cmd": ("they type: chkobba join {addr}", "ils tapent : chkobba join {addr}"),
    "lobby_watch_cmd": ("spectators type: chkobba watch {addr}",
                        "pour regarder : chkobba watch {addr}"),
    "lobby_ipv6": ("over IPv6: {addr}", "en IPv6 : {addr}"),
    "lobby_internet": ("friends on the internet: {addr} (port opened by {via})",
                       "amis sur internet : {addr} (port ouvert par {via})"),
    "lobby_double_nat": ("the router opened port {port} ({via}), but its own address {ip} "
                         "is not public: another router or the provider's NAT is in front, "
                         "and friends on the internet cannot reach you this way",
                         "le routeur a ouvert le port {port} ({via}), mais sa propre adresse "
                         "{ip} n'est pas publique : un autre routeur ou le NAT du "
                         "fournisseur est devant, et des amis sur internet ne peuvent pas "
                         "vous joindre ainsi"),
    "lobby_no_router": ("no router opened the port: for friends on the internet, forward "
                        "TCP port {port} to {lan} in your router's settings",
                        "aucun routeur n'a ouvert le port : pour des amis sur internet, "
                        "redirigez le port TCP {port} vers {lan} dans les réglages de "
                        "votre routeur"),
    "lobby_tor": ("through Tor, from anywhere: {addr}", "via Tor, de partout : {addr}"),
    "lobby_tor_offer": ("; or, through Tor: {addr}", "; ou, via Tor : {addr}"),
    "lobby_tor_run": ("; or, through Tor: run chkobba host --tor",
                      "; ou, via Tor : lancez chkobba host --tor"),
    # Tor as it starts (host --tor, a join through Tor): cli/words/tor_words.py.
    "tor_starting_private": ("Tor: starting tor…", "Tor : démarrage de tor…"),
    "tor_starting": ("Tor: connecting to the tor at {where}…",
                     "Tor : connexion au tor de {where}…"),
    "tor_progress": ("Tor: reaching the Tor network, {n}% ({what})",
                     "Tor : connexion au réseau Tor, {n} % ({what})"),
    "tor_progress_trouble": ("Tor: reaching the Tor network, {n}% ({what}: {trouble})",
                             "Tor : connexion au réseau Tor, {n} % ({what} : {trouble})"),
    "tor_publishing": ("Tor: connected; publishing the table's Tor address…",
                       "Tor : connecté ; publication de l'adresse Tor de la table…"),
    "tor_join_ready": ("Tor: connected; reaching the table…",
                       "Tor : connecté ; connexion à la table…"),
    "tor_wait_note": ("(tor may take up to {n} s; friends on this network can join "
                      "meanwhile)",
                      "(tor peut prendre jusqu'à {n} s ; les amis sur ce réseau peuvent "
                      "rejoindre en attendant)"),
    "tor_wait_join": ("(tor may take up to {n} s)", "(tor peut prendre jusqu'à {n} s)"),
    "tor_phase_starting": ("starting", "démarrage"),
    "tor_phase_conn": ("connecting to a relay", "connexion à un relais"),
    "tor_phase_status": ("fetching the network's consensus",
                         "téléchargement de l'état du réseau"),
    "tor_phase_keys": ("loading authority keys", "chargement des clés des autorités"),
    "tor_phase_descriptors": ("loading relay descriptors",
                              "chargement des descripteurs des relais"),
    "tor_phase_circuit": ("building a circuit", "construction d'un circuit"),
    "tor_phase_done": ("done", "terminé"),
    "tor_why_CONNECTREFUSED": ("connection refused", "connexion refusée"),
    "tor_why_NOROUTE": ("no route to the relay", "pas de route vers le relais"),
    "tor_why_TIMEOUT": ("timed out", "délai dépassé"),
    "tor_why_CONNECTRESET": ("connection reset", "connexion interrompue"),
    "tor_why_IOERROR": ("read or write error", "erreur de lecture ou d'écriture"),
    # Tor's other reasons for a relay's connection ending (control-spec, "ORConn"): "DONE"
    # is what a network that lets the connection open then cuts it gives, and said raw it
    # read as if the step were done ("connecting to a relay: DONE").
    "tor_why_DONE": ("the connection was closed", "la connexion a été fermée"),
    "tor_why_IDENTITY": ("the relay was not the one expected",
                         "le relais n'était pas celui attendu"),
    "tor_why_RESOURCELIMIT": ("this computer is out of resources",
                              "cet ordinateur manque de ressources"),
    "tor_why_MISC": ("an error", "une erreur"),
    "tor_why_PT_MISSING": ("the bridge's transport program is missing",
                           "le programme de transport du pont manque"),
    # What to check: one sentence each (the command then stops, exit 2).
    "tor_fail_no_network": ("Tor could not reach the Tor network within {n} s (it stopped "
                            "at {pct}%, {what}): check that this computer is online and "
                            "that no firewall or network blocks Tor (where Tor is blocked, "
                            "it needs bridges: https://bridges.torproject.org).",
                            "Tor n'a pas pu joindre le réseau Tor en {n} s (arrêté à "
                            "{pct} %, {what}) : vérifiez que cet ordinateur est en ligne et "
                            "qu'aucun pare-feu ni réseau ne bloque Tor (là où Tor est "
                            "bloqué, il lui faut des ponts : https://bridges.torproject.org)."),
    "tor_fail_disabled": ("the tor used has its network turned off (DisableNetwork 1): in "
                          "Tor Browser, press Connect first; otherwise set DisableNetwork 0 "
                          "in its torrc.",
                          "le tor utilisé a son réseau coupé (DisableNetwork 1) : dans Tor "
                          "Browser, appuyez d'abord sur Se connecter ; sinon mettez "
                          "DisableNetwork 0 dans son torrc."),
    "tor_fail_start": ("tor could not be started ({why}): check that tor runs on its own "
                       "(type tor in a terminal), or name a running one with --tor-control "
                       "and --tor-socks.",
                       "tor n'a pas pu démarrer ({why}) : vérifiez que tor fonctionne seul "
                       "(tapez tor dans un terminal), ou indiquez un tor lancé avec "
                       "--tor-control et --tor-socks."),
    "tor_fail_no_control": ("no tor answers at its control port ({why}): check that tor "
                            "runs and that --tor-control names its control port (Tor "
                            "Browser: 127.0.0.1:9151).",
                            "aucun tor ne répond à son port de contrôle ({why}) : vérifiez "
                            "que tor tourne et que --tor-control indique son port de "
                            "contrôle (Tor Browser : 127.0.0.1:9151)."),
    "tor_fail_control": ("tor's control port could not be used ({why}).",
                         "le port de contrôle de tor n'a pas pu servir ({why})."),
    "tor_fail_closed": ("tor stopped ({why}): check tor's log, then try again.",
                        "tor s'est arrêté ({why}) : consultez le journal de tor, puis "
                        "réessayez."),
    "tor_fail_no_socks": ("tor's SOCKS port could not be used ({why}): check that tor runs "
                          "and that --tor-socks names its SOCKS port (Tor Browser: "
                          "127.0.0.1:9150).",
                          "le port SOCKS de tor n'a pas pu servir ({why}) : vérifiez que "
                          "tor tourne et que --tor-socks indique son port SOCKS (Tor "
                          "Browser : 127.0.0.1:9150)."),
    "tor_fail_publish": ("tor did not publish the table's onion service ({why}).",
                         "tor n'a pas publié le service onion de la table ({why})."),
    "tor_fail_other": ("Tor could not be used ({why}).", "Tor n'a pas pu servir ({why})."),
    "tor_failed_goes_on": ("The table goes on without Tor (friends on this network can "
                           "still join it).",
                           "La table continue sans Tor (les amis sur ce réseau peuvent "
                           "toujours la rejoindre)."),
    "tor_phase_trouble": ("{what}: {trouble}", "{what} : {trouble}"),
    # Tor's SOCKS replies (RFC 1928, and Tor's own for onion services).
    "socks_1": ("general failure", "échec général"),
    "socks_2": ("not allowed by tor's rules", "interdit par les règles de tor"),
    "socks_3": ("network unreachable", "réseau injoignable"),
    "socks_4": ("host unreachable", "hôte injoignable"),
    "socks_5": ("connection refused", "connexion refusée"),
    "socks_6": ("no answer in time", "pas de réponse à temps"),
    "socks_7": ("command not supported", "commande non prise en charge"),
    "socks_8": ("address type not supported", "type d'adresse non pris en charge"),
    "socks_240": ("onion service not found", "service onion introuvable"),
    "socks_241": ("onion service descriptor is invalid",
                  "descripteur du service onion invalide"),
    "socks_242": ("onion service introduction failed",
                  "échec de l'introduction au service onion"),
    "socks_243": ("onion service rendezvous failed", "échec du rendez-vous avec le service onion"),
    "socks_244": ("the onion service asks for client authorization",
                  "le service onion demande une autorisation client"),
    "socks_245": ("client authorization refused", "autorisation client refusée"),
    "socks_246": ("not a valid onion address", "adresse onion non valide"),
    "socks_247": ("onion service introduction timed out",
                  "introduction au service onion expirée"),
    "socks_trying": ("Tor: the table is not reached yet ({reply}); trying again…",
                     "Tor : la table n'est pas encore jointe ({reply}) ; nouvel essai…"),
    "socks_fail": ("Tor could not reach the table ({reply}, SOCKS reply {code}): {check}",
                   "Tor n'a pas pu joindre la table ({reply}, réponse SOCKS {code}) : "
                   "{check}"),
    "socks_check_gone": ("check the address with the host, and that the host's screen "
                         "shows it as its Tor address (the table may be closed, or not "
                         "published yet).",
                         "vérifiez l'adresse avec l'hôte, et que son écran l'affiche comme "
                         "adresse Tor (la table est peut-être fermée, ou pas encore "
                         "publiée)."),
    "socks_check_network": ("check that your tor is connected to the Tor network (Tor "
                            "Browser: \"Connected\"), and that the host's table is still "
                            "open.",
                            "vérifiez que votre tor est connecté au réseau Tor (Tor "
                            "Browser : « Connecté »), et que la table de l'hôte est "
                            "toujours ouverte."),
    "socks_check_address": ("check the address: 56 letters and digits, then .onion.",
                            "vérifiez l'adresse : 56 lettres et chiffres, puis .onion."),
    "socks_check_refused": ("the host's onion service is up but its table does not "
                            "listen: the host may have closed the table.",
                            "le service onion de l'hôte répond mais sa table n'écoute pas : "
                            "l'hôte a peut-être fermé la table."),
    "socks_check_tor": ("check your tor (its log says why).",
                        "vérifiez votre tor (son journal dit pourquoi)."),
    "lobby_seats": ("Seats ({taken}/{n}):", "Places ({taken}/{n}) :"),
    "lobby_free": ("(free)", "(libre)"),
    # 4 seats: who partners whom (seats 1 & 3 against 2 & 4), our side first.
    "lobby_teams": ("teams: {us} against {them}", "équipes : {us} contre {them}"),
    "lobby_rules": ("Rules: {rules}", "Règles : {rules}"),
    # The terms before Enter (cli/tui/parts/terms.py) and the spectator's screen (watching.py).
    "lobby_clocks": ("Clocks: {move} per move, {away} away in all the match",
                     "Horloges : {move} par coup, {away} d'absence pour toute la partie"),
    "lobby_spectators": ("Spectators: up to {n}", "Spectateurs : jusqu'à {n}"),
    "lobby_spectators_some": ("Spectators: up to {n} (watching: {names})",
                              "Spectateurs : jusqu'à {n} (regardent : {names})"),
    "lobby_spectators_one": ("Spectators: up to {n} (watching: {names})",
                             "Spectateurs : jusqu'à {n} (regarde : {names})"),
    "lobby_spectators_none": ("Spectators: none", "Spectateurs : aucun"),
    "lobby_others_ready": ("Waiting for {names} to press Enter…",
                           "En attente de {names} (touche Entrée)…"),
    "watching": ("watching", "spectateur"),
    # A table that admits no spectator, as the reader's refusal says it ("oe_refused":
    # "refused: {what}", a join's shape); the sentence's full stop is the words' own.
    "watch_closed": ("this table admits no spectators (a host admits them when it starts "
                     "with --spectators N).",
                     "cette table n'admet pas de spectateurs (un hôte les admet s'il démarre "
                     "avec --spectators N)."),
    "watch_taken": ("every spectator's place at this table is taken.",
                    "toutes les places de spectateur de cette table sont prises."),
    "watch_taken_1": ("every spectator's place at this table is taken (1 spectator "
                      "watching, says its host).",
                      "toutes les places de spectateur de cette table sont prises "
                      "(1 spectateur regarde, dit son hôte)."),
    "watch_taken_n": ("every spectator's place at this table is taken ({n} "
                      "spectators watching, says its host).",
                      "toutes les places de spectateur de cette table sont prises "
                      "({n} spectateurs regardent, dit son hôte)."),
    "watch_connecting": ("Connecting to the table at {addr}…",
                         "Connexion à la table {addr}…"),
    "watch_in": ("Watching the table at {addr} as {name} (the players see you).",
                 "Vous regardez la table {addr} sous le nom {name} (les joueurs vous voient)."),
    "watch_faces": ("Hands are face down: each one shows once its hand is over.",
                    "Les mains sont cachées : chacune se montre à la fin de sa manche."),
    "keys_watch": ("s score sheet · q leave (the game goes on)",
                   "s feuille de marque · q partir (la partie continue)"),
    "keys_watch_over": ("s score sheet · q quit", "s feuille de marque · q quitter"),
    "keys_watch_sheet": ("s or Esc: back to the table · q leave (the game goes on)",
                         "s ou Échap : retour à la table · q partir (la partie continue)"),
    "keys_watch_sheet_over": ("s or Esc: back to the table · q quit",
                              "s ou Échap : retour à la table · q quitter"),
    "watch_sheet_empty": ("No hand scored yet.", "Aucune manche comptée pour l'instant."),
    "keys_watch_score": ("any key: back to the table", "une touche : retour à la table"),
    "watch_won": ("Match over: {name} wins {score}.", "Fin de la partie : {name} gagne {score}."),
    "watch_won_on_time": ("Match over: {name} wins on time.",
                          "Fin de la partie : {name} gagne au temps."),
    "watch_won_on_time_pl": ("Match over: {name} win on time.",
                             "Fin de la partie : {name} gagnent au temps."),
    "watch_won_by": ("Match over: {name} wins.", "Fin de la partie : {name} gagne."),
    "watch_won_by_pl": ("Match over: {name} win.", "Fin de la partie : {name} gagnent."),
    "watch_won_pl": ("Match over: {name} win {score}.",
                     "Fin de la partie : {name} gagnent {score}."),
    # The spectator's end box, under its title "Match over" (the players' box's words).
    "watch_box_won": ("{name} wins {score}", "{name} gagne {score}"),
    "watch_box_won_pl": ("{name} win {score}", "{name} gagnent {score}"),
    "watch_box_on_time": ("{name} wins on time", "{name} gagne au temps"),
    "watch_box_on_time_pl": ("{name} win on time", "{name} gagnent au temps"),
    "watch_box_by": ("{name} wins", "{name} gagne"),
    "watch_box_by_pl": ("{name} win", "{name} gagnent"),
    "watch_box_log": ("Your copy of the log of this game:",
                      "Votre copie du journal de cette partie :"),
    "watch_valid": ("Every entry checked: VALID.", "Chaque entrée vérifiée : VALIDE."),
    "watch_cheat": ("CHEAT CAUGHT at entry #{entry}: {why}", "TRICHE DÉTECTÉE à l'entrée "
                    "n°{entry} : {why}"),
    "watch_nobody": ("no player is blamed: the entry was altered on its way",
                     "aucun joueur en faute : l'entrée a été modifiée en chemin"),
    "watch_unfinished": ("the watching stopped before the end of the match; nothing "
                         "wrong until then", "le suivi s'est arrêté avant la fin de la "
                         "partie ; rien d'anormal jusque-là"),
    "watch_not_started": ("the game had not started", "la partie n'avait pas commencé"),
    # The stream's end says nothing of who closed it (the host may have stepped away):
    # said of the connection, never as the host's act.
    "watch_host_closed": ("the connection to the host closed",
                          "la connexion avec l'hôte s'est fermée"),
    "watch_host_silent": ("the host fell silent", "l'hôte ne répond plus"),
    # Why a watching stopped once admitted (WatchOutcome.stop_reason, STOP_REASONS in
    # the library's link events), with its data: the library has no sentence for them.
    "ws_host_closed_said": ("the host closed the connection: {text}",
                            "l'hôte a fermé la connexion : {text}"),
    "ws_host_waited": ("the connection to the host closed during the match; the players "
                       "wait up to {t} for the host to come back",
                       "la connexion avec l'hôte s'est fermée pendant la partie ; les joueurs "
                       "attendent le retour de l'hôte jusqu'à {t}"),
    "ws_host_silent": ("the host fell silent (no message within the idle timeout)",
                       "l'hôte ne répond plus (aucun message dans le délai d'inactivité)"),
    "ws_sent": ("the host sent {what} ({code}: {detail}); the connection was closed",
                "l'hôte a envoyé {what} ({code} : {detail}) ; la connexion a été fermée"),
    "ws_unreadable": ("a message that does not check out",
                      "un message qui ne se vérifie pas"),
    "ws_out_of_state": ("a message its state does not read",
                        "un message que l'état de la connexion ne lit pas"),
    "ws_too_long": ("more than a game holds", "plus qu'une partie n'en contient"),
    "watch_incomplete": ("The game did not finish: {why}", "La partie n'est pas finie : {why}"),
    "watch_stopped": ("Watching stopped: {why}", "Fin du suivi : {why}"),
    "watch_log": ("Your copy of the log: chkobba replay {path}",
                  "Votre copie du journal : chkobba replay {path}"),
    "watch_dealt": ("{name} had {cards}", "{name} avait {cards}"),
    # Said when a hand's shuffle secrets are opened ("Seeds open" / "Graines ouvertes" read
    # as jargon, "graines" as nonsense): what the spectator sees, then why it may.
    "watch_seeds": ("The hand's cards are shown: the players opened their shuffle "
                    "secrets.",
                    "Les cartes de la manche sont montrées : les joueurs ont révélé leurs "
                    "secrets de mélange."),
    # late-reveal/v1: the secrets of a hand already scored open during the next hand.
    "watch_seeds_late": ("Hand {n}'s cards are shown: the players opened their shuffle "
                         "secrets.",
                         "Les cartes de la manche {n} sont montrées : les joueurs ont "
                         "révélé leurs secrets de mélange."),
    "watch_refused": ("The host refused: {why}", "L'hôte a refusé : {why}"),
    "lobby_no_proofs": ("Shuffle proofs are OFF at this table (the host turned them off): a "
                        "stacked deck is caught only at the end-of-hand check.",
                        "Preuves de mélange DÉSACTIVÉES à cette table (par l'hôte) : un jeu "
                        "truqué n'est détecté qu'à la vérification de fin de manche."),
    "ev_no_proofs": ("Shuffle proofs are off at this table: a stacked deck is caught only "
                     "at the end of the hand.",
                     "Preuves de mélange désactivées : un jeu truqué n'est détecté qu'en fin "
                     "de manche."),
    "lobby_key": ("key {fp}", "clé {fp}"),
    "lobby_check": ("Check each fingerprint with its player (by voice, in person).",
                    "Vérifiez chaque empreinte avec son joueur (de vive voix)."),
    "lobby_waiting": ("Waiting for players…", "En attente des joueurs…"),
    "lobby_starting": ("The table is full: the deal is starting…",
                       "La table est complète : la donne commence…"),
    "join_connecting": ("Connecting to {addr}…", "Connexion à {addr}…"),
    "join_connected": ("Connected to {addr}: a table for {n}",
                       "Connecté à {addr} : une table de {n}"),
    "join_error": ("Could not join {addr}: {why}", "Impossible de rejoindre {addr} : {why}"),
    "join_timeout": ("no answer within {n} s", "pas de réponse en {n} s"),
    "err_refused_conn": ("nobody is listening there (connection refused); is the table "
                         "open and the port right?",
                         "personne n'écoute à cette adresse (connexion refusée) ; la table "
                         "est-elle ouverte, le port est-il le bon ?"),
    # The operating system's usual failures to connect, in one sentence each (its own
    # words, "[Errno -2] Name or service not known", mean nothing to a player).
    "err_no_name": ("no computer by that name was found; check the address (and that "
                    "this machine is online)",
                    "aucun ordinateur de ce nom n'a été trouvé ; vérifiez l'adresse (et que "
                    "cette machine est en ligne)"),
    "err_unreachable": ("that address cannot be reached from this network; check the "
                        "address and your connection",
                        "cette adresse est injoignable depuis ce réseau ; vérifiez l'adresse "
                        "et votre connexion"),
    "err_conn_timeout": ("no answer from that address in time; is the table open, and "
                         "does the host's router let players in?",
                         "pas de réponse de cette adresse à temps ; la table est-elle "
                         "ouverte, le routeur de l'hôte laisse-t-il entrer les joueurs ?"),
    "connect_error": ("cannot connect to {addr}: {why}", "connexion impossible à {addr} : {why}"),
    # Without the host's word, who closed it is not known: said of the connection.
    "err_closed": ("the connection to the host closed before the match started",
                   "la connexion avec l'hôte s'est fermée avant le début de la partie"),
    "err_host_closed": ("the host closed the table before the game started",
                        "l'hôte a fermé la table avant le début de la partie"),
    "err_full": ("the table is full", "la table est complète"),
    "err_seat_refused": ("the host freed your seat and refuses your key at this table",
                         "l'hôte a libéré votre place et refuse votre clé à cette table"),
    "err_ready_timeout": ("you did not confirm the table in time, so the host freed your "
                          "seat; join again and press Enter once the keys are checked",
                          "vous n'avez pas confirmé la table à temps, l'hôte a libéré votre "
                          "place ; rejoignez-la et appuyez sur Entrée une fois les clés "
                          "vérifiées"),
    "lan_needs_secret": ("needs the code with its secret (ask the host for the whole join "
                         "code)",
                         "il faut le code avec son secret (demandez à l'hôte le code "
                         "complet)"),
    "err_secret_required": ("this table seats only those who have its secret: ask the host "
                            "for the whole join code (it ends with +SECRET) and join with it",
                            "cette table n'accueille que ceux qui ont son secret : demandez à "
                            "l'hôte le code complet (il finit par +SECRET) et rejoignez avec ce "
                            "code"),
    "err_secret_wrong": ("the secret in your join code is not this table's: ask the host for "
                         "its join code again (a new one is made each time the host starts)",
                         "le secret de votre code n'est pas celui de cette table : redemandez "
                         "le code à l'hôte (il en fait un nouveau à chaque lancement)"),
    "err_version": ("version mismatch: update chkobba on one side",
                    "versions incompatibles : mettez chkobba à jour d'un côté"),
    "lobby_you": ("you", "vous"),
    # issue 15: the table a person can follow
    # All four groups: people compared the first and last (32 bits, cheap to match).
    "lobby_ready_prompt": ("Read each key aloud with its player, all four groups, then "
                           "press Enter to start.",
                           "Lisez les quatre groupes de chaque clé avec son joueur, puis "
                           "appuyez sur Entrée pour commencer."),
    "lobby_you_ready": ("You are ready: waiting for {names}…",
                        "Vous avez confirmé : on attend {names}…"),
    # Said of a person whatever their gender ("alice pas prêt" agreed with nobody):
    # what they did, not an adjective.
    "lobby_ready": ("ready", "a confirmé"),
    "lobby_not_ready": ("not ready", "n'a pas encore confirmé"),
    "lobby_new": ("new player", "nouveau joueur"),
    "lobby_known": ("known", "connu"),
    "lobby_changed": ("WARNING: {name} had another key before ({fp}): maybe not the "
                      "same person!",
                      "ATTENTION : {name} avait une autre clé ({fp}) : peut-être pas la "
                      "même personne !"),
    "lobby_lookalike": ("WARNING: {name} looks like {like}, whom you met with another key "
                        "({fp}): maybe not the same person!",
                        "ATTENTION : {name} ressemble à {like}, rencontré(e) avec une autre "
                        "clé ({fp}) : peut-être pas la même personne !"),
    "lobby_aka": ("known as {names}", "connu sous le nom {names}"),
    "and": ("and", "et"),
    "keys_lobby": ("Enter ready · ? help · t chat · q leave",
                   "Entrée confirmer · ? aide · t message · q quitter"),
    "keys_lobby_host": ("Enter ready · f free a seat · ? help · t chat · q leave",
                        "Entrée confirmer · f libérer une place · ? aide · t message · "
                        "q quitter"),
    "keys_lobby_idle_host": ("f free a seat · ? help · t chat · q leave",
                             "f libérer une place · ? aide · t message · q quitter"),
    "keys_free": ("free which seat? {seats} · Esc: none",
                  "libérer quelle place ? {seats} · Échap : aucune"),
    "ev_freed": ("you freed {name}'s seat: that key is refused at this table",
                 "vous avez libéré la place de {name} : cette clé est refusée à cette table"),
    # While a card that takes several ways waits for its capture: the choice's keys.
    "keys_options": ("1-{n} or ↑↓ Enter: take · Esc: another card · s sheet · ? help · "
                     "q leave",
                     "1-{n} ou ↑↓ Entrée : prendre · Échap : une autre carte · s feuille · "
                     "? aide · q quitter"),
    "keys_cut": ("k keep · p place · ←→ Enter · s sheet · ? help · q leave",
                 "g garder · p poser · ←→ Entrée · s feuille · ? aide · q quitter"),
    "keys_score": ("Enter: next hand (or wait {n} s)",
                   "Entrée : manche suivante (ou attendez {n} s)"),
    "too_small": ("terminal too small (needs {w}x{h})",
                  "terminal trop petit (il faut {w}x{h})"),
    "hint_key_view": ("that key does nothing here:", "cette touche ne fait rien ici :"),
    "hint_key": ("that key does nothing here: ? shows the keys",
                 "cette touche ne fait rien ici : ? affiche les touches"),
    "hint_not_turn": ("not your turn: waiting for {name}",
                      "ce n'est pas votre tour : on attend {name}"),
    "hint_not_yet": ("not your turn yet", "ce n'est pas encore votre tour"),
    "hint_cut_first": ("first the card you drew: k keep it · p place it",
                       "d'abord la carte tirée : g la garder · p la poser"),
    "hint_no_card": ("no card {n}: your hand holds {count} (1-{count})",
                     "pas de carte {n} : vous en avez {count} en main (1-{count})"),
    "hint_no_card_1": ("no card {n}: your hand holds one (1)",
                       "pas de carte {n} : vous n'en avez qu'une en main (1)"),
    "hint_no_option": ("no choice {n}: pick 1-{count} (Esc: back)",
                       "pas de choix {n} : choisissez 1-{count} (Échap : retour)"),
    "help_title": ("Help", "Aide"),
    "help_keys": ("Keys", "Touches"),
    "help_k_play": ("1-9 or ←→ Enter: play a card; ↑↓ Enter: what it takes (or click them)",
                    "1-9 ou ←→ Entrée : jouer ; ↑↓ Entrée : choisir la prise (ou cliquez-les)"),
    "help_k_play_keys": ("1-9 or ←→ Enter: play a card; ↑↓ Enter: what it takes",
                         "1-9 ou ←→ Entrée : jouer ; ↑↓ Entrée : choisir la prise"),
    "help_k_cut": ("k keep / p place the card you drew as cutter",
                   "g garder / p poser la carte tirée par le coupeur"),
    "help_k_misc": ("h hints · s score sheet · t chat · q leave or resign · Ctrl-L redraw "
                    "· ? or F1 help",
                    "h conseils · s feuille de marque · t message · q quitter/abandonner · "
                    "Ctrl-L redessiner · ? F1 aide"),
    "help_words": ("Words of the game", "Les mots du jeu"),
    "help_lobby_keys": ("Keys in the lobby", "Touches du salon"),
    "help_l_ready": ("Enter: you are ready, once you have read each key aloud with its "
                     "player; the match starts when every person is",
                     "Entrée : confirmer, après avoir lu chaque clé à voix haute avec "
                     "son joueur ; la partie commence quand chacun a confirmé"),
    "help_l_free": ("f, then a seat's number: free a seat a stranger took (that key is "
                    "then refused at this table)",
                    "f, puis le numéro d'une place : libérer une place prise par un inconnu "
                    "(sa clé est alors refusée à cette table)"),
    "help_l_misc": ("t chat · q leave the table · ? or F1 this help",
                    "t message · q quitter la table · ? ou F1 cette aide"),
    "help_l_misc_solo": ("q leave · ? or F1 this help", "q quitter · ? ou F1 cette aide"),
    "help_l_table": ("At the table: 1-9 or ←→ Enter play a card, h hints, s score sheet; "
                     "? there lists every key.",
                     "À la table : 1-9 ou ←→ Entrée jouent une carte, h conseils, s feuille "
                     "de marque ; ? y donne toutes les touches."),
    "gl_carta": ("carta: most cards captured, 1 point", "carta : le plus de cartes prises, "
                 "1 point"),
    "gl_dinari": ("dinari: most diamonds (♦), 1 point", "dinari : le plus de carreaux (♦), "
                  "1 point"),
    "gl_barmila": ("barmila: most sevens (then sixes), 1 point",
                   "barmila : le plus de 7 (puis de 6), 1 point"),
    "gl_primiera": ("primiera: best card of each suit (7=21, 6=18, A=16...), 1 point",
                    "primiera : meilleure carte de chaque couleur (7=21, 6=18, As=16...), "
                    "1 point"),
    "gl_haya": ("haya: the seven of diamonds (7♦), 1 point",
                "haya : le sept de carreau (7♦), 1 point"),
    "gl_chkobba": ("chkobba: a capture that empties the table, 1 point",
                   "chkobba : une prise qui vide la table, 1 point"),
    "gl_cutter": ("cutter: the player after the dealer: cuts, draws a card, keeps or "
                  "places it, plays first",
                  "coupeur : le joueur après le donneur : coupe, tire une carte, la garde "
                  "ou la pose, joue le premier"),
    "gl_beji": ("beji: a tie: nobody scores that point", "beji : égalité : personne ne "
                "marque ce point"),
    "gl_rules": ("Rules in play: {rules}", "Règles de la partie : {rules}"),
    "help_close": ("any key or Esc: close", "une touche ou Échap : fermer"),
    "help_pages": ("←→ page {n}/{of} · any other key or Esc: close",
                   "←→ page {n}/{of} · une autre touche ou Échap : fermer"),
    "help_play": ("How to play", "Comment jouer"),
    # The worked example of a hand's scoring (help's last page): a table of cells split
    # at "|" (row name, your side, theirs, the points), aligned by the help; its numbers
    # are checked against the rules' scoring by tests/client/test_help_example.py.
    "help_example": ("A worked example: the end of a hand",
                     "Un exemple : la fin d'une manche"),
    "help_ex_intro": ("Every card has been played; the cards left on the table went to "
                      "whoever captured last. Each side counts its pile:",
                      "Toutes les cartes sont jouées ; celles restées sur la table sont "
                      "allées au dernier à avoir pris. Chaque camp compte ses cartes :"),
    "help_ex_head": ("|you|them|points", "|vous|eux|points"),
    "help_ex_carta": ("carta|22 cards|18 cards|you 1", "carta|22 cartes|18 cartes|vous 1"),
    "help_ex_dinari": ("dinari|6 diamonds|4 diamonds|you 1",
                       "dinari|6 carreaux|4 carreaux|vous 1"),
    "help_ex_barmila": ("barmila|2 sevens, 1 six|2 sevens, 3 sixes|them 1 (7s equal, more 6s)",
                        "barmila|2 sept, 1 six|2 sept, 3 six|eux 1 (7 égaux, plus de 6)"),
    "help_ex_haya": ("haya|7♦|-|you 1", "haya|7♦|-|vous 1"),
    "help_ex_chkobba": ("chkobbas|1|2|you 1, them 2", "chkobbas|1|2|vous 1, eux 2"),
    "help_ex_total": ("total|||you 4, them 3", "total|||vous 4, eux 3"),
    "help_ex_after": ("The points go to the match score: once a side has reached the "
                      "target (11 by default), the higher total wins.",
                      "Les points s'ajoutent au score de la partie : dès qu'un camp a "
                      "atteint le but (11 par défaut), le plus haut total gagne."),
    "help_ex_primiera": ("This table plays primiera instead of barmila (see the words of "
                         "the game); the other lines count the same.",
                         "Cette table joue la primiera au lieu de la barmila (voir les "
                         "mots du jeu) ; les autres lignes comptent de même."),
    "help_capture": ("A card you play takes one table card of its rank; if there is "
                     "none, table cards that add up to its value (a 7 takes 3 and 4). "
                     "A sum may not be taken instead of a card of the same rank.",
                     "Une carte jouée prend une carte de la table de même rang ; s'il n'y "
                     "en a pas, des cartes dont la somme fait sa valeur (un 7 prend 3 et "
                     "4). On ne peut pas prendre une somme à la place d'une carte de même "
                     "rang."),
    "help_must": ("A card that can take must take; one that takes nothing stays on the "
                  "table.",
                  "Une carte qui peut prendre doit prendre ; celle qui ne prend rien reste "
                  "sur la table."),
    "help_free": ("Which card you play is your choice: you may play one that takes "
                  "nothing.",
                  "Vous choisissez la carte à jouer : vous pouvez en jouer une qui ne prend "
                  "rien."),
    "help_forced": ("Forced capture (these rules): if a card of your hand can take, you "
                    "must play one that takes.",
                    "Prise obligatoire (ces règles) : si une carte de votre main peut "
                    "prendre, vous devez jouer une carte qui prend."),
    "help_cut": ("The cut: as cutter you draw a card only you see. Keep it (k): it is "
                 "one of your 3 cards. Place it (p): it goes face up on the table with 3 "
                 "others, and you get 3 new cards. Either way you play first.",
                 "La coupe : comme coupeur vous tirez une carte que vous seul voyez. La "
                 "garder (g) : c'est une de vos 3 cartes. La poser (p) : elle va face "
                 "visible sur la table avec 3 autres, et vous recevez 3 nouvelles cartes. "
                 "Dans les deux cas vous jouez le premier."),
    "help_teams": ("At 4 players, two teams: your partner sits across from you, and what "
                   "either of you captures counts for both.",
                   "À 4 joueurs, deux équipes : votre partenaire est en face de vous, et ce "
                   "que l'un de vous prend compte pour les deux."),
    "help_last": ("At the end of a hand the cards left on the table go to whoever took "
                  "last (never a chkobba).",
                  "À la fin d'une manche, les cartes restées sur la table vont au dernier "
                  "qui a pris (jamais une chkobba)."),
    "in_hand": ("in hand", "en main"),
    "captured": ("captured", "prises"),
    "sevens_n": ("{n} sevens", "{n} sept"),
    "sevens_1": ("1 seven", "1 sept"),
    "sevens_0": ("no seven", "aucun sept"),
    "diamonds_n": ("{n}♦", "{n}♦"),
    "ev_host_open": ("your table is open", "votre table est ouverte"),
    "ev_bots_n": ("{n} bots take their seats", "{n} robots prennent place"),
    "ev_bots_1": ("a bot takes its seat", "un robot prend place"),
    "playing": ("{name} plays {card}", "{name} joue {card}"),
    "playing_take": ("{name} plays {card} and takes {cards}",
                     "{name} joue {card} et prend {cards}"),
    "playing_me": ("you play {card}", "vous jouez {card}"),
    "playing_take_me": ("you play {card} and take {cards}",
                         "vous jouez {card} et prenez {cards}"),
    "ev_left": ("{name} left the game", "{name} a quitté la partie"),
    "ev_left_me": ("you left the game", "vous avez quitté la partie"),
    "name_prompt": ("Your name at the table (remembered; change it with --name): ",
                    "Votre nom à la table (gardé en mémoire ; --name pour le changer) : "),
    "name_none": ("no name given: you play as {name}; change it with --name",
                  "aucun nom donné : vous jouez sous le nom {name} ; --name pour le changer"),
    "name_bad": ("1 to 32 printable characters, please", "de 1 à 32 caractères "
                 "imprimables, s'il vous plaît"),
    # chkobba history
    "hi_progress": ("{done}/{n} logs audited", "{done}/{n} journaux vérifiés"),
    "hi_bot": ("bot {level}", "robot {level}"),
    "hi_you": ("you", "vous"),  # beside the player's own key in the list
    "hi_vs": ("vs", "contre"),
    "hi_players": ("{n} players", "{n} joueurs"),
    "hi_unreadable": ("not a readable log: counts for nothing",
                      "journal illisible : ne compte pas"),
    "hi_unsupported": ("CANNOT AUDIT (a table capability this version does not know): "
                       "counts for nothing",
                       "AUDIT IMPOSSIBLE (une capacité de table que cette version ne connaît "
                       "pas) : ne compte pas"),
    "hi_invalid": ("FAILED ITS AUDIT: counts for nothing",
                   "AUDIT ÉCHOUÉ : ne compte pas"),
    "hi_won_points": ("{side} won {score}", "{side} : victoire {score}"),
    "hi_won_resigned": ("{side} won by resignation", "{side} : victoire par abandon"),
    "hi_won_on_time": ("{side} won on time", "{side} : victoire au temps"),
    "hi_resigned": ("{side} resigned at 3 players, the two others level: a loss for {side}",
                    "abandon de {side} à 3 joueurs, les deux autres à égalité : défaite "
                    "de {side}"),
    "hi_won_left": ("{side} won: the other side left the match",
                    "{side} : victoire, l'adversaire a quitté la partie"),
    "hi_won_convicted": ("{side} won: {name} broke the rules (the audit convicts an entry "
                         "{name} signed)",
                         "{side} : victoire, {name} a enfreint les règles (l'audit condamne "
                         "une entrée signée par {name})"),
    "hi_convicted": ("{side} broke the rules at 3 players, the two others level: a loss for "
                     "{side}",
                     "{side} a enfreint les règles à 3 joueurs, les deux autres à égalité : "
                     "défaite de {side}"),
    "hi_won_left_by": ("{side} won: {name} left the match",
                       "{side} : victoire, {name} a quitté la partie"),
    "hi_tag_unreadable": ("UNREADABLE", "ILLISIBLE"),
    "hi_left": ("{side} left the match at 3 players, the two others level: a loss for {side}",
                "{side} a quitté la partie à 3 joueurs, les deux autres à égalité : "
                "défaite de {side}"),
    "hi_on_time": ("{side} lost on time at 3 players, the two others level",
                   "{side} a perdu au temps à 3 joueurs, les deux autres à égalité"),
    "hi_won_decided": ("{side} won {score} (decided; a seat stopped before signing)",
                       "{side} : victoire {score} (décidée ; une place s'est arrêtée avant "
                       "de signer)"),
    "hi_disputed": ("a flag disputed by the flagged player's own clock: counts for nobody",
                    "un drapeau contesté par l'horloge du joueur visé : ne compte pour "
                    "personne"),
    "hi_disputes_head": ("matches that ended in a dispute about time, by player:",
                         "parties finies sur un litige de temps, par joueur :"),
    "hi_contested": ("the flagged player's own copy says otherwise (a dispute)",
                     "la copie du joueur visé dit autre chose (un litige)"),
    "hi_aborted": ("stopped before the end: counts for nothing",
                   "arrêtée avant la fin : ne compte pas"),
    "hi_truncated": ("the log is cut short: counts for nothing",
                     "journal tronqué : ne compte pas"),
    "hi_unfinished": ("unfinished: counts for nothing", "inachevée : ne compte pas"),
    "hi_log": ("log: {path}", "journal : {path}"),
    "hi_bot_copies_1": ("and 1 copy by a bot (--verbose lists it)",
                        "et 1 copie d'un robot (--verbose la montre)"),
    "hi_bot_copies": ("and {n} copies by the bots (--verbose lists them)",
                      "et {n} copies des robots (--verbose les montre)"),
    "hi_total": ("{n} matches, {counted} counted", "{n} parties, {counted} comptées"),
    "hi_total_c1": ("{n} matches, {counted} counted", "{n} parties, {counted} comptée"),
    "hi_total_1": ("1 match, {counted} counted", "1 partie, {counted} comptée"),
    "id_merged": ("One key now for hosting and joining: your joining key {old} is kept as "
                  "an alias of {new}, and history counts both as you.",
                  "Une seule clé désormais pour héberger et rejoindre : votre clé pour "
                  "rejoindre {old} est gardée comme alias de {new}, et l'historique compte "
                  "les deux comme vous."),
    "own_table": ("Your key already sits at that table: to join your own table from this "
                  "computer, give the join another key (--identity FILE).",
                  "Votre clé est déjà assise à cette table : pour rejoindre votre propre "
                  "table depuis cet ordinateur, donnez une autre clé (--identity FICHIER)."),
    "hi_none_yet": ("No matches yet: your matches will be listed here once you have played "
                    "(chkobba play, host or join).",
                    "Aucune partie encore : vos parties seront listées ici une fois jouées "
                    "(chkobba play, host ou join)."),
    # As the lobby and the end screen say it ("record_vs"), counted the same way.
    "hi_record": ("you vs {name}: {n} matches, you {wins}–{losses} (every counted "
                  "match where you sat on opposite sides, at 2, 3 and 4 players)",
                  "vous contre {name} : {n} parties, vous {wins}–{losses} (toutes les "
                  "parties comptées où vous étiez d'un autre camp, à 2, 3 et 4 joueurs)"),
    "hi_record_1": ("you vs {name}: 1 match, you {wins}–{losses} (every counted "
                    "match where you sat on opposite sides, at 2, 3 and 4 players)",
                    "vous contre {name} : 1 partie, vous {wins}–{losses} (toutes les "
                    "parties comptées où vous étiez d'un autre camp, à 2, 3 et 4 joueurs)"),
    "hi_ratings": ("Glicko-2 ratings, {n} players (? provisional):",
                   "classement Glicko-2, {n} joueurs (? provisoire) :"),
    "hi_no_ratings": ("no counted match", "aucune partie comptée"),
    "hi_bots_head": ("against the bots, rated apart (these say how one plays against the "
                     "bots, not how one ranks among people; a bot anchors its level only "
                     "where its table's host vouched for it):",
                     "contre les robots, classés à part (ceci dit comment on joue contre les "
                     "robots, pas son rang parmi les joueurs ; un robot n'ancre son niveau "
                     "que là où l'hôte de sa table s'en porte garant) :"),
    "hi_ratings_bots": ("  {n} players:", "  {n} joueurs :"),
    "hi_anchor": ("fixed (a bot level's anchor)", "fixe (ancrage d'un niveau de robot)"),
    "hi_about": ("about {level}", "environ le robot {level}"),
    "hi_games": ("{n} matches", "{n} parties"),
    "hi_games_1": ("1 match", "1 partie"),
    "hi_unmet": ("{n} of them against keys you never met ({pct}%)",
                 "dont {n} contre des clés jamais rencontrées ({pct} %)"),
    "hi_unrated": ("UNRATED: {n} of {games} against keys you never met ({pct}%)",
                   "NON CLASSÉ : {n} sur {games} contre des clés jamais rencontrées "
                   "({pct} %)"),
    "hi_unrated_alone": ("; {n} of them against keys that sat with nobody else (one "
                         "supplier's)", " ; dont {n} contre des clés qui n'ont joué avec "
                         "personne d'autre (celles d'une seule source)"),
    "hi_met_note": ("a key you met sat in a log your own key signed; a bot's key counts "
                    "only at tables you hosted (another host's bots are that host's word). "
                    "A rating mostly against other keys is marked UNRATED, its number in "
                    "brackets (they may "
                    "be one person's puppets).",
                    "une clé rencontrée a siégé dans un journal que votre propre clé a "
                    "signé ; la clé d'un niveau de robot ne compte qu'aux tables que vous "
                    "avez ouvertes (les robots d'un autre hôte n'ont que sa parole). Un classement "
                    "surtout contre d'autres clés est marqué NON CLASSÉ, son nombre entre "
                    "parenthèses (ce peuvent être les prête-noms d'une seule personne)."),
    "hi_ratings_note": ("computed from the signed logs alone: the same logs give the same "
                        "ratings", "calculé à partir des seuls journaux signés : les mêmes "
                        "journaux donnent le même classement"),
    "hi_bad_date": ("not a date: {date} (use 2026-03-01 or 2026-03-01T20:00)",
                    "date invalide : {date} (par ex. 2026-03-01 ou 2026-03-01T20:00)"),
    "over_records": ("Your record against each (every counted match in your logs, as "
                     "chkobba history counts them):",
                     "Votre bilan contre chacun (toutes les parties comptées de vos journaux, "
                     "comme les compte chkobba history) :"),
    "over_records_reading": ("Counting the matches in your logs, this one included…",
                             "On compte les parties de vos journaux, celle-ci comprise…"),
    # Short, to share the key's row at 80 columns (a row each cost the 4-player lobby
    # its spectators' lines): the key is that bot level's well-known one.
    "lobby_bot": ("{level} bot", "robot {level}"),
    # A bot level as a player reads it (Translator.level); the option values of --bots
    # stay the English words in both languages.
    "level_random": ("random", "aléatoire"),
    "level_greedy": ("greedy", "gourmand"),
    "level_heuristic": ("heuristic", "tacticien"),
    "level_expert": ("expert", "expert"),
    # A number of points (Translator.points): French counts below two in the singular.
    "unit_point": ("{n} point", "{n} point"),
    "unit_points": ("{n} points", "{n} points"),
    # Luck against play ("is it rigged?"), cli/words/luck.py: one sentence per line.
    "luck_title": ("Is it rigged? Luck against play over {n} hands:",
                   "Est-ce truqué ? La chance et le jeu sur {n} manches :"),
    "luck_title_1": ("Is it rigged? Luck against play over 1 hand:",
                     "Est-ce truqué ? La chance et le jeu sur 1 manche :"),
    "luck_no_hand": ("Is it rigged? No hand was played to its end: no luck to weigh.",
                     "Est-ce truqué ? Aucune manche n'a été jouée jusqu'au bout : pas de "
                     "chance à peser."),
    # {you}: a number with its unit (Translator.points); {them} says it once more.
    "luck_dealt_you": ("Luck: you were dealt cards worth {you}, they {them} (an even "
                       "deal: {fair} each).",
                       "Chance : vous avez reçu des cartes valant {you}, eux {them} "
                       "(une donne égale : {fair} chacun)."),
    "luck_dealt_names": ("Luck: cards dealt worth {list} points (an even deal: {fair} each).",
                         "Chance : cartes reçues valant {list} points (une donne égale : "
                         "{fair} chacun)."),
    "luck_play_you": ("Play: you gave away {you} against the coach's best, they "
                      "{them}.",
                      "Jeu : vous avez cédé {you} face au meilleur coup du coach, eux "
                      "{them}."),
    "luck_play_names": ("Play: points given away against the coach's best: {list}.",
                        "Jeu : points cédés face au meilleur coup du coach : {list}."),
    # Who shuffled ("all 2 players" read oddly).
    "luck_by_2": ("both players", "les deux joueurs"),
    "luck_by_n": ("all {n} players", "les {n} joueurs"),
    "luck_proven": ("Every deal was shuffled by {by} and every shuffle was proven: "
                    "nobody could stack the deck.",
                    "Chaque donne a été mélangée par {by} et chaque mélange "
                    "prouvé : personne ne pouvait arranger le paquet."),
    "luck_checked": ("Every deal was shuffled by {by} and every shuffle checked "
                     "once the hand's seeds were open: nobody could stack the deck unseen.",
                     "Chaque donne a été mélangée par {by} et chaque mélange "
                     "vérifié une fois les graines de la manche ouvertes : personne ne "
                     "pouvait arranger le paquet sans être vu."),
    "luck_unproven": ("This log's audit is not VALID ({verdict}): it proves nothing about the "
                      "deal.",
                      "L'audit de ce journal n'est pas VALIDE ({verdict}) : il ne prouve rien "
                      "sur la donne."),
    "luck_limit": ("(The coach graded the first {graded} of {decisions} decisions: its "
                   "limit.)",
                   "(Le coach a noté les {graded} premières décisions sur {decisions} : sa "
                   "limite.)"),
    "luck_how": ("(Cards are worth a hand's 4 category points shared out: the 7♦ 1.31, a "
                 "seven 0.21, a diamond 0.13, a six 0.09, any card 0.03.)",
                 "(Une carte vaut sa part des 4 points de catégorie d'une manche : le 7♦ "
                 "1,31, un sept 0,21, un carreau 0,13, un six 0,09, toute carte 0,03.)"),
    "luck_key": ("l: is it rigged? luck against play", "l : est-ce truqué ? chance et jeu"),
    "luck_failed": ("Is it rigged? The log could not be audited here; this command does it:",
                    "Est-ce truqué ? Le journal n'a pas pu être vérifié ici ; cette commande "
                    "le fait :"),
    "keys_luck": ("l or Esc: back · q or Enter: quit", "l ou Échap : retour · q ou Entrée : "
                  "quitter"),
    "luck_reading": ("Is it rigged? Auditing the log and asking the coach…",
                     "Est-ce truqué ? Audit du journal et avis du coach…"),
    # Said from the viewer's side ("sami: 1 game, 0–1" read as sami's own score).
    "record_vs": ("you vs {name}: {n} matches, you {wins}–{losses}",
                  "vous contre {name} : {n} parties, vous {wins}–{losses}"),
    "record_none": ("you vs {name}: no match decided between you yet",
                    "vous contre {name} : aucune partie encore décidée entre vous"),
    "record_none_3": ("you vs {name}: no match decided between you yet (a match the third "
                      "player won decides nothing between the other two)",
                      "vous contre {name} : aucune partie encore décidée entre vous (une "
                      "partie gagnée par le troisième joueur ne départage pas les deux "
                      "autres)"),
    "record_vs_1": ("you vs {name}: 1 match, you {wins}–{losses}",
                    "vous contre {name} : 1 partie, vous {wins}–{losses}"),
    # The library's notices (chkobba_p2p.Notice): "nt_" + the notice's kind.
    "nt_resume_failed": ("the saved game ({path}) cannot be resumed: {why}; starting afresh",
                         "impossible de reprendre la partie enregistrée ({path}) : {why} ; "
                         "on repart à zéro"),
    "nt_announce_failed": ("the table is not announced on the LAN ({why}); others join it "
                           "by its address", "la table n'est pas annoncée sur le réseau "
                           "local ({why}) ; on la rejoint par son adresse"),
    "nt_handshake_retry": ("the connection to the host failed ({why}); trying again",
                           "la connexion à l'hôte a échoué ({why}) ; nouvel essai"),
    # A notice's parts: a host's words quoted as its own, a code then a check's words,
    # a handshake that stalled.
    "nt_quoted": ('"{text}"', "« {text} »"),
    "nt_code_detail": ("{what}: {detail}", "{what} : {detail}"),
    "nt_timeout": ("timeout", "délai dépassé"),
    "nt_resume_refused": ("the host refused our return ({code}: {why}); trying again while "
                          "its time away lasts", "l'hôte a refusé notre retour ({code} : "
                          "{why}) ; nouvel essai tant que dure son temps d'absence"),
    "nt_saved_game_over": ("the saved game for this table is already over (its log: "
                           "{path}); joining afresh",
                           "la partie enregistrée pour cette table est déjà terminée (son "
                           "journal : {path}) ; on rejoint à neuf"),
    "err_game_unknown": ("the host no longer has this game (it may have ended while you "
                         "were away, and the host no longer keeps its log); nothing was "
                         "signed; your saved game is filed aside and the same command now "
                         "joins the host's new table",
                         "l'hôte n'a plus cette partie (elle s'est peut-être terminée "
                         "pendant votre absence, et l'hôte n'en garde plus le journal) ; "
                         "rien n'a été signé ; votre partie enregistrée est mise de côté et "
                         "la même commande rejoint maintenant la nouvelle table de l'hôte"),
    "nt_other_host": ("another machine (not the host's key) answers at the host's address; "
                      "trying again", "une autre machine (pas la clé de l'hôte) répond à "
                      "l'adresse de l'hôte ; nouvel essai"),
    "nt_port_mapping_kept": ("the router's port forward could not be removed ({why}); it "
                             "lapses within the hour", "la redirection de port du routeur n'a "
                             "pas pu être retirée ({why}) ; elle expire dans l'heure"),
    # How a game stopped (an Aborted, the signer's own words shown safe), then how a
    # match ended for this peer (an Outcome): the words of the headless "result:" line.
    "ab_seat": ("seat {n}", "siège {n}"),
    "ab_code": ("code {code}", "code {code}"),
    "ab_why": (": {why}", " : {why}"),
    "ab_nobody": ("{by} ended the game ({code}{why}), blaming nobody",
                  "{by} a arrêté la partie ({code}{why}), sans accuser personne"),
    "ab_resigned": ("{by} resigned", "{by} a abandonné"),
    "ab_flag": ("{late} lost on time ({code}{why}); the time is {by}'s word, the log shows "
                "{late} was to play",
                "{late} a perdu au temps ({code}{why}) ; le temps est la parole de {by}, le "
                "journal montre que c'était à {late} de jouer"),
    "ab_disputed": ("{by} flagged {flagged} ({code}{why}) and {flagged} disputes it: its "
                    "own clock showed time left; one word against the other, the match "
                    "counts for nobody",
                    "{by} a signalé le temps de {flagged} ({code}{why}) et {flagged} le "
                    "conteste : sa propre horloge montrait du temps restant ; parole contre "
                    "parole, la partie ne compte pour personne"),
    "ab_decided": ("{by} ended the game ({code}{why}) after the match was decided: the "
                   "result stands",
                   "{by} a arrêté la partie ({code}{why}) une fois la partie jouée : le "
                   "résultat tient"),
    "ab_ran_out": ("{by} ran out of time ({code}{why})",
                   "{by} a épuisé son temps ({code}{why})"),
    "ab_left": ("{by} left the game ({code}{why})", "{by} a quitté la partie ({code}{why})"),
    "ab_proven": ("{by} ended the game: {blamed} broke the rules ({code}{why})",
                  "{by} a arrêté la partie : {blamed} a enfreint les règles ({code}{why})"),
    "ab_says": ("{by} says {blamed} is at fault ({code}{why})",
                "{by} dit que {blamed} est en faute ({code}{why})"),
    "ab_owed": ("{said}; the log shows {blamed} owed the next message, the delay is the "
                "signer's word",
                "{said} ; le journal montre que {blamed} devait le message suivant, le "
                "retard est la parole du signataire"),
    "ab_refuted": ("{said}; the entry it cites passes every check: the claim is refuted",
                   "{said} ; l'entrée citée passe toutes les vérifications : l'accusation "
                   "est réfutée"),
    "ab_claimed": ("{said}; nothing in the log shows it",
                   "{said} ; rien dans le journal ne le montre"),
    "oc_side": ("side {n}", "camp {n}"),
    "oc_and": ("{a} and {b}", "{a} et {b}"),
    "oc_wins": ("{who} wins", "{who} gagne"),
    "oc_wins_pl": ("{who} win", "{who} gagnent"),
    "oc_hands_1": ("1 hand", "1 manche"),
    "oc_hands_n": ("{n} hands", "{n} manches"),
    "oc_done": ("match over after {hands}: {won} {score}",
                "partie terminée après {hands} : {won} {score}"),
    "oc_decided": ("match over: {won} (the result was decided; the game stopped before "
                   "every seat signed it)",
                   "partie terminée : {won} (le résultat était joué ; la partie s'est "
                   "arrêtée avant que chaque siège ne le signe)"),
    "oc_resigned": ("resigned", "a abandonné"),
    "oc_left": ("left the match", "a quitté la partie"),
    "oc_convicted": ("broke the rules (an entry signed with that player's key)",
                     "a enfreint les règles (une entrée signée de sa clé)"),
    "oc_quit_level": ("match over: {quitter} {what} and loses; the two others are level, "
                      "nobody wins",
                      "partie terminée : {quitter} {what} et perd ; les deux autres sont à "
                      "égalité, personne ne gagne"),
    "oc_quit": ("match over: {quitter} {what}; {won}",
                "partie terminée : {quitter} {what} ; {won}"),
    "oc_host_clock": ("the host's clock", "l'horloge de l'hôte"),
    "oc_clock_of": ("{name}'s clock", "l'horloge de {name}"),
    "oc_time_level": ("match over: {late} lost on time ({clock}); the two others are "
                      "level, nobody wins",
                      "partie terminée : {late} a perdu au temps ({clock}) ; les deux "
                      "autres sont à égalité, personne ne gagne"),
    "oc_time": ("match over: {late} lost on time ({clock}); {won} on time",
                "partie terminée : {late} a perdu au temps ({clock}) ; {won} au temps"),
    "oc_aborted": ("game aborted: {why}", "partie interrompue : {why}"),
    "oc_no_game": ("no game: {error}", "pas de partie : {error}"),
    "oc_unknown_error": ("unknown error", "erreur inconnue"),
    # An observer's verdict in the players' names (a Verdict's data; a violation keeps
    # the observer's own reason).
    "vd_nobody": ("nobody", "personne"),
    "vd_team": ("{a} & {b}", "{a} & {b}"),
    "vd_at": (" (entry #{n})", " (entrée n° {n})"),
    "vd_the_host": ("the host", "l'hôte"),
    "vd_role_host": (" (the host)", " (l'hôte)"),
    "vd_level": ("the two others are level, nobody wins",
                 "les deux autres sont à égalité, personne ne gagne"),
    "vd_won_match": ("{won} the match", "{won} la partie"),
    "vd_won_on_time": ("{won} the match on time", "{won} la partie au temps"),
    "vd_on_time": ("{late} lost on time{at}, as {by}{role} says: {won}; the log shows {late} "
                   "was to play, the time is {word}'s word (its signed clock reading, in the "
                   "log, is its own)",
                   "{late} a perdu au temps{at}, comme le dit {by}{role} : {won} ; le journal "
                   "montre que c'était à {late} de jouer, le temps est la parole de {word} (sa "
                   "lecture d'horloge signée, dans le journal, est la sienne)"),
    "vd_left": ("{by} left the match{at}: {won}", "{by} a quitté la partie{at} : {won}"),
    "vd_decided": ("decided: {won} {score} (the game stopped while the result was being "
                   "signed; the result stands)",
                   "joué : {won} {score} (la partie s'est arrêtée pendant la signature du "
                   "résultat ; le résultat tient)"),
    "vd_disputed": ("{by} flagged {late}{at} and {late} disputes it with its own clock, which "
                    "showed time left: one word against the other, the match counts for "
                    "nobody",
                    "{by} a signalé le temps de {late}{at} et {late} le conteste avec sa "
                    "propre horloge, qui montrait du temps restant : parole contre parole, la "
                    "partie ne compte pour personne"),
    "vd_resigned_level": ("{by} resigned{at}: the two others are level, nobody wins",
                          "{by} a abandonné{at} : les deux autres sont à égalité, personne "
                          "ne gagne"),
    "vd_resigned": ("{by} resigned{at}: {won} the match by resignation",
                    "{by} a abandonné{at} : {won} la partie par abandon"),
    "vd_complete": ("complete: {won} {score}", "terminée : {won} {score}"),
    "vd_left_game": ("{by} left the game", "{by} a quitté la partie"),
    "vd_owed": ("{by} ended the game; the log shows {blamed} owed the next message",
                "{by} a arrêté la partie ; le journal montre que {blamed} devait le message "
                "suivant"),
    "vd_refuted": ("{by} ended the game; the entry its abort cites passes every check, which "
                   "refutes its claim",
                   "{by} a arrêté la partie ; l'entrée que cite son arrêt passe toutes les "
                   "vérifications, ce qui réfute son accusation"),
    "vd_ended": ("{by} ended the game", "{by} a arrêté la partie"),
    "vd_aborted": ("{what}; no violation in the entries before it",
                   "{what} ; aucune violation dans les entrées qui précèdent"),
    # An abort as an auditor read it (an AbortClaim: its signer's word, and what the log
    # shows of it).
    "cl_nobody": ("{by} ended the game ({code}{why}), blaming nobody",
                  "{by} a arrêté la partie ({code}{why}), sans accuser personne"),
    "cl_resigned": ("{by} resigned", "{by} a abandonné"),
    "cl_on_time": ("{late} lost on time ({code}{why}); the time is {by}'s word, the log "
                   "shows {late} was to play",
                   "{late} a perdu au temps ({code}{why}) ; le temps est la parole de {by}, "
                   "le journal montre que c'était à {late} de jouer"),
    "cl_ran_out": ("{by} ran out of time ({code}{why})",
                   "{by} a épuisé son temps ({code}{why})"),
    "cl_left": ("{by} left the game ({code}{why})", "{by} a quitté la partie ({code}{why})"),
    "cl_proven": ("{by} blames {blamed} ({code}{why}); the log proves it",
                  "{by} accuse {blamed} ({code}{why}) ; le journal le prouve"),
    "cl_says": ("{by} says {blamed} is at fault ({code}{why})",
                "{by} dit que {blamed} est en faute ({code}{why})"),
    "cl_owed": ("{said}; the log shows {blamed} owed the next message",
                "{said} ; le journal montre que {blamed} devait le message suivant"),
    "cl_refuted": ("{said}; the entry it cites passes every check: the claim is refuted",
                   "{said} ; l'entrée citée passe toutes les vérifications : l'accusation "
                   "est réfutée"),
    "cl_dispute": ("{by} disputes {blamed}'s flag ({code}{why}): its own clock showed time "
                   "left; one word against the other",
                   "{by} conteste le signalement de {blamed} ({code}{why}) : sa propre "
                   "horloge montrait du temps restant ; parole contre parole"),
    "cl_flagged": ("{by} flagged {blamed} ({code}{why}), who disputes it with its own "
                   "clock; one word against the other",
                   "{by} a signalé le temps de {blamed} ({code}{why}), qui le conteste avec "
                   "sa propre horloge ; parole contre parole"),
    "cl_claimed": ("{said}; nothing in the log shows it",
                   "{said} ; rien dans le journal ne le montre"),
    # An audit's result in one line (an AuditResult: ``chkobba replay``'s last line,
    # ``chkobba history``'s reason for a match that counts for nothing).
    "au_valid_resigned": ("VALID: {n} entries; every check passes; the match ended by "
                          "resignation: {why}",
                          "VALIDE : {n} entrées ; toutes les vérifications passent ; la "
                          "partie s'est terminée par un abandon : {why}"),
    "au_valid_on_time": ("VALID: {n} entries; every check passes; the match ended on time: "
                         "{why}",
                         "VALIDE : {n} entrées ; toutes les vérifications passent ; la partie "
                         "s'est terminée au temps : {why}"),
    "au_valid_left": ("VALID: {n} entries; every check passes; the match ended when a "
                      "player left: {why}",
                      "VALIDE : {n} entrées ; toutes les vérifications passent ; la partie "
                      "s'est terminée quand un joueur est parti : {why}"),
    "au_valid_decided": ("VALID: {n} entries; every check passes; {why}",
                         "VALIDE : {n} entrées ; toutes les vérifications passent ; {why}"),
    "au_valid": ("VALID: {n} entries; every signature, the chain, the deal's proofs and "
                 "reveals, every move and every score check out",
                 "VALIDE : {n} entrées ; chaque signature, la chaîne, les preuves et les "
                 "révélations de la donne, chaque coup et chaque score sont vérifiés"),
    "au_valid_won": ("VALID: {n} entries; every signature, the chain, the deal's proofs and "
                     "reveals, every move and every score check out; {why}",
                     "VALIDE : {n} entrées ; chaque signature, la chaîne, les preuves et "
                     "les révélations de la donne, chaque coup et chaque score sont "
                     "vérifiés ; {why}"),
    "au_disputed": ("INCOMPLETE (disputed): {why}", "INCOMPLÈTE (contestée) : {why}"),
    "au_unsupported": ("CANNOT AUDIT ({code}): {why}", "AUDIT IMPOSSIBLE ({code}) : {why}"),
    "au_invalid": ("INVALID", "INVALIDE"),
    "au_incomplete": ("INCOMPLETE", "INCOMPLÈTE"),
    "au_line": ("{head} ({code}): {where}{why}{blame}", "{head} ({code}) : {where}{why}{blame}"),
    "au_where": ("entry #{n}: ", "entrée n° {n} : "),
    "au_blamed": (" -- blamed: {who}", " -- en faute : {who}"),
    "au_claim": (" -- {claim}", " -- {claim}"),
    # A seat an entry it signed convicts while the match was played: its side loses.
    "au_convicted": (" -- {conviction}", " -- {conviction}"),
    "cv_convicted": ("{name} is convicted of breaking the rules by an entry {name} signed: "
                     "{lose}; {won}",
                     "{name} est reconnu coupable d'avoir enfreint les règles par une entrée "
                     "que {name} a signée : {lose} ; {won}"),
    "cv_loses": ("{side} loses the match", "{side} perd la partie"),
    "cv_loses_pl": ("{side} lose the match", "{side} perdent la partie"),
    # ``chkobba replay``'s text: the match, hand by hand, in the players' names.
    "rp_log": ("log: {path}", "journal : {path}"),
    "rp_by_spectator": ("written by a spectator ({name}), {software}, {created} (unsigned "
                        "header)",
                        "écrit par un spectateur ({name}), {software}, {created} (en-tête "
                        "non signé)"),
    "rp_by_peer": ("written by {writer}'s peer ({software}, {created}; unsigned header)",
                   "écrit par le pair de {writer} ({software}, {created} ; en-tête non "
                   "signé)"),
    "rp_game_proofs": ("game {game}: {n} players, {rules}; shuffles with proofs",
                       "partie {game} : {n} joueurs, {rules} ; mélanges avec preuves"),
    "rp_game_no_proofs": ("game {game}: {n} players, {rules}; shuffles without proofs",
                          "partie {game} : {n} joueurs, {rules} ; mélanges sans preuves"),
    "rp_seat": ("{name} (key {fp}{partner})", "{name} (clé {fp}{partner})"),
    "rp_partner": (", plays with {name}", ", joue avec {name}"),
    "rp_draw": ("first-dealer draw: {draws}", "tirage du premier donneur : {draws}"),
    "rp_first_dealer": ("first dealer: {who}", "premier donneur : {who}"),
    "rp_hand": ("hand {n} ({dealer} deals{redeals}):",
                "manche {n} ({dealer} donne{redeals}) :"),
    "rp_redealt": (", dealt again {times}", ", redistribuée {times}"),
    "rp_times_1": ("{n} time", "{n} fois"),
    "rp_times_n": ("{n} times", "{n} fois"),
    "rp_hands_1": ("{n} hand", "{n} manche"),
    "rp_hands_n": ("{n} hands", "{n} manches"),
    "rp_result": ("result after {hands}: {totals}", "résultat après {hands} : {totals}"),
    "rp_warning": ("warning: {warning}", "attention : {warning}"),
    "rp_as_signed": ("as signed at entry #{n}: {said}", "tel que signé à l'entrée n° {n} : "
                     "{said}"),
    "rp_offending": ("offending entry #{n}: {entry}", "entrée fautive n° {n} : {entry}"),
    "rp_before_violation": ("(the hands above were complete and correct before the "
                            "violation)",
                            "(les manches ci-dessus étaient complètes et correctes avant la "
                            "violation)"),
    "rp_winner": ("winner: {side}", "gagnant : {side}"),
    "rp_sheet": ("score sheet:", "feuille de marque :"),
    "rp_web_page": ("web page: {path}", "page web : {path}"),
    "rp_after_match": ("after the match", "après la partie"),
    "rp_before_first": ("before the first hand", "avant la première manche"),
    "rp_during_hand": ("during hand {n}", "pendant la manche {n}"),
    # One hand, play by play (--hand N): the first column's words, then what was done.
    "rp_col_draw": ("draw", "tirage"),
    "rp_col_deal": ("deal", "donne"),
    "rp_col_cut": ("cut", "coupe"),
    "rp_col_play": ("play", "jeu"),
    "rp_col_end": ("end", "fin"),
    "rp_hand_deals": ("hand {n}: {dealer} deals, {cutter} cuts",
                      "manche {n} : {dealer} donne, {cutter} coupe"),
    "rp_redeal": ("redeal {n}: the opening table {cards} is dealt again",
                  "redistribution {n} : la table d'ouverture {cards} est redistribuée"),
    "rp_table": ("table", "table"),
    "rp_cards_of": ("{who}: {cards}", "{who} : {cards}"),
    "rp_keeps": ("{who} keeps {card}", "{who} garde {card}"),
    "rp_keeps_drawn": ("{who} keeps the drawn card", "{who} garde la carte tirée"),
    "rp_places": ("{who} places {card} on the table", "{who} pose {card} sur la table"),
    "rp_plays": ("{who}: {card}{take}", "{who} : {card}{take}"),
    "rp_takes": (" takes {cards}", " prend {cards}"),
    "rp_stays": (" (stays on the table)", " (reste sur la table)"),
    "rp_rest": ("{who} takes the rest: {cards}", "{who} prend le reste : {cards}"),
    # A hand's points, per side.
    "rp_cards_1": ("{n} card", "{n} carte"),
    "rp_cards_n": ("{n} cards", "{n} cartes"),
    "rp_diamonds_1": ("{n} diamond", "{n} carreau"),
    "rp_diamonds_n": ("{n} diamonds", "{n} carreaux"),
    "rp_sevens_1": ("{n} seven", "{n} sept"),
    "rp_sevens_n": ("{n} sevens", "{n} sept"),
    "rp_sixes_1": ("{n} six", "{n} six"),
    "rp_sixes_n": ("{n} sixes", "{n} six"),
    "rp_chkobbas_1": ("{n} chkobba", "{n} chkobba"),
    "rp_chkobbas_n": ("{n} chkobbas", "{n} chkobbas"),
    "rp_counts": ("{who}: {counts}", "{who} : {counts}"),
    "rp_beji": ("beji (tied)", "beji (égalité)"),
    "rp_points": ("points: {won} -> {points} (totals: {totals})",
                  "points : {won} -> {points} (totaux : {totals})"),
    # Why the game stopped (``replay``'s text): names, the hand, a reason in words, the
    # log's entry last; an abort is its signer's word.
    "sl_at": (" (the log's entry {n})", " (entrée {n} du journal)"),
    "sl_nobody": ("{by} ended the game {when} without blaming anyone: {why}{at}.",
                  "{by} a arrêté la partie {when} sans accuser personne : {why}{at}."),
    "sl_resigned": ("{by} resigned {when}{at}.", "{by} a abandonné {when}{at}."),
    "sl_on_time": ("{late} lost on time {when}: {late} was to play, as the log shows; that "
                   "the time ran out is {by}'s word{at}.",
                   "{late} a perdu au temps {when} : c'était à {late} de jouer, le journal "
                   "le montre ; que le temps soit écoulé est la parole de {by}{at}."),
    "sl_ran_out": ("{by} ran out of time {when}{at}.", "{by} a épuisé son temps {when}{at}."),
    "sl_left": ("{by} left the game {when}{at}.", "{by} a quitté la partie {when}{at}."),
    "sl_proven": ("{by} stopped the game {when}: {blamed} broke the rules ({why}){at}.",
                  "{by} a arrêté la partie {when} : {blamed} a enfreint les règles "
                  "({why}){at}."),
    "sl_says": ("{by} stopped the game {when}, saying {blamed} is at fault ({why})",
                "{by} a arrêté la partie {when}, en disant que {blamed} est en faute "
                "({why})"),
    "sl_owed": ("{said}; the log shows {blamed} owed the next move, the delay is {by}'s "
                "word{at}.",
                "{said} ; le journal montre que {blamed} devait le coup suivant, le retard "
                "est la parole de {by}{at}."),
    "sl_refuted": ("{said}; the move it cites passes every check: the claim is refuted{at}.",
                   "{said} ; le coup cité passe toutes les vérifications : l'accusation est "
                   "réfutée{at}."),
    "sl_disputed": ("{said}; one player's clock against the other's, the match counts for "
                    "nobody{at}.",
                    "{said} ; l'horloge d'un joueur contre celle de l'autre, la partie ne "
                    "compte pour personne{at}."),
    "sl_claimed": ("{said}; nothing in the log shows it{at}.",
                   "{said} ; rien dans le journal ne le montre{at}."),
    # The player an invalid log blames, by name (the key tells two of one name apart).
    "au_seat": ("{name} (key {fp})", "{name} (clé {fp})"),
    "au_no_seat": ("nobody (the file was altered; no signature pins it on a player)",
                   "personne (le fichier a été modifié ; aucune signature ne l'attribue "
                   "à un joueur)"),
}

RULE_NAMES: dict[str, tuple[str, str]] = {
    "illegal_move": ("illegal move", "coup interdit"),
    "wrong_phase": ("not now", "pas maintenant"),
    "not_your_turn": ("not your turn", "pas votre tour"),
    "card_not_in_hand": ("card not in hand", "carte absente de la main"),
    "capture_not_on_table": ("capture not on the table", "prise absente de la table"),
    "group_does_not_sum": ("group does not add up", "le groupe ne fait pas la somme"),
    "rank_match_required": ("rank first", "la même valeur d'abord"),
    "capture_required": ("a card that can capture must capture",
                         "une carte qui peut prendre doit prendre"),
    "forced_capture": ("forced capture", "prise obligatoire"),
}


#: A table's ruleset in words (:func:`ruleset_text`): its name, then what it plays.
MESSAGES |= {
    "rs_line": ("{name}: {parts}", "{name} : {parts}"),
    "rs_target": ("target {n}", "objectif {n}"),
    "rs_cut_and_draw": ("cut-and-draw", "coupe et tirage"),
    "rs_plain": ("plain deal", "donne simple"),
    "rs_redeal_kings": ("redeal on 3 kings", "on redonne sur 3 rois"),
    "rs_redeal_any_three": ("redeal on any 3 alike", "on redonne sur 3 cartes égales"),
    "rs_no_redeal": ("no redeal", "jamais de redonne"),
    "rs_primiera": ("primiera", "primiera"),
    "rs_barmila": ("barmila", "barmila"),
    "rs_forced_capture": ("forced capture", "prise obligatoire"),
    "rs_french_figures": ("Jack=8 Queen=9", "Valet=8 Dame=9"),
    # The presets' names (the wire keeps the ruleset's own name); French says "modifiée"
    # when variants were picked on top (the parts say how).  English shows the ruleset's
    # own name ("tunisian+plain"), which names the variants: its "modified" is unused.
    "rs_preset_tunisian": ("tunisian", "tunisienne"),
    "rs_preset_cardavia": ("cardavia", "cardavia"),
    "rs_preset_chkoum": ("chkoum", "chkoum"),
    "rs_modified": ("{name} (modified)", "{name} modifiée"),
}

#: The table's mouse (issue 43): what a click that plays nothing says; the end screen's
#: keys in the help.
MESSAGES |= {
    "ms_hand_first": ("click a card of your hand first (or type its number)",
                      "cliquez d'abord une carte de votre main (ou tapez son numéro)"),
    "ms_not_in": ("that card is in none of these captures: click one of the list, or Esc",
                  "cette carte n'est dans aucune de ces prises : cliquez-en une de la liste, "
                  "ou Échap"),
    "ms_several": ("that card is in {n} captures: click it again for the next; Enter or "
                   "your card plays the one marked",
                   "cette carte est dans {n} prises : recliquez-la pour la suivante ; Entrée "
                   "ou votre carte joue celle qui est marquée"),
    "help_over_keys": ("Keys at the end of the match", "Touches de fin de partie"),
    "help_o_keys": ("r play again (a rematch, at a table of people) · l is it rigged? luck "
                    "against play (l or Esc: back) · q or Enter leave · ? or F1 this help",
                    "r rejouer (une revanche, à une table de joueurs) · l est-ce truqué ? "
                    "chance et jeu (l ou Échap : retour) · q ou Entrée quitter · ? ou F1 "
                    "cette aide"),
}

#: Why a game stopped (cli/tui/parts/stopped.py: the events panel, the game-stopped dialog, the
#: line printed once the screen closes, and the replay's stop line): "sr_" + an abort's
#: wire code, what it means for a player as what the blamed side sent or did (a code with
#: none here is said by its "wire_" sentence); "st_" + the case, the sentence around it.
MESSAGES |= {
    "sr_frame_too_large": ("an oversized message", "un message trop long"),
    "sr_malformed": ("an unreadable message", "un message illisible"),
    "sr_unknown_type": ("a message of an unknown kind", "un message d'un type inconnu"),
    "sr_bad_field": ("a message with a missing or wrong field",
                     "un message dont un champ manque ou est faux"),
    "sr_version_mismatch": ("no protocol version in common",
                            "aucune version du protocole en commun"),
    "sr_bad_proof_of_possession": ("a key it could not prove it holds",
                                   "une clé dont il n'a pas prouvé la possession"),
    "sr_table_full": ("a full table", "une table complète"),
    "sr_already_seated": ("a second connection for the same seat",
                          "une deuxième connexion pour la même place"),
    "sr_unknown_game": ("another game than the one running",
                        "une autre partie que celle en cours"),
    "sr_handshake_timeout": ("no greeting in time", "pas de salutation à temps"),
    "sr_spectators_closed": ("a spectator too many", "un spectateur de trop"),
    "sr_bad_signature": ("a move whose signature does not check out",
                         "un coup dont la signature est fausse"),
    "sr_bad_chain": ("a move that does not follow the one before it in the log",
                     "un coup qui ne suit pas le précédent dans le journal"),
    "sr_out_of_turn": ("a move out of turn", "un coup hors de son tour"),
    "sr_bad_sequence": ("a move out of order (an old one sent again)",
                        "un coup dans le désordre (un ancien renvoyé)"),
    "sr_wrong_game": ("a move from another game", "un coup d'une autre partie"),
    "sr_entry_too_large": ("an oversized move", "un coup trop long"),
    "sr_transcript_too_long": ("a log grown to its maximum size",
                               "un journal arrivé à sa taille maximale"),
    "sr_illegal_move": ("a move the rules forbid", "un coup que les règles interdisent"),
    "sr_deal_failure": ("a deal message that fails its check",
                        "un message de la donne qui ne se vérifie pas"),
    "sr_result_mismatch": ("a different result of the match",
                           "un autre résultat de la partie"),
    "sr_protocol_violation": ("a move that makes no sense here",
                              "un coup qui n'a pas de sens ici"),
    "sr_resigned": ("a resignation", "un abandon"),
    "sr_timeout": ("too long a wait for a move", "une trop longue attente d'un coup"),
    "sr_peer_left": ("too long an absence", "une trop longue absence"),
    "sr_shutdown": ("a program that was closed", "un programme fermé"),
    "sr_unknown": ("an error code this program does not know ({code})",
                   "un code d'erreur que ce programme ne connaît pas ({code})"),
    # The local peer measured it: said as what happened.
    "st_away": ("{name} stayed away (or out of reach) longer than the allowance of time "
                "away: the game is over.",
                "{name} : absence (ou silence) plus longue que le temps accordé : "
                "la partie est finie."),
    "st_slow": ("{name} took longer than the time allowed for a move: the game is over.",
                "{name} a mis plus que le temps accordé pour un coup : la partie est finie."),
    "st_away_me": ("you stayed away (or out of reach) longer than the allowance of time "
                   "away: the game is over.",
                   "votre absence (ou silence) a duré plus que le temps accordé : "
                   "la partie est finie."),
    "st_slow_me": ("you took longer than the time allowed for a move: the game is over.",
                   "vous avez mis plus que le temps accordé pour un coup : la partie est "
                   "finie."),
    # Another seat signed it: its claim.
    "st_says_away": ("{by} says {name} stayed away too long;",
                     "{by} dit que l'absence de {name} a trop duré ;"),
    "st_says_away_me": ("{by} says you stayed away too long;",
                        "{by} dit que votre absence a trop duré ;"),
    "st_says_slow": ("{by} says {name} took too long to play;",
                     "{by} dit que {name} a mis trop longtemps à jouer ;"),
    "st_says_slow_me": ("{by} says you took too long to play;",
                        "{by} dit que vous avez mis trop longtemps à jouer ;"),
    "st_says": ("{by} says {name} is at fault ({why});",
                "{by} dit que {name} est en faute ({why}) ;"),
    "st_says_me": ("{by} says you are at fault ({why});",
                   "{by} dit que vous êtes en faute ({why}) ;"),
    "st_you_say": ("you say {name} is at fault ({why});",
                   "vous dites que {name} est en faute ({why}) ;"),
    "st_broke": ("{name} broke the rules ({why}): the game is over.",
                 "{name} a enfreint les règles ({why}) : la partie est finie."),
    "st_broke_loses": ("{name} broke the rules ({why}): the game is over, and {name}'s side "
                       "loses the match.",
                       "{name} a enfreint les règles ({why}) : la partie est finie, et le camp "
                       "de {name} la perd."),
    "st_broke_loses_me": ("the others' checks found a fault in your moves ({why}): the game is "
                          "over, and your side loses the match.",
                          "les vérifications des autres ont trouvé une faute dans vos coups "
                          "({why}) : la partie est finie, et votre camp la perd."),
    "st_broke_me": ("the others' checks found a fault in your moves ({why}): the game is over.",
                    "les vérifications des autres ont trouvé une faute dans vos coups ({why}) : "
                    "la partie est finie."),
    "st_nobody": ("{by} ended the game without blaming anyone ({why}).",
                  "{by} a mis fin à la partie sans accuser personne ({why})."),
    "st_nobody_me": ("you ended the game without blaming anyone ({why}).",
                     "vous avez mis fin à la partie sans accuser personne ({why})."),
    # A flag the flagged seat disputed with its own clock (PROTOCOL.md 12.6).
    "st_disputed": ("{by} flagged {name} on time, and {name} disputes it: by {name}'s own "
                    "clock there was time left. One word against the other: the match counts "
                    "for nobody.",
                    "{by} déclare {name} hors temps, et {name} le conteste : selon sa propre "
                    "horloge il restait du temps. Parole contre parole : la partie ne compte "
                    "pour personne."),
    "st_disputed_me": ("{by} flagged you on time, but your own clock showed time left: you "
                       "disputed it (signed in your log). The match counts for nobody.",
                       "{by} vous déclare hors temps, mais votre horloge montrait du temps "
                       "restant : vous l'avez contesté (signé dans votre journal). La partie "
                       "ne compte pour personne."),
    "st_disputed_by_me": ("you flagged {name} on time, and {name} disputes it with its own "
                          "clock. One word against the other: the match counts for nobody.",
                          "vous avez déclaré {name} hors temps, et {name} le conteste avec sa "
                          "propre horloge. Parole contre parole : la partie ne compte pour "
                          "personne."),
    "st_refuted": ("the entry it cites passes every check: the claim is refuted.",
                   "l'entrée citée passe toutes les vérifications : l'accusation est réfutée."),
}


_VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"
_BEFORE_VALUE = re.compile(r"\b([Qq]u|[Dd])e \{(\w+)\}")


# A card's full name (cli/outputs/replay_html.py's titles): the figures by their letter in
# the library's labels (Tunisian or French convention), the suits by their wire letter.
MESSAGES |= {
    "card_name": ("{rank} of {suit}", "{rank} de {suit}"),
    "card_rank_A": ("Ace", "As"),
    "card_rank_K": ("King", "Roi"),
    "card_rank_Q": ("Queen", "Dame"),
    "card_rank_J": ("Jack", "Valet"),
    "card_suit_S": ("spades", "pique"),
    "card_suit_H": ("hearts", "cœur"),
    "card_suit_D": ("diamonds", "carreau"),
    "card_suit_C": ("clubs", "trèfle"),
}


#: The figures' letters on the cards, by language (a card's label is the library's:
#: ``Q♥``; French decks print R, D, V for Roi, Dame, Valet).  The one place a screen's
#: card letters change with the language.
FIGURE_LETTERS = {"en": {}, "fr": {"K": "R", "Q": "D", "J": "V"}}


# The audited match as a web page (cli/outputs/replay_html.py): its headings and sentences;
# values reach them already escaped as HTML, so no markup is written here.
MESSAGES |= {
    "rh_title": ("Chkobba match", "Partie de chkobba"),
    "rh_verdict": ("Verdict", "Verdict"),
    "rh_valid": ("VALID", "VALIDE"),
    "rh_unsupported": ("CANNOT AUDIT", "AUDIT IMPOSSIBLE"),
    "rh_valid_long": ("Every signature, the chain of entries, every proof of the deal, every "
                      "move and every score check out.",
                      "Chaque signature, la chaîne des entrées, chaque preuve de la donne, "
                      "chaque coup et chaque score sont vérifiés."),
    "rh_invalid_long": ("The log breaks the rules at entry #{entry}.",
                        "Le journal enfreint les règles à l'entrée n°{entry}."),
    "rh_incomplete_long": ("No violation, but the match did not finish.",
                           "Aucune infraction, mais la partie n'est pas allée au bout."),
    "rh_blamed": ("Blamed: {who}", "En faute : {who}"),
    "rh_blamed_nobody": ("No player is blamed: the file was altered after it was written.",
                         "Aucun joueur n'est en faute : le fichier a été modifié après coup."),
    "rh_claim": ("An abort blames {who} (a claim the log cannot prove).",
                 "Un abandon accuse {who} (une affirmation que le journal ne peut prouver)."),
    "rh_reason": ("Why", "Pourquoi"),
    "rh_offending": ("Offending entry", "Entrée fautive"),
    "rh_winner": ("{who} wins the match, {totals}.", "{who} gagne la partie, {totals}."),
    "rh_resigned": ("{by} resigned at entry #{entry}: {who} wins the match.",
                    "{by} a abandonné à l'entrée n°{entry} : {who} gagne la partie."),
    # At 4 players the winning side is two people, named: the verb agrees.
    "rh_winner_team": ("{who} win the match, {totals}.", "{who} gagnent la partie, {totals}."),
    "rh_resigned_team": ("{by} resigned at entry #{entry}: {who} win the match.",
                         "{by} a abandonné à l'entrée n°{entry} : {who} gagnent la partie."),
    "rh_resigned_nobody": ("{by} resigned at entry #{entry} and loses: the two others are "
                           "level, and nobody wins.",
                           "{by} a abandonné à l'entrée n°{entry} et perd : les deux autres "
                           "sont à égalité, et personne ne gagne."),
    "rh_resigned_score": ("The score when the match ended: {totals}, in a match to {target}.",
                          "Le score à l'abandon : {totals}, dans une partie en {target}."),
    "rh_left": ("{by} left the match at entry #{entry}: {who} wins the match.",
                "{by} a quitté la partie à l'entrée n°{entry} : {who} gagne la partie."),
    "rh_left_team": ("{by} left the match at entry #{entry}: {who} win the match.",
                     "{by} a quitté la partie à l'entrée n°{entry} : {who} gagnent la "
                     "partie."),
    "rh_resigned_here": ("{who} resigned here.", "{who} a abandonné ici."),
    "rh_on_time": ("{late} lost on time at entry #{entry}: {who} wins the match. The log shows "
                   "it was {late}'s turn; that the time ran out is {signer}'s word, with "
                   "{signer}'s clock reading in the log.",
                   "{late} perd au temps à l'entrée n°{entry} : {who} gagne la partie. Le "
                   "journal montre que c'était à {late} de jouer ; que le temps soit écoulé "
                   "est la parole de {signer}, dont le relevé d'horloge est dans le journal."),
    "rh_on_time_team": ("{late} lost on time at entry #{entry}: {who} win the match. The "
                        "log shows it was {late}'s turn; that the time ran out is {signer}'s "
                        "word, with {signer}'s clock reading in the log.",
                        "{late} perd au temps à l'entrée n°{entry} : {who} gagnent la partie. "
                        "Le journal montre que c'était à {late} de jouer ; que le temps soit "
                        "écoulé est la parole de {signer}, dont le relevé d'horloge est dans "
                        "le journal."),
    "rh_on_time_here": ("{who} ran out of time here.", "{who} n'a plus eu de temps ici."),
    "rh_players": ("Players", "Joueurs"),
    "rh_seat": ("Seat", "Place"),
    "rh_name": ("Name and key fingerprint", "Nom et empreinte de clé"),
    "rh_side": ("Side", "Camp"),
    "rh_team": ("team {n}", "équipe {n}"),
    "rh_key": ("Key fingerprint", "Empreinte de clé"),
    "rh_rules": ("Rules", "Règles"),
    "rh_first_dealer": ("First dealer: {who}", "Premier donneur : {who}"),
    "rh_draw": ("First-dealer draw", "Tirage du premier donneur"),
    "rh_hand": ("Hand {n}", "Manche {n}"),
    "rh_dealer": ("Dealer {who}", "Donneur {who}"),
    "rh_cutter": ("cutter {who}", "coupeur {who}"),
    "rh_redeal": ("Dealt again (opening table {cards})", "Redonnée (table d'ouverture {cards})"),
    "rh_opening": ("Opening table", "Table d'ouverture"),
    "rh_dealt": ("Cards dealt", "Cartes distribuées"),
    "rh_plays": ("Plays", "Coups"),
    "rh_takes": ("takes", "prend"),
    "rh_g_title": ("The coach", "Le coach"),
    "rh_g_better": ("better was {move}", "mieux valait {move}"),
    "rh_g_decisions": ("decisions", "décisions"),
    "rh_g_mean": ("mean loss", "perte moyenne"),
    "rh_g_mistakes": ("mistakes", "erreurs"),
    "rh_g_blunders": ("blunders", "gaffes"),
    "rh_g_accuracy": ("accuracy", "précision"),
    "rh_g_how": ("Every play and cut graded by the expert's search from what the player saw "
                 "then (never the cards revealed later): the loss is the points of the hand "
                 "(expected margin) the move gave up against the best one. Mistake from "
                 "{mistake}, blunder from {blunder}; {samples} sampled worlds per decision, "
                 "seed {seed}. Accuracy: the share of decisions that are neither.",
                 "Chaque coup et chaque coupe notés par la recherche de l'expert à partir de "
                 "ce que le joueur voyait alors (jamais les cartes révélées ensuite) : la "
                 "perte est en points de la manche (écart espéré) cédés face au meilleur coup. "
                 "Erreur dès {mistake}, gaffe dès {blunder} ; {samples} mondes tirés par "
                 "décision, graine {seed}. Précision : la part des décisions qui ne sont ni "
                 "l'une ni l'autre."),
    "rh_held": ("the cards in hand, revealed at the end of the hand",
                "les cartes en main, révélées à la fin de la manche"),
    "rh_face_up": ("Every hand is face up: the cards each player held at each play, revealed "
                   "at the end of the hand, are in brackets.",
                   "Toutes les cartes sont visibles : entre parenthèses, celles que chaque "
                   "joueur avait en main à chaque coup, révélées à la fin de la manche."),
    "rh_stopped": ("✗ Entry #{entry}, by {who}: refused (see the verdict)",
                   "✗ Entrée n°{entry}, de {who} : refusée (voir le verdict)"),
    "rh_stopped_here": ("The game stopped here.", "La partie s'est arrêtée ici."),
    "rh_deal_more": ("— {n} more cards each —", "— {n} cartes de plus chacun —"),
    "rh_stays": ("stays on the table", "reste sur la table"),
    "rh_rest": ("{who} takes the rest: {cards}", "{who} ramasse le reste : {cards}"),
    "rh_nobody": ("nobody", "personne"),
    "rh_score": ("Score", "Score"),
    "rh_cards": ("cards", "cartes"),
    "rh_diamonds": ("diamonds", "carreaux"),
    "rh_sevens": ("sevens", "sept"),
    "rh_sixes": ("sixes", "six"),
    "rh_chkobbas": ("chkobbas", "chkobbas"),
    "rh_points": ("points", "points"),
    "rh_total": ("total", "total"),
    "rh_beji": ("beji (tie)", "beji (égalité)"),
    "rh_after": ("after hand", "après la manche"),
    "rh_aborts": ("Aborts", "Abandons"),
    "rh_abort": ("Entry #{index}: {by} ended the game ({code}): {why}",
                 "Entrée n°{index} : {by} a arrêté la partie ({code}) : {why}"),
    "rh_warnings": ("Warnings", "Avertissements"),
    "rh_footer": ("Made by chkobba replay from the signed log {path}. Check it yourself: "
                  "chkobba replay LOG.",
                  "Produit par chkobba replay à partir du journal signé {path}. Vérifiez-le "
                  "vous-même : chkobba replay JOURNAL."),
    "rh_game": ("Game {id}, {players} players", "Partie {id}, {players} joueurs"),
}


# A spectator's commentary (chkobba watch --text), a plain line per event.
MESSAGES |= {
    "wn_table": ("table: {n} players, {rules}", "table : {n} joueurs, {rules}"),
    "wn_seat": ("  seat {seat}: {name} (key {fp})", "  place {seat} : {name} (clé {fp})"),
    "wn_lobby": ("lobby: {seats}", "salon : {seats}"),
    "wn_watching": ("watching ({n}/{max}): {names}", "spectateurs ({n}/{max}) : {names}"),
    "wn_nobody": ("nobody", "personne"),
    # A seat the table's names do not cover (before the genesis names them).
    "wn_seat_n": ("seat {n}", "place {n}"),
    "wn_hand": ("-- hand {n}: {name} deals", "-- manche {n} : {name} donne"),
    "wn_redeal": ("-- the opening is dealt again by {name}", "-- {name} redonne l'ouverture"),
    "wn_table_cards": ("table {cards}", "table {cards}"),
    "wn_face_down": ("{n} face down to {names}", "{n} face cachée à {names}"),
    "wn_deal": ("deal: {what}", "donne : {what}"),
    "wn_drawn": ("draw: {what}", "tirage : {what}"),
    "wn_rest": ("{name} takes the rest: {cards}", "{name} ramasse le reste : {cards}"),
    "wn_revealed": ("seeds open, {what} was dealt: {hands}",
                    "graines ouvertes, {what} : {hands}"),
    "wn_abandoned": ("the abandoned deal", "la donne abandonnée"),
    "wn_scored": ("hand {n} scored: {points} (totals {totals})",
                  "manche {n} : {points} (totaux {totals})"),
    "wn_over": ("match over: {name} wins {score}; every player signed the result",
                "fin de la partie : {name} gagne {score} ; chaque joueur a signé le résultat"),
    "wn_over_pl": ("match over: {name} win {score}; every player signed the result",
                   "fin de la partie : {name} gagnent {score} ; chaque joueur a signé le "
                   "résultat"),
    "wn_ended": ("{name} ended the game: {code}{blamed}: {why}",
                 "{name} a arrêté la partie : {code}{blamed} : {why}"),
    "wn_claim": (", blaming {name} (its claim)", ", accuse {name} (sa version)"),
    "wn_waiting": ("waiting {n} s for {name} to come back",
                   "on attend {name} encore {n} s"),
    "wn_back": ("{name} is back", "{name} est de retour"),
    "wn_cheat": ("CHEAT CAUGHT", "TRICHE DÉTECTÉE"),
    "wn_at": (" at entry #{n}", " à l'entrée n°{n}"),
    # The commentary's verdict line: the verdict, where, then why ({code}: the check's
    # code, with its colon, or nothing) and who is blamed.
    "wn_verdict": ("{head}{where}: {code}{why}{blame}", "{head}{where} : {code}{why}{blame}"),
    "wn_code": ("{code}: ", "{code} : "),
    "wn_blamed": (" -- blamed: {name}", " -- en faute : {name}"),
    "wn_altered": (" -- no player is blamed (the entry was altered)",
                   " -- aucun joueur en faute (l'entrée a été modifiée)"),
    "wn_stopped": ("stopped: {why}", "arrêt : {why}"),
    "wn_log": ("log: {path} (check it: chkobba replay {path})",
               "journal : {path} (vérifiez-le : chkobba replay {path})"),
}


#: The OS's failures to connect that a player can act on: errno (or getaddrinfo's
#: EAI_*) and the words the OS uses for them, to the sentence that says them.
_OS_ERRNOS = {
    -2: "err_no_name", -3: "err_no_name", -5: "err_no_name", -9: "err_no_name",
    111: "err_refused_conn", 101: "err_unreachable", 113: "err_unreachable",
    110: "err_conn_timeout",
}
_OS_WORDS = (
    ("name or service not known", "err_no_name"),
    ("nodename nor servname", "err_no_name"),
    ("temporary failure in name resolution", "err_no_name"),
    ("no address associated with hostname", "err_no_name"),
    ("connection refused", "err_refused_conn"),
    ("network is unreachable", "err_unreachable"),
    ("no route to host", "err_unreachable"),
    ("connection timed out", "err_conn_timeout"),
)
_ERRNO = re.compile(r"\[Errno (-?\d+)\][^;]*$")


# Why a join got no game (Outcome.error_reason, ERROR_REASONS in the library's link
# events), with the data each case carries: the library has no sentence for them.
MESSAGES |= {
    "oe_host_key_mismatch": (
        "the host at {where} has the key {actual}, not {pinned} as the join code says: "
        "another machine, or someone in the middle; not joining",
        "l'hôte à {where} a la clé {actual}, pas {pinned} comme le dit le code : une autre "
        "machine, ou quelqu'un au milieu ; on ne rejoint pas"),
    "oe_game_unknown": (
        "the host at {where} no longer has this game (it may have ended while you were "
        "away, and the host no longer keeps its log); nothing was signed: your log keeps "
        "the game as far as it went, and the same command now joins the host's new table",
        "l'hôte à {where} n'a plus cette partie (elle s'est peut-être terminée pendant votre "
        "absence, et l'hôte n'en garde plus le journal) ; rien n'a été signé : votre journal "
        "garde la partie jusqu'où elle est allée, et la même commande rejoint maintenant la "
        "nouvelle table de l'hôte"),
    "oe_filed": ("{said} (its saved game is filed at {filed})",
                 "{said} (sa partie enregistrée est rangée dans {filed})"),
    "oe_refused": ("refused: {what}", "refus : {what}"),
    "oe_host_adds": ('{what} (the host adds: "{text}")', "{what} (l'hôte ajoute : « {text} »)"),
    "oe_unknown_code": ("an error code this program does not know ({n})",
                        "un code d'erreur que ce programme ne connaît pas ({n})"),
    "oe_closed_in_handshake": ("the host closed the connection during the handshake",
                               "l'hôte a fermé la connexion pendant la poignée de main"),
    "oe_handshake_failed": ("handshake failed: {detail}",
                            "échec de la poignée de main : {detail}"),
    "oe_host_changed": ("the host's identity changed", "l'identité de l'hôte a changé"),
    "oe_connect_refused": ("cannot connect to {where}: connection refused",
                           "connexion impossible à {where} : connexion refusée"),
    "oe_connect_failed": ("cannot connect to {where}: {why}",
                          "connexion impossible à {where} : {why}"),
    "oe_unreachable_closed": (
        "cannot reach {where}: nobody is listening there (the host may have closed the "
        "table); try again later",
        "{where} injoignable : personne n'y écoute (l'hôte a peut-être fermé la table) ; "
        "réessayez plus tard"),
    "oe_unreachable": ("cannot reach {where} ({why}); try again later",
                       "{where} injoignable ({why}) ; réessayez plus tard"),
    "oe_host_away_kept": (
        "the host at {where} stayed away longer than its time away allows; nothing was "
        "signed, and the saved game waits for the host to start it again",
        "l'hôte à {where} est resté absent plus longtemps que son temps d'absence ne le "
        "permet ; rien n'a été signé, et la partie enregistrée attend que l'hôte la "
        "relance"),
    "oe_no_host_answered": (
        "{where} accepted the connection but no chkobba host answered; try again later",
        "{where} a accepté la connexion mais aucun hôte chkobba n'a répondu ; réessayez "
        "plus tard"),
    "oe_lobby_shutdown": ("the host closed the table before the game started",
                          "l'hôte a fermé la table avant le début de la partie"),
    "oe_lobby_ended": ("the host ended our connection before the game started ({code}: "
                       "{text})",
                       "l'hôte a mis fin à notre connexion avant le début de la partie "
                       "({code} : {text})"),
    "oe_lobby_closed": ("the connection to the host closed before the match started",
                        "la connexion avec l'hôte s'est fermée avant le début de la partie"),
    "oe_no_table": ("the host accepted us but sent no usable table within {seconds} s",
                    "l'hôte nous a acceptés mais n'a envoyé aucune table utilisable en "
                    "{seconds} s"),
    "oe_no_table_why": ("the host accepted us but sent no usable table ({detail})",
                        "l'hôte nous a acceptés mais n'a envoyé aucune table utilisable "
                        "({detail})"),
    "oe_bad_genesis": ("bad genesis from the host: {detail}",
                       "genèse invalide venue de l'hôte : {detail}"),
    "oe_saved_game_missing": (
        "you already hold a seat in this game but its saved state is not on this machine: "
        "come back from the machine you played on",
        "vous avez déjà une place dans cette partie mais son état enregistré n'est pas sur "
        "cette machine : revenez depuis la machine où vous avez joué"),
    "oe_closed": ("the host closed the connection", "l'hôte a fermé la connexion"),
    "oe_handshake_timeout": ("the handshake did not complete in time",
                             "la poignée de main ne s'est pas terminée à temps"),
    "oe_already_over": ("this game is already over (its log holds the end); nothing to "
                        "rejoin",
                        "cette partie est déjà terminée (son journal en garde la fin) ; rien "
                        "à rejoindre"),
    # A wire error code (PROTOCOL.md, error codes) as a person reads it: a host's refusal.
    "wire_frame_too_large": ("a frame longer than the maximum size was announced",
                             "une trame plus longue que la taille maximale a été annoncée"),
    "wire_malformed": ("a frame did not hold exactly one valid msgpack map",
                       "une trame ne contenait pas exactement une table msgpack valide"),
    "wire_unknown_type": ("a message type this peer does not know, where none is allowed",
                          "un type de message que ce pair ne connaît pas, là où aucun n'est "
                          "permis"),
    "wire_bad_field": ("a required field is missing, has the wrong type or is too long",
                       "un champ requis manque, a le mauvais type ou est trop long"),
    "wire_version_mismatch": ("no protocol version in common",
                              "aucune version du protocole en commun"),
    "wire_bad_proof_of_possession": ("the identity key's proof of possession is invalid",
                                     "la preuve de possession de la clé d'identité est "
                                     "invalide"),
    "wire_table_full": ("every seat at this table is taken",
                        "toutes les places de cette table sont prises"),
    "wire_already_seated": ("this identity is already connected at this table",
                            "cette identité est déjà connectée à cette table"),
    "wire_unknown_game": ("the game to resume is not the one running here",
                          "la partie à reprendre n'est pas celle qui se joue ici"),
    "wire_handshake_timeout": ("the handshake did not complete in time",
                               "la poignée de main ne s'est pas terminée à temps"),
    "wire_spectators_closed": ("this table admits no (more) spectators",
                               "cette table n'admet pas (plus) de spectateurs"),
    "wire_seat_refused": ("the host freed this seat and refuses this identity at its table",
                          "l'hôte a libéré cette place et refuse cette identité à sa table"),
    "wire_ready_timeout": ("this seat did not confirm the table within the ready check",
                           "cette place n'a pas confirmé la table pendant la vérification"),
    "wire_secret_required": ("this table seats only those who have the secret in its join "
                             "code, and the hello proved none",
                             "cette table n'accueille que ceux qui ont le secret de son code, "
                             "et le hello n'en a prouvé aucun"),
    "wire_secret_wrong": ("the hello's proof of the table's secret is wrong (another secret, "
                          "or a proof made for another connection)",
                          "la preuve du secret de la table est fausse (un autre secret, ou "
                          "une preuve faite pour une autre connexion)"),
    "wire_bad_signature": ("a signed entry's signature does not verify",
                           "la signature d'une entrée signée n'est pas valide"),
    "wire_bad_chain": ("a signed entry does not extend the transcript (prev differs)",
                       "une entrée signée ne prolonge pas la transcription (prev diffère)"),
    "wire_out_of_turn": ("a signed entry from a seat that does not hold the floor",
                         "une entrée signée d'une place qui n'a pas la main"),
    "wire_bad_sequence": ("a signed entry's sequence number is not the next one",
                          "le numéro d'ordre d'une entrée signée n'est pas le suivant"),
    "wire_wrong_game": ("a signed entry belongs to another game",
                        "une entrée signée appartient à une autre partie"),
    "wire_entry_too_large": ("a signed entry is larger than its kind allows, or carries too "
                             "many unknown fields",
                             "une entrée signée est plus grande que son genre ne le permet, "
                             "ou porte trop de champs inconnus"),
    "wire_transcript_too_long": ("the transcript reached its maximum size",
                                 "la transcription a atteint sa taille maximale"),
    "wire_illegal_move": ("a move the rules forbid", "un coup que les règles interdisent"),
    "wire_deal_failure": ("a deal message failed its check (proof, share, commitment)",
                          "un message de la donne a échoué à sa vérification (preuve, part, "
                          "engagement)"),
    "wire_result_mismatch": ("a peer reported a different match result",
                             "un pair a annoncé un autre résultat du match"),
    "wire_protocol_violation": ("a message is well formed but makes no sense here",
                                "un message bien formé mais qui n'a pas de sens ici"),
    "wire_resigned": ("a player resigned: their side loses the match",
                      "un joueur a abandonné : son camp perd la partie"),
    "wire_timeout": ("a peer did not send in time", "un pair n'a pas envoyé à temps"),
    "wire_peer_left": ("a peer left (on purpose, or did not come back in time)",
                       "un pair est parti (exprès, ou n'est pas revenu à temps)"),
    "wire_shutdown": ("the peer is shutting down", "le pair s'arrête"),
    "wire_clock_dispute": ("a seat disputes a flag: its own clock showed time left",
                           "une place conteste une chute : sa propre pendule montrait du "
                           "temps restant"),
}

# The library's coded local errors (issue 41), by code: a log that is not one
# (LOG_PROBLEMS in chkobba_p2p.wire.logfile: "lu_" + the code), a typed address or port
# (chkobba_p2p.address.ADDRESS_PROBLEMS: "ad_"), a host that cannot listen
# (chkobba_p2p.address.LISTEN_PROBLEMS: "ls_"); :func:`local_error_text` chooses.  A
# {text} is what was typed, quoted; a {why} the OS's own words.
MESSAGES |= {
    "lu_log_missing": ("{path}: no such file", "{path} : fichier introuvable"),
    "lu_log_cannot_read": ("cannot read {path}: {why}", "impossible de lire {path} : {why}"),
    "lu_log_too_big": ("{path}: larger than the {limit}-byte limit for a log",
                       "{path} : plus grand que la limite de {limit} octets d'un journal"),
    "lu_log_not_chkobba": ("{path}: not a chkobba log (a log is a .chklog file that "
                           "chkobba play, host, join, bot and watch write; 'chkobba "
                           "history' lists yours)",
                           "{path} : pas un journal de chkobba (un journal est un fichier "
                           ".chklog qu'écrivent chkobba play, host, join, bot et watch ; "
                           "« chkobba history » liste les vôtres)"),
    "lu_log_too_many_entries": ("{path}: more than {max} entries",
                                "{path} : plus de {max} entrées"),
    "lu_log_no_header": ("{path}: no header (the file holds no complete frame)",
                         "{path} : pas d'en-tête (le fichier ne contient aucune trame "
                         "complète)"),
    "lu_log_header_not_a_message": ("{path}: the header frame is not a message",
                                    "{path} : la trame d'en-tête n'est pas un message"),
    "lu_log_not_a_header": ("{path}: the first frame is not a log header",
                            "{path} : la première trame n'est pas un en-tête de journal"),
    "lu_log_bad_frame": ("{path}: a frame announces more bytes than any frame may hold",
                         "{path} : une trame annonce plus d'octets qu'aucune trame ne peut "
                         "en contenir"),
    # An identity key file (chkobba_p2p.lowlevel.KEY_PROBLEMS: "ik_").
    "ik_key_readable_by_others": (
        "{path}: this key file can be read by other users of this computer, who could "
        "play as you; make it yours alone (chmod 600 {path}) and run the command again",
        "{path} : d'autres utilisateurs de cet ordinateur peuvent lire ce fichier de clé "
        "et jouer à votre place ; rendez-le à vous seul (chmod 600 {path}) et relancez la "
        "commande"),
    "ik_key_not_an_identity": (
        "{path}: not an identity key file (a key file holds 32 bytes, written by chkobba "
        "when it creates it)",
        "{path} : pas un fichier de clé d'identité (un fichier de clé contient 32 octets, "
        "écrits par chkobba quand il le crée)"),
    "ik_key_missing": ("{path}: no identity key file there",
                       "{path} : aucun fichier de clé d'identité à cet endroit"),
    "lu_folder_missing": ("{path}: no such folder", "{path} : dossier introuvable"),
    "lu_not_a_folder": ("{path}: not a folder", "{path} : pas un dossier"),
    "lu_folder_cannot_read": ("cannot read the folder {path}: {why}",
                              "impossible de lire le dossier {path} : {why}"),
    "ad_port_empty": ("not a port number: an empty port (a port is 1 to 65535)",
                      "pas un numéro de port : un port vide (un port va de 1 à 65535)"),
    "ad_port_not_a_number": ("not a port number: {text} (a port is 1 to 65535)",
                             "pas un numéro de port : {text} (un port va de 1 à 65535)"),
    "ad_port_out_of_range": ("port {port} is out of range (a port is {low} to 65535)",
                             "le port {port} est hors limites (un port va de {low} à 65535)"),
    "ad_not_a_fingerprint": ("not a host key fingerprint: {text} (16 hex digits, "
                             "e.g. 2935-c4f7-816c-a26c)",
                             "pas une empreinte de clé d'hôte : {text} (16 chiffres "
                             "hexadécimaux, par ex. 2935-c4f7-816c-a26c)"),
    "ad_not_a_secret": ("not a table secret: {text} (16 letters and digits 2 to 7, "
                        "e.g. k7m2-x4qa-b3cd-e5fg)",
                        "pas un secret de table : {text} (16 lettres et chiffres de 2 à 7, "
                        "par ex. k7m2-x4qa-b3cd-e5fg)"),
    "ad_not_an_address": ("not an address: {text}", "pas une adresse : {text}"),
    "ad_address_empty": ("empty address (expected HOST or HOST:PORT)",
                         "adresse vide (attendu : HÔTE ou HÔTE:PORT)"),
    "ad_bad_ipv6": ("not an address: {text} (an IPv6 address is written like ::1, or "
                    "[::1]:7777 with a port)",
                    "pas une adresse : {text} (une adresse IPv6 s'écrit comme ::1, ou "
                    "[::1]:7777 avec un port)"),
    "ad_bad_host": ("not an address: {text} (expected HOST or HOST:PORT, "
                    "e.g. 192.168.1.20:7777)",
                    "pas une adresse : {text} (attendu : HÔTE ou HÔTE:PORT, "
                    "par ex. 192.168.1.20:7777)"),
    "ad_bad_brackets": ("not an address: {text} (expected [IPv6]:PORT)",
                        "pas une adresse : {text} (attendu : [IPv6]:PORT)"),
    "ad_brackets_not_ipv6": ("not an address: {text} (brackets hold an IPv6 address)",
                             "pas une adresse : {text} (les crochets entourent une adresse "
                             "IPv6)"),
    "ad_port_after_colon_empty": ("not an address: {text} (the port after ':' is empty)",
                                  "pas une adresse : {text} (le port après « : » est vide)"),
    "ls_port_in_use": ("port {port} is already in use ({where}: another host, or another "
                       "program, listens there); choose another with --port",
                       "le port {port} est déjà pris ({where} : un autre hôte, ou un autre "
                       "programme, y écoute) ; choisissez-en un autre avec --port"),
    "ls_port_privileged": ("port {port} is a privileged port (below 1024) that only the "
                           "administrator may listen on; choose another with --port "
                           "(default {default})",
                           "le port {port} est un port privilégié (sous 1024) que seul "
                           "l'administrateur peut écouter ; choisissez-en un autre avec "
                           "--port (par défaut {default})"),
    "ls_listen_not_allowed": ("not allowed to listen on {where}; choose another port with "
                              "--port",
                              "pas le droit d'écouter sur {where} ; choisissez un autre port "
                              "avec --port"),
    "ls_no_such_address": ("cannot listen on {where}: this machine has no such address "
                           "(see --bind)",
                           "impossible d'écouter sur {where} : cette machine n'a pas cette "
                           "adresse (voir --bind)"),
    "ls_listen_failed": ("cannot listen on {where}: {why}",
                         "impossible d'écouter sur {where} : {why}"),
}

# Rules that cannot be (chkobba_p2p.game.rules.RULESET_PROBLEMS: "ru_" + the code) and
# bots that cannot be made or an offline match that cannot end
# (chkobba_p2p.bots.levels.BOT_PROBLEMS: "bo_"), as --rules, --variant, --target, --bots,
# --a, --b and --move-ms give them (chkobba play, host, bot, simulate, arena).
MESSAGES |= {
    "ru_target_out_of_range": ("the target must be a whole number of points from {low} to "
                               "{high}, not {target}",
                               "l'objectif doit être un nombre entier de points de {low} à "
                               "{high}, pas {target}"),
    "ru_unknown_preset": ("unknown rules preset {name}; choose one of {choices}",
                          "règles prédéfinies inconnues : {name} ; choisissez parmi {choices}"),
    "ru_unknown_variant": ("unknown variant {name}; choose among {choices}",
                           "variante inconnue : {name} ; choisissez parmi {choices}"),
    "ru_field_kind": ("a ruleset's {field} must be {kind}",
                      "le champ {field} d'un jeu de règles doit être {kind}"),
    # What a ruleset's field must be (RulesetError's ``kind``: the type's name, worded
    # here, never shown as Python spells it): "rk_" + the kind.
    "rk_bool": ("true or false", "vrai ou faux"),
    "rk_str": ("a text", "un texte"),
    "rk_int": ("a whole number", "un nombre entier"),
    "rk_Opening": ("one of the openings", "l'une des ouvertures"),
    "rk_RedealRule": ("one of the redeal rules", "l'une des règles de redonne"),
    "rk_Scoring": ("one of the scorings", "l'un des décomptes"),
    "rk_FigureConvention": ("one of the figure conventions",
                            "l'une des conventions des figures"),
    "ru_not_a_map": ("a ruleset is a map", "un jeu de règles est un dictionnaire"),
    "ru_field_missing": ("the ruleset lacks its {field}",
                         "il manque au jeu de règles son champ {field}"),
    "ru_unknown_value": ("a ruleset's {field} cannot be {value}",
                         "le champ {field} d'un jeu de règles ne peut valoir {value}"),
    "bo_unknown_level": ("unknown bot level {level}; choose among {choices}",
                         "niveau de robot inconnu : {level} ; choisissez parmi {choices}"),
    "bo_move_ms_not_positive": ("the time budget per move must be positive, not {move_ms} ms",
                                "le temps par coup doit être positif, pas {move_ms} ms"),
    "bo_no_winner": ("no winner after {hands} hands: these bots never reach the target",
                     "aucun gagnant après {hands} manches : ces robots n'atteignent jamais "
                     "l'objectif"),
    # A bot asked what its seat cannot decide: this program's own mistake, never a seat's.
    "bo_not_a_seat_view": ("a bot was shown every card instead of its seat's view",
                           "un robot a vu toutes les cartes au lieu de la vue de sa place"),
    "bo_not_its_turn": ("a bot was asked to play when it was not its turn",
                        "on a demandé à un robot de jouer hors de son tour"),
    "bo_not_the_cutter": ("a bot was asked to keep or place a cut card it did not draw",
                          "on a demandé à un robot de garder ou de poser une carte coupée "
                          "qu'il n'a pas tirée"),
    # The learned policy's weights shipped with the package: a damaged install.
    "bo_model_unreadable": ("the learned policy's weights file is damaged (reinstall "
                            "chkobba-p2p)",
                            "le fichier des poids de la politique apprise est abîmé "
                            "(réinstallez chkobba-p2p)"),
    "bo_model_other_features": ("the learned policy's weights were fitted for another "
                                "version (reinstall chkobba-p2p)",
                                "les poids de la politique apprise viennent d'une autre "
                                "version (réinstallez chkobba-p2p)"),
    "bo_model_weights": ("the learned policy's weights file does not hold {count} finite "
                         "weights (reinstall chkobba-p2p)",
                         "le fichier des poids de la politique apprise ne contient pas "
                         "{count} poids finis (réinstallez chkobba-p2p)"),
    # A move the rules engine refused (an IllegalMove's ``rule``, worded by RULE_NAMES).
    "rule_broken": ("illegal move: {rule}", "coup interdit : {rule}"),
    # This seat's choice refused (a ChoiceRefused event: the rule, or the misuse's code).
    "ev_choice_refused": ("choice refused ({why}): choose again",
                          "choix refusé ({why}) : choisissez de nouveau"),
    "ev_choice_refused_why": ("a choice this program made wrongly",
                              "un choix que ce programme a mal fait"),
}

# The library's API used wrongly by this program itself (issue 41): never a player's doing,
# said as this program's mistake, by code.  The expert's arguments and search
# (chkobba_p2p.bots.levels.BOT_PROBLEMS: "bo_"), the rules model (chkobba_p2p.game.rules.
# GAME_PROBLEMS: "gm_"), a session or game driver (chkobba_p2p.lowlevel.TRANSCRIPT_PROBLEMS:
# "tu_"), the review and the observer (chkobba_p2p.observe.errors.OBSERVE_PROBLEMS: "ob_"),
# the link's cores (chkobba_p2p.lowlevel.LINK_PROBLEMS: "lk_"), the wire
# (chkobba_p2p.lowlevel.WIRE_PROBLEMS: "wu_"), the deal (chkobba_p2p.lowlevel.DEAL_PROBLEMS:
# "du_"; its {phase} and {action} as the deal names them).  A {card} is a card's letters in
# the language.
MESSAGES |= {
    "bo_no_budget": ("the expert bot was given neither a time per move nor a number of "
                     "samples",
                     "le robot expert n'a reçu ni temps par coup ni nombre de tirages"),
    "bo_unknown_playout": ("unknown playout policy {playout}; choose among {choices}",
                           "politique de fin de partie simulée inconnue : {playout} ; "
                           "choisissez parmi {choices}"),
    "bo_open_hand_to_determinize": ("a bot was asked to guess the hidden cards of a hand "
                                    "whose every card is open",
                                    "on a demandé à un robot de deviner les cartes cachées "
                                    "d'une main dont toutes les cartes sont visibles"),
    "bo_exact_search_needs_a_world": ("the expert's exact search was given a seat's view "
                                      "instead of a world with every card known",
                                      "la recherche exacte de l'expert a reçu la vue d'une "
                                      "place au lieu d'un monde où toutes les cartes sont "
                                      "connues"),
    "bo_stock_of_a_view": ("a bot was asked to deal the stock of a seat's view instead of "
                           "the whole hand",
                           "on a demandé à un robot de distribuer le talon de la vue d'une "
                           "place au lieu de la main entière"),
    "bo_seeing_level_at_a_table": ("the {level} level sees every card: it plays only in the "
                                   "arena's measurement, never at a table",
                                   "le niveau {level} voit toutes les cartes : il ne joue que "
                                   "dans les mesures de l'arène, jamais à une table"),
    "bo_seeing_level_given_a_view": ("the {level} level plays from the whole hand, not from "
                                     "a seat's view",
                                     "le niveau {level} joue avec la main entière, pas avec la "
                                     "vue d'une place"),
    # The arena's and the ladder's arguments (a BotArgumentError).
    "bo_arena_players": ("the arena seats {choices} players, not {players}",
                         "l'arène accueille {choices} joueurs, pas {players}"),
    "bo_games_below_one": ("the arena plays at least one game, not {games}",
                           "l'arène joue au moins une partie, pas {games}"),
    "bo_ladder_levels": ("a ladder needs two levels or more, each named once",
                         "un classement demande au moins deux niveaux, chacun nommé une fois"),
    "bo_anchor_not_playing": ("the anchor level {anchor} plays in no pairing",
                              "le niveau de référence {anchor} ne joue dans aucune rencontre"),
    "bo_ladder_disconnected": ("the ladder's results do not link every level to the others",
                               "les résultats du classement ne relient pas chaque niveau aux "
                               "autres"),
    "gm_players_unsupported": ("Chkobba is played by 2, 3 or 4 players, not {players}",
                               "la chkobba se joue à 2, 3 ou 4 joueurs, pas {players}"),
    "gm_seat_out_of_range": ("there is no seat {seat} at a table of {players}",
                             "il n'y a pas de place {seat} à une table de {players}"),
    "gm_side_out_of_range": ("there is no side {side} at a table of {sides} sides",
                             "il n'y a pas de camp {side} à une table de {sides} camps"),
    "gm_nobody_drew": ("the draw for the first dealer has no card drawn",
                       "le tirage du premier donneur n'a aucune carte tirée"),
    "gm_dealer_out_of_range": ("there is no seat {dealer} to deal at a table of {players}",
                               "il n'y a pas de place {dealer} pour donner à une table de "
                               "{players}"),
    "gm_viewer_out_of_range": ("there is no seat {viewer} to see a hand at a table of "
                               "{players}",
                               "il n'y a pas de place {viewer} pour voir une main à une table "
                               "de {players}"),
    "gm_chkobba_counts": ("a position at {players} players needs one chkobba count per seat",
                          "une position à {players} joueurs demande un compte de chkobbas "
                          "par place"),
    "gm_view_of_another_view": ("a seat's view of the hand cannot become another seat's",
                                "la vue d'une place sur la main ne peut devenir celle d'une "
                                "autre"),
    "gm_hand_not_over": ("the hand is not over yet: it is scored once every card is played",
                         "la main n'est pas finie : elle se compte une fois toutes les "
                         "cartes jouées"),
    "gm_no_own_cards": ("only a seat's view of the hand has cards of its own",
                        "seule la vue d'une place sur la main a des cartes à elle"),
    "gm_drawn_card_unnamed": ("a drawn card was placed without naming it",
                              "une carte tirée a été posée sans être nommée"),
    "gm_world_not_in_play": ("a guessed world needs a hand in play and its {stock} undealt "
                             "cards",
                             "un monde deviné demande une main en cours et ses {stock} cartes "
                             "non distribuées"),
    "gm_match_over": ("the match is over", "la partie est finie"),
    "gm_hand_of_another_match": ("that hand belongs to another match (its rules, table or "
                                 "dealer differ)",
                                 "cette main appartient à une autre partie (ses règles, sa "
                                 "table ou son donneur diffèrent)"),
    "gm_no_redeal_due": ("no redeal is due", "aucune redonne n'est due"),
    "tu_not_our_seat": ("this identity does not hold that seat",
                        "cette identité n'occupe pas cette place"),
    "tu_no_seat_of_its_own": ("a spectator's view of the game has no seat of its own",
                              "la vue d'un spectateur sur la partie n'a pas de place à elle"),
    "tu_observer_signs_nothing": ("a spectator's view of the game signs nothing",
                                  "la vue d'un spectateur sur la partie ne signe rien"),
    "tu_no_decision_pending": ("nothing is asked of this seat now",
                               "rien n'est demandé à cette place pour l'instant"),
    "tu_match_already_over": ("the match is already over", "la partie est déjà finie"),
    "tu_card_not_held": ("{card} is not in this seat's hand",
                         "{card} n'est pas dans la main de cette place"),
    "tu_play_takes_a_move": ("a play was answered with something that is no move",
                             "un coup a reçu pour réponse autre chose qu'un coup"),
    "tu_round_not_opened_early": ("a round of the deal that was not opened early was taken "
                                  "as one",
                                  "un tour de distribution qui n'a pas été ouvert en avance a "
                                  "été pris pour tel"),
    "tu_card_unknown_at_end": ("a card of the hand is still unknown at its end",
                               "une carte de la main est encore inconnue à sa fin"),
    "ob_seeds_not_verified": ("the deck was asked of before its seeds were checked",
                              "le paquet a été demandé avant la vérification de ses graines"),
    "ob_replay_unexpected_event": ("the replay with every card known met an event the rules "
                                   "do not make",
                                   "la relecture à cartes ouvertes a rencontré un événement "
                                   "que les règles ne produisent pas"),
    "ob_replay_invalid_deal": ("the replay with every card known dealt cards that do not fit",
                               "la relecture à cartes ouvertes a distribué des cartes qui ne "
                               "conviennent pas"),
    "ob_replay_redeal_not_due": ("the replay with every card known found a redeal that was "
                                 "not due",
                                 "la relecture à cartes ouvertes a trouvé une redonne qui "
                                 "n'était pas due"),
    "ob_replay_hand_not_over": ("the replay with every card known found a hand not over at "
                                "its end",
                                "la relecture à cartes ouvertes a trouvé une main inachevée à "
                                "sa fin"),
    "ob_replay_disagrees": ("the replay with every card known disagrees with the live one",
                            "la relecture à cartes ouvertes contredit la relecture en direct"),
    "ob_open_hand_graded": ("the coach grades from a seat's view, never the open hand",
                            "le coach note depuis la vue d'une place, jamais la main ouverte"),
    "ob_not_its_turn": ("the coach was asked to grade a play out of its seat's turn",
                        "on a demandé au coach de noter un coup hors du tour de sa place"),
    "ob_move_not_legal": ("the coach was asked to grade a play of {card} the rules do not "
                          "allow",
                          "on a demandé au coach de noter un coup de {card} que les règles "
                          "n'autorisent pas"),
    "ob_not_choosing_a_cut": ("the coach was asked to grade a cut this seat is not choosing",
                              "on a demandé au coach de noter une coupe que cette place ne "
                              "choisit pas"),
    "ob_drawn_card_unseen": ("the coach was given the cutter's view without the drawn card",
                             "le coach a reçu la vue du coupeur sans la carte tirée"),
    "ob_samples_below_one": ("the review needs at least one guessed world per decision, "
                             "not {samples}",
                             "la revue demande au moins un monde deviné par décision, pas "
                             "{samples}"),
    "ob_negative_limit": ("the review's limit is 0 (none) or more decisions, not {limit}",
                          "la limite de la revue est de 0 (aucune) décision ou plus, pas "
                          "{limit}"),
    "lk_name_invisible": ("the name {name} cannot be used: it holds an invisible character "
                          "({value}), which would let it pass for another",
                          "le nom {name} ne peut servir : il contient un caractère invisible "
                          "({value}), qui le ferait passer pour un autre"),
    "lk_name_unusable": ("the name {name} cannot be used: a name is 1 to {max} printable "
                         "characters",
                         "le nom {name} ne peut servir : un nom compte de 1 à {max} "
                         "caractères imprimables"),
    "lk_players_unsupported": ("a table seats {choices} players, not {players}",
                               "une table accueille {choices} joueurs, pas {players}"),
    "lk_table_not_full": ("the table is not full", "la table n'est pas complète"),
    "lk_greeting_first": ("a greeting was read before this peer sent its own",
                          "une salutation a été lue avant que ce pair n'envoie la sienne"),
    # A connection's state and our own step out of its table ({role}, {state}, {event},
    # {type}: as the link's tables name them).
    "lk_no_such_state": ("the {role}'s connection has no state {state}",
                         "la connexion de rôle {role} n'a pas d'état {state}"),
    "lk_no_such_event": ("the {role}'s connection in {state} has no step {event}",
                         "la connexion de rôle {role} dans l'état {state} n'a pas d'étape "
                         "{event}"),
    "lk_no_handshake": ("no handshake is under way (the connection is in {state})",
                        "aucune poignée de main n'est en cours (la connexion est dans l'état "
                        "{state})"),
    "lk_spectator_not_watching": ("a spectator's connection is in {state}, not watching",
                                  "la connexion d'un spectateur est dans l'état {state}, pas "
                                  "en train de regarder"),
    "lk_nothing_to_admit": ("nothing to admit (the connection is in {state})",
                            "rien à admettre (la connexion est dans l'état {state})"),
    "lk_may_not_send": ("the {role} may not send {type} in {state}",
                        "le rôle {role} ne peut envoyer {type} dans l'état {state}"),
    "lk_controllers_for_table": ("{controllers} controllers for a table of {players}",
                                 "{controllers} contrôleurs pour une table de {players}"),
    # The door's admission policy and the spectator list's window (a LinkArgumentError).
    "lk_strangers_below_one": ("the door holds at least one connection before its greeting, "
                               "not {strangers}",
                               "la porte garde au moins une connexion avant sa salutation, "
                               "pas {strangers}"),
    "lk_greeting_not_positive": ("the time to greet must be more than 0 seconds, not {seconds}",
                                 "le délai de salutation doit dépasser 0 seconde, pas "
                                 "{seconds}"),
    "lk_spectators_negative": ("the spectators' places cannot be fewer than 0, not "
                               "{spectators}",
                               "les places de spectateurs ne peuvent être moins de 0, pas "
                               "{spectators}"),
    "lk_already_admitted": ("this connection is already admitted",
                            "cette connexion est déjà admise"),
    "lk_window_negative": ("the spectators' announcement window is 0 seconds or more, not "
                           "{seconds}",
                           "la fenêtre d'annonce des spectateurs est de 0 seconde ou plus, "
                           "pas {seconds}"),
    "wu_frame_too_large": ("a message of {size} bytes is larger than the {max}-byte limit",
                           "un message de {size} octets dépasse la limite de {max} octets"),
    "wu_reserved_field": ("the field {field} is reserved in a signed entry",
                          "le champ {field} est réservé dans une entrée signée"),
    "du_bad_session_id": ("a deal needs its game's id", "une donne a besoin de l'identifiant "
                          "de sa partie"),
    "du_not_a_count": ("a deal's {name} number must be a whole number, 0 or more",
                       "le numéro {name} d'une donne doit être un entier, 0 ou plus"),
    "du_players_unsupported": ("a deal is for 2, 3 or 4 players, not {players}",
                               "une donne se fait à 2, 3 ou 4 joueurs, pas {players}"),
    "du_seat_out_of_range": ("there is no seat {seat} at this deal",
                             "il n'y a pas de place {seat} à cette donne"),
    "du_cutter_out_of_range": ("there is no seat {seat} to cut at this deal",
                               "il n'y a pas de place {seat} pour couper à cette donne"),
    "du_bad_seed": ("a deal's seed is 32 bytes", "la graine d'une donne fait 32 octets"),
    "du_bad_secret_key": ("a deal's secret key is out of range",
                          "la clé secrète d'une donne est hors limites"),
    "du_observer_has_no_key": ("a deal seen from no seat has no key to send",
                               "une donne vue d'aucune place n'a pas de clé à envoyer"),
    "du_already_started": ("the deal has already started", "la donne a déjà commencé"),
    "du_not_the_cutter": ("only the cutter cuts", "seul le coupeur coupe"),
    "du_wrong_phase": ("the deal cannot {action} in its phase {phase}",
                       "la donne ne peut pas faire « {action} » dans sa phase {phase}"),
    "du_bad_cut": ("a cut is a position from 0 to 39, not {cut}",
                   "une coupe est une position de 0 à 39, pas {cut}"),
    "du_no_such_position": ("the deck has no position {position}",
                            "le paquet n'a pas de position {position}"),
    "du_empty_step": ("a dealing step opens at least one position",
                      "une étape de distribution ouvre au moins une position"),
    "du_position_dealt": ("position {position} was already dealt",
                          "la position {position} a déjà été distribuée"),
    "du_position_twice": ("a position appears twice in the dealing step",
                          "une position figure deux fois dans l'étape de distribution"),
    "du_step_not_early": ("dealing step {step} was not opened early, or is due already",
                          "l'étape de distribution {step} n'a pas été ouverte en avance, ou "
                          "elle est déjà due"),
    "du_unknown_job": ("proof work that is not this deal's, or is done already",
                       "un travail de preuve qui n'est pas de cette donne, ou déjà fait"),
    "du_position_not_held": ("position {position} is not in this seat's hand",
                             "la position {position} n'est pas dans la main de cette place"),
    "du_position_shown": ("position {position} was already shown",
                          "la position {position} a déjà été montrée"),
    "du_cards_hidden": ("the deal cannot end while cards are still hidden",
                        "la donne ne peut finir tant que des cartes sont cachées"),
    "du_step_incomplete": ("a dealing step is still incomplete",
                           "une étape de distribution est encore incomplète"),
    "du_deal_failed": ("this deal has failed: a peer was blamed",
                       "cette donne a échoué : un pair a été mis en cause"),
    "du_unknown_state_version": ("the saved deal is of a version this program does not know",
                                 "la donne enregistrée est d'une version que ce programme ne "
                                 "connaît pas"),
    "du_corrupt_state": ("the saved deal is damaged", "la donne enregistrée est abîmée"),
    "du_dealer_decided": ("the first dealer is already decided",
                          "le premier donneur est déjà désigné"),
    "du_draw_exhausted": ("no card is left to draw for the first dealer in this deck",
                          "il ne reste aucune carte à tirer pour le premier donneur dans ce "
                          "paquet"),
    "du_draw_cards": ("the draw for the first dealer needs one card per player drawing",
                      "le tirage du premier donneur demande une carte par joueur qui tire"),
    # A shuffle proof's own arguments (a DealArgumentError).
    "du_lengths_differ": ("a shuffle proof's lists are not all of the same length",
                          "les listes d'une preuve de mélange n'ont pas toutes la même "
                          "longueur"),
    "du_negative_count": ("a shuffle proof cannot ask for {count} generators",
                          "une preuve de mélange ne peut demander {count} générateurs"),
    "du_empty_shuffle": ("a shuffle needs at least one card",
                         "un mélange demande au moins une carte"),
    "du_not_a_permutation": ("a shuffle's order is not a permutation of its deck",
                             "l'ordre d'un mélange n'est pas une permutation de son paquet"),
    "du_randomizer_range": ("a shuffle's randomizer is out of range (0 would not hide the "
                            "card)",
                            "un aléa du mélange est hors limites (0 ne cacherait pas la "
                            "carte)"),
    "du_commit_rands_range": ("a shuffle proof's commitments need one scalar in range per "
                              "card",
                              "les engagements d'une preuve de mélange demandent un scalaire "
                              "valide par carte"),
    "du_bad_public_key": ("the deal's joint key is not a valid point",
                          "la clé commune de la donne n'est pas un point valide"),
    "du_bad_inputs": ("the deck given to check a shuffle is not valid",
                      "le paquet donné pour vérifier un mélange n'est pas valide"),
    "du_witness_misfit": ("the opened shuffle does not fit its decks",
                          "le mélange ouvert ne correspond pas à ses paquets"),
    # A game record file (JSON Lines) that does not read or replay (chkobba_p2p.game.
    # record.RECORD_PROBLEMS: "rc_" + the code; {line} from 1, {hand} as the file numbers
    # it, {event} as the file spells it).
    "rc_line_too_long": ("line {line} of the records is longer than {max} characters",
                         "la ligne {line} des enregistrements dépasse {max} caractères"),
    "rc_not_json": ("line {line} of the records is not JSON",
                    "la ligne {line} des enregistrements n'est pas du JSON"),
    "rc_not_a_record": ("line {line} of the records is not a hand or match record",
                        "la ligne {line} des enregistrements n'est ni une manche ni une "
                        "partie"),
    "rc_chkobba_flag": ("hand {hand} of the records: a chkobba that the rules do not give "
                        "(or one they give, missing)",
                        "manche {hand} des enregistrements : une chkobba que les règles ne "
                        "donnent pas (ou qu'elles donnent, absente)"),
    "rc_sweep_too_early": ("hand {hand} of the records: the last cards taken before the "
                           "hand ends",
                           "manche {hand} des enregistrements : les dernières cartes prises "
                           "avant la fin de la manche"),
    "rc_unknown_event": ("hand {hand} of the records: an unknown event {event}",
                         "manche {hand} des enregistrements : un événement inconnu {event}"),
    "rc_hand_after_match": ("hand {hand} of the records comes after its match ended",
                            "la manche {hand} des enregistrements vient après la fin de sa "
                            "partie"),
    "rc_redeal_not_due": ("hand {hand} of the records: a redeal the rules did not call for",
                          "manche {hand} des enregistrements : une redonne que les règles "
                          "ne demandaient pas"),
    "rc_hand_unfinished": ("hand {hand} of the records stops before the hand ends",
                           "la manche {hand} des enregistrements s'arrête avant la fin de la "
                           "manche"),
    "rc_hand_disagrees": ("hand {hand} of the records does not replay to what it says "
                          "(dealer, piles, score or totals)",
                          "la manche {hand} des enregistrements ne rejoue pas ce qu'elle dit "
                          "(donneur, plis, score ou totaux)"),
    "rc_result_too_early": ("the records give a match's result before the match is over",
                            "les enregistrements donnent le résultat d'une partie avant sa "
                            "fin"),
    "rc_result_disagrees": ("the records' match result does not replay to what it says",
                            "le résultat de partie des enregistrements ne rejoue pas ce qu'il "
                            "dit"),
    "rc_malformed": ("the records are malformed, or hold a move the rules refuse",
                     "les enregistrements sont mal formés, ou contiennent un coup que les "
                     "règles refusent"),
    "rc_match_not_over": ("a match's record is written before the match is over",
                          "l'enregistrement d'une partie est écrit avant sa fin"),
    "wu_entry_too_large": ("a {kind} entry of {size} bytes is larger than its {max}-byte "
                           "limit",
                           "une entrée {kind} de {size} octets dépasse sa limite de {max} "
                           "octets"),
}

# The OS's refusals by its error number's name (the library's ``errno`` data,
# chkobba_p2p.errors.errno_name; an OSError the client meets itself): the common ones in
# the reader's words, the others in the OS's (:func:`os_reason`).
MESSAGES |= {
    "os_ENOENT": ("the file or its folder does not exist",
                  "le fichier ou son dossier n'existe pas"),
    "os_ENOTDIR": ("a folder on its path is a file", "un dossier de son chemin est un fichier"),
    "os_EACCES": ("permission denied", "permission refusée"),
    "os_EPERM": ("permission denied", "permission refusée"),
    "os_EISDIR": ("it is a folder", "c'est un dossier"),
    "os_EROFS": ("the disk is read-only", "le disque est en lecture seule"),
    "os_ENOSPC": ("the disk is full", "le disque est plein"),
    "os_EMFILE": ("too many files are open", "trop de fichiers sont ouverts"),
    "os_EADDRINUSE": ("the port is already in use", "le port est déjà utilisé"),
    "os_EADDRNOTAVAIL": ("this machine has no such address",
                         "cette machine n'a pas cette adresse"),
}

# What ``chkobba arena`` and ``chkobba simulate`` found (chkobba_p2p.bots.arena.ArenaResult,
# LadderRating; chkobba_p2p.bots.simulate.SimulationSummary: data, worded here); the
# numbers are written as the language writes them (Translator.number).
MESSAGES |= {
    "ar_title": ("arena: {a} (A) vs {b} (B), {players} players, duplicate deals",
                 "arène : {a} (A) contre {b} (B), {players} joueurs, donnes dupliquées"),
    # A count's noun by the count (Translator.singular: one in English, 0 or 1 in French).
    "ar_matches_1": ("matches: {n} ({deals} deal x {legs} seatings)",
                     "parties : {n} ({deals} donne x {legs} placements)"),
    "ar_matches_n": ("matches: {n} ({deals} deals x {legs} seatings)",
                     "parties : {n} ({deals} donnes x {legs} placements)"),
    "ar_hands": ("hands: {n}", "manches : {n}"),
    "ar_win_rate": ("match win rate A: {rate} (95% CI {low}..{high})",
                    "taux de victoire de A : {rate} (IC à 95 % de {low} à {high})"),
    "ar_margin": ("mean point margin per hand A-B: {mean} (95% CI {low}..{high})",
                  "écart moyen de points par manche A-B : {mean} (IC à 95 % de {low} à {high})"),
    # Wall time includes waiting for a shared CPU; CPU time is the bot's own.
    "ar_move_time": ("move time {side}: mean {mean} ms, max {wall} ms wall, max {cpu} ms "
                     "CPU over {n} moves",
                     "temps par coup {side} : moy. {mean} ms, max {wall} ms réels, "
                     "{cpu} ms CPU, {n} coups"),
    "ar_ladder_1": ("ladder: {levels}, {players} players, {games} duplicate deal per pair",
                    "échelle : {levels}, {players} joueurs, {games} donne dupliquée par "
                    "paire"),
    "ar_ladder_n": ("ladder: {levels}, {players} players, {games} duplicate deals per pair",
                    "échelle : {levels}, {players} joueurs, {games} donnes dupliquées par "
                    "paire"),
    "ar_pair": ("pair {a} vs {b}: {wins}/{n} matches won by {a}",
                "paire {a} contre {b} : {wins}/{n} parties gagnées par {a}"),
    "ar_elo": ("elo {level}: {rating} (95% CI {low}..{high})",
               "elo {level} : {rating} (IC à 95 % de {low} à {high})"),
    "sm_seats": ("seats: {seats}", "places : {seats}"),
    "sm_matches": ("matches: {n}", "parties : {n}"),
    "sm_hands": ("hands: {n}", "manches : {n}"),
    "sm_redeals": ("redeals: {n}", "redonnes : {n}"),
    "sm_wins_seat": ("wins seat {side}: {n}", "victoires de la place {side} : {n}"),
    "sm_wins_team": ("wins team {side}: {n}", "victoires de l'équipe {side} : {n}"),
    "sm_points_seat": ("mean points per hand seat {side}: {mean}",
                       "points moyens par manche de la place {side} : {mean}"),
    "sm_points_team": ("mean points per hand team {side}: {mean}",
                       "points moyens par manche de l'équipe {side} : {mean}"),
    "sm_chkobbas": ("chkobbas per hand: {mean}", "chkobbas par manche : {mean}"),
    "sm_records": ("records: {path}", "enregistrements : {path}"),
}

# The sub-commands' own command-line lines (issue 41): refusals, errors and hints a person
# reads on stderr after ``chkobba CMD:``.  A detail in {why} or {detail} is the library's or
# the OS's own English where it has no code (see each command).
MESSAGES |= {
    "cx_error": ("error: {why}", "erreur : {why}"),
    "cx_no_command": ("no command {word}{meant} (see: chkobba --help)",
                      "pas de commande {word}{meant} (voir : chkobba --help)"),
    "cx_did_you_mean": ("; did you mean '{name}'?", " ; vouliez-vous dire « {name} » ?"),
    "cx_cannot_write_opt": ("cannot write {path} ({option}): {why}",
                            "impossible d'écrire {path} ({option}) : {why}"),
    "cx_cannot_write": ("cannot write {path}: {why}", "impossible d'écrire {path} : {why}"),
    "cx_cannot_read": ("cannot read {path}: {why}", "impossible de lire {path} : {why}"),
    "cx_no_folder": ("no folder {folder}", "pas de dossier {folder}"),
    "cx_not_folder": ("{folder} is not a folder", "{folder} n'est pas un dossier"),
    "cx_workers": ("--workers must be 0 or more", "--workers doit valoir 0 ou plus"),
    "cx_jobs": ("--jobs must be 1 or more, without --workers",
                "--jobs doit valoir 1 ou plus, sans --workers"),
    "cx_no_hand_1": ("no hand {hand} in this log ({n} hand audited)",
                     "pas de manche {hand} dans ce journal ({n} manche vérifiée)"),
    "cx_no_hand_n": ("no hand {hand} in this log ({n} hands audited)",
                     "pas de manche {hand} dans ce journal ({n} manches vérifiées)"),
    "cx_no_seat": ("--seat {name}: no such player (the players: {names})",
                   "--seat {name} : pas de tel joueur (les joueurs : {names})"),
    "cx_samples": ("--samples must be 1 or more", "--samples doit valoir 1 ou plus"),
    "cx_review_limit": ("--review-limit must be 0 (no limit) or more",
                        "--review-limit doit valoir 0 (sans limite) ou plus"),
    "cx_seat_busy": ("this game is open in another terminal, {who}",
                     "cette partie est ouverte dans un autre terminal, {who}"),
    "cx_pid": ("pid {pid}", "pid {pid}"),
    "cx_other_process": ("another process", "un autre processus"),
    "cx_view_tty": ("--view needs a terminal", "--view a besoin d'un terminal"),
    "cx_needs_tty": ("the terminal client needs a terminal (use 'chkobba bot' or "
                     "'host --headless')",
                     "le client plein écran a besoin d'un terminal (utilisez « chkobba bot » "
                     "ou « host --headless »)"),
    "cx_bots_seat": ("--bots must leave a seat for the host",
                     "--bots doit laisser une place à l'hôte"),
    "cx_allow_bots": ("--allow admits only the keys it names: it cannot be used with --bots",
                      "--allow n'admet que les clés qu'il nomme : il ne va pas avec --bots"),
    "cx_no_table": ("no table found on the LAN; give the host's address: "
                    "chkobba join HOST[:PORT]",
                    "aucune table trouvée sur le réseau local ; donnez l'adresse de l'hôte : "
                    "chkobba join HÔTE[:PORT]"),
    "cx_not_address": ("not an address: {code} (HOST, HOST:PORT or a join code "
                       "HOST:PORT#KEY): {why}",
                       "pas une adresse : {code} (HÔTE, HÔTE:PORT ou un code pour rejoindre "
                       "HÔTE:PORT#CLÉ) : {why}"),
    "cx_lan_looking": ("looking for tables on the LAN for {s} s{on}...",
                       "recherche de tables sur le réseau local pendant {s} s{on}..."),
    "cx_lan_on": (" (on {names})", " (sur {names})"),
    "cx_lan_cannot": ("cannot look for tables on the LAN: {why}",
                      "impossible de chercher des tables sur le réseau local : {why}"),
    "cx_lan_choose": ("table to join (number): ", "table à rejoindre (numéro) : "),
    "cx_lan_joining": ("joining {code}", "connexion à {code}"),
    "cx_lan_then": ("  then, if the key there is another: {code}",
                    "  puis, si la clé n'y est pas la même : {code}"),
    "cx_tor_install": ("tor is not installed: install it (Debian/Ubuntu: sudo apt install tor; "
                       "Fedora: sudo dnf install tor; macOS: brew install tor) or start Tor "
                       "Browser and pass --tor-control 127.0.0.1:9151 --tor-socks "
                       "127.0.0.1:9150",
                       "tor n'est pas installé : installez-le (Debian/Ubuntu : sudo apt "
                       "install tor ; Fedora : sudo dnf install tor ; macOS : brew install "
                       "tor) ou lancez le Tor Browser et passez --tor-control 127.0.0.1:9151 "
                       "--tor-socks 127.0.0.1:9150"),
    "cx_games": ("--games must be at least 1", "--games doit valoir au moins 1"),
    "cx_move_ms": ("--move-ms must be positive", "--move-ms doit être positif"),
    "cx_levels": ("name the levels with --a and --b, or --ladder",
                  "nommez les niveaux avec --a et --b, ou --ladder"),
    "cx_ladder_levels": ("--ladder takes two or more different levels among {levels}",
                         "--ladder prend au moins deux niveaux différents parmi {levels}"),
    "cx_ladder_players": ("the ladder rates head-to-head results, at 2 or 4 players",
                          "le classement note des face-à-face, à 2 ou 4 joueurs"),
    "cx_bots_level": ("--bots needs at least one level", "--bots demande au moins un niveau"),
    "cx_watch_name": ("--name must be 1 to {max} printable characters",
                      "--name doit faire de 1 à {max} caractères imprimables"),
}


def os_error_key(error: str) -> str | None:
    """The key of the sentence for an OS failure to connect at the end of ``error``
    ("... : [Errno -2] Name or service not known"), or None for any other error."""
    m = _ERRNO.search(error)
    key = _OS_ERRNOS.get(int(m.group(1))) if m else None
    if key is None:
        low = error.lower()
        key = next((k for words, k in _OS_WORDS if low.endswith(words) or
                    (m is not None and words in m.group(0).lower())), None)
    return key


def os_reason(t: Translator, errno: str | OSError, why: str = "") -> str:
    """Why the OS refused, in ``t``'s language: by the name of its error number
    (``ENOENT``..., or the OSError itself) when this catalog has words for it, else
    ``why`` (the OS's own words, or the OSError's)."""
    if isinstance(errno, OSError):
        why = why or str(errno.strerror or errno)
        errno = errno_name(errno)
    key = "os_" + errno
    return t(key) if errno and key in MESSAGES else why


def card_letters(label: str, lang: str) -> str:
    """A card's label (``Q♥``, ``QH``, ``10♠``) in ``lang``'s figure letters (``D♥``)."""
    letters = FIGURE_LETTERS.get(lang) or {}
    return letters.get(label[:1], label[:1]) + label[1:] if label else label


def card_name(t: Translator, card: Card, figures: FigureConvention) -> str:
    """A card's full name in ``t``'s language (``Queen of hearts``, ``Dame de cœur``): the
    figure a value is follows the table's convention (a 9 is the Jack at a Tunisian table,
    the Queen at a French one)."""
    rank = card.label(figures, symbols=False)[:-1]
    word = t("card_rank_" + rank) if rank in ("A", "K", "Q", "J") else rank
    return t("card_name", rank=word, suit=t("card_suit_" + card.suit.value))


def elide(text: str, kw: dict[str, object]) -> str:
    """French elision where a name (or any value) goes: "que Amel" is "qu'Amel", "de
    Amel" is "d'Amel".  Only before the values, whose first letter the message cannot
    know; the messages' own words are written elided already."""
    def elide(m: re.Match[str]) -> str:
        value = str(kw.get(m.group(2), ""))
        if value[:1].lower() in _VOWELS and value[:1]:
            return f"{m.group(1)}'{{{m.group(2)}}}"
        return m.group(0)
    return _BEFORE_VALUE.sub(elide, text)


def decimal(value: float, lang: str, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals as ``lang`` writes it (French: a comma, ``0,97``)."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "fr" else text


class Translator:
    """Messages in one language; unknown keys fall back to English, then to the key."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in LANGS else "en"
        self._i = LANGS.index(self.lang)

    def __call__(self, key: str, **kw: object) -> str:
        pair = MESSAGES.get(key)
        text = key if pair is None else (pair[self._i] or pair[0])
        if kw and self.lang == "fr":
            text = elide(text, kw)
        return text.format(**kw) if kw else text

    def number(self, value: float, digits: int = 2) -> str:
        """``value`` with ``digits`` decimals as the language writes it (:func:`decimal`)."""
        return decimal(value, self.lang, digits)

    def points(self, value: float, digits: int = 2) -> str:
        """``value`` points, the number as :meth:`number` writes it and the unit in the
        singular where the language wants it: French below two ("0,94 point", "1,5
        point", "2,00 points"), English for exactly one ("1 point", "0.94 points")."""
        n = self.number(value, digits)
        one = abs(round(value, digits)) < 2 if self.lang == "fr" else n == "1"
        return self("unit_point" if one else "unit_points", n=n)

    def singular(self, n: int) -> bool:
        """A count of ``n`` takes the singular: one in English, zero or one in French
        ("0 erreur", "1 gaffe"; "0 mistakes")."""
        return n == 1 or (self.lang == "fr" and n == 0)

    def level(self, level: str) -> str:
        """A bot level's name as a player reads it ("gourmand" for greedy in French);
        one this catalog does not know, as it is."""
        key = "level_" + level
        return self(key) if key in MESSAGES else level

    def rule(self, rule: str) -> str:
        pair = RULE_NAMES.get(rule)
        return rule.replace("_", " ") if pair is None else pair[self._i]


def abort_reason(t: Translator, code: ErrorCode, unknown: str | None = None) -> str:
    """What an abort's ``code`` means for a player, in ``t``'s language, as what the
    blamed side sent or did (``sr_`` + the code; a code without such words, by its
    ``wire_`` sentence); ``unknown``: the code as signed when it is none this program
    knows (then it says so, with it, made safe: the signer's value, shown, never obeyed)."""
    if unknown is not None:
        return t("sr_unknown", code=safe_text(unknown, 40))
    name = code.name.lower()
    return t("sr_" + name if "sr_" + name in MESSAGES else "wire_" + name)


def unsupported_words(t: Translator, caps: Sequence[str]) -> str:
    """Why an observer cannot audit a match (a :data:`~chkobba_p2p.observe.observer.UNSUPPORTED`
    verdict): the table's capabilities it does not know, named (as the genesis spells
    them, made safe and cut short), in ``t``'s language; it blames no one."""
    shown = ", ".join(safe_text(c, 40) for c in caps[:8]) + (", ..." if len(caps) > 8 else "")
    return t("unsupported_why" if len(caps) == 1 else "unsupported_why_pl", caps=shown)


def ruleset_text(t: Translator, rules: Ruleset) -> str:
    """A ruleset in one line for people, in ``t``'s language: ``tunisian: target 11,
    cut-and-draw, redeal on 3 kings, barmila``.  The name may come from another peer's
    genesis: shown safely (it is free text)."""
    redeal = {RedealRule.KINGS: "rs_redeal_kings", RedealRule.ANY_THREE: "rs_redeal_any_three",
              RedealRule.NONE: "rs_no_redeal"}[rules.redeal]
    parts = [t("rs_target", n=rules.target),
             t("rs_cut_and_draw" if rules.opening is Opening.CUT_AND_DRAW else "rs_plain"),
             t(redeal), t("rs_primiera" if rules.scoring is Scoring.PRIMIERA else "rs_barmila")]
    if rules.forced_capture:
        parts.append(t("rs_forced_capture"))
    if rules.figures is FigureConvention.FRENCH:
        parts.append(t("rs_french_figures"))
    return t("rs_line", name=safe_text(ruleset_name(t, rules), 64), parts=", ".join(parts))


def ruleset_name(t: Translator, rules: Ruleset) -> str:
    """The ruleset's name for people: in English its own name (``tunisian``,
    ``tunisian+plain``); in French the preset's French name, "modifiée" when variants were
    picked on top of it."""
    if t.lang == "en":
        return rules.name
    base, _, rest = rules.name.partition("+")
    key = f"rs_preset_{base}"
    name = t(key) if key in MESSAGES else base
    return t("rs_modified", name=name) if rest else name

def notice_text(t: Translator, notice: Notice) -> str:
    """A library notice in ``t``'s language: the message ``nt_<kind>`` with the notice's
    data (its detail made safe to show: it may be the host's words); a kind the table
    does not know yet in the library's English for developers (``str(notice)``)."""
    key = f"nt_{notice.kind}"
    if key not in MESSAGES:
        return str(notice)
    code = safe_text(str(notice.code), 40)
    detail = safe_text(notice.detail, 300)
    if notice.violation is not None and "vi_" + notice.violation in MESSAGES:
        # Our own check's code in the reader's words (its facts: the host's bytes, safe).
        facts = {k: t("ab_seat", n=v) if k == "seat" else safe_text(str(v), 80)
                 for k, v in notice.facts}
        with contextlib.suppress(KeyError, IndexError):
            detail = t("vi_" + notice.violation, **facts)
    # The wire code in the reader's words (its number when this program does not know it).
    said = (t("wire_" + code) if "wire_" + code in MESSAGES
            else t("oe_unknown_code", n=notice.number if notice.number is not None else "?"))
    if notice.kind == "resume_refused":  # the host's own words, quoted as its; else its code's
        why = t("nt_quoted", text=detail) if detail else said
    elif notice.kind == "handshake_retry":  # the failed check, or a stall
        why = (t("nt_code_detail", what=said, detail=detail) if detail
               else t("nt_timeout") if code == "handshake_timeout" else said)
    else:
        why = detail or "?"
    return t(key, why=why, path=safe_text(str(notice.path), 300), code=code)


#: The catalog's prefix for each family of coded local errors, by the family's default
#: code (``LogUnreadable.code``, ``AddressError.code``, ``ListenError.code``,
#: ``RulesetError.code``, ``BotError.code``, ``KeyUnusable.code``; the API used wrongly:
#: ``GameUsageError``, ``TranscriptUsageError``, ``ObserveUsageError``, ``LinkUsageError``,
#: ``WireUsageError``, ``DealUsageError``; a game record file that does not replay:
#: ``RecordError``).
_CODED_FAMILIES: dict[object, str] = {"log_unreadable": "lu_", "bad_address": "ad_",
                                      "cannot_listen": "ls_", "bad_ruleset": "ru_",
                                      "bot_error": "bo_", "key_unusable": "ik_",
                                      "game_misuse": "gm_", "transcript_misuse": "tu_",
                                      "observe_misuse": "ob_", "link_misuse": "lk_",
                                      "wire_misuse": "wu_", "deal_misuse": "du_",
                                      "record_error": "rc_"}


def _quoted(value: object) -> str:
    """``value`` quoted as typed (its ``repr``), any invisible character in it shown as
    its escape (``'amel\\u2800'``): a name refused for one must show where it is."""
    return "".join(ascii(ch)[1:-1] if is_invisible(ch) else ch for ch in repr(value))


def coded_words(t: Translator, family: object, code: object, data: object) -> str | None:
    """A coded local error's words in ``t``'s language, from its ``family`` (its class's
    default code, :data:`_CODED_FAMILIES`), its ``code`` and its ``data``; None when this
    catalog has none (a family or code it does not know, data its words cannot take)."""
    prefix = _CODED_FAMILIES.get(family)
    if prefix is None or not isinstance(code, str) or not isinstance(data, Mapping) \
            or prefix + code not in MESSAGES:
        return None
    kw: dict[str, object] = dict(data)
    for key in ("text", "name", "level"):  # what was typed, quoted as the library quotes it
        if key in kw:
            kw[key] = _quoted(kw[key])
    if prefix == "ru_" and "rk_" + str(kw.get("kind")) in MESSAGES:
        kw["kind"] = t("rk_" + str(kw["kind"]))  # a type in words, not Python's name
    card_id = kw.get("card")
    if isinstance(card_id, int) and 0 <= card_id < 40:  # a card id: its letters
        kw["card"] = card_letters(Card(card_id).label(), t.lang)
    if "why" in kw:  # the OS's refusal: the common ones in the reader's words
        kw["why"] = os_reason(t, str(kw.pop("errno", "")), str(kw["why"]))
    try:
        return t(prefix + code, **kw)
    except (KeyError, IndexError):  # data without a key the words need
        return None


def local_error_text(t: Translator, exc: BaseException) -> str:
    """A library error as its reader reads it: a coded local error (a log that is not
    one: ``lu_`` + its code; a typed address or port: ``ad_``; a port or address a host
    cannot listen on: ``ls_``; rules that cannot be: ``ru_``; bots that cannot be made,
    cannot decide or cannot finish: ``bo_``; an identity key file that cannot be used:
    ``ik_``; the library's API used wrongly by this program: ``gm_``, ``tu_``, ``ob_``,
    ``lk_``, ``wu_``, ``du_``) worded by its ``code`` and ``data`` in ``t``'s language
    (:func:`coded_words`); a move the rules engine refused (an ``IllegalMove``) by its
    ``rule``; any other, or a code this catalog lacks, as ``str(exc)`` (the library's
    English)."""
    if isinstance(exc, IllegalMove):  # the rules engine's refusal: by the rule broken
        return t.rule(exc.rule) if exc.rule == "illegal_move" else \
            t("rule_broken", rule=t.rule(exc.rule))
    # The family is the class's own default code (data the library states, read without
    # importing the log reader: a bot peer that fails on its address loads no auditor).
    words = coded_words(t, getattr(type(exc), "code", None), getattr(exc, "code", None),
                        getattr(exc, "data", None))
    return str(exc) if words is None else words
