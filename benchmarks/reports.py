"""Reports at scale: the documented report queries and full chart reads at N stored readings.

Measured against a floor, in one run, medians of ``--repeat`` runs after a warm-up:

- floor: ``SELECT sum(value) FROM reading_line`` (a plain scan of every cast line);
- ``count_by_primary``: readings per primary hexagram (goal ≤ 2 × the floor);
- ``wealth_void``: readings whose 妻財 line is void on the day (goal ≤ 5 × the floor);
  both are the queries of docs/queries.md;
- every chart: every row of ``v_reading_line`` joined to ``v_reading``, fetched, against a
  flat table holding the same rows (goal: ≥ 0.5 of the flat table's rows/s);
- one chart: the rows of ``v_reading_line`` joined to ``v_reading`` of one random reading,
  on a connection taken from the reader engine for each (goal ≤ 0.3 ms, flat in N); and,
  beyond the goal, the whole chart a practitioner sees, :func:`yimao_db.readings.chart`
  (five queries, one per view: v_reading, v_reading_line, v_reading_hidden, v_reading_sign,
  v_reading_changed_line).

Run ``python benchmarks/reports.py`` (1,000,000 readings in a temporary SQLite file; the
first run takes a few minutes to fill it) or ``--readings 100000`` for a quick look;
``--pg URL`` runs the same on a fresh PostgreSQL database at that server URL (created and
dropped), holding the SQLite file's very readings (copied with COPY). The readings are
random casts at random minutes of 1901-2099, their moments computed by the calendar,
inserted straight into the tables (the import is measured by benchmarks/import.py).

The natural queries (``NATURAL``) are the queries a person, a reporting tool or a datasette
facet writes against the public views, each timed interleaved with the floor; on PostgreSQL
also against SQLite's time of the same run (goal ≤ 2 ×). ``yimao stats --by …`` runs as a
process (``--by sign|hexagram|changed|outcome|use``, goal ≤ 3 s). ``--natural-only`` stops
there; ``--match TEXT`` keeps the natural queries holding TEXT. ``--every-column`` times,
instead, a ``GROUP BY`` of each column of each reading view alone (``GROUPINGS``), and
says how many columns of each view meet its goal.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from processes import run_child
from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url

from yimao_db import dialect
from yimao_db.building import build
from yimao_db.calendar.moment import moment_at
from yimao_db.db import reader_engine, writer_engine
from yimao_db.kb import derived, sign_count
from yimao_db.kb.rules.keys import reading_keys
from yimao_db.readings import chart

QUERIES_MD = Path(__file__).resolve().parent.parent / "docs" / "queries.md"
FLOOR = "SELECT sum(value) FROM reading_line"
EVERY_CHART = (
    "SELECT r.*, {line_columns} FROM v_reading r"
    " JOIN v_reading_line l ON l.reading_id = r.reading_id"
)
ONE_CHART = EVERY_CHART + " WHERE r.reading_id = :id ORDER BY l.position"
# The queries a person, a reporting tool or a datasette facet writes against the public
# views (not the documented hand-tuned forms), each with its goal as a multiple of the floor.
NATURAL: tuple[tuple[str, float], ...] = (
    ("SELECT primary_king_wen, count(*) FROM v_reading GROUP BY 1", 3),
    ("SELECT primary_name, count(*) FROM v_reading GROUP BY 1", 3),
    ("SELECT palace, count(*) FROM v_reading GROUP BY 1", 3),
    ("SELECT generation_name, count(*) FROM v_reading GROUP BY 1", 3),
    ("SELECT day_relative, count(*) FROM v_reading GROUP BY 1", 3),
    ("SELECT outcome, count(*) FROM v_reading GROUP BY 1", 3),
    # two columns, and filters: SQLite may read a facet's index and look up each row it finds
    ("SELECT palace, primary_name, count(*) FROM v_reading GROUP BY 1, 2", 3),
    ("SELECT count(*) FROM v_reading WHERE palace = '乾' AND is_liuchong = 1", 3),
    ("SELECT count(*) FROM v_reading WHERE day_gz = '甲子'", 3),
    (
        "SELECT count(DISTINCT reading_id) FROM v_reading_line "
        "WHERE relative = '妻財' AND is_void = 1",
        5,
    ),
    ("SELECT spirit, count(*) FROM v_reading_line GROUP BY 1", 5),
    ("SELECT relative, count(*) FROM v_reading_line GROUP BY 1", 5),
    ("SELECT transform, count(*) FROM v_reading_line GROUP BY 1", 5),
    # a column without an index: SQLite reads every stored line (and sorts them to group)
    ("SELECT stage, count(*) FROM v_reading_line GROUP BY 1", 5),
    ("SELECT count(*) FROM v_reading_line WHERE is_world = 1 AND is_month_break = 1", 5),
    # an index and a column it does not hold: a lookup of each line the index finds
    ("SELECT count(*) FROM v_reading_line WHERE spirit = '白虎' AND is_moving = 1", 5),
    ("SELECT relative, count(*) FROM v_reading_hidden GROUP BY 1", 5),
    ("SELECT count(*) FROM v_reading_hidden WHERE is_void = 1", 5),
    ("SELECT relative, count(*) FROM v_reading_use GROUP BY 1", 5),
    ("SELECT count(*) FROM v_reading_use WHERE role = '用神' AND is_void = 1", 5),
    ("SELECT sign, count(*) FROM v_reading_sign GROUP BY 1", 5),
    ("SELECT basis, count(*) FROM v_reading_sign GROUP BY 1", 5),
)
# --every-column: each reading view's goal for a GROUP BY of one of its columns, as
# docs/performance.md states them (v_reading_use takes the lines' goal)
GROUPINGS = {
    "v_reading": 3.0,
    "v_reading_line": 5.0,
    "v_reading_hidden": 5.0,
    "v_reading_use": 5.0,
    "v_reading_sign": 5.0,
}
MATCH: list[str] = []  # --match: only the natural queries holding one of these
STATS = ("sign", "hexagram", "changed", "outcome", "use")  # yimao stats --by …, goal ≤ 3 s each
STATS_KEPT: list[str] = []  # --stats: only these groupings
BATCH = 50_000
SHANGHAI = ZoneInfo("Asia/Shanghai")


def _line_columns() -> str:
    """The columns of v_reading_line but its reading_id, as ``l.name`` (PostgreSQL's CREATE
    TABLE AS refuses a column named twice)."""
    from yimao_db.kb.views import views

    return ", ".join(f"l.{c}" for c in views()["v_reading_line"].column_names if c != "reading_id")


def documented(name: str) -> str:
    """The SQL of ``-- query: name`` in docs/queries.md."""
    text_ = QUERIES_MD.read_text(encoding="utf-8")
    start = text_.index(f"-- query: {name}\n") + len(f"-- query: {name}\n")
    return text_[start : text_.index("```", start)].strip()


SUBJECTS = ("妻財", "官鬼", "父母", "子孫", "兄弟", "世", "應", "考試", "疾病")


def random_rows(n: int, seed: int) -> Iterator[tuple[dict[str, Any], list[int]]]:
    """``n`` random readings: a reading row (with its keys and, for half of them, a subject)
    and its six values."""
    rng = random.Random(seed)
    start = datetime(1901, 1, 1).timestamp()
    span = datetime(2099, 12, 31).timestamp() - start
    for _ in range(n):
        values = "".join(str(6 + sum(rng.randrange(2) for _ in range(3))) for _ in range(6))
        # an instant, with its offset: a wall time alone may fall in a summer-time change
        when = datetime.fromtimestamp(start + rng.random() * span, SHANGHAI).replace(second=0)
        m = moment_at(when)
        keys = reading_keys(values, "fixed", m.half_year)
        row = {
            "created_at": "2026-11-30T00:00:00.000000+00:00",
            "question": None,
            "method": "values",
            "cast_input": values,
            "cast_at": m.cast_at,
            "tz": m.tz,
            "year_gz": m.year_gz,
            "month_gz": m.month_gz,
            "month_branch": m.month_branch,
            "day_gz": m.day_gz,
            "hour_gz": m.hour_gz,
            "solar_term": m.solar_term,
            "half_year": m.half_year,
            "early_rat": 0,
            "najia_variant": "fixed",
            # half the readings are about a subject, so that a chart reads its 用神 too
            "about": rng.choice(SUBJECTS) if rng.random() < 0.5 else None,
            "cast_utc": m.cast_utc,  # the lodges of v_reading and the lodge signs read it
            **keys._asdict(),
        }
        yield row, [int(v) for v in values]


def fill(engine: Engine, n: int, seed: int) -> None:
    """Insert ``n`` random readings (ids 1..n) in batches, with their derived rows."""
    columns: list[str] | None = None
    readings: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    with engine.begin() as conn:
        for i, (row, values) in enumerate(random_rows(n, seed), 1):
            row["id"] = i
            columns = columns or list(row)
            readings.append(row)
            lines += [
                {"reading_id": i, "position": p, "value": v, "coins": None}
                for p, v in enumerate(values, 1)
            ]
            if len(readings) >= BATCH or i == n:
                assert columns is not None
                names = ", ".join(columns)
                marks = ", ".join(f":{c}" for c in columns)
                conn.execute(text(f"INSERT INTO reading ({names}) VALUES ({marks})"), readings)
                conn.execute(
                    text(
                        "INSERT INTO reading_line (reading_id, position, value, coins) "
                        "VALUES (:reading_id, :position, :value, :coins)"
                    ),
                    lines,
                )
                derived.insert_range(conn, readings[0]["id"], i)  # as a write does
                readings, lines = [], []
                sys.stderr.write(f"\r  filled {i:,} of {n:,} readings")
        sys.stderr.write("\n")


def copy_readings(source: str, engine: Engine) -> None:
    """Copy the readings of the SQLite file ``source`` into PostgreSQL with COPY, with their
    derived rows, and count their signs into ``sign_count`` as a write would: both backends
    then hold the very same rows (1,000,000 readings copy in about six minutes)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        with engine.begin() as conn:
            driver = conn.connection.driver_connection
            assert driver is not None
            cursor = driver.cursor()
            for table in ("reading", "reading_line", *(d.table for d in derived.DERIVED)):
                columns = ", ".join(r[1] for r in src.execute(f"PRAGMA table_info({table})"))
                with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in src.execute(f"SELECT {columns} FROM {table} ORDER BY 1, 2"):
                        copy.write_row(row)
                sys.stderr.write(f"  copied {table}\n")
            # the counts per sign, which every write keeps and COPY bypasses
            sign_count.refresh(conn)
            conn.exec_driver_sql(
                "SELECT setval(pg_get_serial_sequence('reading', 'id'), max(id)) FROM reading"
            )
    finally:
        src.close()


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fetch_all(conn: Connection, sql: str) -> int:
    result = conn.exec_driver_sql(sql)
    n = 0
    while rows := result.fetchmany(10_000):
        n += len(rows)
    return n


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def interleaved(conn: Connection, sql: str, repeat: int) -> tuple[float, float]:
    """(``sql``'s median, the floor's): each run right after a run of the floor, so that a
    change in the machine's load touches both alike; after a warm-up."""
    floors: list[float] = []
    times: list[float] = []
    conn.exec_driver_sql(sql).fetchall()  # warm-up
    for _ in range(repeat):
        for sink, q in ((floors, FLOOR), (times, sql)):
            start = time.perf_counter()
            conn.exec_driver_sql(q).fetchall()
            sink.append(time.perf_counter() - start)
    return statistics.median(times), statistics.median(floors)


