"""A firm's span takes in its legal form: "[ORGANIZATION]", never "[ORGANIZATION] GmbH".

The policy neutralizes a private firm's whole name including the legal form
(docs/anonymization-policy.md). The model learns firm names from the courts' placeholders,
which often stop before the legal form ("S … GmbH"), so its spans do too. The chain's
``legal_form`` step (deid.anonymizer.components) and the hand-rewritten Bavarian gold set
(deid.rewrite.gold.decisions, whose courts often blanked only the name) share this one
definition of a firm's extent. It extends each organization span over what is written next
to it:

* to the right, a legal form (deid.words.vocab.LEGAL_FORM_TAIL: "GmbH & Co. KG", "PartG mbB",
  "UG (haftungsbeschränkt)", "e. V.", "AG"), also after a hyphen ("Berger-GmbH"), a
  practice's partners ("& Partner", "und Kollegen", deid.words.vocab.PRACTICE_TAIL) and its
  kind ("Huber Rechtsanwälte PartG mbB", deid.words.vocab.PRACTICE_WORDS).

Not to the left (but for version 2's acronym): the word before a practice's name stays ("Rechtsanwälte [ORGANIZATION]"), as
the Bavarian courts write it and their gold set's dev half marks it ("Rechtsanwälte Lindner &
Kollegen": the span starts at the name). Chosen on the dev halves: of the Bavarian dev half's
firm spans that end in a legal form, the step restores all 10 when cut before it; the LER gold
follows the federal courts' placeholders, which stop before the form ("H AG"), and its
extensions are the disagreement the policy lists apart (docs/experiments.md).

Spans of other labels inside the stretch taken in are absorbed; organization spans that
touch after the extension become one.

Version 2 (``names=True``) also takes what the model leaves of a firm written in clear, chosen
on the from-scratch dev set and the Bavarian dev half:

* a person span followed by a practice's partners ("Lindl & Kollegen") is the practice's name,
  and a span that stops at the ampersand ("Grabmaier &") takes the partners after it;
* up to three capitalized words between a firm's span and its legal form are the firm's name
  ("Alpenland Versicherung AG", "Tessner Dienstleistungs GmbH");
* an acronym right before a span that ends in a legal form is the firm's too ("KBS
  Forderungsmanagement GmbH"): the only word taken in to the left.

Version 5 knows the kinds of an insolvency administrator's, tax adviser's and auditor's practice
after a name ("Vilsmeier Insolvenzverwaltung", "Huber Steuerberatung") and a club's founding
year before its form ("FC Pfeffenhausen 1947 e.V.": the club's letters join as an acronym
does), and takes a second partner's name after an ampersand or a plus: a person's or firm's
span followed by "& Sperl" ("die Rechtsanwälte Hartl & Sperl", "Gruber & Aigner GmbH",
"Planungsbüro Rieblinger + Zach"; the model found "Hartl" and left "Sperl" in clear) is the firm
of both. Not when the word after the ampersand is an ordinary noun ("Huber & Sohn" is version
1's business: the legal form or partners decide).

Version 6 takes a trade's compound after a name into the firm ("die Schreinerei Wimmer
Holzbau", where the model found "Wimmer"; "Lindinger Sicherheitstechnik"): a capitalized word of
at least three letters before a head of deid.words.vocab.TRADE_HEADS ("-bau", "-technik",
"-reinigung"). A lone trade word ("Huber Handel", "Meier Druck") is no evidence: "Handel
treiben" and "Druck ausüben" follow a name as often. A span that stops at an ampersand takes a
family firm's "Sohn" or "Söhne" after it ("Autoservice Huber & Sohn").

Version 7 takes a club named for a town "und Umgebung" before its form ("des Imkervereins
Straubing und Umgebung e.V.", where the model found the town; the batch of the twenty-first
session, written before the chain ran on it).

Version 8 takes a compound hyphenated to the form into the firm's name ("die Weißbräu Stüberl
Betriebs-GmbH", where the model found "Weißbräu Stüberl"; the batch of the twenty-third session,
written before the chain ran on it).

Version 9 takes in a club's letters with the word after them before a span that ends in a
legal form ("des FC Eintracht Mainaschaff 1919 e.V.", where the acronym of version 2 had to stand
right before the span; a batch of the twenty-fourth session, written by another before the chain
ran on it). Not the word the model read as an organization right before such a span and a filter
dropped ("bei der Logistik Spessart GmbH"): tried on the from-scratch dev set, it took in a
firm's kind 12 times where the gold leaves it outside ("die Spedition [Ortmaier Logistik GmbH]")
for 3 names it completed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from deid.schema import LOCATION, ORGANIZATION, OTHER, PERSON, STREET, Span
from deid.words.lexicon import is_common_noun
from deid.words.vocab import (
    COURT_ABBREVIATIONS,
    LEGAL_FORM_TAIL,
    PRACTICE_PARTNERS,
    PRACTICE_TAIL,
    PRACTICE_WORDS,
    TRADE_HEADS,
    alternation,
)

_RIGHT = re.compile(
    rf"(?:[ \u00a0]|[ \u00a0]?-)(?:{LEGAL_FORM_TAIL}|{PRACTICE_TAIL}|(?:{alternation(PRACTICE_WORDS)})(?![\w\-]))"
)

# version 4: a plus joins partners too ("Steinberger + Partner", "Wimschneider + Hölzl")
_PLUS_TAIL = rf"\+[ \u00a0]{PRACTICE_PARTNERS}"
_RIGHT_V4 = re.compile(rf"{_RIGHT.pattern}|[ \u00a0]{_PLUS_TAIL}")
_PARTNERS = re.compile(rf"[ \u00a0]{PRACTICE_TAIL}")
_PARTNERS_V4 = re.compile(rf"[ \u00a0](?:{PRACTICE_TAIL}|{_PLUS_TAIL})")
_PARTNERS_REST = re.compile(rf"[ \u00a0]{PRACTICE_PARTNERS}")  # after a span ending in "&"
_ACRONYM_BEFORE = re.compile(r"(?<![\w\-.])[A-ZÄÖÜ]{2,5}[ \u00a0]$")  # "KBS Forderungsmanagement GmbH"
_ENDS_IN_FORM = re.compile(rf"[ \u00a0\-](?:{LEGAL_FORM_TAIL})$")
_FORM = re.compile(rf"(?<=[ \u00a0\-])(?:{LEGAL_FORM_TAIL})")
_FORM_AFTER = re.compile(rf"[ \u00a0](?:{LEGAL_FORM_TAIL})")
_KIND_AFTER = re.compile(rf"[ \u00a0](?:{alternation(PRACTICE_WORDS)})(?![\w\-])")
_NAME_LABELS = frozenset({PERSON, LOCATION, STREET, OTHER})
_LONGEST_FORM = 40  # characters: "GmbH & Co. KGaA", "UG (haftungsbeschränkt)" with room to spare
# version 5: the kinds of an insolvency administrator's, tax adviser's or auditor's practice
# after its name ("Vilsmeier Insolvenzverwaltung"), beside the lawyers' of PRACTICE_WORDS
_KINDS_V5 = (*PRACTICE_WORDS, "Insolvenzverwaltung", "Steuerberatung", "Wirtschaftsprüfung", "Rechtsanwaltskanzlei")
_KIND_AFTER_V5 = re.compile(rf"[ \u00a0](?:{alternation(_KINDS_V5)})(?![\w\-])")
# and a club's founding year before its form ("FC Pfeffenhausen 1947 e.V.")
_YEAR_BEFORE_FORM = rf"[ \u00a0](?:18|19|20)\d{{2}}(?=[ \u00a0](?:{LEGAL_FORM_TAIL}))"
_RIGHT_V5 = re.compile(rf"{_RIGHT_V4.pattern}|[ \u00a0](?:{alternation(_KINDS_V5)})(?![\w\-])|{_YEAR_BEFORE_FORM}")
_YEAR_FORM_AFTER = re.compile(_YEAR_BEFORE_FORM)
# version 5: a partner's surname after an ampersand or a plus ("Hartl & Sperl", "Rieblinger +
# Zach"), not partners or "Co."
_AMP_NAME = re.compile(r"[ \u00a0][&+][ \u00a0](?!(?:Partner|Kollegen|Co)(?![\w\-]))(?P<name>[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w\-])")
# version 6: a trade's compound after a founder's name ("Wimmer Holzbau", deid.words.vocab.TRADE_HEADS)
_TRADE_AFTER = re.compile(rf"[ \u00a0][A-ZÄÖÜ][a-zäöüß]{{2,}}(?:{alternation(TRADE_HEADS)})(?![\w\-])")
_RIGHT_V6 = re.compile(rf"{_RIGHT_V5.pattern}|{_TRADE_AFTER.pattern}")
# and a family firm's "& Sohn" where the span stops at the ampersand ("Autoservice Huber &")
_PARTNERS_REST_V6 = re.compile(rf"[ \u00a0](?:{PRACTICE_PARTNERS}|(?:Sohn|Söhne|Tochter|Töchter)(?![\w\-]))")
# version 7: a club of a town "und Umgebung" ("Imkerverein Straubing und Umgebung e.V.", where the
# model found the town)
_SURROUNDINGS_BEFORE_FORM = rf"[ \u00a0]und[ \u00a0]Umgebung(?=[ \u00a0](?:{LEGAL_FORM_TAIL}))"
_SURROUNDINGS_FORM_AFTER = re.compile(_SURROUNDINGS_BEFORE_FORM)
_RIGHT_V7 = re.compile(rf"{_RIGHT_V6.pattern}|{_SURROUNDINGS_BEFORE_FORM}")
_NAME_BEFORE_FORM = re.compile(rf"(?:[ \u00a0][A-ZÄÖÜ][\wäöüß\-]*){{1,3}}(?=[ \u00a0](?:{LEGAL_FORM_TAIL}))")
# version 8: a compound hyphenated to the legal form between the name and the form ("Weißbräu
# Stüberl [Betriebs]-GmbH", "Huber [Verwaltungs]-GmbH"; the batch of the twenty-third session):
# version 7 wanted a space before the form, so the word stayed in clear before "-GmbH"
_NAME_BEFORE_FORM_V8 = re.compile(rf"(?:[ \u00a0][A-ZÄÖÜ][\wäöüß\-]*){{1,3}}(?=[ \u00a0\-](?:{LEGAL_FORM_TAIL}))")


# version 9: a club's letters and one word of its name before the span ("FC Eintracht ")
_ACRONYM_WORD_BEFORE = re.compile(
    r"(?<![\w\-.])(?P<acronym>[A-ZÄÖÜ]{2,5})[ \u00a0][A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?[ \u00a0]$"
)


def _rest_of_form(text: str, span: Span) -> int:
    """The end of the legal form ``span`` stops inside ("… GmbH &" of "GmbH & Co. KG", "… UG"
    of "UG (haftungsbeschränkt)", "… e.V" of "e.V."), else the span's end (version 3)."""
    for form in _FORM.finditer(text, max(span.start, span.end - _LONGEST_FORM), min(len(text), span.end + _LONGEST_FORM)):
        if span.start < form.start() < span.end < form.end():
            return form.end()
    return span.end


