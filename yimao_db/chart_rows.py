"""The chart's rows as typed objects. Generated from the view declarations
(yimao_db/kb/views) by `python -m yimao_db.present.generate`: do not edit;
tests/test_generated.py fails when this file is stale.

One NamedTuple per view of the chart (yimao_db.kb.views.chart), one field per column
in the view's order (reading_id only in the head), typed by the column's kind (a row
is a tuple: a cast makes six of these classes, and a NamedTuple costs a sixth of a
dataclass to make); COLUMNS names the columns each view is read by,
FLAGS, NUMBER_LISTS and TEXT_LISTS the columns of those kinds. A chart is read
through this module without loading the declarations."""

from __future__ import annotations

from typing import Any, NamedTuple


class ChartLine(NamedTuple):
    """A row of v_reading_line without reading_id."""

    position: int
    value: int
    is_moving: int
    stem: str
    branch: str
    element: str
    relative: str
    spirit: str
    hour_spirit: str | None
    month_spirit: str | None
    noble_general: str | None
    is_world: int
    is_response: int
    is_between: int
    mansion: str
    is_dusk_mansion: int
    is_void: int
    is_month_break: int
    is_day_clash: int
    strength: str
    stage: str
    changed_stem: str | None
    changed_branch: str | None
    changed_element: str | None
    changed_relative: str | None
    transform: str | None
    ganzhi: str
    changed_ganzhi: str | None
    day_on: int
    day_generates: int
    day_helps: int
    day_controls: int
    day_combines: int
    month_on: int
    month_generates: int
    month_helps: int
    month_controls: int
    month_combines: int
    changed_is_void: int | None
    changed_is_month_break: int | None
    changed_is_day_clash: int | None
    places: str


class HiddenLine(NamedTuple):
    """A row of v_reading_hidden without reading_id."""

    position: int
    relative: str
    ganzhi: str
    element: str
    over_ganzhi: str
    is_void: int
    is_month_break: int
    strength: str
    stage: str
    stem: str
    branch: str
    over_relative: str
    is_day_clash: int
    day_on: int
    day_generates: int
    day_helps: int
    day_controls: int
    day_combines: int
    month_on: int
    month_generates: int
    month_helps: int
    month_controls: int
    month_combines: int


class ChartSign(NamedTuple):
    """A row of v_reading_sign without reading_id."""

    sign: str
    position: int | None
    subject: str
    polarity: str
    weight: int
    passage: str | None
    basis: str
    meaning: str
    meaning_zh: str
    cancels: str | None


class ChangedLine(NamedTuple):
    """A row of v_reading_changed_line without reading_id."""

    position: int
    yang: int
    stem: str
    branch: str
    element: str
    relative: str
    ganzhi: str


class ChartUse(NamedTuple):
    """A row of v_reading_use without reading_id."""

    subject: str
    role: str
    role_ordinal: int
    mark: str
    relative: str
    source: str
    position: int
    stem: str
    branch: str
    element: str
    ganzhi: str
    strength: str
    stage: str
    day_on: int
    day_generates: int
    day_helps: int
    day_controls: int
    day_combines: int
    month_on: int
    month_generates: int
    month_helps: int
    month_controls: int
    month_combines: int
    is_void: int
    is_month_break: int
    is_day_clash: int
    is_moving: int
    transform: str | None
    changed_ganzhi: str | None
    fly_relation: str | None
    fly_ganzhi: str | None
    fly_is_moving: int | None
    fly_is_day_clash: int | None
    month_stands_for: int
    day_stands_for: int
    candidate_count: int


class Chart(NamedTuple):
    """The row of v_reading, and beside it the rows of its parts:

    - lines: v_reading_line
    - hidden: v_reading_hidden
    - signs: v_reading_sign
    - changed_lines: v_reading_changed_line
    - use: v_reading_use
    """

    reading_id: int
    question: str | None
    cast_at: str | None
    tz: str | None
    year_gz: str | None
    month_gz: str | None
    day_gz: str
    hour_gz: str | None
    void_branches: str
    primary_king_wen: int
    primary_name: str
    changed_king_wen: int | None
    changed_name: str | None
    palace: str
    moving_lines: str
    nuclear_king_wen: int
    is_liuchong: int
    is_liuhe: int
    generation_name: str
    gua_shen: str
    gua_shen_positions: str
    shi_shen_line: int
    created_at: str
    method: str
    cast_input: str | None
    month_branch: str
    solar_term: str | None
    half_year: str | None
    early_rat: int
    najia_variant: str
    primary_bits: str
    changed_bits: str | None
    primary_short_name: str
    changed_short_name: str | None
    year_relative: str | None
    month_relative: str
    day_relative: str
    hour_relative: str | None
    matter: str | None
    outcome: str | None
    outcome_on: str | None
    note_count: int
    tag_count: int
    changed_palace: str | None
    changed_generation_name: str | None
    nuclear_name: str
    cast_utc: str | None
    sun_mansion: str | None
    moon_mansion: str | None
    all_moving_name: str | None
    lines: tuple[ChartLine, ...]
    hidden: tuple[HiddenLine, ...]
    signs: tuple[ChartSign, ...]
    changed_lines: tuple[ChangedLine, ...]
    use: tuple[ChartUse, ...]

    def as_dict(self) -> dict[str, Any]:
        """The chart as JSON-ready data: each part a list of dicts."""
        data = self._asdict()
        for part in PARTS:
            data[part] = [row._asdict() for row in data[part]]
        return data


