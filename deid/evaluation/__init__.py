"""Scores: every metric on the gold sets, placeholder detection quality, which gold names lists
already know."""
