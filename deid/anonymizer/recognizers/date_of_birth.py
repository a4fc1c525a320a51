"""Dates of birth, recognised by their wording (``geboren am``, ``geb.``, ``*``, ``Geburtsdatum``).

A plain date is no birth date and never fires; the span covers the date only, not the cue.
Cut-off dates (``vor dem 1. 7. 2015 geborene Kinder``) are not birth dates either.
A birth month or year (``der im Juli 1950 geborene Kläger``) identifies less and scores lower.
"""

from __future__ import annotations

from dataclasses import replace

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer
from deid.words.vocab import MONTH_WORDS as MONTHS_DE

_S = r"[ \u00a0]"
_YEAR = r"(?:19|20)\d{2}"
_DATE = (
    rf"(?P<value>\d{{1,2}}\.{_S}?\d{{1,2}}\.{_S}?(?:19|20)?\d{{2}}"
    rf"|\d{{1,2}}\.{_S}?(?:{MONTHS_DE}){_S}?{_YEAR}"
    rf"|{_YEAR}-\d{{2}}-\d{{2}})(?![\d])"
)
_MONTH_YEAR = rf"(?P<value>(?:{MONTHS_DE}){_S}{_YEAR})(?![\d])"
_YEAR_ONLY = rf"(?P<value>{_YEAR})(?![\d]|[.,]\d)"
_CUE = (
    r"(?<!\w)(?i:geboren|geb\.|geburtsdatum|geburtstag|geb\.-datum|geb\.datum|geburtsdat\.)"
    rf"[:,]?{_S}?(?i:am|den)?{_S}?:?{_S}?"
)
_BORN_AFTER = rf"{_S}(?:in{_S}\w{{1,30}}{_S})?geboren"  # "... 1950 (in Bonn) geboren(e)"
# the day (and month) of a full date veto a month/year hit: "vor dem 1. Juli 1949 geborene"
# is a cut-off date that the full-date patterns reject
_DAY_VETO = rf"(?<![\w.])(?P<veto>\d{{1,2}}\.{_S}?)?"
_DAY_MONTH_VETO = rf"(?<![\w.])(?P<veto>\d{{1,2}}\.{_S}?(?:(?:{MONTHS_DE}){_S}?|\d{{1,2}}\.{_S}?))?"


class DateOfBirthRecognizer(PatternRecognizer):
    """Birth dates, months and years next to their cue words."""

    NAME = "date_of_birth"
    LABEL = "DATE_OF_BIRTH"
    PATTERNS = (
        Pattern("cue_date", rf"{_CUE}{_DATE}", 0.85),
        Pattern("date_born", rf"(?<![\w.]){_DATE}{_BORN_AFTER}", 0.85),
        Pattern("star_date", rf"(?:^|(?<=[\s(,;]))\*{_S}?{_DATE}", 0.75),
        Pattern("cue_month", rf"{_CUE}(?:im{_S})?{_MONTH_YEAR}", 0.6),
        Pattern("month_born", rf"{_DAY_VETO}{_MONTH_YEAR}{_BORN_AFTER}", 0.6),
        Pattern(
            "cue_year", rf"(?<!\w)(?i:geboren|geb\.)(?:{_S}im{_S}Jahre?)?{_S}{_YEAR_ONLY}", 0.5
        ),
        Pattern("year_born", rf"{_DAY_MONTH_VETO}{_YEAR_ONLY}{_BORN_AFTER}", 0.5),
    )
    # cut-off dates of statutes: "für vor dem 1. 7. 2015 geborene Kinder"
    NEGATIVE_CONTEXT = ("vor ", "nach ", "bis ", "ab ", "seit ", "zwischen ")
    NEGATIVE_WINDOW = 10


# Version 2: the place of birth between the date and "geboren" may be several words and name
# its country in brackets or after a slash ("am 02.11.1991 in Bacău (Rumänien) geboren", "in
# Bad Tölz geboren", "in Kabul/Afghanistan geboren"); version 1 took one word only.
_PLACE = r"[A-ZÄÖÜ][\w\-.]*(?:/[A-ZÄÖÜ][\w\-]*)?"
_BORN_AFTER_V2 = (
    rf"{_S}(?:in{_S}{_PLACE}(?:{_S}(?:{_PLACE}|a\.|an|am|im|in|ob|der|d\.)){{0,3}}"
    rf"(?:{_S}?\([A-ZÄÖÜ][\w\- ]{{1,40}}\))?,?{_S})?geboren"
)


