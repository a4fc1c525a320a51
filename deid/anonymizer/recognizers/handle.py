"""A person's user name on a platform ("unter dem Nutzernamen „laaber_deals94“", "@bergsepp_88").

The policy neutralizes private handles as it does e-mail addresses (docs/anonymization-policy.md).
A handle has no shape of its own, so the label is the evidence: a user, profile or channel
name right before it ("Nutzernamen", "Pseudonym"), with a colon or in quotes or not; an
account's or profile's word, after which only a handle's shape counts (an ``@``, a digit or an
underscore); or an ``@`` name where a platform is named. After a name's label, a word of
lower-case letters counts after a colon ("Benutzername: bergsepp") and any word in quotes
("Pseudonym „Nachtfalke“"), but not a capitalized word unquoted, which may be the sentence
going on ("unter dem Nutzernamen Huber …" is the model's person). Chosen on the from-scratch dev
set (a fraud case on a classifieds portal).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_S = r"[ \u00a0]"
# the labels' first letters tried first: the engine tries every position (same matches, a
# fraction of the time on long texts)
_INITIAL = r"(?=[BbNnUuPpSsCcAaKkVv])"
# a label that names a name ("Nutzernamen", "Pseudonym"), and one that names an account, after
# which only a handle's shape counts ("Sein Profil „passt“ nicht" names none)
_NAME_LABEL = (
    rf"{_INITIAL}(?<![\w\-])(?i:(?:benutzer|nutzer|user|profil|spieler|chat|account|konto|kanal|anzeigen|verkäufer)"
    r"-?namen?s?|pseudonyms?|alias)"
)
_ACCOUNT_LABEL = rf"{_INITIAL}(?<![\w\-])(?i:(?:benutzer|nutzer)-?kontos?|accounts?|profils?|kanals?)"
_OWNER = rf"(?:{_S}(?:des|der|von){_S}[A-ZÄÖÜ][\wäöüß]+(?:{_S}zu{_S}\d\)?)?)?"
_HANDLE = r"(?P<value>@?[A-Za-z0-9][A-Za-z0-9_.\-]{2,39}(?<![.\-]))(?![\w@]|[.\-]\w)"
_AT_HANDLE = r"(?P<value>@(?<![\w@.\-]@)[A-Za-z0-9_](?:[A-Za-z0-9_.]{1,38}[A-Za-z0-9_]))(?![\w@]|\.\w)"
_HANDLE_SHAPE = re.compile(r"@.+|.*[\d_].*")  # an @, a digit or an underscore: no word of the sentence
_WORD_HANDLE = re.compile(r"[a-z][a-z.\-]{3,}")  # lower-case letters after a colon; any word in quotes


class HandleRecognizer(PatternRecognizer):
    """A user name after its label, or an ``@`` name near a platform's name."""

    NAME = "handle"
    LABEL = "HANDLE"
    PATTERNS = (
        Pattern("named_handle", rf"{_NAME_LABEL}{_OWNER}{_S}?(?P<mark>:{_S}?|{_S}?[„\"»'‚])?{_HANDLE}", 0.8),
        Pattern("account_handle", rf"{_ACCOUNT_LABEL}{_OWNER}{_S}?:?{_S}?[„\"»'‚]?{_HANDLE}", 0.8),
        Pattern("at_handle", _AT_HANDLE, 0.7, needs_context=True),
    )
    CONTEXT = (
        "instagram", "tiktok", "twitter", "facebook", "telegram", "youtube", "snapchat", "whatsapp",
        "x.com", "plattform", "portal", "account", "profil", "kanal", "nutzer", "benutzer",
    )  # fmt: skip
    CONTEXT_WINDOW = 80
    CONTEXT_BOOST = 0.1

    def candidates(self, text: str, match: re.Match[str]) -> Iterator[tuple[int, int]]:
        value = match.group("value")
        mark = (match.group("mark") or "").strip() if "mark" in match.re.groupindex else ""
        if _HANDLE_SHAPE.fullmatch(value) or (mark == ":" and _WORD_HANDLE.fullmatch(value)) or (mark and mark != ":"):
            yield match.span("value")


# Version 2 (the from-scratch dev set): an account on a named platform or of a seller
# ("das Verkäuferkonto „trachtenliebe_lisa“", "ihr Instagram-Konto", "das eBay-Profil"), after
# which, as after version 1's account words, only a handle's shape counts; "Konto" alone is a
# bank's or a ledger's ("auf dem Konto 6827", training text)
_PLATFORMS = (
    "verkäufer|käufer|händler|mitglieds|spieler|instagram|facebook|tiktok|ebay|paypal|youtube|twitter"
    "|telegram|snapchat|twitch|discord|linkedin|xing"
)
_ACCOUNT_LABEL_V2 = (
    rf"(?=[BbNnUuAaPpKkVvHhMmSsIiFfTtEeYyDdLlXx])(?<![\w\-])"
    rf"(?i:(?:benutzer|nutzer|{_PLATFORMS})-?kontos?|(?:(?:benutzer|nutzer|{_PLATFORMS})-?)?(?:accounts?|profils?|kanals?))"
)


class HandleRecognizerV2(HandleRecognizer):
    """Version 1, and a handle after a seller's or a named platform's account word."""

    PATTERNS = (
        HandleRecognizer.PATTERNS[0],
        Pattern("account_handle", rf"{_ACCOUNT_LABEL_V2}{_OWNER}{_S}?:?{_S}?[„\"»'‚]?{_HANDLE}", 0.8),
        HandleRecognizer.PATTERNS[2],
    )


# Version 3 (the from-scratch dev set): a handle in quotes after "unter dem Namen" or "mit dem
# Nicknamen" ("bot es unter dem Namen „passauboy89“ an"); after the plain "Namen" only a
# handle's shape counts (a digit, an underscore, an "@"): "unter dem Namen „Zur Post“" is an inn's
_NAMED_AS = rf"(?<![\w\-])(?:unter|mit){_S}(?:dem|einem){_S}(?:Namen|Nick(?:namen)?){_S}?[„\"»‚']{_HANDLE}"


class HandleRecognizerV3(HandleRecognizerV2):
    """Version 2, and a handle's shape in quotes after "unter dem Namen"."""

    PATTERNS = (*HandleRecognizerV2.PATTERNS, Pattern("named_as_handle", _NAMED_AS, 0.75))


# Version 4 (a batch of the twenty-fourth session, written by another before the chain ran on
# it): an "@" name with a dot or an underscore inside ("Die auf @sophia.ertl.wanderlust ergänzte
# Markierung „@lichtblick.hochzeiten“"), where no platform is named within reach: no German word
# has that shape, and an e-mail address's "@" follows a letter (the at_handle pattern's guard)
_SHAPED_AT_HANDLE = (
    r"(?P<value>@(?<![\w@.\-]@)[A-Za-z0-9_](?=[A-Za-z0-9_.]*[._][A-Za-z0-9])(?:[A-Za-z0-9_.]{1,38}[A-Za-z0-9_]))"
    r"(?![\w@]|\.\w)"
)


class HandleRecognizerV4(HandleRecognizerV3):
    """Version 3, and an "@" name with a dot or an underscore inside, with no platform near."""

    PATTERNS = (*HandleRecognizerV3.PATTERNS, Pattern("shaped_at_handle", _SHAPED_AT_HANDLE, 0.7))
