"""The ``yimao`` command, and ``python -m yimao_db``: :func:`yimao_db.cli.main`, loaded under a
guard. Loading the command line takes some 20 ms of a start; a Ctrl-C meanwhile would be
Python's traceback from the import. It is ``interrupted`` and exit 130 instead, with nothing
done, as a Ctrl-C during a command is. (Before this module's own code runs, Python starts,
runs the script pip generated and loads the package, whose ``__init__`` imports nothing: a
Ctrl-C then is Python's own, the signal or its traceback, as for any program that has not
started.)"""

import os

TYPE_CHECKING = False  # loading typing (some 7 ms) would delay the guard
if TYPE_CHECKING:
    from typing import NoReturn


def main() -> int:
    """Run the command line of the process's arguments; the process ends with it."""
    try:
        from yimao_db.sigint import quiet_interrupted_finalizers

        quiet_interrupted_finalizers()  # from the start: the imports below have callbacks too
        from yimao_db.cli import main as command

        return command()  # which takes every Ctrl-C once it has begun
    except KeyboardInterrupt:  # while the command line loads, or as its main begins
        pass
    while True:
        try:
            _interrupted_while_loading()
        except KeyboardInterrupt:  # another, as this one is being taken
            continue


def _interrupted_while_loading() -> "NoReturn":
    while True:  # Ctrl-C ignored from now on, however many more arrive meanwhile
        try:
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
            break
        except KeyboardInterrupt:
            continue
    try:
        os.write(2, b"interrupted\n")
    except OSError:
        pass
    os._exit(130)  # yimao_db.cli.INTERRUPTED, which could not be loaded


if __name__ == "__main__":
    raise SystemExit(main())
