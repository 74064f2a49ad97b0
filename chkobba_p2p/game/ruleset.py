"""Rulesets: every choice a table makes before a match (:class:`Ruleset`), the named
presets of rules.md (:data:`PRESETS`) and the variants a table can pick on top of one
(:data:`VARIANTS`).  A ruleset that cannot be (a target out of range, a preset or
variant nobody defined, a map that is no ruleset) raises :class:`RulesetError`: a code of
:data:`RULESET_PROBLEMS` and its data for programs, an English sentence for developers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypedDict, TypeVar

from .._digest import sha256
from ..errors import CodedLocalError
from .cards import FigureConvention

_E = TypeVar("_E", bound=Enum)

#: The lowest and highest target a table may play to.
TARGET_RANGE = (1, 1000)

#: Every :attr:`RulesetError.code`, with the keys of its :attr:`~RulesetError.data`
#: (``target``: the target given, its ``repr`` when it is no whole number; ``low``,
#: ``high``: :data:`TARGET_RANGE`; ``name``: the preset or variant asked for;
#: ``choices``: the names there are, comma-separated; ``field``: a ruleset's field;
#: ``kind``: what it must be, its type's name -- ``bool``, ``str``, ``Opening``... -- for a
#: client to word; ``value``: what it held, its ``repr`` cut short).  A code is
#: never renamed; a client words each (the terminal client: ``ru_`` + the code).
RULESET_PROBLEMS: dict[str, tuple[str, ...]] = {
    "target_out_of_range": ("target", "low", "high"),
    "unknown_preset": ("name", "choices"),
    "unknown_variant": ("name", "choices"),
    "field_kind": ("field", "kind"),  # a field of another type (a str for an enum...)
    "not_a_map": (),  # from_dict of something that is no map
    "field_missing": ("field",),
    "unknown_value": ("field", "value"),  # a value none of the field's choices
}


class RulesetError(CodedLocalError, ValueError):
    """Rules that cannot be (see :data:`RULESET_PROBLEMS`); a ValueError, as it always was."""

    CODES = RULESET_PROBLEMS
    code = "bad_ruleset"


def _shown(value: object) -> str:
    """A value that is not what it should be, as data: its ``repr``, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"

# --------------------------------------------------------------------------- rulesets


class Opening(Enum):
    CUT_AND_DRAW = "cut_and_draw"
    PLAIN = "plain"


class RedealRule(Enum):
    #: Three or four kings on the opening table (default).
    KINGS = "kings"
    #: Three cards of any one value.
    ANY_THREE = "any_three"
    NONE = "none"


class Scoring(Enum):
    BARMILA = "barmila"
    PRIMIERA = "primiera"


