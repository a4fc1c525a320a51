"""Word lists behind the context rules of placeholder detection.

Kept as data (frozensets and compiled patterns) so rules read like the thesis' description:
a potential placeholder is decided by the words around it. All lists were built from the
training courts and training decisions, never from reserved evaluation data.
"""

from __future__ import annotations

import re

# --- persons --------------------------------------------------------------------------
# Role nouns that introduce a person placeholder ("Zeuge K.", "Herrn S", "Klägerin A").
# Stems; any inflection matches. Gender: "m", "f" or None (ambiguous/plural).
_PERSON_ROLE_STEMS: dict[str, str | None] = {
    "Herr": "m", "Herrn": "m", "Frau": "f", "Fräulein": "f",
    "Zeuge": "m", "Zeugen": None, "Herren": "m", "Damen": "f", "Inh.": None, "Eheleute": None,
    "Eheleuten": None, "Geschwister": None, "Brüder": "m", "Schwestern": "f", "Zeugin": "f", "Zeuginnen": "f",
    "Kläger": "m", "Klägers": "m", "Klägerin": "f", "Klägerinnen": "f",
    "Angeklagte": None, "Angeklagter": "m", "Angeklagten": None,
    "Mitangeklagte": None, "Mitangeklagter": "m", "Mitangeklagten": None,
    "Beklagte": None, "Beklagter": "m", "Beklagten": None,
    "Beigeladene": None, "Beigeladener": "m", "Beigeladenen": None,
    "Betroffene": None, "Betroffener": "m", "Betroffenen": None,
    "Geschädigte": None, "Geschädigter": "m", "Geschädigten": None,
    "Nebenkläger": "m", "Nebenklägerin": "f",
    "Antragsteller": "m", "Antragstellers": "m", "Antragstellerin": "f",
    "Antragsgegner": "m", "Antragsgegnerin": "f",
    "Beschwerdeführer": "m", "Beschwerdeführerin": "f",
    "Sachverständige": None, "Sachverständiger": "m", "Sachverständigen": None,
    "Gutachter": "m", "Gutachterin": "f",
    "Rechtsanwalt": "m", "Rechtsanwalts": "m", "Rechtsanwältin": "f", "Rechtsanwälte": None,
    "Rechtsanwälten": None, "RA": None, "RAin": "f", "Rechtsanwaltskanzlei": None,
    "Notar": "m", "Notarin": "f", "Steuerberater": "m", "Steuerberaterin": "f",
    "Verteidiger": "m", "Verteidigerin": "f", "Prozessbevollmächtigte": None,
    "Geschäftsführer": "m", "Geschäftsführerin": "f", "Gesellschafter": "m",
    "Gesellschafterin": "f", "Inhaber": "m", "Inhaberin": "f", "Vorstand": None,
    "Mitarbeiter": "m", "Mitarbeiterin": "f", "Arbeitnehmer": "m", "Arbeitnehmerin": "f",
    "Soldat": "m", "Soldatin": "f", "Beamte": None, "Beamter": "m", "Beamtin": "f",
    "Patient": "m", "Patientin": "f", "Mieter": "m", "Mieterin": "f", "Vermieter": "m",
    "Vermieterin": "f", "Erblasser": "m", "Erblasserin": "f", "Erbe": "m", "Erbin": "f",
    "Ehefrau": "f", "Ehemann": "m", "Ehegatte": "m", "Ehegattin": "f",
    "Lebensgefährte": "m", "Lebensgefährtin": "f", "Partner": "m", "Partnerin": "f",
    "Sohn": "m", "Tochter": "f", "Vater": "m", "Mutter": "f", "Bruder": "m",
    "Schwester": "f", "Halbbruder": "m", "Halbschwester": "f", "Onkel": "m", "Tante": "f",
    "Enkel": "m", "Enkelin": "f", "Großvater": "m", "Großmutter": "f", "Neffe": "m",
    "Nichte": "f", "Cousin": "m", "Cousine": "f", "Schwager": "m", "Schwägerin": "f",
    "Kind": None, "Kindes": None, "Kinder": None, "Freund": "m", "Freundin": "f",
    "Nachbar": "m", "Nachbarin": "f", "Betreuer": "m", "Betreuerin": "f", "Vormund": None,
    "Pfleger": "m", "Pflegerin": "f", "Insolvenzverwalter": "m", "Insolvenzverwalterin": "f",
    "Käufer": "m", "Käuferin": "f", "Verkäufer": "m", "Verkäuferin": "f",
    "Eigentümer": "m", "Eigentümerin": "f", "Halter": "m", "Halterin": "f",
    "Fahrer": "m", "Fahrerin": "f", "Beifahrer": "m", "Beifahrerin": "f",
    "Arzt": "m", "Ärztin": "f", "Oberarzt": "m", "Oberärztin": "f", "Chefarzt": "m",
    "Chefärztin": "f", "Facharzt": "m", "Fachärztin": "f", "Psychologe": "m",
    "Psychologin": "f", "Therapeut": "m", "Therapeutin": "f", "Dipl.-Psych.": None,
    "Polizeibeamte": None, "Polizeibeamter": "m", "Polizeibeamtin": "f", "Polizist": "m",
    "Polizistin": "f", "POK": None, "PHK": None, "PK": None, "KHK": None, "KOK": None,
    "POM": None, "PM": None, "Kriminalhauptkommissar": "m", "Polizeihauptkommissar": "m",
    "Polizeioberkommissar": "m", "Polizeiobermeister": "m", "Kriminalbeamte": None,
    "Oberstleutnant": "m", "Oberst": "m", "Major": "m", "Hauptmann": "m", "Leutnant": "m",
    "Oberleutnant": "m", "Hauptfeldwebel": "m", "Stabsfeldwebel": "m", "Oberfeldwebel": "m",
    "Feldwebel": "m", "Stabsunteroffizier": "m", "Unteroffizier": "m", "Obergefreiter": "m",
    "Hauptgefreiter": "m", "Gefreiter": "m", "Kapitänleutnant": "m", "Fregattenkapitän": "m",
    "Korvettenkapitän": "m", "Kapitän": "m", "Oberstabsfeldwebel": "m", "General": "m",
    "Brigadegeneral": "m", "Generalleutnant": "m", "Generalmajor": "m", "Flottillenadmiral": "m",
    "Oberstarzt": "m", "Oberfeldarzt": "m", "Stabsarzt": "m", "Regierungsdirektor": "m",
    "Regierungsdirektorin": "f", "Ministerialrat": "m", "Ministerialrätin": "f",
    "Bürgermeister": "m", "Bürgermeisterin": "f", "Landrat": "m", "Landrätin": "f",
    "Schüler": "m", "Schülerin": "f", "Lehrer": "m", "Lehrerin": "f", "Student": "m",
    "Studentin": "f", "Bewerber": "m", "Bewerberin": "f", "Mandant": "m", "Mandantin": "f",
    "Täter": "m", "Täterin": "f", "Opfer": None, "Mittäter": "m", "Bauherr": "m",
    "Bauherrin": "f", "Prokurist": "m", "Prokuristin": "f", "Makler": "m", "Maklerin": "f",
    "Vertreter": "m", "Vertreterin": "f", "Bevollmächtigte": None, "Bevollmächtigter": "m",
    "Gläubiger": "m", "Gläubigerin": "f", "Schuldner": "m", "Schuldnerin": "f",
    "Pflegekraft": "f", "Krankenschwester": "f", "Erzieher": "m", "Erzieherin": "f",
    "Beteiligte": None, "Beteiligter": "m", "Beteiligten": None, "Kollege": "m",
    "Kollegin": "f", "Vorgesetzte": None, "Vorgesetzter": "m", "Verstorbene": None,
    "Verstorbenen": None, "Verstorbener": "m", "Dr.": None, "Prof.": None, "Dres.": None,
    "Dipl.-Ing.": None, "Dipl.-Kfm.": None, "Ing.": None, "med.": None, "jur.": None,
    "rer.": None, "nat.": None, "pol.": None, "phil.": None, "Spieler": "m", "Spielerin": "f",
    "Trainer": "m", "Trainerin": "f", "Betriebsratsmitglied": None, "Betriebsratsvorsitzende": None,
    "Hausmeister": "m", "Richter": "m", "Richterin": "f", "Staatsanwalt": "m",
    "Staatsanwältin": "f", "Zeugs": None, "Kunde": "m", "Kundin": "f", "Kunden": None,
}
PERSON_ROLES: dict[str, str | None] = _PERSON_ROLE_STEMS

