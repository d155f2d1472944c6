"""The expected chart: what every view of a reading must show, computed from the rules alone.

Not a rule itself: :mod:`~yimao_db.kb.expected.chart` and :mod:`~yimao_db.kb.expected.signs`
apply the functions of :mod:`yimao_db.kb.rules` to a reading's inputs, in Python, so that the
property tests and ``yimao check`` can compare the SQL views with an independent computation.
"""