def _extended(text: str, span: Span, version: int = 1) -> Span:
    """``span`` widened over the legal forms and practice words after it (version 2: and over
    the rest of a firm's name; version 3: first over the rest of a legal form it stops inside)."""
    names = version >= 2
    end = _rest_of_form(text, span) if version >= 3 else span.end
    if names:
        joint = ("&", "+") if version >= 4 else ("&",)
        rest_pattern = _PARTNERS_REST_V6 if version >= 6 else _PARTNERS_REST
        if text[span.start : end].endswith(joint) and (rest := rest_pattern.match(text, end)) is not None:
            end = rest.end()
        elif (between := (_NAME_BEFORE_FORM_V8 if version >= 8 else _NAME_BEFORE_FORM).match(text, end)) is not None:
            end = between.end()
        elif version >= 5 and (partner := _partner_after(text, end)) is not None:
            end = partner.end()
    right_pattern = (_RIGHT_V7 if version >= 7 else _RIGHT_V6 if version >= 6 else _RIGHT_V5 if version >= 5
                     else _RIGHT_V4 if version >= 4 else _RIGHT)  # fmt: skip
    while (right := right_pattern.match(text, end)) is not None:
        end = right.end()
    start = span.start
    if names and _ENDS_IN_FORM.search(text, start, end):
        acronym = _ACRONYM_BEFORE.search(text, max(0, start - 8), start)
        if acronym is not None and acronym.group().strip() not in COURT_ABBREVIATIONS:  # "das OLG Huber GmbH …"
            start = acronym.start()
        elif version >= 9:
            club = _ACRONYM_WORD_BEFORE.search(text, max(0, start - 30), start)
            if club is not None and club.group("acronym") not in COURT_ABBREVIATIONS:
                start = club.start()
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source)