# Inflected role forms not listed above are matched by these stems.
# Inflected and compound role forms ("Ohrenzeugen", "Berufungsklägerin", "Mitangeklagten").
# Only known compound heads are allowed before a stem: a bare suffix match would make
# "Wasserfahrzeugs" a witness and "Schienenschenkels" a grandchild.
_ROLE_PREFIXES = (
    r"Ohren|Tat|Haupt|Mit|Neben|Berufungs|Revisions|Wider|Beschwerde|Kindes|Fahrzeug|Wohnungs|"
    r"Grundstücks|Vertrauens|Belastungs|Entlastungs|Amts|Fach|Ober|Unter|Chef|Assistenz|"
    r"Stations|Haus|Pflege|Adoptiv|Stief|Groß|Schwieger|Halb|Ehe|Lebens|Geschäfts|Firmen|"
    r"Arbeits|Dienst|Kriminal|Polizei|Steuer|Patent|Fach|Zahn|Tier|Haus|Vertrags|Betriebs|"
    r"Mandats|Prozess|Verfahrens|Insolvenz|Nachlass|Testaments|Rechts|Miet|Erb|Bau|Grund|"
    r"Stell|Privat|Brief|Sozial|Abteilungs|Projekt|Team|Schicht|Filial|Markt|Werk|Bereichs|"
    r"Einsatz|Referats|Gruppen|Ober|Haupt|Lebens|Brigade|Flottillen|Stabs|Fregatten|Korvetten"
)
PERSON_ROLE_STEM = re.compile(
    rf"^(?:(?i:{_ROLE_PREFIXES})-?){{0,2}}(?:"
    r"[Zz]eug|[Kk]läger|[Bb]eklagt|[Aa]ngeklagt|[Bb]eigeladen|[Bb]etroffen|[Gg]eschädigt|"
    r"[Aa]ntragstell|[Aa]ntragsgegn|[Bb]eschwerdeführ|[Ss]achverständig|[Rr]echtsanw|"
    r"[Vv]erteidig|[Gg]eschäftsführ|[Gg]esellschafter|[Mm]itarbeit|[Aa]rbeitnehm|[Ee]rblass|"
    r"[Bb]evollmächtig|[Bb]eteiligt|[Vv]erstorben|[Bb]eamt|[Kk]läg|[Vv]ertrauensmann|"
    r"[Vv]ertrauensfrau|[Kk]andidat|[Ss]taatsbürger|[Ss]taatsangehörig|[Bb]erichterstatt|"
    r"[Bb]etreu|[Rr]ichter|[Ää]rztin|[Aa]rzt|[Vv]orsitzend|[Ii]nhaber|[Ee]igentümer|[Mm]ieter|"
    r"[Vv]ermieter|[Gg]läubiger|[Ss]chuldner|[Aa]nwalt|[Aa]nwältin|[Nn]otar|[Bb]erater|"
    r"[Ss]teuerpflichtig|[Vv]ersichert|[Ee]rbe|[Ee]rbin|[Ee]hemann|[Ee]hefrau|[Ww]itwe|"
    r"[Bb]ewerber|[Ss]oldat|[Ll]ehrer|[Ss]chüler|[Ss]tudent|[Pp]atient|[Vv]ormund|[Pp]fleger|"
    r"[Ss]ohn|[Tt]ochter|[Mm]utter|[Vv]ater|[Bb]ruder|[Ss]chwester|[Ee]nkel|[Nn]effe|[Nn]ichte|"
    r"[Oo]nkel|[Tt]ante|[Ff]reund|[Nn]achbar|[Kk]olleg|[Vv]orgesetzt|[Bb]ürgermeister|[Tt]äter|"
    r"[Ff]ahrer|[Hh]alter|[Kk]äufer|[Vv]erkäufer|[Ss]pieler|[Tt]rainer|[Kk]unde|[Kk]undin|"
    r"[Gg]utachter|[Pp]sycholog|[Tt]herapeut|[Dd]olmetscher|[Ss]achbearbeiter|[Pp]rokurist|"
    r"[Mm]akler|[Aa]rchitekt|[Ii]ngenieur|[Vv]erwalter|[Tt]reuhänder|[Aa]ktionär|[Dd]irektor|"
    r"[Ll]eiter|[Kk]ommissar|[Pp]olizist|[Mm]eister|[Ww]achtmeister|[Pp]rüfer|[Vv]ertreter"
    r"|[Tt]orhüter|[Zz]usteller|[Aa]rbeiter|[Pp]ächter|[Vv]erpächter|[Ss]tellvertreter|"
    r"[Aa]ngestellt|[Hh]elfer|[Bb]eschuldigt|[Aa]uszubildend|[Pp]raktikant|[Ff]ührer|"
    r"[Vv]erfolgt|[Aa]ngeschuldigt|[Gg]efährt|[Kk]ommissar|[Pp]artner|[Mm]itglied|[Bb]ote|[Bb]otin|"
    r"[Gg]eneral|[Aa]dmiral|[Oo]berst|[Mm]ajor|[Hh]auptmann|[Ll]eutnant|[Ff]eldwebel|[Kk]apitän"
    r")(?:e|en|er|ern|ers|es|in|innen|erin|erinnen|s|n|nen)?$"
)

