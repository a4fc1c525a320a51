"""Frozen cue words of the model's word shapes (:func:`deid.words.shapes.word_shape`).

A capitalized word that names a role ("Zeuge", "Klägerin"), an organization ("Firma") or a
place or institution ("Landratsamt") gets the shape ``SHAPE_ROLE``; the shape is a model input
feature, so a saved model was trained on exactly these lists. They are frozen: editing one
silently changes the input of every saved model (``tests/code/test_feature_golden.py`` fails).
The placeholder miner starts its own cue lists from these (:mod:`deid.rewrite.placeholders.cues`)
and extends them there; a new feature set that needs other words gets new lists here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

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
PERSON_ROLES: Mapping[str, str | None] = MappingProxyType(_PERSON_ROLE_STEMS)

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

# --- organizations and places -------------------------------------------------------
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


def is_role(word: str) -> bool:
    """A person role noun or an inflection or compound of one ("Zeuge", "Berufungsklägerin")."""
    return word in PERSON_ROLES or bool(PERSON_ROLE_STEM.search(word))
