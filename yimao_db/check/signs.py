"""The signs of stored readings against the rules, for ``yimao check``.

:func:`sign_problems` recomputes the signs of stored readings with the oracle
(:func:`yimao_db.kb.expected.signs.expected_signs`, the rules alone) and compares them with
the rows ``v_reading_sign`` gives, reading by reading. A sign the rules give and the view
does not, or the other way round, is a problem named by reading, sign and line. The seeded
sign tables themselves are compared with the rules by ``yimao check``'s seeded-table check,
like every other seeded table.

Readings are read in batches of ``BATCH`` ids, each batch with one query per view (the ids
bound as one expanding parameter), so a check of many readings never runs the view once per
reading.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence

from sqlalchemy import BindParameter, Connection, bindparam, text

from yimao_db.check.problems import Problem
from yimao_db.kb.expected.signs import expected_signs

BATCH = 500
MAX_PROBLEMS = 50  # listed per check; the rest are counted in one line

IDS_PARAM: BindParameter[list[int]] = bindparam("ids", expanding=True)
READINGS = text(
    "SELECT id, day_gz, month_branch, hour_gz, najia_half, matter, about, cast_utc FROM reading "
    "WHERE id IN :ids ORDER BY id"
).bindparams(IDS_PARAM)
LINES = text(
    "SELECT reading_id, position, value FROM reading_line "
    "WHERE reading_id IN :ids ORDER BY reading_id, position"
).bindparams(IDS_PARAM)
SIGNS = text(
    "SELECT reading_id, sign, position FROM v_reading_sign WHERE reading_id IN :ids"
).bindparams(IDS_PARAM)
IDS = text("SELECT id FROM reading ORDER BY id")

Fired = Counter[tuple[str, int | None]]


def _batches(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), BATCH):
        yield list(ids[start : start + BATCH])


def _compare(reading_id: int, want: Fired, have: Fired) -> list[Problem]:
    found = []
    for extra, gives, not_ in ((want - have, "rules", "view"), (have - want, "view", "rules")):
        for (sign, position), n in sorted(extra.items(), key=repr):
            where = "the reading" if position is None else f"line {position}"
            times = "" if n == 1 else f" {n} times"
            found.append(
                Problem(
                    "reading",
                    "v_reading_sign",
                    f"reading_id={reading_id}",
                    f"sign {sign} on {where}: the {gives} give{'s' if gives == 'view' else ''} "
                    f"it{times}, the {not_} do{'es' if not_ == 'view' else ''} not",
                )
            )
    return found


def _with_use(
    values: str,
    day: str,
    month: str,
    hour: str | None,
    half: str,
    matter: str | None,
    about: str,
    cast_utc: str | None,
) -> list[tuple[str, int | None]]:
    """The expected signs of a reading that names its subject, from the whole expected chart
    (the seasonal najia's second half is the only half that differs from the fixed table)."""
    from yimao_db.kb.expected.chart import expected_chart
    from yimao_db.kb.vocab import SEASONAL

    seasonal = half == "夏至後"
    chart = expected_chart(
        values,
        day_gz=day,
        month_branch=month,
        hour_gz=hour,
        najia_variant=SEASONAL if seasonal else "fixed",
        half_year=half if seasonal else None,
        matter=matter,
        about=about,
        cast_utc=cast_utc,
    )
    return [(row["sign"], row["position"]) for row in chart.signs]


def sign_problems(conn: Connection, reading_ids: Iterable[int] | None = None) -> list[Problem]:
    """Every difference between the rules' signs and ``v_reading_sign`` for the readings
    ``reading_ids`` (default: every stored reading); at most ``MAX_PROBLEMS`` are listed."""
    wanted = (
        sorted(set(reading_ids)) if reading_ids is not None else list(conn.execute(IDS).scalars())
    )
    problems: list[Problem] = []
    for batch in _batches(wanted):
        bounds = {"ids": batch}
        values: dict[int, str] = defaultdict(str)
        for rid, _, value in conn.execute(LINES, bounds):
            values[rid] += str(value)
        have: dict[int, Fired] = defaultdict(Counter)
        for rid, sign, position in conn.execute(SIGNS, bounds):
            have[rid][(sign, position)] += 1
        for rid, day, month, hour, half, matter, about, utc in conn.execute(READINGS, bounds):
            if len(values[rid]) != 6 or not set(values[rid]) <= set("6789"):
                continue  # six lines are yimao check's own reading check
            try:
                if about is None:
                    fired = [
                        (f.sign, f.position)
                        for f in expected_signs(
                            values[rid],
                            day_gz=day,
                            month_branch=month,
                            hour_gz=hour,
                            najia_half=half,
                            matter=matter,
                            cast_utc=utc,
                        )
                    ]
                else:  # the signs of the 用神 need the chart's lines (the whole oracle)
                    fired = _with_use(values[rid], day, month, hour, half, matter, about, utc)
            except (KeyError, ValueError, IndexError, TypeError, StopIteration):
                continue  # a moment or a subject that is not one: reported elsewhere

            want: Fired = Counter(fired)
            problems += _compare(rid, want, have[rid])
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = [
            *problems[:MAX_PROBLEMS],
            Problem("reading", "v_reading_sign", None, f"… and {more} more differences"),
        ]
    return problems
