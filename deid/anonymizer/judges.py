"""Where a decision names its judges, in every layout of the bundled decisions: the judges'
zones of ``keep_zones`` version 3 (deid.anonymizer.policy.judge_zones).

Judges, lay and honorary judges are public under every profile (docs/anonymization-policy.md);
the parties' counsel, prosecutors, clerks and interpreters named beside them are not. Version 3
finds, besides what version 2 found (the bench line ending at "beschlossen", name-only lines
closing the decision):

* the bench in the rubrum of every court: "durch den Vorsitzenden Richter …", "unter
  Mitwirkung des Vorsitzenden Richters …, der Richterin … sowie des Richters …" (BPatG,
  BVerfG), "durch die Richterin am Amtsgericht … am 12. März 2024" and "… aufgrund der
  mündlichen Verhandlung …" (lower courts, Bavarian layout); the zone ends at the first word
  that follows a bench (:data:`_BENCH_END`) and holds a judge's title;
* the participants' list of a criminal judgment ("an der teilgenommen haben: Vorsitzender
  Richter am Bundesgerichtshof …, Richterin am Bundesgerichtshof … als beisitzende Richter,
  Staatsanwalt … als Vertreter der Bundesanwaltschaft, Rechtsanwalt … als Verteidiger"):
  only the judges' entries;
* signature blocks anywhere, not only at the very end: lines of up to five names (with name
  particles, "auf dem Brinke", abbreviated first names, "Matth. Dipper", a "gez."), lines of a
  judge's office alone ("Richterin am Verwaltungsgericht"), and the note on a judge who could
  not sign ("Richter am BAG X ist an der Beifügung der Unterschrift verhindert"); a block
  counts when it closes the text, is followed by a heading (Beschluss, Rechtsmittelbelehrung
  …) or holds an office line or such a note;
* a judge named with the title in running text: "der Richter Eichberger sowie die Richterinnen
  Baer und Britz", "die Richterin am LSG Dr. W.", "Vizepräsident Kirchhof".
"""

from __future__ import annotations

import re

from deid.schema import JUDGE, Span
from deid.words.vocab import CAPITALIZED_NAME, COURT_ABBREVIATIONS, alternation

_S = r"[ \t\u00a0]"  # a space within a line
_TITLES = r"(?:(?:Dr\.|Prof\.|Dres\.|Dr\.-Ing\.|h\.\s?c\.)" + _S + r"?)*"
# a first name's initial or abbreviation ("M.", "Matth."), a particle ("von der", "auf dem")
_FIRST = r"(?:[A-ZÄÖÜ][a-zäöüß]{0,4}\.(?:-[A-ZÄÖÜ]\.)?" + _S + r")?"
_PARTICLES = (
    r"(?:(?:(?:von|van|de|zu|vom|ter|ten|del|di|da)(?:" + _S + r"(?:der|dem|den))?|auf" + _S + r"(?:der|dem))"
    + _S + r")?"
)
_SURNAME = rf"(?!(?:Dr|Prof|Dres|Dipl|Ing)\b){CAPITALIZED_NAME}"  # a title is no name
_NAME = rf"{_TITLES}{_FIRST}(?:{_SURNAME}{_S})?{_PARTICLES}{_SURNAME}"
_INITIAL = r"[A-ZÄÖÜ]\."  # a lower court's judge the decision anonymized ("Dr. W.")
_COURT_WORD = rf"(?:[A-ZÄÖÜ][\wäöüß\-]*(?:gericht|gerichts|gerichtshof|gerichtshofs|hof|hofs)|{alternation(COURT_ABBREVIATIONS)})"
_AT_COURT = rf"(?:(?:am|beim|des|an{_S}dem){_S}(?:[A-ZÄÖÜ][\wäöüß]+{_S})?{_COURT_WORD}{_S}?)"
_JUDGE_WORD = r"(?:Richter(?:in|innen|s|n)?|Einzelrichter(?:in|s)?|Berichterstatter(?:in|s)?)"
_OFFICE = (
    rf"(?:(?:Vorsitzende[rn]?|[Ee]hrenamtliche[rn]?|[Bb]eisitzende[rn]?){_S})?{_JUDGE_WORD}{_S}?{_AT_COURT}?"
    rf"|(?:Vize)?[Pp]räsident(?:in|en)?{_S}{_AT_COURT}|Vizepräsident(?:in|en)?{_S}"
)

