"""``python -m yimao_db`` is the ``yimao`` command."""

from yimao_db.cli import main

raise SystemExit(main())