# --- organizations --------------------------------------------------------------------
LEGAL_FORMS: frozenset[str] = frozenset(
    """GmbH gGmbH mbH mbB AG KG KGaA OHG oHG GbR UG SE eG EG Ltd Ltd. Limited Inc Inc.
    LLC LLP plc PLC S.A. SA SAS SARL S.à.r.l. B.V. BV N.V. NV Co. Co & e.V. eV e.K. e.Kfm.
    Aktiengesellschaft Kommanditgesellschaft Partnerschaft PartG PartGmbB AöR KdöR
    Holding Stiftung Genossenschaft Gesellschaft GesmbH Sp. z o.o. s.r.o. EWIV
    Kapitalanlagegesellschaft Fleischhandelsgesellschaft""".split()
)
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
ORG_CUES: frozenset[str] = frozenset(
    """Firma Fa. Unternehmen Unternehmens Unternehmensgruppe Konzern Konzerns Bank Sparkasse
    Volksbank Raiffeisenbank Versicherung Krankenkasse Klinik Klinikum Krankenhaus Verlag
    Verlags Hotel Gaststätte Restaurant Kanzlei Praxis Stiftung Verein Vereins Genossenschaft
    Spedition Arbeitgeberin Pflegedienst Pflegeheim Seniorenheim Betrieb Betriebs Baufirma
    Autohaus Supermarkt Brauerei Kaufhaus Apotheke Agentur Zeitung Zeitschrift Magazin
    Sender Fernsehsender Partei Gewerkschaft Holding Tochtergesellschaft Muttergesellschaft
    Gesellschaft Schwestergesellschaft Arbeitgeber Arbeitgebers Auftraggeberin Auftraggeber
    Bauunternehmen Unternehmerin Anbieterin Anbieter Herstellerin Hersteller Betreiberin
    Betreiber Händler Händlerin Lieferantin Lieferant Versicherer Vermieterin Investor
    Fonds Fondsgesellschaft Treuhänderin Emittentin Insolvenzschuldnerin Schuldnerin
    Komplementärin Kommanditistin Gesellschafterin Organgesellschaft Organträgerin BgA
    Firmen Unternehmen Gesellschaften Banken VEB LPG Kombinat Genossenschaft Organisation
    Labor Labors Labore MVZ Institut Instituts Institutes
    Vereinigung Verband Verbandes""".split()
)
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
LOCATION_CUES: frozenset[str] = frozenset(
    """Stadt Stadtgebiet Gemeinde Gemeindegebiet Markt Marktgemeinde Ortsteil Ortschaft Ort Dorf
    Landkreis Landkreises Kreis Kreises Bezirk Bezirks Stadtteil Gemarkung Gemarkungen Flur
    Landratsamt Landratsamts Landratsamtes Amtsgericht Amtsgerichts Landgericht Landgerichts
    Finanzamt Finanzamts Finanzamtes Jobcenter Jobcenters Justizvollzugsanstalt JVA Universität
    Hochschule Fachhochschule Kreiskrankenhaus Kreiskrankenhauses Kreiskrankenhäuser Klinikum
    Bezirksklinikum Bahnhof Hauptbahnhof Flughafen Hafen Regierung Polizeiinspektion
    Polizeipräsidium Polizeidirektion Ausländerbehörde Landeshauptstadt Region Kanton Provinz
    Gebiet Anschlussstelle Autobahnausfahrt Ausfahrt Standort Standortes Standorts Kaserne
    Fliegerhorst Stadtwerke Stadtverwaltung Gemeindeverwaltung Verwaltungsgemeinschaft
    Wasserwirtschaftsamt Bauamt Schulamt Staatliches Straßenbauamt Vermessungsamt
    Grundbuchamt Standesamt Gesundheitsamt Veterinäramt Jugendamt Sozialamt Ordnungsamt
    Zollamt Hauptzollamt Arbeitsagentur Agentur Schule Grundschule Mittelschule Realschule
    Gymnasium Berufsschule Kindergarten Kita Landeshauptstadt Großstadt Kreisstadt Heimatort
    Herkunftsort Heimatstadt Geburtsort Wohnsitz Gemeinden Städte Stadtrat Bürgermeister
    Land Staat Bundesland Adresse Anschrift In Aus Nach Generalkonsulat Konsulat Botschaft
    Staatsanwaltschaft Generalstaatsanwaltschaft Bezirksregierung Kreisverwaltung
    AG LG OLG VG OVG VGH SG LSG FG ArbG LAG KG""".split()
)

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
STREET_WORD = re.compile(
    r"(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm|ufer|steig|pfad|chaussee|"
    r"promenade|anger|stieg|kamp|rampe)$",
    re.IGNORECASE,
)

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