# --- the bench in the rubrum ---------------------------------------------------------------
_BENCH_START = re.compile(
    r"\b(?:durch|unter\sMitwirkung)\s(?:den|die|der|des)\s"
    r"(?:Vorsitzende|Präsident|Richter|Vizepräsident|Einzelrichter|ehrenamtliche|beisitzende)\w*",
    re.IGNORECASE,
)
_BENCH_END = re.compile(
    r"\b(?:für\sRecht\serkannt|beschlossen|entschieden|beraten|erkannt"
    r"|folgende[nrs]?\s(?:End|Teil|Schluss)?(?:[Uu]rteil|[Bb]eschluss|Gerichtsbescheid)"
    r"|aufgrund|auf\s?Grund|ohne\smündliche|im\sschriftlichen\sVerfahren|nach\sLage\sder\sAkten"
    r"|am\s\d|in\sder\s(?:Sitzung|mündlichen))|:"
)
_HAS_JUDGE = re.compile(r"Richter|Präsident", re.IGNORECASE)
# a bench is names, titles ("Dipl.-Ing. (FH)"), courts and joints: no digit, citation bracket or
# paragraph sign, and no
# lowercase word but these ("durch den Richter (stRspr, vgl. …" in running text is none)
_BENCH_WORDS = frozenset(
    "den die der des dem und sowie am beim an als von van vom zu de auf ter ten del di da v i a d "
    "ehrenamtliche ehrenamtlichen ehrenamtlicher beisitzende beisitzenden beisitzender".split()
)
_BENCH_NOT = re.compile(r"[\d\[\]§;<>]")
_LOWER_WORD = re.compile(r"(?<![\w\-])[a-zäöüß][\w\-]*")
_NAME_IN_BENCH = re.compile(rf"(?<![\w\-]){CAPITALIZED_NAME}(?![\w\-])")
_BENCH_LONGEST = 600

# --- the participants of a criminal judgment ------------------------------------------------
_PARTICIPANTS = re.compile(r"an\sder\steilgenommen\shaben\s?:?")
_PARTICIPANTS_END = re.compile(r"\b(?:für\sRecht\serkannt|beschlossen|erkannt)\b")
_ENTRY_SPLIT = re.compile(r",\s*|\n")
_JUDGE_ENTRY = re.compile(r"\b(?:Richter|Vorsitzende|[Bb]eisitzende|Schöff|Präsident|Vizepräsident)")
_NOT_A_JUDGE = re.compile(
    r"anwalt|anwält|Verteidig|Vertreter|Justiz|Urkundsbeamt|Nebenklag|Dolmetsch|Sachverständig"
    r"|Protokoll|Geschäftsstelle|Beistand|Zeug|Angeklagt",
    re.IGNORECASE,
)