def every_column(
    conn: Connection, repeat: int, sqlite: dict[str, float] | None
) -> dict[str, float]:
    """``SELECT col, count(*) FROM view GROUP BY 1`` for every column of every reading view
    (:data:`GROUPINGS`, with the goal of a grouping of one column of each), against the
    floor: how many columns meet the goal, and the ratio of each that does not; on
    PostgreSQL also against SQLite's time of the same run (goal ≤ 2 ×). The medians."""
    from yimao_db.kb.views import views

    found: dict[str, float] = {}
    print(f"  every column grouped alone (load average {load_average()}):")
    for view, goal in GROUPINGS.items():
        ratios, against = {}, {}
        for column in views()[view].column_names:
            sql = f"SELECT {column}, count(*) FROM {view} GROUP BY 1"
            t, f = interleaved(conn, sql, repeat)
            found[sql], ratios[column] = t, t / f
            if sqlite is not None:
                against[column] = t / sqlite[sql]
        print(f"    {view}: {_within(ratios, goal, f'{goal:g} × the floor')}")
        if against:
            print("      " + _within(against, 2, "2 × SQLite's time"))
    return found


def _within(ratios: dict[str, float], goal: float, what: str) -> str:
    """How many of ``ratios`` are at most ``goal``, the highest, and each one above it."""
    missed = sorted(((r, c) for c, r in ratios.items() if r > goal), reverse=True)
    return (
        f"{len(ratios) - len(missed)} of {len(ratios)} columns within {what} (highest "
        f"{max(ratios.values()):.2f} ×)"
        + (": missed " + ", ".join(f"{c} {r:.2f} ×" for r, c in missed) if missed else "")
    )


