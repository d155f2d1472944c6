"""The knowledge base: everything 卷一 defines, from the typed-in facts to the public views.

The layers, bottom up, each importing only those below it:

- :mod:`~yimao_db.kb.facts` and :mod:`~yimao_db.kb.vocab`: the facts typed in by hand
  (``seed/data/*.tsv``) and the words the code spells;
- :mod:`~yimao_db.kb.rules`: the rules, pure functions, one definition each;
- :mod:`~yimao_db.kb.schema`: the tables, declared once with their descriptions;
- :mod:`~yimao_db.kb.views`: the views' SQL (joins of rule tables, no rule decided) and
  their column contracts;
- :mod:`~yimao_db.kb.seeding`: the one loader that turns the rules into rows;
- :mod:`~yimao_db.kb.migrating`: the helpers the frozen revisions call;
- :mod:`~yimao_db.kb.invariants` and :mod:`~yimao_db.kb.meta`: the structural checks the
  database must pass and the documentation it stores about itself;
- :mod:`~yimao_db.kb.expected`: the expected chart of a reading, computed from the rules
  alone — the oracle the tests and ``yimao check`` hold the views to.

Above the knowledge base sit the readings and the journal (``yimao_db.readings``,
``yimao_db.journaling``, …), the presentation (``yimao_db.present``) and the interfaces
(``yimao_db.commands``, ``yimao_db.web``).
"""