TARGETS = (11, 12, 16, 21, 31)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every choice a table makes before a match.  Immutable, hashable, serializable."""

    name: str = "tunisian"
    opening: Opening = Opening.CUT_AND_DRAW
    redeal: RedealRule = RedealRule.KINGS
    forced_capture: bool = False
    scoring: Scoring = Scoring.BARMILA
    target: int = 11
    figures: FigureConvention = FigureConvention.TUNISIAN

    def __post_init__(self) -> None:
        low, high = TARGET_RANGE
        if type(self.target) is not int or not low <= self.target <= high:
            target = self.target if type(self.target) is int else _shown(self.target)
            raise RulesetError(f"target must be a whole number of points from {low} to "
                               f"{high}, not {self.target!r}", code="target_out_of_range",
                               data={"target": target, "low": low, "high": high})
        kinds: tuple[tuple[str, type], ...] = (
            ("opening", Opening), ("redeal", RedealRule), ("scoring", Scoring),
            ("figures", FigureConvention), ("forced_capture", bool), ("name", str))
        for name, kind in kinds:
            if type(getattr(self, name)) is not kind:
                raise RulesetError(f"{name} must be a {kind.__name__}, not "
                                   f"{getattr(self, name)!r}", code="field_kind",
                                   data={"field": name, "kind": kind.__name__})

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """A named preset of rules.md: ``tunisian`` (default), ``cardavia``, ``chkoum``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesetError(
                f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}",
                code="unknown_preset", data={"name": name, "choices": ", ".join(PRESETS)},
            ) from None

    def with_variant(self, variant: str) -> Ruleset:
        """This ruleset with one named variant applied (see :data:`VARIANTS`)."""
        try:
            changes = VARIANTS[variant]
        except KeyError:
            raise RulesetError(
                f"unknown variant {variant!r}; choose among {', '.join(VARIANTS)}",
                code="unknown_variant", data={"name": variant, "choices": ", ".join(VARIANTS)},
            ) from None
        # The name says the rules differ from the preset's: "tunisian+plain".
        name = self.name if variant in self.name.split("+") else f"{self.name}+{variant}"
        if replace(self, **changes) == self:
            return self  # the preset already plays this way
        return replace(self, name=name, **changes)

    def with_target(self, target: int) -> Ruleset:
        return replace(self, target=target)

    def to_dict(self) -> dict[str, object]:
        """Plain data (str/int/bool values) for records and the wire."""
        return {
            "name": self.name,
            "opening": self.opening.value,
            "redeal": self.redeal.value,
            "forced_capture": self.forced_capture,
            "scoring": self.scoring.value,
            "target": self.target,
            "figures": self.figures.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Inverse of :meth:`to_dict`; :class:`RulesetError` (a ValueError) on anything
        unknown or malformed."""
        if not isinstance(data, dict):
            raise RulesetError("a ruleset is a map", code="not_a_map")
        for key in ("name", "opening", "redeal", "forced_capture", "scoring", "target",
                    "figures"):
            if key not in data:
                raise RulesetError(f"ruleset lacks {key!r}", code="field_missing",
                                   data={"field": key})
        for key, kind in (("forced_capture", bool), ("name", str)):
            if not isinstance(data[key], kind):
                raise RulesetError(f"{key} must be a {kind.__name__}, not {data[key]!r}",
                                   code="field_kind", data={"field": key, "kind": kind.__name__})
        return cls(
            name=data["name"],
            opening=_choice(Opening, data, "opening"),
            redeal=_choice(RedealRule, data, "redeal"),
            forced_capture=data["forced_capture"],
            scoring=_choice(Scoring, data, "scoring"),
            target=data["target"],
            figures=_choice(FigureConvention, data, "figures"),
        )

    def canonical_json(self) -> bytes:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":")).encode()

    def digest(self) -> bytes:
        """SHA-256 of the canonical JSON: the ruleset hash peers agree on."""
        return sha256(self.canonical_json())


def _choice(kind: type[_E], data: Mapping[str, Any], key: str) -> _E:
    """``data[key]`` as one of ``kind``'s values, or :class:`RulesetError`."""
    try:
        return kind(data[key])
    except (ValueError, TypeError):  # none of its values (TypeError: unhashable)
        raise RulesetError(f"{key} must be one of {', '.join(str(e.value) for e in kind)}, "
                           f"not {data[key]!r}", code="unknown_value",
                           data={"field": key, "value": _shown(data[key])}) from None


PRESETS: dict[str, Ruleset] = {
    "tunisian": Ruleset(),
    "cardavia": Ruleset(
        name="cardavia", opening=Opening.PLAIN, forced_capture=True,
        scoring=Scoring.PRIMIERA, figures=FigureConvention.FRENCH,
    ),
    "chkoum": Ruleset(name="chkoum", opening=Opening.PLAIN, target=12),
}

class RulesetChanges(TypedDict, total=False):
    """The fields a variant sets (see :data:`VARIANTS`)."""

    opening: Opening
    redeal: RedealRule
    forced_capture: bool
    scoring: Scoring
    figures: FigureConvention


#: Named variants a table can pick on top of a preset.
VARIANTS: dict[str, RulesetChanges] = {
    "cut-and-draw": {"opening": Opening.CUT_AND_DRAW},
    "plain": {"opening": Opening.PLAIN},
    "redeal-kings": {"redeal": RedealRule.KINGS},
    "redeal-any-three": {"redeal": RedealRule.ANY_THREE},
    "no-redeal": {"redeal": RedealRule.NONE},
    "forced-capture": {"forced_capture": True},
    "free-capture": {"forced_capture": False},
    "primiera": {"scoring": Scoring.PRIMIERA},
    "barmila": {"scoring": Scoring.BARMILA},
    "french-figures": {"figures": FigureConvention.FRENCH},
    "tunisian-figures": {"figures": FigureConvention.TUNISIAN},
}