class DateOfBirthRecognizerV2(DateOfBirthRecognizer):
    """Version 1, and a place of birth of several words or with its country between the date
    and "geboren" (see ``_BORN_AFTER_V2``)."""

    PATTERNS = tuple(
        replace(p, regex=p.regex.replace(_BORN_AFTER, _BORN_AFTER_V2)) for p in DateOfBirthRecognizer.PATTERNS
    )


# Dates of death and marriage: the policy neutralizes them as it does a birth date
# (docs/anonymization-policy.md). A cue right before the date ("verstarb am 19.10.2022",
# "verstorben am", "† 3. Mai 2021", "Sterbedatum:", "heirateten am", "Eheschließung am") or
# "verstorbene(n)" right after it ("der am 19.10.2022 verstorbene Erblasser"). A plain date stays
# (the Bavarian set's dev half: a date of death missed by the model; deid.words.roles gives the
# model's own dates the same role from the same words).
_DEATH_CUE = (
    r"(?<!\w)(?i:verstarb|verstorben|gestorben|starb|sterbedatum|todestag|todesdatum|sterbetag)"
    rf"[:,]?{_S}?(?i:am|den)?{_S}?:?{_S}?"
)
_MARRIAGE_CUE = (
    r"(?<!\w)(?i:heirateten|heiratete|geheiratet|verheiratet|eheschließung|heiratsdatum|trauung)"
    rf"[:,]?{_S}?(?i:am|den|seit)?{_S}?:?{_S}?"
)
_PLACE_NAME = rf"{_PLACE}(?:{_S}(?:{_PLACE}|a\.|an|am|im|in|der|d\.)){{0,3}}"  # "Neumarkt i. d. OPf."
_DIED_AFTER = rf"{_S}(?:in{_S}{_PLACE_NAME},?{_S})?(?:verstorben|gestorben)"


class DateOfDeathRecognizer(PatternRecognizer):
    """Dates of death next to their cue words ("verstarb am …", "der am … verstorbene")."""

    NAME = "date_of_death"
    LABEL = "DATE_OF_DEATH"
    PATTERNS = (
        Pattern("cue_date", rf"{_DEATH_CUE}{_DATE}", 0.85),
        Pattern("date_died", rf"(?<![\w.]){_DATE}{_DIED_AFTER}", 0.85),
        Pattern("cross_date", rf"(?:^|(?<=[\s(,;]))†{_S}?{_DATE}", 0.8),
    )
    NEGATIVE_CONTEXT = DateOfBirthRecognizer.NEGATIVE_CONTEXT
    NEGATIVE_WINDOW = DateOfBirthRecognizer.NEGATIVE_WINDOW


class DateOfDeathRecognizerV2(DateOfDeathRecognizer):
    """Version 1, and a date the verb "verstarb"/"starb" follows ("Am 14.01.2023 verstarb in
    Trostberg die Erblasserin …": a sentence begun with the date; the from-scratch dev set)."""

    PATTERNS = (
        *DateOfDeathRecognizer.PATTERNS,
        Pattern("date_then_died", rf"(?<![\w.]){_DATE}{_S}(?:verstarb|starb)(?!\w)", 0.85),
    )


class MarriageDateRecognizer(PatternRecognizer):
    """Dates of marriage next to their cue words ("heirateten am …", "Eheschließung am …")."""

    NAME = "marriage_date"
    LABEL = "DATE_OF_MARRIAGE"
    PATTERNS = (Pattern("cue_date", rf"{_MARRIAGE_CUE}{_DATE}", 0.85),)


# Version 2 (a batch of the twenty-fourth session, written by another before the chain ran on
# it): the date before the verb ("Die Beteiligten haben am 18.06.2014 geheiratet", "die am
# 3. Mai 2001 geschlossene Ehe", "am 17.07.2004 vor dem Standesamt Taufkirchen (Vils) die Ehe
# geschlossen"), which version 1 read only after its cue
_MARRIED_AFTER = (
    rf"{_S}(?:(?:vor{_S}dem{_S}Standesamt|in){_S}{_PLACE_NAME}(?:{_S}\([^()\n]{{1,20}}\))?{_S})?(?:geheiratet|geschlossenen?{_S}Ehe|die{_S}Ehe{_S}geschlossen)(?!\w)"
)


class MarriageDateRecognizerV2(MarriageDateRecognizer):
    """Version 1, and a date the verb "geheiratet" or "geschlossene Ehe" follows."""

    PATTERNS = (*MarriageDateRecognizer.PATTERNS, Pattern("date_married", rf"(?<![\w.]){_DATE}{_MARRIED_AFTER}", 0.85))
