"""Rewritten test sets: placeholders of reserved decisions replaced by realistic entities.

Two ways, both ending in documents of the data contract with gold ``spans`` (the
surrogates) and ``keep`` spans: ``auto`` rewrites LER documents from their annotation,
``session``/``tui`` let a person decide placeholder by placeholder (thesis 5.5.1), with the
decisions file as the single source of truth that ``decisions.apply_decisions`` turns into
rewritten documents. Importing this package loads nothing heavy.
"""