PARTS = (
    "lines",
    "hidden",
    "signs",
    "changed_lines",
    "use",
)
# the columns each view is read by, in the order of its class's fields
COLUMNS: dict[str, tuple[str, ...]] = {
    "v_reading": (
        "reading_id",
        "question",
        "cast_at",
        "tz",
        "year_gz",
        "month_gz",
        "day_gz",
        "hour_gz",
        "void_branches",
        "primary_king_wen",
        "primary_name",
        "changed_king_wen",
        "changed_name",
        "palace",
        "moving_lines",
        "nuclear_king_wen",
        "is_liuchong",
        "is_liuhe",
        "generation_name",
        "gua_shen",
        "gua_shen_positions",
        "shi_shen_line",
        "created_at",
        "method",
        "cast_input",
        "month_branch",
        "solar_term",
        "half_year",
        "early_rat",
        "najia_variant",
        "primary_bits",
        "changed_bits",
        "primary_short_name",
        "changed_short_name",
        "year_relative",
        "month_relative",
        "day_relative",
        "hour_relative",
        "matter",
        "outcome",
        "outcome_on",
        "note_count",
        "tag_count",
        "changed_palace",
        "changed_generation_name",
        "nuclear_name",
        "cast_utc",
        "sun_mansion",
        "moon_mansion",
        "all_moving_name",
    ),
    "v_reading_line": (
        "reading_id",
        "position",
        "value",
        "is_moving",
        "stem",
        "branch",
        "element",
        "relative",
        "spirit",
        "hour_spirit",
        "month_spirit",
        "noble_general",
        "is_world",
        "is_response",
        "is_between",
        "mansion",
        "is_dusk_mansion",
        "is_void",
        "is_month_break",
        "is_day_clash",
        "strength",
        "stage",
        "changed_stem",
        "changed_branch",
        "changed_element",
        "changed_relative",
        "transform",
        "ganzhi",
        "changed_ganzhi",
        "day_on",
        "day_generates",
        "day_helps",
        "day_controls",
        "day_combines",
        "month_on",
        "month_generates",
        "month_helps",
        "month_controls",
        "month_combines",
        "changed_is_void",
        "changed_is_month_break",
        "changed_is_day_clash",
        "places",
    ),
    "v_reading_hidden": (
        "reading_id",
        "position",
        "relative",
        "ganzhi",
        "element",
        "over_ganzhi",
        "is_void",
        "is_month_break",
        "strength",
        "stage",
        "stem",
        "branch",
        "over_relative",
        "is_day_clash",
        "day_on",
        "day_generates",
        "day_helps",
        "day_controls",
        "day_combines",
        "month_on",
        "month_generates",
        "month_helps",
        "month_controls",
        "month_combines",
    ),
    "v_reading_sign": (
        "reading_id",
        "sign",
        "position",
        "subject",
        "polarity",
        "weight",
        "passage",
        "basis",
        "meaning",
        "meaning_zh",
        "cancels",
    ),
    "v_reading_changed_line": (
        "reading_id",
        "position",
        "yang",
        "stem",
        "branch",
        "element",
        "relative",
        "ganzhi",
    ),
    "v_reading_use": (
        "reading_id",
        "subject",
        "role",
        "role_ordinal",
        "mark",
        "relative",
        "source",
        "position",
        "stem",
        "branch",
        "element",
        "ganzhi",
        "strength",
        "stage",
        "day_on",
        "day_generates",
        "day_helps",
        "day_controls",
        "day_combines",
        "month_on",
        "month_generates",
        "month_helps",
        "month_controls",
        "month_combines",
        "is_void",
        "is_month_break",
        "is_day_clash",
        "is_moving",
        "transform",
        "changed_ganzhi",
        "fly_relation",
        "fly_ganzhi",
        "fly_is_moving",
        "fly_is_day_clash",
        "month_stands_for",
        "day_stands_for",
        "candidate_count",
    ),
}
FLAGS = frozenset(
    {
        "changed_is_day_clash",
        "changed_is_month_break",
        "changed_is_void",
        "day_combines",
        "day_controls",
        "day_generates",
        "day_helps",
        "day_on",
        "day_stands_for",
        "early_rat",
        "fly_is_day_clash",
        "fly_is_moving",
        "is_between",
        "is_day_clash",
        "is_dusk_mansion",
        "is_liuchong",
        "is_liuhe",
        "is_month_break",
        "is_moving",
        "is_response",
        "is_void",
        "is_world",
        "month_combines",
        "month_controls",
        "month_generates",
        "month_helps",
        "month_on",
        "month_stands_for",
        "yang",
    }
)
NUMBER_LISTS = frozenset(
    {
        "gua_shen_positions",
        "moving_lines",
    }
)
TEXT_LISTS = frozenset(
    {
        "month_spirit",
        "places",
        "transform",
    }
)
