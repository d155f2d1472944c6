"""Opening the database: URL resolution, SQLite pragmas, transactions, read-only mode.

Every SQLite connection gets ``PRAGMA foreign_keys=ON`` and a busy timeout; writers use WAL
and ``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing (for up to
``BUSY_TIMEOUT_MS``), and readers open the file with ``mode=ro`` plus ``PRAGMA query_only``.
In WAL mode a reader sees the database as of its transaction's first read: never a reading
without its lines. The pysqlite driver's own transaction handling is switched off so that
DDL (migrations) runs inside the same transaction as the seed: a build either commits whole
or leaves the previous database as it was. Engines pool their connections (opening a SQLite
connection costs more than a cast); dispose of an engine to close its file.

PostgreSQL readers run read-only REPEATABLE READ transactions (one snapshot per read).
The SQL that differs between the backends is in :mod:`yimao_db.dialect`.

A SQLite database must be a regular file (symlinks are followed): a directory, FIFO, socket
or device is refused before SQLite opens it. Writers look before they write: an existing file
is first read read-only (:func:`preflight`), so that a file that is not an SQLite database,
a damaged one, or (for ``cast`` and ``import``) one that is not built is refused without a
single byte, ``-journal``, ``-wal`` or ``-shm`` written: SQLite's write pragmas would
otherwise turn an empty file into a 4 KB database. Text that cannot be decoded (a damaged
file) is marked on the exception (:data:`DAMAGED_ATTR`) so that the command line can say the
file is damaged.

A writer that stops in the middle of a transaction in rollback-journal mode (another program's
``journal_mode=DELETE``) leaves a *hot journal* (``-journal``, :func:`hot_journal`): the
file holds changes that were never committed until SQLite plays the journal back, which
needs write access. Such a file is never read as immutable (that would show the uncommitted
changes as stored); a writer rolls it back before its preflight, and a reader that cannot
says so in plain words (:func:`recovery_error`). So does a reader that cannot read a WAL
file's log for want of a ``-shm`` file it may not create. The ``-wal`` and ``-shm`` files a
reader makes beside a WAL database that had none are removed as the command ends
(:func:`tidy_side_files`).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sqlite3
import stat
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from yimao_db import dialect, sigint, withdrawal
from yimao_db.errors import DatabaseError, UsageError, shown

DEFAULT_DB = "yimao.db"
ENV_VAR = "YIMAO_DB_URL"
BUSY_TIMEOUT_MS = 60_000
SQLITE_HEADER = b"SQLite format 3\x00"
# set on an exception raised while reading a database (the file's path as text)
DAMAGED_ATTR = "yimao_damaged_database"
NOT_UTF8 = "Could not decode to UTF-8"  # how the sqlite3 module reports a value it cannot decode
# set on an error about text that is not UTF-8 which a query may have made itself (the file's
# path): the file is called damaged only if `yimao check` finds such text stored
MAYBE_DAMAGED_ATTR = "yimao_maybe_damaged_database"


def resolve_url(db: str | None = None) -> URL:
    """``--db`` value, else ``$YIMAO_DB_URL``, else ``./yimao.db``; a path or an SQLAlchemy URL."""
    target = db or os.environ.get(ENV_VAR) or DEFAULT_DB
    if "://" in target:
        try:
            url = make_url(target)
        except (ArgumentError, ValueError) as exc:  # ValueError: a port that is not a number
            raise UsageError(f"not a database URL: {shown(target)} ({exc})") from None
        if url.get_backend_name() == "sqlite" and "?" in target:
            raise UsageError(
                f"database URL {shown(target)}: a SQLite URL takes no options (after ?); give "
                "the file's path (a path may hold ?)"
            )
        if url.get_backend_name() not in ("sqlite", "postgresql"):
            raise UsageError(
                f"unknown kind of database {shown(url.drivername)} in the URL: expected a "
                "path, sqlite:///PATH or postgresql+psycopg://USER@HOST/DATABASE"
            )
        return url
    # os.path.expanduser leaves ~unknown-user as it is, like a shell (Path.expanduser raises)
    return URL.create("sqlite", database=str(_resolve(Path(os.path.expanduser(target)))))


def _resolve(path: Path) -> Path:
    """``path`` made absolute with every symlink followed; DatabaseError for a symlink loop."""
    try:
        return path.resolve()
    except (RuntimeError, OSError, ValueError) as exc:  # 3.11: RuntimeError for a loop
        raise DatabaseError(f"cannot use the database path {shown(str(path))}: {exc}") from None


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_path(url: URL) -> Path | None:
    """The file behind a SQLite URL, or None for an in-memory database. A SQLite URL with
    options (``?timeout=…``) is refused: yimao sets the connection's options itself."""
    if is_sqlite(url) and url.query:
        options = "&".join(sorted(url.query))
        raise UsageError(
            f"database URL: a SQLite URL takes no options (?{options}); give a path or "
            "sqlite:///PATH"
        )
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        return None
    return _resolve(Path(url.database))


FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def database_file(path: Path) -> os.stat_result | None:
    """The status of the regular file at ``path`` (symlinks followed), None if there is none.

    DatabaseError if something else is there (a directory, FIFO, socket or device: SQLite
    would block on it, or write a ``-journal`` beside ``/dev/null``) or it cannot be looked at.
    """
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DatabaseError(f"cannot use the database {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in FILE_KINDS if test(st.st_mode)), "not a regular file")
        raise DatabaseError(f"{path} is {kind}, expected a database file (a regular file)")
    return st


def check_writable(url: URL) -> None:
    """Refuse, with a clear message, to create a SQLite file where none can be written."""
    path = sqlite_path(url)
    if path is None:
        return
    parent = path.parent
    if database_file(path) is not None:
        if not os.access(path, os.R_OK | os.W_OK):
            raise DatabaseError(f"cannot write the database {path}: permission denied")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise DatabaseError(
                f"cannot write the database {path}: directory {parent} is not writable "
                "(SQLite writes its journal beside the database)"
            )
        return
    if not parent.is_dir():
        raise DatabaseError(f"cannot create {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DatabaseError(f"cannot create {path}: directory {parent} is not writable")


def _held_descriptor(path: Path) -> int | None:
    """A file descriptor this process already holds on ``path`` (an open SQLite connection's),
    found in ``/proc/self/fd``; None where there is none or no ``/proc``."""
    try:
        wanted = path.stat()
        names = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for name in names:
        try:
            found = os.fstat(int(name))
        except (OSError, ValueError):
            continue
        if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
            return int(name)
    return None


def _header(path: Path) -> bytes:
    """The first 100 bytes of the file. Closing a descriptor of a file drops every POSIX lock
    the process holds on it — an open SQLite connection's included, which would let another
    process take the file from under it — so a descriptor the process already holds is read
    (``pread``, which moves no file offset) instead of opening and closing a new one."""
    try:
        held = _held_descriptor(path)
        if held is not None:
            return os.pread(held, 100, 0)
        with path.open("rb") as fh:
            return fh.read(100)
    except OSError as exc:
        raise DatabaseError(f"cannot read the database {path}: {exc.strerror or exc}") from None


def _is_wal(header: bytes) -> bool:
    """Whether the file's header (its first 100 bytes) says it is in WAL mode: the read and
    write format versions, bytes 18 and 19, are 2."""
    return header[18:20] == b"\x02\x02"


def _table_names(path: Path, header: bytes) -> set[str]:
    """The tables of the SQLite file at ``path``, read without writing anything beside it.

    A WAL database opened read-only normally gets ``-wal`` and ``-shm`` files; when there is
    no ``-wal`` (no writer at work) the file is read as immutable instead.
    """
    uri = f"file:{quote(str(path))}?mode=ro"
    if _is_wal(header) and not _beside(path, "-wal").exists() and hot_journal(path) is None:
        uri += "&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open the database {path}: {exc}") from None
    try:
        rows = con.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
        return {str(name) for kind, name, _sql in rows if kind == "table"}
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        if mark_if_damage(exc, str(path)):
            raise
        raise DatabaseError(f"cannot read the database {path}: {exc}") from None
    finally:
        con.close()


# Where SQLite (unix) puts its temporary files: the first of these that is a directory it
# may write, else the current directory
_TEMP_ENV = ("SQLITE_TMPDIR", "TMPDIR")
_TEMP_DIRS = ("/var/tmp", "/usr/tmp", "/tmp")


def sqlite_temp_dir() -> str:
    """The directory SQLite writes its temporary files in (sorts, indexes, temporary
    databases such as the import's spool): ``$SQLITE_TMPDIR``, else ``$TMPDIR``, else
    ``/var/tmp``, ``/usr/tmp``, ``/tmp`` — the first that is a directory this process may
    write — else the current directory. Python's ``tempfile.gettempdir()`` differs (it
    ignores ``SQLITE_TMPDIR``, tries ``/tmp`` first, and skips a directory whose disk is full):
    name this one in a message about temporary space."""
    candidates = [os.environ.get(name) for name in _TEMP_ENV] + list(_TEMP_DIRS)
    for candidate in candidates:
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            return candidate
    return "."


def _beside(path: Path, suffix: str) -> Path:
    """SQLite's file beside the database: ``-journal``, ``-wal`` or ``-shm``."""
    return path.with_name(path.name + suffix)


def hot_journal(path: Path) -> Path | None:
    """The rollback journal beside ``path`` if SQLite would play it back before reading the
    file, else None: a ``-journal`` whose first byte is not zero (a journal's header starts
    with its magic number) beside a database that is not empty, or one that cannot be read.

    This is SQLite's own test less its look at the locks (a journal whose writer is still
    at work is not hot), so a live writer's journal counts too: on the safe side for
    deciding never to read the file as immutable. A writer that finished its transaction
    has deleted, truncated or zeroed its journal (``journal_mode`` DELETE, TRUNCATE,
    PERSIST).
    """
    journal = _beside(path, "-journal")
    try:
        with journal.open("rb") as fh:
            first = fh.read(1)
    except FileNotFoundError:
        return None
    except OSError:  # there, but not readable: SQLite takes it to be hot
        return journal
    try:
        empty = path.stat().st_size == 0
    except OSError:
        return None
    return None if empty or first in (b"", b"\x00") else journal


def roll_back(path: Path) -> None:
    """Roll back the transaction a writer left unfinished in ``path`` (its hot journal):
    SQLite plays the journal back on the first read of a connection that may write."""
    try:
        con = sqlite3.connect(
            f"file:{quote(str(path))}?mode=rw",
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
        )
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open the database {path} to roll it back: {exc}") from None
    try:
        con.execute("PRAGMA schema_version").fetchone()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        if mark_if_damage(exc, str(path)):
            raise
        raise DatabaseError(
            f"cannot roll back the unfinished transaction in {path} "
            f"({_beside(path, '-journal')}): {exc}"
        ) from None
    finally:
        con.close()


# SQLite's names for "cannot read without writing": a hot journal to play back, a WAL index
# (``-shm``) to create or rebuild
_NEEDS_WRITE = ("SQLITE_READONLY_ROLLBACK", "SQLITE_READONLY_CANTINIT", "SQLITE_READONLY_RECOVERY")


def recovery_error(path: Path | str | None, exc: BaseException) -> DatabaseError | None:
    """The plain error for ``exc``, raised by a read-only connection to the SQLite file at
    ``path``, when it says the file cannot be read without writing: a transaction left
    unfinished (a hot journal) that a reader may not roll back, or a write-ahead log that
    cannot be read for want of a ``-shm`` file. None for any other error."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    if path is None or not (name in _NEEDS_WRITE or name.startswith("SQLITE_CANTOPEN")):
        return None
    path = Path(path)
    parent = path.parent
    can_write = os.access(path, os.W_OK) and os.access(parent, os.W_OK | os.X_OK)

    def elsewhere(beside: str) -> str:
        return (
            f"run `yimao build --db {path}` where the file and its directory can be written, "
            f"or copy the database with its {beside} into a writable directory and read the copy"
        )

    journal = hot_journal(path)
    if name == "SQLITE_READONLY_ROLLBACK" or (journal is not None and not can_write):
        unfinished = (
            f"{path} holds a transaction that a writer left unfinished ({journal or 'its -journal'}"
            " is its hot journal): it must be rolled back before the file can be read"
        )
        if can_write:
            return DatabaseError(
                f"{unfinished}, and a command that only reads does not write; run "
                f"`yimao build --db {path}`, which rolls it back first, and read again"
            )
        return DatabaseError(
            f"{unfinished}. Read as it is, it would show changes that were never committed, "
            "and rolling them back needs write access to the file and its directory, which "
            "are read-only here (a read-only mount, or permissions): " + elsewhere("-journal")
        )
    wal, shm = _beside(path, "-wal"), _beside(path, "-shm")
    if wal.exists() and (name in _NEEDS_WRITE or not shm.exists()) and not can_write:
        return DatabaseError(
            f"cannot read {path}: its write-ahead log {wal} is read through {shm}, which "
            f"SQLite cannot {'create' if not shm.exists() else 'set up'} here because "
            f"{parent} cannot be written (a read-only mount?); the log may hold committed "
            "changes, so the file is not read without it: " + elsewhere("-wal")
        )
    return None


def mark_if_damage(exc: BaseException, where: str) -> bool:
    """Mark ``exc`` (:data:`DAMAGED_ATTR`) if it says the file is damaged: SQLite's "malformed"
    and "not a database" errors, and text that is not UTF-8 (the driver decoding a value,
    a column name or a message). True if marked."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    damaged = (
        isinstance(exc, UnicodeDecodeError)
        or name.startswith("SQLITE_CORRUPT")
        or name == "SQLITE_NOTADB"
        or (isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(NOT_UTF8))
    )
    if damaged:
        setattr(exc, DAMAGED_ATTR, where)
    return damaged


