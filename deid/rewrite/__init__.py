"""Learning from anonymized decisions: the courts' placeholders, type-faithful surrogates, and
the reserved decisions rewritten into gold sets."""
