"""``python -m yimao_db.kb.views``: the tools for changing a view.

- ``revision NAME…``: print what a new revision needs to replace the views NAME: their SQL
  as the package defines it now, with every view that selects from them, and the revision
  holding each version being replaced (paste it into the revision ``alembic revision -m``
  made, and call ``migrating.replace_views(op, VIEWS, REPLACES)`` / ``restore_views(…)``);
- ``contract SUMMARY``: record a new version of the public views' column contract.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from yimao_db.kb.views import closure, views
from yimao_db.kb.views.contract import record


def _frozen_in() -> dict[str, str]:
    """Each view → the newest revision whose VIEWS holds a version of it."""
    from yimao_db.kb.migrating import script_directory

    found: dict[str, str] = {}
    for rev in reversed(list(script_directory().walk_revisions())):  # oldest first
        for view in getattr(rev.module, "VIEWS", ()):
            found[view.name] = rev.revision
    return found


def revision_block(names: Sequence[str]) -> str:
    unknown = [n for n in names if n not in views()]
    if unknown:
        raise SystemExit(f"unknown views {unknown}: expected some of {', '.join(views())}")
    order = closure(set(names))
    frozen = _frozen_in()
    out = ["VIEWS = ("]
    for name in order:
        out.append(f'    ViewSQL(\n        "{name}",\n        """{views()[name].sql}""",\n    ),')
    out.append(")")
    out.append("REPLACES = {")
    out += [f'    "{name}": "{frozen[name]}",' for name in order if name in frozen]
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "revision":
        sys.stdout.write(revision_block(args[1:]))
        return 0
    if len(args) == 2 and args[0] == "contract":
        version = record(args[1])
        sys.stdout.write(f"recorded contract version {version.version}\n")
        return 0
    sys.stderr.write(__doc__ or "")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
