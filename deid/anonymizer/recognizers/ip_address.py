"""An IPv4 address ("über die IP-Adresse 84.153.27.196"): how an investigation finds the
connection of a party's home, an identifier the policy neutralizes under both profiles.

Four dotted numbers are also an outline's item ("Nr. 3.1.2.1 VwV"), whose parts are small; an
address either has a part of 100 or more or stands near the word "IP". The standard library's
``ipaddress`` decides what an address is (each part 0 to 255, no leading zeros).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_CUE = re.compile(r"\bIP(?:v4)?\b|IP-", re.IGNORECASE)


class IpAddressRecognizer(PatternRecognizer):
    """An IPv4 address: a part of 100 or more, or the word "IP" in the 40 characters before."""

    NAME = "ip_address"
    LABEL = "IP_ADDRESS"
    PATTERNS = (Pattern("ipv4", r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w]|\.\d)", 0.8),)
    CUE = _CUE

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        try:
            parts = ipaddress.IPv4Address(match.group()).packed
        except ValueError:
            return  # "300.1.2.3", "01.02.03.04"
        if max(parts) >= 100 or self.CUE.search(text, max(0, match.start() - 40), match.start()):
            yield match.span()


class IpAddressRecognizerV2(IpAddressRecognizer):
    """Version 1 without its cue's second alternative, ``IP-``, which the first already reads
    ("IP-Adresse": a word boundary after "IP") and which alone also matched inside a word
    ("ZIP-Datei 10.0.0.1" took "ZIP-" for the word IP)."""

    CUE = re.compile(r"\bIP(?:v4)?\b", re.IGNORECASE)
