"""The book's rules as pure functions, one module per rule family.

Each function takes plain values (names, bits, positions) and returns plain values; the
vocabularies come from :func:`yimao_db.kb.facts.facts`. The seed turns their results into rows.
"""
