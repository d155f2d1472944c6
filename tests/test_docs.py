"""Documentation inside the database: meta tables, the citation view, ``yimao schema``,
``docs/schema.md`` and ``yimao export-metadata``.

The column lists come from the live database (SQLAlchemy inspect), so a table, view or
column added without a description fails here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from helpers import COMPUTE_ROWS, run
from sqlalchemy import Column, Connection, MetaData, String, Table, inspect, text
from sqlalchemy.engine import make_url

from yimao_db import chart_rows
from yimao_db.building import build, head_revision
from yimao_db.db import writer_engine
from yimao_db.errors import SeedCheckFailed
from yimao_db.kb import meta as metamod
from yimao_db.kb import seeding
from yimao_db.kb.migrating import alembic_config
from yimao_db.kb.schema import metadata
from yimao_db.kb.views import Col, contract, views
from yimao_db.kb.views.chart import PARTS
from yimao_db.present import schema_doc

SCHEMA_MD = Path(__file__).resolve().parent.parent / "docs" / "schema.md"


def meta(conn: Connection) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return metamod.read_meta(conn)


# --- the oracles: what the meta tables and v_passage_citation must cover in a live database

CITATION_VIEW = "v_passage_citation"


def live_columns(conn: Connection) -> dict[str, tuple[str, list[str]]]:
    """Every table and view of the live database: name -> (kind, column names in order)."""
    inspector = inspect(conn)
    found: dict[str, tuple[str, list[str]]] = {}
    for kind, names in (
        ("table", inspector.get_table_names()),
        ("view", inspector.get_view_names()),
    ):
        for name in names:
            found[name] = (kind, [c["name"] for c in inspector.get_columns(name)])
    return found


def undocumented(conn: Connection) -> list[str]:
    """Every table, view or column of the live database the meta tables do not describe
    (or describe wrongly); empty when the documentation is complete."""
    tables, columns = metamod.read_meta(conn)
    found = metamod.problems(tables, columns)
    documented = {t["name"]: t for t in tables}
    cols: dict[str, dict[str, dict[str, Any]]] = {}
    for c in columns:
        cols.setdefault(c["table_name"], {})[c["column_name"]] = c
    live = live_columns(conn)
    for name, (kind, names) in sorted(live.items()):
        doc = documented.get(name)
        if doc is None:
            found.append(f"{kind} {name}: not in meta_table")
            continue
        if doc["kind"] != kind:
            found.append(f"{name}: documented as a {doc['kind']}, is a {kind}")
        have = cols.get(name, {})
        for ordinal, column in enumerate(names, start=1):
            entry = have.get(column)
            if entry is None or not entry["description"]:
                found.append(f"{name}.{column}: no description in meta_column")
            elif entry["ordinal"] != ordinal:
                found.append(
                    f"{name}.{column}: documented as column {entry['ordinal']}, is {ordinal}"
                )
        found += [
            f"{name}.{c}: documented but not in the database"
            for c in sorted(set(have) - set(names))
        ]
    found += [
        f"{n}: documented but not in the database" for n in sorted(set(documented) - set(live))
    ]
    return found


def citation_gaps(conn: Connection) -> list[str]:
    """Tables of the live database with a passage column whose citing rows
    ``v_passage_citation`` does not list one for one; empty when it lists them all."""
    inspector = inspect(conn)
    quote = conn.dialect.identifier_preparer.quote
    found = []
    for name in sorted(inspector.get_table_names()):
        columns = {c["name"] for c in inspector.get_columns(name)}
        if "passage" not in columns or name == "passage_citation":
            continue
        cited = conn.execute(
            text(f"SELECT COUNT(*) FROM {quote(name)} WHERE passage IS NOT NULL")
        ).scalar_one()
        listed = conn.execute(
            text(f"SELECT COUNT(*) FROM {CITATION_VIEW} WHERE table_name = :name"), {"name": name}
        ).scalar_one()
        if cited != listed:
            found.append(f"{name}: {cited} rows cite a passage, {CITATION_VIEW} lists {listed}")
    return found


# --- every table, view and column is described --------------------------------------------


def test_every_live_table_view_and_column_is_described(conn: Connection) -> None:
    assert undocumented(conn) == []


def test_the_check_reads_the_live_database(conn: Connection) -> None:
    live = live_columns(conn)
    tables, columns = meta(conn)
    assert {t["name"] for t in tables} == set(live)
    assert {(c["table_name"], c["column_name"]) for c in columns} == {
        (name, col) for name, (_, cols) in live.items() for col in cols
    }
    assert {name for name, (kind, _) in live.items() if kind == "view"} >= {
        "v_ganzhi",
        "v_hexagram",
        "v_line",
        "v_hidden",
        "v_reading",
        "v_reading_line",
        "v_reading_hidden",
        "v_reading_cast",
        "v_hexagram_pattern",
        "v_month_spirit_branch",
        "v_passage_citation",
    }
    assert all(t["description"] for t in tables)
    assert all(c["description"] for c in columns)


def test_undocumented_reports_a_new_view_column_and_blank(fresh_db: str) -> None:
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            c.execute(text("CREATE VIEW v_extra AS SELECT name, ordinal FROM spirit"))
            c.execute(text("ALTER TABLE stem ADD COLUMN nickname VARCHAR(8)"))
            c.execute(
                text(
                    "UPDATE meta_column SET description = '' "
                    "WHERE table_name = 'v_line' AND column_name = 'mansion'"
                )
            )
            c.execute(
                text(
                    "DELETE FROM meta_column "
                    "WHERE table_name = 'v_hexagram' AND column_name = 'gua_shen'"
                )
            )
            found = undocumented(c)
    finally:
        engine.dispose()
    assert "view v_extra: not in meta_table" in found
    assert "stem.nickname: no description in meta_column" in found
    assert "v_line.mansion: no description" in found
    assert "v_hexagram.gua_shen: no description in meta_column" in found


def test_seeded_rows_are_the_generated_rows(conn: Connection) -> None:
    rows = metamod.meta_rows(metamod.seed_passages())
    tables, columns = meta(conn)
    assert tables == rows["meta_table"]
    key = lambda c: (c["table_name"], c["ordinal"])  # noqa: E731
    assert sorted(columns, key=key) == sorted(rows["meta_column"], key=key)
    assert metamod.problems(rows["meta_table"], rows["meta_column"]) == []


def test_every_model_table_and_column_is_described_in_code() -> None:
    for table in metadata.sorted_tables:
        assert table.comment, table.name
        for column in table.columns:
            assert column.comment, f"{table.name}.{column.name}"


def test_problems_catch_bad_rows() -> None:
    rows = metamod.meta_rows(metamod.seed_passages())
    tables, columns = rows["meta_table"], rows["meta_column"]
    columns[0] = {**columns[0], "description": ""}
    tables.append({**tables[0]})
    found = metamod.problems(tables, columns)
    assert any("no description" in p for p in found)
    assert any("documented twice" in p for p in found)


def test_seed_check_fails_on_an_undescribed_view(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = dict(views())
    view = broken["v_line"]
    broken["v_line"] = dataclasses.replace(view, columns=(Col(view.columns[0].name, ""),))
    monkeypatch.setattr(metamod, "views", lambda: broken)
    monkeypatch.setattr(seeding, "computed_rows", COMPUTE_ROWS)  # derived again, from these
    with pytest.raises(SeedCheckFailed, match=r"v_line\.king_wen: no description"):
        seeding.compute_tables()


# --- domains and passages -----------------------------------------------------------------


def column(conn: Connection, table: str, name: str) -> dict[str, Any]:
    row = conn.execute(
        text("SELECT * FROM meta_column WHERE table_name = :t AND column_name = :c"),
        {"t": table, "c": name},
    )
    return dict(row.mappings().one())


@pytest.mark.parametrize(
    ("table", "name", "domain"),
    [
        ("day_spirit", "position", "1..6"),
        ("hexagram_line", "yang", "0/1"),
        ("hexagram_line", "branch", "FK branch.name"),
        ("hexagram", "bits", "6 characters 0/1"),
        ("hexagram", "generation", "0..7; FK generation.ordinal"),
        ("branch_relation", "relation", "六合/六衝/六害/三刑/進神/退神"),
        ("branch_relation", "kind", "無恩之刑/恃勢之刑/無禮之刑/自刑 or NULL"),
        ("seasonal_strength", "strength", "FK strength.name"),
        ("spirit_attribute", "basis", "book/standard/decision"),
        ("spirit_attribute", "passage", "FK source_passage.id or NULL"),
        ("reading_line", "value", "6..9"),
        ("hexagram", "name", "text ≤ 8"),
        ("v_line", "position", "1..6"),
    ],
)
def test_domains(conn: Connection, table: str, name: str, domain: str) -> None:
    assert column(conn, table, name)["domain"] == domain


def test_key_columns(conn: Connection) -> None:
    assert column(conn, "branch_relation", "first")["is_key"] == 1
    assert column(conn, "branch_relation", "kind")["is_key"] == 0
    assert column(conn, "v_line", "king_wen")["is_key"] == 0


def test_passages(conn: Connection) -> None:
    tables = {t["name"]: t for t in meta(conn)[0]}
    assert tables["spirit_attribute"]["passage"] == "7.3"
    assert tables["dusk_mansion"]["passage"] == "8.12"
    assert tables["v_month_spirit_branch"]["passage"] == "7.2"
    assert tables["reading"]["passage"] is None
    assert column(conn, "spirit_attribute", "governs")["passage"] == "7.7"
    assert column(conn, "hexagram", "five_star")["passage"] == "8.6"
    assert column(conn, "v_line", "is_between")["passage"] == "10.1"
    # a chapter the book does not have (§11, §12 of docs/rules.md) is not a passage
    assert tables["month_stem"]["passage"] is None


def test_first_passage() -> None:
    known = ["7.3", "7.7", "8.13"]
    assert metamod.first_passage("as said (§7.13, §7.7 commentary)", known) == "7.7"
    assert metamod.first_passage("§8.13–8.15", known) == "8.13"
    assert metamod.first_passage("§12, standard", known) is None


# --- the citation view --------------------------------------------------------------------


def test_citation_view_covers_every_table_with_a_passage(conn: Connection) -> None:
    cited = [
        name
        for name in inspect(conn).get_table_names()
        if "passage" in {c["name"] for c in inspect(conn).get_columns(name)}
    ]
    assert {"spirit", "branch_relation", "between_use", "meta_table", "meta_column"} <= set(cited)
    assert citation_gaps(conn) == []
    listed = set(conn.execute(text("SELECT DISTINCT table_name FROM v_passage_citation")).scalars())
    with_rows = {
        name
        for name in cited
        if name != "passage_citation"
        and conn.execute(text(f"SELECT COUNT(*) FROM {name} WHERE passage IS NOT NULL")).scalar()
    }
    assert listed == with_rows


def test_citation_gaps_notice_a_table_the_view_misses(fresh_db: str) -> None:
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            c.execute(
                text(
                    "CREATE TABLE extra_symbol (name VARCHAR(8) PRIMARY KEY, "
                    "passage VARCHAR(8) REFERENCES source_passage (id))"
                )
            )
            c.execute(text("INSERT INTO extra_symbol VALUES ('x', '5.1')"))
            found = citation_gaps(c)
    finally:
        engine.dispose()
    assert "extra_symbol: 1 rows cite a passage, v_passage_citation lists 0" in found


def test_citation_rows(conn: Connection) -> None:
    rows = conn.execute(
        text(
            "SELECT passage, chapter_no, passage_no, chapter, table_name, row_key, basis "
            "FROM v_passage_citation WHERE table_name IN ('branch_relation', 'line_role', "
            "'meta_column', 'spirit_attribute')"
        )
    ).all()
    got = {(r[4], r[5]): r for r in rows}
    assert got[("branch_relation", "六衝|子|午")][:4] == ("1.7", 1, 7, "甲子章第一")
    assert got[("branch_relation", "六衝|子|午")][6] == "standard"
    assert got[("line_role", "5|君")][0] == "10.5"
    assert got[("spirit_attribute", "朱雀")][0] == "7.6"
    assert got[("meta_column", "spirit_attribute|governs")][0] == "7.7"
    assert got[("meta_column", "spirit_attribute|governs")][6] is None
    keys = [(r[4], r[5]) for r in rows]
    assert len(keys) == len(set(keys))


def test_every_cited_table_is_collected_without_naming_it() -> None:
    """passage_citation is filled from the schema: a table with a passage column is listed
    because it has one, and a new one needs no edit anywhere."""
    tables = seeding.compute_tables()
    collected = {r["table_name"] for r in metamod.cited_rows(tables)}
    with_passage = {
        t.name
        for t in metadata.tables.values()
        if "passage" in t.c
        and t.name != "passage_citation"
        and any(r.get("passage") for r in tables.get(t.name, []))
    }
    assert collected == with_passage
    md = MetaData()
    for table in metadata.tables.values():
        table.to_metadata(md)
    Table(
        "extra_symbol",
        md,
        Column("name", String(8), primary_key=True),
        Column("passage", String(8)),
    )
    rows = metamod.cited_rows({**tables, "extra_symbol": [{"name": "x", "passage": "5.1"}]}, md)
    assert {"table_name": "extra_symbol", "row_key": "x", "passage": "5.1", "basis": None} in rows


# --- the revision -------------------------------------------------------------------------


def test_downgrade_to_0003_and_back(fresh_db: str) -> None:
    cfg = alembic_config()
    engine = writer_engine(fresh_db, building=True)
    try:
        with engine.begin() as c:
            cfg.attributes["connection"] = c
            command.downgrade(cfg, "0003")
            names = set(inspect(c).get_table_names()) | set(inspect(c).get_view_names())
            assert not names & {"meta_table", "meta_column", "v_passage_citation"}
            assert "v_reading" in names
    finally:
        engine.dispose()
    report = build(fresh_db)
    assert (report.before, report.after) == ("0003", head_revision())
    assert report.report.inserted["meta_column"] > 0
    assert build(fresh_db).report.changed == 0


# --- yimao schema -------------------------------------------------------------------------


def test_schema_lists_every_table_and_view(
    capsys: pytest.CaptureFixture[str], built_db: str, conn: Connection
) -> None:
    code, out, err = run(capsys, "schema", "--db", built_db)
    assert (code, err) == (0, "")
    names = {line.split()[0] for line in out.splitlines()[2:]}
    assert names == set(live_columns(conn))
    assert "v_passage_citation" in out and "The sixty stem-branch pairs" in out


def test_schema_of_one_table(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(capsys, "schema", "spirit_attribute", "--db", built_db)
    assert (code, err) == (0, "")
    first, *rest = out.splitlines()
    assert first.startswith("spirit_attribute (table, symbols): What each of the six spirits")
    governs = next(line for line in rest if line.startswith("4 "))
    assert "governs" in governs and "生/言/實/虛/殺/計" in governs and "7.7" in governs


@pytest.mark.parametrize("fmt", ["--json", "--jsonl", "--csv"])
def test_schema_formats(capsys: pytest.CaptureFixture[str], built_db: str, fmt: str) -> None:
    code, out, _ = run(capsys, "schema", "V_LINE", fmt, "--db", built_db)
    assert code == 0
    if fmt == "--json":
        rows = json.loads(out)
    elif fmt == "--jsonl":
        rows = [json.loads(line) for line in out.splitlines()]
    else:
        header, *lines = out.splitlines()
        assert header == "table_name,ordinal,column_name,description,domain,passage"
        rows = [{"column_name": line.split(",")[2]} for line in lines]
    assert [r["column_name"] for r in rows][:3] == ["king_wen", "bits", "position"]
    assert len(rows) == len(views()["v_line"].columns)


def test_schema_json_lists_tables(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = run(capsys, "schema", "--json", "--db", built_db)
    rows = json.loads(out)
    assert code == 0
    assert {"name", "kind", "section", "description", "passage"} == set(rows[0])
    kinds = {r["name"]: r["kind"] for r in rows}
    assert kinds["v_reading"] == "view" and kinds["branch_relation"] == "table"


def test_schema_unknown_table(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(capsys, "schema", "no_such_table", "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: unknown table or view 'no_such_table'")
    assert "v_reading_line" in err and "tables `yimao schema` lists" in err
    assert err.count("\n") == 1 and "…" not in err  # one whole line, not cut short
    code, out, err = run(capsys, "schema", "v_readings", "--db", built_db)
    assert code == 2 and "(did you mean v_reading, " in err
    assert "Traceback" not in err


def test_schema_markdown_is_docs_schema_md(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, out, _ = run(capsys, "schema", "--markdown", "--db", built_db)
    assert code == 0
    assert out == SCHEMA_MD.read_text(encoding="utf-8")


def test_schema_on_an_unbuilt_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "schema", "--db", str(tmp_path / "none.db"))
    assert (code, out) == (2, "")
    assert "yimao build" in err


# --- docs/schema.md -----------------------------------------------------------------------


def test_docs_schema_md_content() -> None:
    md = SCHEMA_MD.read_text(encoding="utf-8")
    for name in [*metadata.tables, *views()]:
        assert f"### `{name}` (" in md
    assert "| 2 | **position** | Line 1..6 from the bottom | 1..6 |  |" in md
    assert "passages.tsv" in md and "docs/rules.md" in md
    assert "shared/" not in md and not re.search(r"\bspec\b", md)


# What points outside the project: the tracker, an external spec, a sibling checkout.
OUTSIDE = re.compile(r"issue #?[0-9]|\bspec\b|shared/", re.IGNORECASE)
# The first release stored its table and column descriptions verbatim in its frozen
# revisions (0001, 0002), and 0005, which replaces them, restores them on downgrade; those
# stored strings are history and stay as they were. Every other line is held to the rule.
FROZEN_DESCRIPTIONS = (
    "0001_core_reference_tables.py",
    "0002_rules_and_symbols.py",
    "0005_rules_as_tables_reading_keys.py",
)


def _frozen_description(path: Path, line: str) -> bool:
    text = line.strip()
    return path.name in FROZEN_DESCRIPTIONS and (
        text.startswith(("comment=", '"')) and path.parent.name == "versions"
    )


PROJECT_TEXT = ("yimao_db", "seed", "tests", "benchmarks", "migrations", "docs", "README.md")


def test_nothing_points_outside_the_project() -> None:
    """No docstring, comment, description or doc names the issue tracker, an external spec
    or a path outside the repository (docs/rules.md is where the rules are written down)."""
    root = SCHEMA_MD.parent.parent
    files = [
        path
        for top in PROJECT_TEXT
        for path in ([root / top] if (root / top).is_file() else sorted((root / top).rglob("*")))
        if path.suffix in {".py", ".md", ".tsv", ".json", ".mako"}
        and path.resolve() != Path(__file__).resolve()
    ]
    assert len(files) > 100
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line) and not _frozen_description(path, line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


# --- yimao export-metadata ----------------------------------------------------------------


def test_export_metadata(
    capsys: pytest.CaptureFixture[str], built_db: str, conn: Connection, tmp_path: Path
) -> None:
    target = tmp_path / "metadata.json"
    code, out, err = run(capsys, "export-metadata", "-o", str(target), "--db", built_db)
    assert (code, err) == (0, "")
    assert str(target) in out
    data = json.loads(target.read_text(encoding="utf-8"))
    assert {"title", "description", "source", "license", "databases"} <= set(data)
    assert "MIT" in data["license"] and "public domain" in data["license"]
    (name, database), *more = data["databases"].items()
    assert more == []
    assert name == (Path(built_db).stem if "://" not in built_db else make_url(built_db).database)
    tables = database["tables"]
    live = live_columns(conn)
    assert set(tables) == set(live)
    for table, (_, columns) in live.items():
        assert tables[table]["description"]
        assert list(tables[table]["columns"]) == columns
        assert all(tables[table]["columns"].values())
    assert tables["v_passage_citation"]["columns"]["row_key"].startswith("The citing row's")


def test_export_metadata_says_how_to_use_the_file(
    capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path
) -> None:
    """datasette on the SQLite file itself; on PostgreSQL, which datasette cannot open, the
    reporting tools that read the same descriptions."""
    target = tmp_path / "meta data.json"
    code, out, _ = run(capsys, "export-metadata", "-o", str(target), "--db", built_db)
    assert code == 0
    if "://" in built_db:  # PostgreSQL
        assert out.endswith(
            "(datasette opens SQLite files only: on PostgreSQL the same descriptions are the "
            "tables' and columns' comments, which reporting tools such as Metabase and "
            "Superset read (docs/browse.md))\n"
        )
        assert "datasette " + str(make_url(built_db).database) not in out
    else:
        assert out.endswith(
            f"(datasette {built_db} -m '{target}'; yimao serve needs no such file)\n"
        )


def test_export_metadata_to_stdout_with_a_name(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, out, _ = run(capsys, "export-metadata", "--database-name", "yimao", "--db", built_db)
    assert code == 0
    data = json.loads(out)
    assert list(data["databases"]) == ["yimao"]
    spirit = data["databases"]["yimao"]["tables"]["spirit"]
    assert spirit["columns"]["direction"].startswith("Its place")


def test_export_metadata_unwritable(
    capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "metadata.json"
    code, out, err = run(capsys, "export-metadata", "-o", str(target), "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: cannot write") and "Traceback" not in err


def test_chart_classes_follow_the_view_contracts() -> None:
    """Chart has one field per column of v_reading, in its order, then its parts; each part's
    class one per column of its view but reading_id (yimao_db/chart_rows.py is generated
    from the declarations: tests/test_generated.py holds it to them)."""
    chart = chart_rows.Chart._fields
    assert tuple(chart) == (*views()["v_reading"].column_names, *(p.field for p in PARTS))
    for part in PARTS:
        fields = getattr(chart_rows, part.cls)._fields
        assert ("reading_id", *fields) == views()[part.view].column_names
        assert chart_rows.COLUMNS[part.view] == views()[part.view].column_names


def test_readings_md_view_columns_are_generated_from_the_contracts() -> None:
    text = schema_doc.readings_md_path().read_text(encoding="utf-8")
    for view in ("v_reading", *(p.view for p in PARTS), "v_reading_nuclear"):
        assert f"<!-- columns of {view}: generated" in text


def test_the_contract_matches_the_views(conn: Connection) -> None:
    assert contract.problems() == []
    live = {v: tuple(c["name"] for c in inspect(conn).get_columns(v)) for v in contract.current()}
    assert live == contract.current()
    version = conn.execute(text("SELECT MAX(version) FROM contract_version")).scalar_one()
    assert version == contract.history()[-1].version


def test_a_changed_public_view_needs_a_new_contract_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = dict(views())
    view = broken["v_line"]
    broken["v_line"] = dataclasses.replace(view, columns=(*view.columns, Col("extra", "x")))
    monkeypatch.setattr(contract, "views", lambda: broken)
    found = contract.problems()
    assert found and "v_line: +extra" in found[0] and "new version" in found[0]
