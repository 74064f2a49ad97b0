"""Rulesets: every choice a table makes before a match (:class:`Ruleset`), the named
presets of rules.md (:data:`PRESETS`) and the variants a table can pick on top of one
(:data:`VARIANTS`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypedDict

from .cards import FigureConvention

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
        if type(self.target) is not int or not 1 <= self.target <= 1000:
            raise ValueError(f"target must be a whole number of points from 1 to 1000, "
                             f"not {self.target!r}")
        for name, kind in (("opening", Opening), ("redeal", RedealRule), ("scoring", Scoring),
                           ("figures", FigureConvention)):
            if not isinstance(getattr(self, name), kind):
                raise ValueError(f"{name} must be a {kind.__name__}, not {getattr(self, name)!r}")
        if type(self.forced_capture) is not bool or type(self.name) is not str:
            raise ValueError("forced_capture is a bool and name a str")

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """A named preset of rules.md: ``tunisian`` (default), ``cardavia``, ``chkoum``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None

    def with_variant(self, variant: str) -> Ruleset:
        """This ruleset with one named variant applied (see :data:`VARIANTS`)."""
        try:
            changes = VARIANTS[variant]
        except KeyError:
            raise ValueError(
                f"unknown variant {variant!r}; choose among {', '.join(VARIANTS)}"
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
        """Inverse of :meth:`to_dict`; ValueError on anything unknown or malformed."""
        if not isinstance(data, dict):
            raise ValueError("a ruleset is a map")
        try:
            forced = data["forced_capture"]
            if not isinstance(forced, bool) or not isinstance(data["name"], str):
                raise ValueError("malformed ruleset")
            return cls(
                name=data["name"],
                opening=Opening(data["opening"]),
                redeal=RedealRule(data["redeal"]),
                forced_capture=forced,
                scoring=Scoring(data["scoring"]),
                target=data["target"],
                figures=FigureConvention(data["figures"]),
            )
        except KeyError as exc:
            raise ValueError(f"ruleset lacks {exc.args[0]!r}") from None

    def canonical_json(self) -> bytes:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":")).encode()

    def digest(self) -> bytes:
        """SHA-256 of the canonical JSON: the ruleset hash peers agree on."""
        return hashlib.sha256(self.canonical_json()).digest()


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