def _practice(text: str, span: Span, version: int = 2) -> Span:
    """A person span followed by a practice's partners, as the practice (version 2; version 4:
    also "+ Partner"; version 5: also "& Sperl", :func:`_partner_after`)."""
    partners = _PARTNERS_V4 if version >= 4 else _PARTNERS
    if span.label == PERSON and (partners.match(text, span.end) is not None or
                                 (version >= 5 and _partner_after(text, span.end) is not None)):  # fmt: skip
        return Span(span.start, span.end, ORGANIZATION, span.score, span.source)
    return span


def _partner_after(text: str, end: int) -> re.Match[str] | None:
    """"& Sperl" or "+ Zach" right after ``end``: a second partner's name, no ordinary noun ("& Sohn")."""
    amp = _AMP_NAME.match(text, end)
    return amp if amp is not None and not is_common_noun(amp.group("name")) else None


def _named_firm(text: str, span: Span, version: int = 3) -> Span:
    """A name of another kind right before a legal form ("Am Mühlanger Ltd.", "Hundeübungsplatz
    e.V.", "Huber GmbH"), as the firm it names (version 3); version 4: also before a practice's
    kind ("Wimmer Rechtsanwälte", "Huber Steuerberater")."""
    kind_after = _KIND_AFTER_V5 if version >= 5 else _KIND_AFTER
    after = (_FORM_AFTER.match(text, span.end) or (version >= 4 and kind_after.match(text, span.end))
             or (version >= 5 and _YEAR_FORM_AFTER.match(text, span.end))
             or (version >= 6 and _TRADE_AFTER.match(text, span.end))
             or (version >= 7 and _SURROUNDINGS_FORM_AFTER.match(text, span.end)))  # fmt: skip
    if span.label in _NAME_LABELS and after:
        return Span(span.start, span.end, ORGANIZATION, span.score, span.source)
    return span


