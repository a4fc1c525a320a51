"""An animal's name and breed where the text names an animal ("ihren Labrador „Balu“", "den
Rottweiler-Mischling namens „Bruno“", "vom Hofhund Hasso", "der Rhodesian-Ridgeback-Rüde").

The model reads a dog's or a horse's name as a person and a breed as a place or a brand (the
from-scratch dev set, the twenty decisions written by others; 25 and 6 of their false elements):
neither gold set marks them, and a pet's name identifies no one the policy protects. Once
the text has named an animal so, its name alone is the animal in every later mention ("Am 3.
Januar 2023 biss Bruno der Klägerin …"): the policy keeps a kept name in every mention.
"""

from __future__ import annotations

import re

from deid.schema import Span

_S = r"[ \u00a0]"
# how a word naming an animal ends ("Hofhund", "Labradorhündin", "Rottweilerrüden",
# "Warmblutstute", "Hauskatze"), and breeds named without the animal ("Labrador", "Haflinger")
_ANIMAL_END = (
    r"(?:hund|hunde[sn]?|hündin|rüden?|welpen?|mischlings?|katze|kater[sn]?|pferde?s?|stute|wallachs?"
    r"|hengst(?:es)?|fohlens?|ponys?|esels?|kuh|bullen?|stier(?:es)?|kalb(?:es)?|schafe?s?|ziege|papagei(?:s|en)?"
    r"|sittichs?|kaninchens?|hamsters?)"
)
_BREEDS = (
    r"Labrador|Rottweiler|Dackel|Dobermann|Pudel|Terrier|Collie|Retriever|Husky|Boxer|Haflinger|Kangal"
    r"|Malinois|Beagle|Bulldogge|Chihuahua|Shetlandpony|Trakehner"
)
ANIMAL_WORD = re.compile(rf"(?<![\wäöüß\-])(?:(?i:[\wäöüß\-]*{_ANIMAL_END})|{_BREEDS})(?![\wäöüß])")
# what may stand between the animal and its name ("namens", "genannt", "mit dem Rufnamen")
_NAMING = rf"(?:{_S}(?:namens|genannt|mit{_S}dem{_S}(?:Ruf|Zucht)?[Nn]amen|Rufname)\s?)?"
_QUOTED = r"„(?P<quoted>[^“\n]{1,40})“"
_BARE = r"(?P<bare>[A-ZÄÖÜ][a-zäöüß]+)(?![\wäöüß\-])"
_NAMED = re.compile(rf"{_NAMING}{_S}?(?:{_QUOTED}|(?<=[ \u00a0]){_BARE})")
# a second name after the first ("mit dem Zuchtnamen „Amaru vom Keilberger Hang“, genannt „Bruno“")
_ALSO_NAMED = re.compile(rf",?{_S}(?:genannt|gerufen|Rufname){_S}{_QUOTED}")
# a breeding name names the breeder's farm or place ("Balou vom Hirschbachtal", "Amaru vom
# Keilberger Hang"): the gold sets neutralize it, as the policy does a place
_BREEDING_NAME = re.compile(r"[ \u00a0](?:vom|von|aus|zu)[ \u00a0]")
# a name is never a title or an article's capital at a sentence start
_NOT_A_NAME = re.compile(
    r"(?:Herrn?|Frau|Dr|Der|Die|Das|Den|Dem|Des|Ein|Eine|Er|Sie|Es|Und|Nach|Am|Im|In)"
)


_BARE_ANIMAL = re.compile(rf"(?i:{_ANIMAL_END})")
# a breed or kind before the animal's word: hyphenated ("Rhodesian-Ridgeback-Rüden") or one
# word ending in a dog's, a horse's or a cat's word ("Rottweilerrüden", "Warmblutstute"); not
# a short ending, which ends places and names too ("Zwiesel", "Schafkuh")
_BREED = re.compile(
    rf"(?:{_BREEDS})|(?i:.*-.*|.*(?:hund|hunde[sn]?|hündin|rüden?|mischlings?|stute|wallachs?|hengst(?:es)?|katze|welpen?))"
)


def animal_mentions(text: str) -> tuple[list[Span], list[Span]]:
    """The names the text gives animals right after the word naming them (the module's
    docstring; a bare name only a capitalized word ending the phrase, never a title), and
    each word naming an animal by its breed or kind ("American-Staffordshire-Mischling",
    "Rottweilerrüden", "Labrador"; never the animal's word alone, which is a surname too:
    "der Zeuge Stier", "Frau Kalb"). One pass over the text's animal words."""
    names, breeds = [], []
    for animal in ANIMAL_WORD.finditer(text):
        word = animal.group()
        if not _BARE_ANIMAL.fullmatch(word) and _BREED.fullmatch(word):
            breeds.append(Span(animal.start(), animal.end(), "BREED"))
        named = _NAMED.match(text, animal.end())
        if named is None:
            continue
        group = "quoted" if named.group("quoted") is not None else "bare"
        if group == "bare" and _NOT_A_NAME.fullmatch(named.group("bare")):
            continue
        if not _BREEDING_NAME.search(named.group(group)):
            names.append(Span(named.start(group), named.end(group), "ANIMAL"))
        if group == "quoted" and (also := _ALSO_NAMED.match(text, named.end())) is not None:
            names.append(Span(also.start("quoted"), also.end("quoted"), "ANIMAL"))
    return names, breeds
