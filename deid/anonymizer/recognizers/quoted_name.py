"""A name in quotation marks after the word that says what it names: a party's mark or product
("die Marke „Bergkristall“", "das Produkt „Kräuterhexe Classic“", "unter dem Zeichen
„Bergkristall Spritz“"), or a venue or business ("die Shisha-Bar „Orient Lounge“", "seinen
Betrieb „Auto-Center Kiefl“").

The model finds a word or two of such names and leaves the rest in clear ("„Kräuterhexe
[OTHER]“"); quotes bound the name exactly, and the word before them says what it is. The
`strict` profile neutralizes a party's marks and products (``BRAND_NAME``, the policy's
``BRAND`` row), which `federal` keeps; a business's name is a firm's under both
(docs/anonymization-policy.md). A quoted phrase after any other word ("die Bezeichnung „Facharzt“", "der Begriff „Wohnung“", also "unter der
Bezeichnung „Jobcenter“" in the training text) is left alone: it is as often a term the court
discusses as a name.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_S = r"[ \u00a0]"
# the quoted name: one to six words that start with a capital or a digit, no sentence inside
_QUOTED = (
    r"(?:„|\"|»|“)(?P<value>[A-ZÄÖÜ0-9][^„“”\"»«\n.;:!?]{0,58}?[\w)!+])(?:“|”|\"|«)"
)
# what a party's mark or product is called; an optional register number may stand between
_BRAND_CUE = (
    r"(?:(?:Wort|Bild|Wort-/Bild|Wort-[ \u00a0]und[ \u00a0]Bild|Unions|Gemeinschafts|Klage|Streit"
    r"|Widerspruchs|Verletzungs|Dach)?[Mm]arke|Marken|Produkt|Produkte|Produktname|Produktnamen"
    r"|Produktbezeichnung|Produktlinie|Sorte"
    rf"|unter{_S}dem{_S}(?:Namen|Zeichen|Label|Slogan))"
    rf"(?:{_S}Nr\.{_S}[\d ]{{3,20}})?{_S}"
)
# a venue or business named after its kind ("Shisha-Bar", "Gasthof", "Onlineshop")
_VENUE_KINDS = (
    "Bar|Gaststätte|Gasthaus|Gasthof|Wirtschaft|Restaurant|Lokal|Diskothek|Disco|Club|Hotel"
    "|Pension|Café|Cafe|Eiscafé|Imbiss|Kiosk|Laden|Geschäft|Onlineshop|Shop|Betrieb|Unternehmen"
    "|Firma|Praxis|Kanzlei|Studio|Salon|Autohaus|Werkstatt|Brauerei|Biergarten|Tankstelle"
    "|Kindertagesstätte|Kita|Kindergarten|Pflegeheim|Seniorenheim|Wohnanlage|Campingplatz"
)
_VENUE_CUE = rf"(?:[A-ZÄÖÜ][\w]*-)?(?:{_VENUE_KINDS}){_S}"


class BrandNameRecognizer(PatternRecognizer):
    """A mark's or product's name in quotes after the word that names it so."""

    NAME = "brand_name"
    LABEL = "BRAND_NAME"
    PATTERNS = (Pattern("cue_quoted", rf"(?<![\w-]){_BRAND_CUE}{_QUOTED}", 0.7),)


# version 2: a product that a party sells or that a suit attacks, named in quotes after the
# words patent and competition decisions use for it ("Die angegriffene Ausführungsform
# „AquaDos 300“", "vertreibt unter der Bezeichnung „AquaDos 300“ Dosierpumpen"). "unter der
# Bezeichnung" alone stays a term the court discusses ("unter der Bezeichnung „Jobcenter“
# wahrgenommen", training text): only a verb of selling before it in the same sentence makes
# the quote a product (the from-scratch dev set; no such cue in the training or validation text)
_ATTACKED = (
    r"(?:angegriffene|streitgegenständliche|beanstandete|streitbefangene|verletzende)[nrs]?"
    rf"{_S}(?:Ausführungsform(?:en)?|Produkte?s?|Erzeugnis(?:se|ses)?|Geräte?s?|Vorrichtung(?:en)?)"
    r"(?:[ \u00a0]\((?:[^()\n]{1,40})\))?,?"
)
_SELLS = (
    r"(?:vertreib|vertrieb|verkauf|vermarkt|bewirb|bewarb|bewerb|produzier|importier|liefer)\w*"
    rf"[^.;:!?\n„“\"]{{0,80}}?{_S}unter{_S}(?:der|dieser){_S}(?:Produkt|Typen)?[Bb]ezeichnung"
)


class BrandNameRecognizerV2(BrandNameRecognizer):
    """Version 1, and a product in quotes after the words that say a party sells it or a suit
    attacks it."""

    PATTERNS = (
        *BrandNameRecognizer.PATTERNS,
        Pattern("attacked_quoted", rf"(?<![\w-]){_ATTACKED}{_S}{_QUOTED}", 0.7),
        Pattern("sold_quoted", rf"(?<![\w-]){_SELLS}{_S}{_QUOTED}", 0.7),
    )


class VenueNameRecognizer(PatternRecognizer):
    """A venue's or business's name in quotes after its kind."""

    NAME = "venue_name"
    LABEL = "FIRM_NAME"
    PATTERNS = (Pattern("kind_quoted", rf"(?<![\w-]){_VENUE_CUE}{_QUOTED}", 0.7),)
