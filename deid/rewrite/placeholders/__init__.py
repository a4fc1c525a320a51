"""Placeholder detection in anonymized court decisions (Schamberger 2019, ch. 5.3.2, A.1).

``detect_placeholders(text)`` returns typed, non-overlapping character spans covering the
anonymized part only (never titles, roles or legal forms; see docs/architecture.md).
"""

from deid.rewrite.placeholders.detector import detect_placeholders

__all__ = ["detect_placeholders"]
