"""Word lists behind the context rules of placeholder detection.

Kept as data (frozensets and compiled patterns) so rules read like the thesis' description:
a potential placeholder is decided by the words around it. All lists were built from the
training courts and training decisions, never from reserved evaluation data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from deid.words import shape_cues, vocab

# --- persons --------------------------------------------------------------------------
# The role words and organization and place cues start as the frozen lists of the model's
# word shapes; extend them here (``| {...}``), never there, so saved models keep their input.
PERSON_ROLES: Mapping[str, str | None] = shape_cues.PERSON_ROLES
PERSON_ROLE_STEM: re.Pattern[str] = shape_cues.PERSON_ROLE_STEM


# --- organizations --------------------------------------------------------------------
LEGAL_FORMS: frozenset[str] = vocab.LEGAL_FORMS
# Multi-token legal forms, matched on the text after a candidate.
LEGAL_FORM_AFTER = re.compile(
    r"^\s*(?:&\s*Co\.?\s*)?(?:GmbH|gGmbH|mbH|AG|KGaA|KG|OHG|oHG|GbR|UG|SE|eG|Ltd\.?|Inc\.?|"
    r"LLC|plc|S\.\s?A\.|B\.\s?V\.|N\.\s?V\.|e\.\s?V\.|e\.\s?K\.|Aktiengesellschaft|"
    r"Kommanditgesellschaft|Partnerschaft|PartG|Holding|Stiftung|Genossenschaft|EWIV|"
    r"Gesellschaft|Rechtsanwälte|Rechtsanwaltsgesellschaft|Steuerberatungsgesellschaft|"
    r"Wirtschaftsprüfungsgesellschaft|Verlag|Bank|Versicherung|Gruppe|Group|Konzern|"
    r"[A-ZÄÖÜ][a-zäöüß]*(?:gesellschaft|werk|werke|bau|handel|service|technik|"
    r"systeme|immobilien|logistik|klinik|kliniken))\b"
)
ORG_CUES: frozenset[str] = shape_cues.ORG_CUES
# Hyphenated organization words: "X-Gruppe", "A-GbR", "K-Klinik", "A-Fonds".
ORG_SUFFIX = re.compile(
    r"^(?:GmbH|gGmbH|AG|KG|OHG|GbR|UG|SE|eG|EWIV|KGaA|Ltd|Inc|Gruppe|Group|Konzern|Holding|"
    r"Stiftung|Verein|Vereins?|Fonds|Bank|Klinik|Kliniken|Partnership|Partnerschaft|"
    r"Gesellschaft|BV|KAG|Werke?|Markt|Verlag|Versicherung|Kasse)\w*$"
)

# --- locations -------------------------------------------------------------------------
LOCATION_PREPS: frozenset[str] = frozenset(
    "in aus nach nahe bei im Raum wohnhaft geboren ansässig Wohnort Sitz".split()
)
LOCATION_CUES: frozenset[str] = shape_cues.LOCATION_CUES

# Institution nouns by suffix ("Bildungsagentur D", "Berufsschulzentrum F", "Finanzamt X").
INSTITUTION_NOUN = re.compile(
    r"(?:amt|amts|amtes|zentrum|zentrums|agentur|schule|schulzentrum|klinik|klinikum|"
    r"krankenhaus|krankenhauses|krankenhäuser|krankenhäusern|heim|heims|werk|werks|kasse|"
    r"behörde|anstalt|institut|instituts|stelle|dienst|station|wache|wachen|verwaltung|"
    r"gemeinde|stadt|kreis|kreises|bezirk|universität|hochschule|akademie|kaserne|bataillon|regiment|"
    r"kommando|geschwader|brigade|division|staffel|dienststelle|inspektion|direktion|"
    r"präsidium|gericht|gerichts|ministerium|bank|sparkasse|versicherung|verband|verein|"
    r"kanzlei|praxis|apotheke|hotel|restaurant|bahnhof|flughafen|hafen|markt|gruppe|"
    r"konzern|gesellschaft|flurstück|flurstücke|flurstücks|grundstück|grundstücke|"
    r"grundstücks|grundstücken|flurstücken|gemarkung|ortsteil|siedlung|viertel|quartier|betrieb|betriebs|filiale|"
    r"niederlassung|standort|objekt|anwesen|mühle|kirche|pfarrei|kita|kindergarten|"
    r"ort|orts|ortes|konsulat|botschaft|zentrale|moschee|synagoge|tempel|kloster)$",
    re.IGNORECASE,
)
ORG_HEAD_AFTER = re.compile(
    r"^\s(?:Klinik|Kliniken|Klinikum|Krankenhaus|Bank|Versicherung|Hotel|Verlag|Werke?|"
    r"Gruppe|Holding|Immobilien|Bau|Consulting|Logistik|Service|Handel|Transporte?|"
    r"Autohaus|Apotheke|Kanzlei|Praxis|Stiftung|Verein|Zeitung|Sparkasse|Brauerei|"
    r"Lebensversicherung|Versicherungs\w*|Lebensversicherungs\w*)\b"
)
LOCATION_HEAD_AFTER = re.compile(r"^\s(?:Stadt|Dorf|Gemeinde|Land|Kreis)\b")

# --- streets ---------------------------------------------------------------------------
STREET_WORD: re.Pattern[str] = vocab.STREET_WORD

# --- money, dates, ids -----------------------------------------------------------------
MONEY_AFTER = re.compile(r"^\s*>?\s*(?:€|EUR\b|Euro\b|DM\b|CHF\b|\$|USD\b|Mio\.|Millionen\b|Tsd\.)")
MONEY_BEFORE = re.compile(r"(?:€|EUR|Euro|Betrag|Höhe von|iHv\.|i\.\s?H\.\s?v\.|Summe|Preis)\s*$")
ID_CUES = re.compile(
    r"(?:Nr\.|Nummer|-Nr\.|Az\.|AZ:?|Aktenzeichen|Geschäftszeichen|\bZeichen|Flurstück(?:s)?(?:-?Nr\.)?|"
    r"Flur-?Nr\.|Fl\.\s?Nr\.|FlNr\.|Kennzeichen|Steuernummer|IBAN|Konto|Kontonummer|"
    r"Vertragsnummer|Registernummer|HRB|HRA|Blatt|Grundbuch(?:blatt)?|Bescheid-?Nr\.|"
    r"Versicherungsnummer|Personalnummer|Kundennummer|Rechnungsnummer|Tagebuch-?Nr\.)\s*:?\s*$"
)
DATE_BEFORE = re.compile(r"(?:\bam|\bvom|\bseit|\bbis|\bab|geboren|geb\.|Geburtsdatum:?)\s*$")

# --- words that make a single letter NOT a placeholder -----------------------------------
# A letter after these is a list item, an outline or a category ("Anlage K 3", "Teil B").
CATEGORY_BEFORE: frozenset[str] = frozenset(
    """Anlage Anlagen Anl. Anhang Anh. Buchstabe Buchstaben Buchst. lit. Ziffer Ziff. Nr. Teil
    Teils Abschnitt Abschnitts Abschn. Spalte Kapitel Kap. Band Bd. Entgeltgruppe
    Besoldungsgruppe Vergütungsgruppe Lohngruppe Fallgruppe Gruppe Klasse Steuerklasse
    Variante Alt. Alternative Typ Typs Stufe Kategorie Liste Tabelle Muster Formblatt Position
    Pos. Punkt Zeile Art. Satz Abs. § §§ Buch SGB BStBl BStBl. BGBl BGBl. ABl ABl. Vitamin
    Hepatitis Modell Szenario Plan Zone Baufeld Beispiel Version Option Schema Stadium Grad
    Note Niveau Sprachniveau Kurs Bauabschnitt Bereich Sektor Haus Gebäude Halle Raum Zimmer
    Station Ebene Geschoss Tor Gleis Bahnsteig Terminal Gate Ausgabe Heft Fußnote Randnummer
    Rz. Tz. Rdnr. Rdn. Rn. Ordner Bl. Blatt Seite S. Vorlage Vermerk Baustein Block Feld
    Sektion Los Lose Anlagenband Kammer Senat Schicht Fach Tarifgruppe Gehaltsgruppe
    Dienstgruppe Funktionsgruppe Laufbahngruppe Leistungsgruppe Kostengruppe Risikogruppe
    Altersgruppe Bewertungsgruppe Wertgruppe Kontenklasse Immissionsrichtwert Lärmpegel
    Schutzklasse Energieeffizienzklasse Schadstoffklasse Führerscheinklasse Fahrerlaubnisklasse
    Klassen Fahrzeugklasse Zulassungsklasse Emissionsklasse Gefahrenklasse Vitamins Typen
    Vordruck Formular Formulars Schreiben Gutachten Muster Objekt Objekts Wohnung Wohnungen
    Bauteil Bauteils Abteilung Dezernat Referat Sachgebiet Unterabschnitt Kapitels Titel
    Gliederungspunkt Gliederungspunkte Tenorziffer Nummer Nummern Spiegelstrich Fall Fälle Falls
    Reihe Unterreihe Serie Abschnitte Varianten Stufen Typus Kategorien""".split()
)
# Categories that also name one real building or site: "Gebäude „D.“", "Haus „S.“" (an
# abbreviated name in quotes); "Gebäude B" without quotes and period stays a designation.
BUILDING_CATEGORIES: frozenset[str] = frozenset("Haus Gebäude Halle Station Terminal".split())
# A letter in these sequences is part of an abbreviation, not a placeholder.
ABBREVIATIONS = re.compile(
    r"(?<![\w.])(?:z\.\s?B\.|a\.\s?a\.\s?O\.|a\.\s?F\.|n\.\s?F\.|i\.\s?V\.\s?m\.|"
    r"i\.\s?S\.\s?d\.|i\.\s?S\.\s?v\.|m\.\s?w\.\s?N\.|w\.\s?N\.|u\.\s?a\.|d\.\s?h\.|s\.\s?o\.|"
    r"s\.\s?u\.|v\.\s?H\.|i\.\s?d\.\s?F\.|i\.\s?d\.\s?R\.|a\.\s?A\.|o\.\s?g\.|u\.\s?U\.|"
    r"z\.\s?T\.|d\.\s?A\.|d\.\s?J\.|v\.\s?a\.|i\.\s?H\.\s?v\.|i\.\s?E\.|i\.\s?Ü\.|"
    r"u\.\s?v\.\s?m\.|e\.\s?V\.|e\.\s?K\.|i\.\s?R\.|i\.\s?V\.|n\.\s?v\.|z\.\s?Hd\.|"
    r"p\.\s?a\.|a\.\s?D\.|i\.\s?A\.|o\.\s?Ä\.|u\.\s?Ä\.|b\.\s?w\.|m\.\s?E\.|i\.\s?Erg\.|"
    r"U\.\s?S\.|U\.\s?K\.|S\.\s?A\.|B\.\s?V\.|N\.\s?V\.|N\.\s?N\.|v\.\s?Chr\.|n\.\s?Chr\.|"
    r"St\.\s?Rspr\.|a\.\s?E\.|a\.\s?M\.|i\.\s?Br\.|i\.\s?d\.\s?OPf\.|a\.\s?d\.|"
    r"Fl\.\s?Nr\.|Fl\.-Nr\.|Gem\.|Geb\.|K\.\s?O\.|d\.\s?R\.)(?![\w])"
)
# Two-letter abbreviations that look like "Sch." name abbreviations but are ordinary words.
COMMON_SHORT_ABBREVIATIONS: frozenset[str] = frozenset(
    """Nr. Rn. Dr. Bl. Bd. Hs. Ls. Rz. Tz. Abs. Art. Ab. Ag. Az. Ast. Bf. Bg. Bk. Bkl.
    Bv. Fa. Ff. Gr. Hr. Kl. Lt. Mio. Mrd. Nds. Od. Or. Pr. Rd. Sa. So. Sp. Sr. Std. Str. Tel.
    Vf. Vgl. Wz. Zi. Ziff. Bsp. Jg. Hg. Hrsg. Ca. Mo. Di. Mi. Do. Fr. Jan. Feb. Mär. Apr.
    Jun. Jul. Aug. Sep. Okt. Nov. Dez. Kap. Co. Ltd. Inc. Ges. Urt. Beschl. Anm. Aufl.
    Bln. Bay. Ps. Pkt. Ord. Ges. Urt. Dip. Ing. Inh. Pat. Erg. Ltd. Inc.""".split()
)
# Words that can start a sentence after a sentence-final placeholder ("… in O. Die Klage").
SENTENCE_STARTERS: frozenset[str] = frozenset(
    """Der Die Das Dem Den Des Ein Eine Einer Einem Einen Eines Er Sie Es Wir Ihr Ich Man Im In
    Mit Nach Auf Am Zum Zur Bei Für Nicht Da Dies Diese Dieser Dieses Diesem Diesen Dass Daß
    Soweit Wie Wenn Zwar Auch Hierzu Hier Dabei Daher Deshalb Darüber Danach Dann Doch Denn
    Aber Allerdings Ob Weil Als Sofern Außerdem Ferner Zudem Insoweit Insbesondere Schließlich
    Jedenfalls Somit Also Gegen Von Vor Unter Über Aus Seit Bis Durch Ohne Um Trotz Während
    Wegen Nachdem Obwohl Damit Dazu Davon Dagegen Demnach Dementsprechend Hiernach Hierbei
    Hierfür Hiergegen Nunmehr Inzwischen Anschließend Später Zuvor Zuletzt Erst Nur Noch
    Bereits Ebenso Gleichwohl Jedoch Vielmehr Sowohl Weder Entweder Sein Seine Seiner Seinem
    Seinen Ihre Ihrem Ihren Ihres Unstreitig Im Zunächst Mithin Folglich Demzufolge Laut Zu
    Was Wer Welche Welcher Dessen Deren Alle Jeder Jede Kein Keine Mehrere Einige Beide
    Beim Vom Ins Ans Aufs Zwischen Neben Hinter Infolge Ausweislich Entgegen Gemäß Nach Soweit
    Tenor Gründe Tatbestand Entscheidungsgründe Rechtsmittelbelehrung""".split()
)
ARTICLES: frozenset[str] = frozenset(
    "der die das dem den des ein eine einer einem einen eines dieser diese diesem diesen "
    "dieses jener seine seiner seinem seinen ihre ihrer ihrem ihren".split()
)
OUTLINE_ROMAN = re.compile(r"^(?:I{1,3}|IV|VI{0,3}|IX|XI{0,3}|X)$")  # outline numerals (I–XIII)
ROMAN = re.compile(r"^(?=[IVXLC])M{0,3}(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$")
# Court register codes in case numbers: "1 ABR 4/99", "V ZR 200/14", "B 7a AL 14/05 R".
CASE_REGISTER = re.compile(
    r"^(?:[A-Z][A-Za-z]{0,5}|ZR|ZB|StR|AZR|ABR|AZB|ZA|AR|ARs|BvR|BvL|BvE|BvF|BvQ|PBvU)$"
)
