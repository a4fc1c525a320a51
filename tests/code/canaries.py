"""Canaries (issue 27, item 2): a made-up surname planted in real bundled decisions, many
times and in every form a decision prints a name in. A name the pipeline neutralizes once
must be gone everywhere: ``count`` finds every form that survives."""

from __future__ import annotations

import re

from tests.conftest import read_source

CANARY = "Wolkenhammer"
DECISIONS = (
    "decisions/bag/1-azr-62-23.txt.xz", "decisions/bag/1-azr-74-23.txt.xz", "decisions/bag/9-azr-115-23.txt.xz",
    "decisions/bag/10-azr-345-22.txt.xz", "decisions/bverwg/010224U2A7.23.0.txt.xz",
    "decisions/bag/4-azr-286-22.txt.xz", "decisions/bag/5-azr-177-23.txt.xz",
)  # fmt: skip
# the first sentence introduces the person in full (what a model finds); the others print
# the name after titles and roles, inflected, possessive, in capitals and hyphenated
FIRST = "Die Klägerin Jana Wolkenhammer ist seit dem Jahr 2012 bei der Beklagten als Lageristin beschäftigt."
LATER = (
    "Frau Wolkenhammer erhob am selben Tag Klage.",
    "Nach Angaben der Zeugin Wolkenhammer war der Vorgesetzte nicht anwesend.",
    "Wolkenhammers Arbeitsvertrag sah eine Probezeit vor.",
    "Der Prozessbevollmächtigte der Klägerin, Rechtsanwalt Dr. Müller-Wolkenhammer, beantragte Fristverlängerung.",
    "In der Sache WOLKENHAMMER gegen die Beklagte erging kein Versäumnisurteil.",
    "Die Klägerin Wolkenhammer's Angaben sind glaubhaft.",
    "Herrn Wolkenhammer, ihrem Ehemann, wurde das Schreiben zugestellt.",
)
_ANY_FORM = re.compile(CANARY, re.IGNORECASE)


def planted(source: str) -> str:
    """A bundled decision with the canary: the introduction after its first line, then one
    later sentence after each further paragraph that ends a sentence (never inside one, a
    list of judges, say), in turn: 15 mentions in each decision."""
    lines = read_source(source).split("\n")
    out, later = [lines[0], FIRST], 0
    for line in lines[1:]:
        out.append(line)
        if len(line) > 80 and line.rstrip().endswith(".") and later < 2 * len(LATER):
            out.append(LATER[later % len(LATER)])
            later += 1
    return "\n".join(out)


def count(text: str) -> int:
    """Mentions of the canary in any case and form."""
    return len(_ANY_FORM.findall(text))