# --- signature blocks ----------------------------------------------------------------------
_SEP = rf"(?:{_S}*,{_S}*|{_S}+und{_S}+|{_S}{{2,}}|\t+|{_S})"
_NAME_LINE = re.compile(
    rf"^(?:gez\.{_S}?)?(?:{_OFFICE})?\(?{_NAME}\)?(?:{_SEP}\(?{_NAME}\)?){{0,4}}"
    rf"(?:{_S}*,{_S}*(?:{_OFFICE})?)?$"
)
_OFFICE_LINE = re.compile(rf"^(?:{_OFFICE})[ \t\u00a0]*$")
# keep_zones version 8: an office line naming the judge's role on the bench ("Richter am
# Landgericht als Einzelrichter"), which version 3's office line did not read (the from-scratch
# dev set: a sole judge's signature flagged as a person)
_OFFICE_LINE_ROLE = re.compile(
    rf"^(?:{_OFFICE}){_S}als{_S}(?:Einzelrichter(?:in)?|Vorsitzende[r]?|Berichterstatter(?:in)?)[ \t\u00a0]*$"
)
# a block of one line: names set apart by wide spaces, tabs or commas ("Dr. Häußler   Dr. Eppelt")
_WIDE_SEP = rf"(?:{_S}*,{_S}*|{_S}{{2,}}|\t+)"
_CAPITALIZED = re.compile(rf"(?<![\w\-]){_SURNAME}(?![\w\-])")
_NAMES_LINE = re.compile(rf"^(?:gez\.{_S}?)?{_NAME}(?:{_WIDE_SEP}{_NAME}){{1,4}}$")
_NOTE_LINE = re.compile(r"verhindert|gehindert|Urlaub|erkrankt|Krankheit|Unterschrift|zugleich\sfür", re.IGNORECASE)
_NOTE_JUDGE = re.compile(r"\b(?:V?Ri(?:’|')?(?:in)?\b|V?Rin?[A-Z]|Richter|Vorsitzend|Präsident)")
_LONGEST_NAME_LINE = 120
_LONGEST_NOTE = 240
# words that are headings, party roles or counsel: no line holding one is a judge's
_NOT_A_NAME = re.compile(
    r"\b(?:Tenor|Gründe|Tatbestand|Entscheidungsgründe|Urteil|Beschluss|Gerichtsbescheid|Hinweis"
    r"|Rechtsmittelbelehrung|Rechtsbehelfsbelehrung|Leitsatz|Leitsätze|Titel|Normenketten?|Schlagworte"
    r"|Fundstellen?|Vorinstanz|Tenor|Verfügung|Beschlussformel|Sachverhalt|Anlage|Anmerkung"
    r"|Kläger\w*|Beklagte\w*|Antragsteller\w*|Antragsgegner\w*|Beigeladene\w*|Beteiligte\w*"
    r"|Beschwerdeführer\w*|Revisionskläger\w*|Berufungskläger\w*|Angeklagte\w*|Betroffene\w*"
    r"|Prozessbevollmächtigte\w*|Bevollmächtigte\w*|Rechtsanw\w*|Kanzlei|Verteidiger\w*"
    r"|Staatsanwalt\w*|Vertreter\w*|Im Namen|Namen des Volkes|Gegen|Wegen)\b"
)
_HEADING = re.compile(
    r"^(?:Beschluss|Urteil|Gerichtsbescheid|Rechtsmittelbelehrung|Rechtsbehelfsbelehrung|Gründe|Tenor"
    r"|Hinweis|Streitwertbeschluss|Beschluss\s?:|Der\sStreitwert|Die\sRevision|Ausgefertigt|Ausfertigung)\b"
)


def _line_kind(line: str, roles: bool = False) -> str | None:
    """``name``, ``office`` or ``note`` for a line of a signature block, else None; ``roles``
    (keep_zones version 8): an office line may name the judge's role ("… als Einzelrichter")."""
    stripped = line.strip()
    if not stripped:
        return None
    if len(stripped) <= _LONGEST_NOTE and _NOTE_LINE.search(stripped) and _NOTE_JUDGE.search(stripped):
        return "note"
    if len(stripped) > _LONGEST_NAME_LINE or _NOT_A_NAME.search(stripped):
        return None
    if _OFFICE_LINE.match(stripped) or (roles and _OFFICE_LINE_ROLE.match(stripped)):
        return "office"
    if _NAME_LINE.match(stripped):
        return "name"
    return None


def signature_blocks(text: str, roles: bool = False, lone: bool = False) -> list[Span]:
    """Runs of signature lines (the module's docstring): two lines at least, or one note; a
    blank line may separate two lines of a run. Linear in the number of lines. ``roles``: see
    :func:`_line_kind`; ``lone`` (keep_zones version 10): one name alone closing the text right
    after a sentence's full stop is a sole judge's signature (a Bavarian Amtsgericht's or a
    single judge's decision: "… § 465 Abs. 1 StPO.\nSeidl")."""
    lines = text.split("\n")
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    kinds = [_line_kind(line, roles) for line in lines]
    blank = [not line.strip() for line in lines]
    # from each line on: the first non-blank line, and whether only headings remain
    next_text = [len(lines)] * (len(lines) + 1)
    only_headings = [True] * (len(lines) + 1)
    for i in range(len(lines) - 1, -1, -1):
        next_text[i] = next_text[i + 1] if blank[i] else i
        only_headings[i] = only_headings[i + 1] and (blank[i] or _HEADING.match(lines[i].strip()) is not None)
    zones: list[Span] = []
    i = 0
    while i < len(lines):
        if kinds[i] is None:
            i += 1
            continue
        j = i
        while next_text[j + 1] < len(lines) and kinds[next_text[j + 1]] is not None and next_text[j + 1] - j <= 2:
            j = next_text[j + 1]
        run = [k for k in kinds[i : j + 1] if k is not None]
        after = next_text[j + 1]
        closes = only_headings[j + 1]
        before_heading = after < len(lines) and _HEADING.match(lines[after].strip()) is not None
        strong = "office" in run or "note" in run
        # one line of names: set apart widely, or three names closing the text ("Dr. X Y Z")
        one = run == ["name"] and (
            _NAMES_LINE.match(lines[i].strip()) is not None
            or (closes and len(_CAPITALIZED.findall(lines[i])) >= 3)
        )
        sole = lone and run == ["name"] and closes and _after_sentence(lines, i)
        if (len(run) >= 2 or run == ["note"] or one or sole) and (closes or before_heading or strong):
            zones.append(Span(starts[i], starts[j] + len(lines[j]), JUDGE))
        i = j + 1
    return zones