def preflight(url: URL, *, require_built: bool) -> None:
    """Before a writer touches an existing SQLite file: read it (read-only) and refuse one that
    is not an SQLite database, is damaged, or (``require_built``) is not a built yimao
    database. A missing or empty file passes unless ``require_built``."""
    path = sqlite_path(url)
    if path is None:
        return
    st = database_file(path)
    if st is None and require_built:
        raise DatabaseError(f"no database at {path}; run `yimao build` first")
    if st is None or st.st_size == 0:
        if require_built:
            raise DatabaseError(
                f"{path} is an empty file, not a built database; run `yimao build` first"
            )
        return
    header = _header(path)
    if not header.startswith(SQLITE_HEADER):
        raise DatabaseError(
            f"{path} is not a database (not an SQLite file); it was left as it was. "
            "Give the path of a yimao database, or of a new file for `yimao build`"
        )
    if hot_journal(path) is not None:
        roll_back(path)  # a writer may: the file then holds what was committed, and no more
    tables = _table_names(path, header)  # a damaged schema is refused here, unwritten
    if require_built and "reading" not in tables:
        raise DatabaseError(
            f"{path} is not a built yimao database (it has no reading table); "
            "run `yimao build` first"
        )


def _execute_waiting(cursor: sqlite3.Cursor, statement: str) -> None:
    """Run ``statement``, waiting out a busy database up to the busy timeout even where
    SQLite does not wait itself: switching a file that is not yet in WAL mode to it (a new
    database that other processes open at the same moment: builds at once) needs an
    exclusive lock, and SQLite returns "database is locked" at once instead of calling its
    busy handler, to avoid a deadlock. Retried every 5 ms until the other connection is
    done, as SQLite's own waiting does."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


def _install_sqlite_hooks(
    engine: Engine, *, readonly: bool, path: Path | None, foreign_keys: bool = True
) -> None:
    where = str(path or "the database")

    @event.listens_for(engine, "handle_error")
    def _mark_damage(context: Any) -> None:
        mark_if_damage(context.original_exception, where)
        if readonly:
            plain = recovery_error(path, context.original_exception)
            if plain is not None:
                raise plain  # in place of "attempt to write a readonly database"

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        try:
            for pragma in dialect.sqlite_connect_pragmas(
                readonly=readonly,
                busy_timeout_ms=BUSY_TIMEOUT_MS,
                foreign_keys=foreign_keys,
            ):
                _execute_waiting(cursor, pragma)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            mark_if_damage(exc, where)
            raise
        finally:
            cursor.close()

    begin = dialect.sqlite_begin(readonly=readonly)

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql(begin)


def writer_engine(
    db: str | URL | None = None, *, require_built: bool = False, building: bool = False
) -> Engine:
    """An engine for building (a missing or empty SQLite file is created) and casting
    (``require_built``: the database must already be built). Nothing is written until the
    file has been read and found usable (:func:`preflight`). ``building``: SQLite foreign
    keys are left off for the migrations to rebuild tables; ``yimao build`` checks them
    before committing."""
    url = db if isinstance(db, URL) else resolve_url(db)
    if is_sqlite(url):
        check_writable(url)
        preflight(url, require_built=require_built)
        engine = create_engine(url)
        _install_sqlite_hooks(
            engine, readonly=False, path=sqlite_path(url), foreign_keys=not building
        )
    else:
        engine = create_engine(url, pool_pre_ping=True)
        _on_connect(engine, dialect.postgresql_session())
    # a withdrawn request (a tool call the assistant cancelled) commits nothing; from the
    # commit on, a Ctrl-C no longer makes the command say it wrote nothing
    event.listen(engine, "commit", lambda _conn: withdrawal.refuse_commit())
    event.listen(engine, "commit", lambda _conn: sigint.committing())
    _OPENED.add(engine)
    return engine


def _readonly_uri(path: Path) -> str:
    """``file:PATH?mode=ro``, percent-encoded; ``immutable=1`` where nothing can write.

    A WAL database opened read-only still needs its ``-shm`` file, which cannot be made in
    a directory we cannot write (a read-only file system or mount). When the directory is
    not writable, there is no ``-wal`` file (so no writer is at work) and no hot journal
    (:func:`nothing_writes`), the file is read as immutable instead.
    """
    uri = f"file:{quote(str(path))}?mode=ro"
    if nothing_writes(path):
        uri += "&immutable=1"
    return uri


def nothing_writes(path: Path) -> bool:
    """True when no writer can be at work on the SQLite file at ``path``: its directory is
    not writable (so no ``-wal`` file can be made beside it), there is no ``-wal`` file, and
    no writer left a transaction unfinished (no hot ``-journal``: read as immutable, the file
    would show that transaction's changes as stored). Such a file may be read as immutable."""
    wal = _beside(path, "-wal")
    return not os.access(path.parent, os.W_OK) and not wal.exists() and hot_journal(path) is None


def reader_engine(db: str | URL | None = None) -> Engine:
    """A read-only engine: SQLite ``mode=ro`` + ``query_only``; PostgreSQL read-only
    REPEATABLE READ transactions."""
    url = db if isinstance(db, URL) else resolve_url(db)
    if is_sqlite(url):
        path = sqlite_path(url)
        if path is not None and database_file(path) is None:
            raise DatabaseError(f"no database at {path}; run `yimao build` first")
        if path is not None and not os.access(path, os.R_OK):
            raise DatabaseError(f"cannot read the database {path}: permission denied")
        target = _readonly_uri(path) if path is not None else ":memory:"
        engine = create_engine(URL.create("sqlite", database=target, query={"uri": "true"}))
        if path is not None and "immutable=1" not in target:
            _tidy_at_exit(path, engine)
        _install_sqlite_hooks(engine, readonly=True, path=path)
        _OPENED.add(engine)
        return engine
    engine = create_engine(url, pool_pre_ping=True, **dialect.postgresql_reader_options())
    _on_connect(engine, (*dialect.postgresql_session(), *dialect.postgresql_reader_session()))
    dialect.postgresql_end_reads_with_commit(engine)
    _OPENED.add(engine)
    return engine


# every engine made here that is still alive: disposed when a command is done
_OPENED: weakref.WeakSet[Engine] = weakref.WeakSet()


def close_engines(*, lost: bool = False) -> None:
    """Dispose every engine of this process that is still alive, closing the connections
    its pool holds. A command disposes its own; one a Ctrl-C stopped part-way through its
    disposal (or left for the garbage collector) is closed here, so that SQLite's last
    connection to a WAL database checkpoints and removes the side files before the
    process ends (it ends without Python's teardown: :func:`yimao_db.cli.main`).

    ``lost`` (the process is about to end after a Ctrl-C): every SQLite connection of the
    process still open is closed too, its cursors first. A Ctrl-C inside SQLAlchemy can
    lose a connection between its pool and its closing (seen once in some 300 imports
    under bursts of Ctrl-C); no pool closes it then, and the -wal and -shm files stayed.
    Only when no other thread runs: one may be inside a call on its connection that it
    cannot leave (``yimao sql``'s runner, stopped in a single long SQLite call), and
    closing that connection would wait for it."""
    for engine in list(_OPENED):
        engine.dispose()
    if lost and threading.active_count() == 1:
        found = [o for o in gc.get_objects() if isinstance(o, sqlite3.Cursor | sqlite3.Connection)]
        for obj in sorted(found, key=lambda o: isinstance(o, sqlite3.Connection)):
            with contextlib.suppress(sqlite3.Error):
                obj.close()


# files whose -wal and -shm a reader of this process is the first to make, with the readers'
# engines: removed at exit
_TIDY: dict[Path, weakref.WeakSet[Engine]] = {}


def _tidy_at_exit(path: Path, engine: Engine) -> None:
    """Remember ``path`` for :func:`tidy_side_files` if it is a WAL database with neither a
    ``-wal`` nor a ``-shm`` file beside it: a reader (``mode=ro``) makes both, and being
    read-only it cannot remove them when it closes, as a writer's last connection does."""
    if path in _TIDY:
        _TIDY[path].add(engine)
        return
    if _beside(path, "-wal").exists() or _beside(path, "-shm").exists():
        return
    try:
        header = _header(path)
    except DatabaseError:
        return  # the reader says why in a moment
    if _is_wal(header):
        if not _TIDY:
            atexit.register(tidy_side_files)
        _TIDY[path] = weakref.WeakSet([engine])


def tidy_side_files() -> None:
    """Remove the ``-wal`` and ``-shm`` files this process's readers made beside a WAL
    database that had none (also when the file turned out damaged), the way SQLite does it:
    the readers' engines are disposed, and a connection that may write reads the header and
    closes; the last connection to close checkpoints and deletes both files. It copies
    nothing into the file, as the log our readers made is empty (a log that is not, a
    writer's, is left to its writer), and where another connection is still open — a
    server's, another process's — SQLite keeps both files. A file this user may not write
    keeps them (the documented limit)."""
    while _TIDY:
        path, engines = _TIDY.popitem()
        for engine in list(engines):
            engine.dispose()
        wal = _beside(path, "-wal")
        try:
            if wal.stat().st_size != 0 or not os.access(path, os.W_OK):
                continue
            con = sqlite3.connect(f"file:{quote(str(path))}?mode=rw", uri=True, timeout=0)
        except (OSError, sqlite3.Error):
            continue
        try:
            con.execute("PRAGMA schema_version").fetchone()
        except (sqlite3.Error, UnicodeDecodeError):
            pass  # a damaged file: SQLite still removes the files as the connection closes
        finally:
            con.close()


def _on_connect(engine: Engine, statements: Sequence[str]) -> None:
    """Run ``statements`` (session settings) on every new PostgreSQL connection of
    ``engine``, committed before the connection is used."""

    @event.listens_for(engine, "connect")
    def _session(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        dbapi_connection.commit()


def driver_error(conn: Connection, exc: Exception) -> Exception:
    """An exception the driver raised on a cursor of ``conn`` used directly (outside
    SQLAlchemy's execution), as SQLAlchemy would have raised it: a damaged file marked,
    a database error wrapped in :class:`sqlalchemy.exc.DBAPIError`."""
    database = conn.engine.url.database or "" if is_sqlite(conn.engine.url) else ""
    # a reader opens "file:PATH?mode=ro…" (percent-encoded): name the file itself
    where = unquote(database.removeprefix("file:").split("?", 1)[0]) or "the database"
    mark_if_damage(exc, where)
    if database.startswith("file:"):  # a reader
        plain = recovery_error(where, exc)
        if plain is not None:
            return plain
    base = conn.dialect.loaded_dbapi.Error
    if isinstance(exc, base):
        return DBAPIError.instance(None, None, exc, base)
    return exc


def quick_check(path: Path | None) -> str | None:
    """What SQLite's quick check finds damaged in the SQLite file ``path`` (read in a
    connection of its own), as the start of one line; None when it finds nothing, or there
    is no file. A command that failed in a way damage could explain asks it (``yimao
    build``, and a write's constraint error: SQLite finds damage only where it reads)."""
    if path is None or not path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        try:
            found = [str(r[0]) for r in conn.execute(QUICK_CHECK)]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:  # the check itself meets the damage
        found = [str(exc)]
    return damaged(path, found)


QUICK_CHECK = "PRAGMA quick_check(3)"


def damaged(path: Path | None, found: list[str]) -> str | None:
    """What a quick check ``found`` says, as the start of one line; None when it is ``ok``
    (the first finding only, without its ``*** in database main ***`` heading)."""
    if found == ["ok"]:
        return None
    lines = [line for row in found for line in row.splitlines() if not line.startswith("***")]
    first = lines[0] if lines else "?"
    return f"the database file {path} is damaged (SQLite's quick check: {first})"
