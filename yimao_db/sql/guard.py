"""What ``yimao sql`` lets a statement do: its first keyword, SQLite pragmas, and functions.

Statements: one, starting with a reading keyword (:data:`READ_KEYWORDS`).

Functions — a read-only transaction does not stop every effect a function can have, so each
call is checked against the database's own view of it, not against the text:

* SQLite: an authorizer sees every function a prepared statement calls (those of views too)
  and allows only :data:`SQLITE_FUNCTIONS`: functions that compute a value from their
  arguments and the data. Refused, among the functions SQLite may have:
  ``fts3_tokenizer`` (prints a native pointer, and with two arguments installs code),
  ``load_extension``, the shell's ``readfile``/``writefile``/``edit``, ``sqlite_log``
  (writes to the error log), ``fts5`` (hands out a pointer), the full-text and R*Tree
  helpers (``match``, ``matchinfo``, ``snippet``, ``optimize``, ``rtreenode``, … — there are
  no such tables here, and some write), ``sqlite_offset``, and the connection's own
  counters ``changes()``, ``total_changes()``, ``last_insert_rowid()`` (harmless, always 0
  here, but they describe the process, not the data). Allowed though random:
  ``random``, ``randomblob`` (bounded by the length limit); allowed though about the build:
  ``sqlite_version``, ``sqlite_source_id``, ``sqlite_compileoption_get``/``_used`` (as
  ``PRAGMA compile_options`` is). Any function not listed — one added by a newer SQLite or
  by an extension — is refused until someone decides.
* PostgreSQL: every name in the statement — wherever it stands, not only before ``(`` —
  and every name written as a call in the definition of every view it may read
  (``pg_get_viewdef``, followed into the views those read), is looked up in ``pg_proc``.
  PostgreSQL calls a function without ``name(`` too: attribute notation ``(x).f``,
  ``t.f`` and ``$1.f`` is ``f(x)``, so a name is refused wherever it is written (even as
  an alias; :data:`PG_FUNCTIONS_SQL` leaves out functions no statement can call: those
  taking ``internal``, and trigger functions). ``pg_get_viewdef`` prints every call as
  ``f(…)``, so the views are searched for calls only (their columns may share a name with a
  function). No built-in operator, cast or type input function is volatile (the tests
  check the server), so those call nothing refused. Refused are the names with a VOLATILE
  function (large objects,
  files, locks, sequences, settings, signals, WAL and replication, notifications, the
  ``query_to_xml`` and ``ts_stat`` families that run SQL of their own, dblink, …) except
  :data:`PG_VOLATILE_ALLOWED`, and the few that are not volatile but still act:
  :data:`PG_DENIED`. A function defined in the database is trusted to be what it declares
  (PostgreSQL does not check what a STABLE function calls). The plan is not read: EXPLAIN
  VERBOSE leaves out the calls of VALUES lists and LIMIT, and prints every constant the
  planner folds (``repeat('x', 1e8)``: a plan of 100 MB). Under these checks, the
  transaction is READ ONLY and always rolled back (:mod:`yimao_db.sql.session`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from yimao_db.dialect import POSTGRESQL, SQLITE
from yimao_db.errors import UsageError


class QueryRefused(UsageError):
    """The statement would change the database or call a function with effects beyond the
    query (or is more than one statement); nothing was run."""


def function_refused(name: str) -> QueryRefused:
    return QueryRefused(
        f"yimao sql does not run {name}(): only functions that compute a value from their "
        "arguments and the data are allowed (no files, locks, sequences, settings, large "
        "objects or other effects; see docs/interop.md). Nothing was changed."
    )


def write_refused(reason: str) -> QueryRefused:
    return QueryRefused(
        f"yimao sql is read-only: the database refused a write ({reason}). "
        "The database was not changed."
    )


# --- statements ----------------------------------------------------------------------------

# Statements ``yimao sql`` accepts, by first keyword; everything else is refused unread.
READ_KEYWORDS: dict[str, frozenset[str]] = {
    SQLITE: frozenset({"SELECT", "WITH", "VALUES", "EXPLAIN", "PRAGMA"}),
    POSTGRESQL: frozenset({"SELECT", "WITH", "VALUES", "EXPLAIN", "TABLE", "SHOW"}),
}

# First keywords of statements that write or change the connection, named as such when
# refused; any other keyword outside READ_KEYWORDS is refused as "not a query".
WRITE_KEYWORDS = frozenset(
    """ALTER ANALYZE ATTACH BEGIN CALL CLUSTER COMMENT COMMIT COPY CREATE DEALLOCATE DELETE
    DETACH DISCARD DO DROP END EXECUTE GRANT IMPORT INSERT LISTEN LOAD LOCK MERGE MOVE NOTIFY
    PREPARE REASSIGN REFRESH REINDEX RELEASE REPLACE RESET REVOKE ROLLBACK SAVEPOINT
    SECURITY SET START TRUNCATE UNLISTEN UPDATE UPSERT VACUUM""".split()
)

# --- SQLite --------------------------------------------------------------------------------

# SQLite pragmas that only report; those taking an argument take a table or index name.
SQLITE_READ_PRAGMAS = frozenset(
    """application_id busy_timeout collation_list compile_options data_version database_list
    encoding foreign_key_check foreign_key_list foreign_keys freelist_count function_list
    index_info index_list index_xinfo integrity_check journal_mode module_list page_count
    page_size pragma_list query_only quick_check schema_version table_info table_list
    table_xinfo user_version""".split()
)
SQLITE_PRAGMAS_WITH_NAME_ARGUMENT = frozenset(
    """foreign_key_check foreign_key_list index_info index_list index_xinfo integrity_check
    quick_check table_info table_list table_xinfo""".split()
)

# Functions that compute a value from their arguments and the data (SQLite 3.37 to 3.50;
# a name this SQLite lacks is simply never called). Grouped as in SQLite's documentation.
SQLITE_FUNCTIONS = frozenset(
    # core scalar functions
    """abs char coalesce concat concat_ws format glob hex if ifnull iif instr length like
    likelihood likely lower ltrim max min nullif octet_length printf quote random randomblob
    replace round rtrim sign soundex sqlite_compileoption_get sqlite_compileoption_used
    sqlite_source_id sqlite_version substr substring trim typeof unhex unicode unistr
    unistr_quote unlikely upper zeroblob"""
    # date and time
    """ date time datetime julianday unixepoch strftime timediff current_date current_time
    current_timestamp"""
    # mathematics
    """ acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log
    log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc"""
    # aggregates and window functions
    """ avg count group_concat string_agg sum total median percentile percentile_cont
    percentile_disc row_number rank dense_rank percent_rank cume_dist ntile lag lead
    first_value last_value nth_value"""
    # JSON
    """ json jsonb json_array jsonb_array json_array_length json_error_position json_extract
    jsonb_extract json_insert jsonb_insert json_object jsonb_object json_patch jsonb_patch
    json_pretty json_quote json_remove jsonb_remove json_replace jsonb_replace json_set
    jsonb_set json_type json_valid json_group_array jsonb_group_array json_group_object
    jsonb_group_object -> ->>""".split()
)

_SQLITE_ALLOWED_ACTIONS = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_RECURSIVE,
        sqlite3.SQLITE_TRANSACTION,  # our own BEGIN/ROLLBACK; users cannot type one
    }
)


def sqlite_pragma_is_read(name: str, argument: str | None) -> bool:
    name = name.lower()
    if name not in SQLITE_READ_PRAGMAS:
        return False
    return argument is None or name in SQLITE_PRAGMAS_WITH_NAME_ARGUMENT


class SqliteAuthorizer:
    """The authorizer of ``yimao sql``'s SQLite connection: at prepare time it denies
    anything but reading (no INSERT/UPDATE/DELETE/DDL/ATTACH, only reporting pragmas) and
    every function outside :data:`SQLITE_FUNCTIONS`; ``refused`` names a function it denied."""

    def __init__(self) -> None:
        self.refused: str | None = None

    def __call__(self, action: int, arg1: str | None, arg2: str | None, *_: Any) -> int:
        if action in _SQLITE_ALLOWED_ACTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION:
            name = (arg2 or "").lower()
            if name in SQLITE_FUNCTIONS:
                return sqlite3.SQLITE_OK
            self.refused = self.refused or name
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_UPDATE and arg1 in ("sqlite_master", "sqlite_temp_master"):
            # SQLite's own schema bookkeeping (declaring pragma_table_info() or json_each());
            # a user's UPDATE of the schema still meets mode=ro and query_only.
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg1 is not None:
            if sqlite_pragma_is_read(arg1, arg2):
                return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY


# --- PostgreSQL ----------------------------------------------------------------------------

# Volatile functions that only compute (or wait, within --timeout).
PG_VOLATILE_ALLOWED = frozenset(
    """random clock_timestamp timeofday gen_random_uuid pg_sleep pg_sleep_for pg_sleep_until
    pg_database_size pg_relation_size pg_table_size pg_indexes_size pg_total_relation_size
    pg_tablespace_size pg_lock_status pg_prepared_xact""".split()
)
# Not volatile, yet they act: take a transaction id, or run queries of their own.
PG_DENIED = frozenset(
    """txid_current pg_current_xact_id table_to_xml table_to_xmlschema
    table_to_xml_and_xmlschema schema_to_xml schema_to_xmlschema schema_to_xml_and_xmlschema
    database_to_xml database_to_xmlschema database_to_xml_and_xmlschema""".split()
)
# Every function named so, in any schema, with its volatility; not those a statement cannot
# call (an ``internal`` argument: handlers such as TABLESAMPLE's ``system``; trigger functions).
PG_FUNCTIONS_SQL = (
    "SELECT p.proname::text, p.provolatile::text FROM pg_catalog.pg_proc p "
    "WHERE p.proname::text = ANY(%(names)s) "
    "AND NOT 'pg_catalog.internal'::pg_catalog.regtype::pg_catalog.oid "
    "= ANY(p.proargtypes::pg_catalog.oid[]) "
    "AND p.prorettype NOT IN ('pg_catalog.trigger'::pg_catalog.regtype, "
    "'pg_catalog.event_trigger'::pg_catalog.regtype)"
)
# The definitions of the views named so, in any schema, not yet read.
PG_VIEWS_SQL = (
    "SELECT c.oid::int8, pg_catalog.pg_get_viewdef(c.oid) FROM pg_catalog.pg_class c "
    "WHERE c.relkind = 'v' AND c.relname::text = ANY(%(names)s) "
    "AND NOT c.oid::int8 = ANY(%(seen)s)"
)


def pg_refused(functions: Iterable[tuple[str, str]]) -> list[str]:
    """Of (name, volatility) rows from :data:`PG_FUNCTIONS_SQL`, the names refused."""
    return sorted(
        {
            name
            for name, volatility in functions
            if name in PG_DENIED or (volatility == "v" and name not in PG_VOLATILE_ALLOWED)
        }
    )