_SENTENCE_END = re.compile(r"[.!?)][ \t\u00a0]*$")
_LONGEST_NAME = 40  # a sole judge's line: one name with titles, no more


def _after_sentence(lines: list[str], i: int) -> bool:
    """Line ``i`` holds one short name and the text's previous non-blank line ends a sentence."""
    if len(lines[i].strip()) > _LONGEST_NAME or len(_CAPITALIZED.findall(lines[i])) > 2:
        return False
    for line in reversed(lines[:i]):
        if line.strip():
            return _SENTENCE_END.search(line) is not None and len(line.strip()) > _LONGEST_NAME
    return False


def _bench_body_end(text: str, start: int, end: int) -> int:
    """Where the bench's names end between ``start`` and ``end``: at the first character no
    bench holds (a digit, "§"), or the first lowercase word that is no joint or particle."""
    cut = end
    bad = _BENCH_NOT.search(text, start, end)
    if bad:
        cut = bad.start()
    for word in _LOWER_WORD.finditer(text, start, cut):
        if word.group() not in _BENCH_WORDS:
            return word.start()
    return cut


def bench_zones(text: str) -> list[Span]:
    """The bench of the rubrum, from "durch den …" / "unter Mitwirkung des …" to the word that
    follows it (or the first word no bench holds), when that holds a judge's title."""
    zones = []
    for m in _BENCH_START.finditer(text):
        end = _BENCH_END.search(text, m.end(), min(len(text), m.start() + _BENCH_LONGEST))
        if end is None:
            continue
        stop = _bench_body_end(text, m.end(), end.start())
        if _HAS_JUDGE.search(text, m.start(), stop) and _NAME_IN_BENCH.search(text, m.end(), stop):
            zones.append(Span(m.start(), stop, JUDGE))
    return zones


def participant_zones(text: str) -> list[Span]:
    """The judges' entries of a criminal judgment's list of participants."""
    zones = []
    for m in _PARTICIPANTS.finditer(text):
        end = _PARTICIPANTS_END.search(text, m.end(), min(len(text), m.end() + 1500))
        if not end:
            continue
        pos = m.end()
        for part in _ENTRY_SPLIT.split(text[m.end() : end.start()]):
            start = text.index(part, pos) if part else pos
            pos = start + len(part)
            if part.strip() and _JUDGE_ENTRY.search(part) and not _NOT_A_JUDGE.search(part):
                zones.append(Span(start, start + len(part), JUDGE))
    return zones


_TITLED = re.compile(
    rf"(?<![\w\-])(?:{_OFFICE}){_S}?(?:{_NAME}|{_TITLES}{_INITIAL})"
    rf"(?:(?:{_S}?,{_S}?|{_S}(?:und|sowie){_S})(?:(?:der|die|den|des){_S})?(?:{_JUDGE_WORD}{_S})?{_NAME})*"
)


# "die als Zeugen vernommenen Richter X und Y": judges heard as witnesses are witnesses
_WITNESS = re.compile(r"Zeug(?:e|en|in|innen)\b[^.\n]{0,60}$")


def titled_judges(text: str) -> list[Span]:
    """A judge named after the title in running text ("der Richter Eichberger sowie die
    Richterinnen Baer und Britz"), unless the sentence calls them witnesses."""
    return [
        Span(m.start(), m.end(), JUDGE)
        for m in _TITLED.finditer(text)
        if not _WITNESS.search(text, max(0, m.start() - 80), m.start())
    ]


def judge_zones_v3(text: str, roles: bool = False, lone: bool = False) -> list[Span]:
    """Every judges' zone version 3 finds (the module's docstring); ``roles`` (keep_zones
    version 8): an office line may name the judge's role on the bench; ``lone`` (version 10): a
    sole judge's name closing the text (:func:`signature_blocks`)."""
    return bench_zones(text) + participant_zones(text) + signature_blocks(text, roles, lone) + titled_judges(text)