def natural(
    conn: Connection, repeat: int, floor: float, sqlite: dict[str, float] | None
) -> dict[str, float]:
    """The queries of ``NATURAL`` as written against the views, each timed right after the
    floor (interleaved, so that a change in the machine's load touches both alike): its
    median, its ratio to the floor of the same moment and, on PostgreSQL, to SQLite's time."""
    found: dict[str, float] = {}
    print(f"  natural queries against the public views (load average {load_average()}):")
    for sql, goal in NATURAL:
        if MATCH and not any(m in sql for m in MATCH):
            continue
        t, f = interleaved(conn, sql, repeat)
        found[sql] = t
        verdict = "met" if t <= goal * f else "MISSED"
        line = f"    {t * 1000:9,.0f} ms {t / f:7.2f} × floor (≤ {goal:g}: {verdict})"
        if sqlite is not None and sql in sqlite:
            ratio = t / sqlite[sql]
            line += f", {ratio:.2f} × SQLite's (≤ 2: {'met' if ratio <= 2 else 'MISSED'})"
        print(f"{line}  {sql}")
    return found


def stats_processes(url: str, repeat: int) -> None:
    """``yimao stats --by …`` as a process, as a user runs it (goal ≤ 3 s each)."""
    print(f"  yimao stats as a process (median of {repeat}; load average {load_average()}):")
    for by in STATS_KEPT or STATS:
        argv = [sys.executable, "-m", "yimao_db", "stats", "--by", by, "--db", url]
        runs = [run_child(argv) for _ in range(repeat)]
        t = statistics.median(wall for wall, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        verdict = "met" if t <= 3 else "MISSED"
        print(f"    --by {by:8} {t:6.2f} s wall, {cpu:6.2f} s CPU (goal ≤ 3 s: {verdict})")


def report(
    engine: Engine,
    n: int,
    repeat: int,
    fetch_repeat: int,
    *,
    only_natural: bool = False,
    every: bool = False,
    sqlite: dict[str, float] | None = None,
) -> dict[str, float]:
    with engine.connect() as conn:
        backend = conn.dialect.name

        def run(sql: str) -> Callable[[], Any]:
            return lambda: conn.exec_driver_sql(sql).fetchall()

        floor = median_time(run(FLOOR), repeat)
        print(f"\n{backend}, {n:,} readings ({6 * n:,} lines); medians of {repeat}, warmed up")
        print(f"  floor  {FLOOR}: {floor * 1000:,.0f} ms")
        if every:
            return every_column(conn, repeat, sqlite)
        for name, goal in (("readings_by_primary", 2), ("readings_wealth_void", 5)):
            t = median_time(run(documented(name)), repeat)
            verdict = "met" if t <= goal * floor else "MISSED"
            figure = f"{t * 1000:,.0f} ms = {t / floor:.2f} × the floor"
            print(f"  {name} (hand-tuned, base tables): {figure} (goal ≤ {goal}: {verdict})")
        found = natural(conn, repeat, floor, sqlite)
    stats_processes(engine.url.render_as_string(hide_password=False), repeat)
    if only_natural:
        return found
    with engine.connect() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS bench_flat_chart")
        every_chart = EVERY_CHART.format(line_columns=_line_columns())
        conn.exec_driver_sql(f"CREATE TABLE bench_flat_chart AS {every_chart}")
        conn.commit()
        rows = fetch_all(conn, "SELECT * FROM bench_flat_chart")
        flat = median_time(lambda: fetch_all(conn, "SELECT * FROM bench_flat_chart"), fetch_repeat)
        views = median_time(lambda: fetch_all(conn, every_chart), fetch_repeat)
        ratio = flat / views
        verdict = "met" if ratio >= 0.5 else "MISSED"
        print(
            f"  every chart ({rows:,} rows): views {rows / views:,.0f} rows/s, flat table "
            f"{rows / flat:,.0f} rows/s: {ratio:.2f} of the flat table (goal ≥ 0.5: {verdict})"
        )
        conn.exec_driver_sql("DROP TABLE bench_flat_chart")
        conn.commit()

    rng = random.Random(7)
    ids = [rng.randint(1, n) for _ in range(500)]
    reader = reader_engine(engine.url)  # as yimao reads: on PostgreSQL, prepared plans
    with reader.connect() as conn:
        one_sql = dialect.named_params(conn, ONE_CHART.format(line_columns=_line_columns()))

    def one_chart(rid: int) -> None:
        with reader.connect() as conn:
            conn.exec_driver_sql(one_sql, {"id": rid}).fetchall()

    def chart_of(rid: int) -> None:
        chart(rid, reader)

    with reader.connect() as conn:  # the same random readings, with and without a subject
        asking = set(
            conn.execute(
                text("SELECT id FROM reading WHERE about IS NOT NULL AND id BETWEEN :a AND :b"),
                {"a": min(ids), "b": max(ids)},
            ).scalars()
        )
    for label, fn, these in (
        ("one chart (v_reading joined to v_reading_line, one reading)", one_chart, ids),
        ("the whole chart (chart(id): five queries, signs included)", chart_of, ids),
        ("  of a reading with a subject (its 用神 too)", chart_of, [i for i in ids if i in asking]),
        ("  of a reading without one", chart_of, [i for i in ids if i not in asking]),
    ):
        if not these:
            continue
        times = []
        fn(these[0])  # warm-up
        for rid in these:
            start = time.perf_counter()
            fn(rid)
            times.append(time.perf_counter() - start)
        one = statistics.median(times) * 1000
        print(f"  {label}: median {one:.3f} ms of {len(these)} (goal ≤ 0.3 ms)")
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--readings", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--fetch-repeat", type=int, default=3)
    p.add_argument("--db", help="a SQLite file to fill (kept) instead of a temporary one")
    p.add_argument("--pg", help="PostgreSQL server URL: run the same on a fresh database")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument(
        "--natural-only",
        action="store_true",
        help="only the floor, the documented and natural queries and yimao stats",
    )
    p.add_argument(
        "--match",
        action="append",
        default=[],
        help="only the natural queries whose SQL holds this text (repeatable), e.g. v_reading_sign",
    )
    p.add_argument(
        "--stats",
        action="append",
        default=[],
        choices=STATS,
        help="only these yimao stats groupings (repeatable; default all)",
    )
    p.add_argument(
        "--every-column",
        action="store_true",
        help="only the floor and a GROUP BY of every column of every reading view",
    )
    args = p.parse_args()
    MATCH.extend(args.match)
    STATS_KEPT.extend(args.stats)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db or Path(tmp) / "reports.db")
        fresh = not path.exists()
        build(str(path))
        engine = writer_engine(str(path))
        if fresh:
            fill(engine, args.readings, args.seed)
        only = args.natural_only
        every = args.every_column
        sqlite = report(
            engine, args.readings, args.repeat, args.fetch_repeat, only_natural=only, every=every
        )
        engine.dispose()
        if args.pg:
            server = make_url(args.pg)
            name = f"yimao_bench_{int(time.time())}"
            admin = create_engine(server, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.exec_driver_sql(f'CREATE DATABASE "{name}"')
            url = server.set(database=name)
            try:
                build(url)
                engine = writer_engine(url)
                copy_readings(str(path), engine)
                # what autovacuum does after a bulk load: statistics, and the visibility map
                # that lets an index-only scan skip the table (SQLite has no such step)
                with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
                    c.exec_driver_sql("VACUUM ANALYZE")
                report(
                    engine,
                    args.readings,
                    args.repeat,
                    args.fetch_repeat,
                    only_natural=only,
                    every=every,
                    sqlite=sqlite,
                )
                engine.dispose()
            finally:
                with admin.connect() as c:
                    c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