def extend_firms(
    text: str, spans: Iterable[Span], labels: frozenset[str] = frozenset({ORGANIZATION}), version: int = 1
) -> list[Span]:
    """``spans`` with every span of ``labels`` extended (the module's docstring, by
    ``version``), sorted and without overlaps: where a firm grew over another span, the firm
    keeps the stretch."""
    spans = [_practice(text, s, version) for s in spans] if version >= 2 else list(spans)
    if version >= 3:
        spans = [_named_firm(text, s, version) for s in spans]
    grown = sorted((_extended(text, s, version) if s.label in labels else s for s in spans), key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    for span in grown:
        prev = out[-1] if out else None
        if prev is None or span.start >= prev.end:
            out.append(span)
        elif prev.label in labels and span.label == prev.label:
            score = max(prev.score or 0.0, span.score or 0.0)
            out[-1] = Span(prev.start, max(prev.end, span.end), prev.label, score, prev.source)
        elif prev.label in labels:
            if span.end > prev.end:  # only its part beyond the firm stays
                out.append(Span(prev.end, span.end, span.label, span.score, span.source))
        else:
            out.append(span)  # two other spans overlapped before: not this step's business
    return out


def name_part(text: str, span: Span) -> Span:
    """A firm's span without the legal form it ends with ("Tessner Dienstleistungs" of
    "Tessner Dienstleistungs GmbH"): what identifies the firm. A form left in clear is no
    leak, though it counts against recall (issue 26's measure); other spans as they are."""
    if span.label != ORGANIZATION:
        return span
    form = _ENDS_IN_FORM.search(text, span.start, span.end)
    if form is None or form.start() <= span.start:
        return span
    return Span(span.start, form.start(), span.label, span.score, span.source)
