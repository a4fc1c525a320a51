"""E-mail addresses, also the spelled-out ``name [at] domain.de`` form."""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_LOCAL = r"(?<![\w.%+\-])[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}"
_LABEL = r"[A-Za-z0-9äöüÄÖÜ](?:[A-Za-z0-9äöüÄÖÜ\-]{0,61}[A-Za-z0-9äöüÄÖÜ])?"
_DOMAIN = rf"(?:{_LABEL}\.){{1,8}}[A-Za-z]{{2,24}}(?![\w\-])"
_AT_SPELLED = r"\s?[\[(]\s?(?:at|ät)\s?[\])]\s?"


class EmailRecognizer(PatternRecognizer):
    """An address is unambiguous by its shape; no context needed."""

    NAME = "email"
    LABEL = "EMAIL"
    PATTERNS = (
        Pattern("email", rf"{_LOCAL}@{_DOMAIN}", 0.9),
        Pattern("email_spelled", rf"{_LOCAL}{_AT_SPELLED}{_DOMAIN}", 0.7),
    )
    CONTEXT = ("e-mail", "email", "mail", "kontakt", "adresse")
    CONTEXT_BOOST = 0.05

    def validate(self, hit: str) -> bool | None:
        local = hit.split("@", 1)[0] if "@" in hit else hit
        if ".." in hit or local.endswith("."):
            return False
        return None
