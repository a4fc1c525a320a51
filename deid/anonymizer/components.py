"""The registered components of the analyzer (deid.anonymizer.chain), in the order of the
default chain: the model → rule recognizers merged into its spans → keep zones → span
filters → document-level consistency.

Version 1 of every component is the behaviour of the fixed sequence it replaced
(``Pipeline.finish`` with ``PolicyConfig``'s flags), so a ``pipeline.json`` saved before the
chain maps onto it (:func:`legacy_chain`) and gives the same spans. Change a component's
behaviour or a default of its config: register a new version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deid.anonymizer.chain import Chain, ChainContext, Step, StepConfig, register, step
from deid.anonymizer.consistency import propagate
from deid.anonymizer.extent import extend_names
from deid.anonymizer.ner import InferenceConfig
from deid.anonymizer.policy import (
    KeepZonesConfig,
    PolicyConfig,
    _attached,
    _lowercase_model_word,
    _no_name_shape,
    common_noun,
    in_keep_zone,
    keep_zones,
    lone_compound,
    nouns_by_grammar,
    participle_at_sentence_start,
    public_word,
    unsure,
)
from deid.anonymizer.profiles import DEFAULT_PROFILE, FEDERAL, apply_profile, check_profile
from deid.anonymizer.recognizers import analyze_all, build_recognizers
from deid.anonymizer.recognizers.license_plate import LicensePlateRecognizer
from deid.schema import (
    FINE_TO_COARSE,
    JUDGE,
    LOCATION,
    MODEL_SOURCE,
    MONEY,
    ORGANIZATION,
    OTHER,
    PERSON,
    SEAT,
    Span,
    merge_spans,
)
from deid.words.animals import animal_mentions
from deid.words.firms import extend_firms
from deid.words.gazetteer import cities, ends_in_surname_head
from deid.words.idioms import in_idiom
from deid.words.lexicon import LEX_UNKNOWN, lexical_class
from deid.words.numbers import in_quantity, label_word_before_number
from deid.words.ordinary import is_frequent_word, is_listed_name, is_plain_first_name
from deid.words.public_figures import public_figures
from deid.words.regions import is_government_district, is_region
from deid.words.roles import after_person_role, name_ends, placed
from deid.words.vehicles import is_make_and_model, product_phrases, vehicle_phrases
from deid.words.vocab import CAPITALIZED_WORD, POLICE_RANK, ROAD_CLASSES
from deid.words.written import at_sentence_start, introduced_terms, lowercase_elsewhere

MODEL = "model"
RECOGNIZERS = "recognizers"
KEEP_ZONES = "keep_zones"
KEEP_LABELS = "keep_labels"
PUBLIC_WORDS = "public_words"
COMMON_NOUNS = "common_nouns"
PLAIN_COMPOUNDS = "plain_compounds"
LOWERCASE = "lowercase"
NO_NAME_SHAPE = "no_name_shape"
POLICY = "policy"
CONSISTENCY = "consistency"
LEGAL_FORM = "legal_form"
EXTENT = "extent"
REGIONS = "regions"
FREQUENT_WORDS = "frequent_words"
VEHICLES = "vehicles"
ANIMALS = "animals"
PUBLIC_FIGURES = "public_figures"
TERMS = "terms"
UNSURE_MIN_SCORE = 0.95  # a model span that is an ordinary word is kept only this sure


def _is_attached(text: str, span: Span, context: ChainContext) -> bool:
    """Whether ``span`` touched another span when the filters began (computed once)."""
    if context.attached is None:
        spans = list(context.candidates)
        context.attached = frozenset((spans[i].start, spans[i].end) for i in _attached(text, spans))
    return (span.start, span.end) in context.attached


# --- detection -----------------------------------------------------------------------------


# federal neutralizes a model span only this sure (model@4). Chosen on the dev halves
# (docs/results.md, thirty-first session): the highest of 0.5, 0.6 … 0.9 at which the LER and
# made-up-name dev halves lost at most 0.005 recall and no leak-free document (0.7: precision
# 0.840 -> 0.858 and 0.827 -> 0.851; 0.8 lost 0.007 recall). strict keeps the calibrated
# threshold: when in doubt, neutralize (at 0.6 already 7 of 466 from-scratch dev decisions
# more leaked a name).
FEDERAL_MIN_THRESHOLD = 0.7


@dataclass(frozen=True)
class InferenceConfigV4(InferenceConfig):
    """``model@4``'s settings: ``model@3``'s, and per profile a threshold of its own where it
    is higher than ``threshold`` (a ``--threshold`` or the training's calibration moves
    ``threshold``; a profile's own applies where it is higher)."""

    profile_thresholds: Mapping[str, float] = field(default_factory=lambda: {FEDERAL: FEDERAL_MIN_THRESHOLD})

    def __post_init__(self) -> None:
        for profile, threshold in self.profile_thresholds.items():
            check_profile(profile)
            if not 0.0 < float(threshold) <= 1.0:
                raise ValueError(f"model: profile_thresholds[{profile!r}] must lie in (0, 1], got {threshold}")

    def threshold_for(self, profile: str | None) -> float:
        """The profile's own threshold where it has a higher one, else ``threshold``."""
        own = self.profile_thresholds.get(profile, 0.0) if profile is not None else 0.0
        return max(self.threshold, float(own))


@dataclass(frozen=True)
class InferenceConfigV2(InferenceConfig):
    """``model@2``'s settings: bf16 on a CPU runs the fp32 weights under autocast, as every
    pipeline gated before version 3 did (a saved ``model@2`` step runs as it was evaluated)."""

    bf16_weights: bool = False


@dataclass(frozen=True)
class InferenceConfigV1(InferenceConfigV2):
    """``model@1``'s settings: fp32, the precision every pipeline gated before version 2
    ran in on the CPU."""

    precision: str = "fp32"


def _model_step(cfg: InferenceConfig) -> Step:
    """Never run per document: the pipeline runs the model over all texts of a call before
    the other steps (``Pipeline.model_spans``, batched windows), and the chain starts from
    its spans. Registered so that the inference code and its settings carry a version that
    ``pipeline.json`` and the registered model record (change the windowing or decoding of
    ``TokenClassifier``: register a new version)."""

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return spans

    return run


register(MODEL, 1, InferenceConfigV1, batched=True,
         description="the token classifier (deid.anonymizer.ner): overlapping windows, the most central "
                     "window's prediction per token, a score threshold, spans widened to whole words; "
                     "fp32")(_model_step)  # fmt: skip
register(MODEL, 2, InferenceConfigV2, batched=True,
         description="model@1 with the precision chosen by hardware (deid.anonymizer.precision): bf16 on "
                     "a CPU with bf16 matrix units, fp32 on any other")(_model_step)  # fmt: skip
register(MODEL, 3, InferenceConfig, batched=True,
         description="model@2, bf16 on a CPU running a copy of the model cast to bf16 once instead of "
                     "fp32 weights under autocast")(_model_step)  # fmt: skip
register(MODEL, 4, InferenceConfigV4, batched=True,
         description="model@3, and a profile's own threshold where it is higher: federal neutralizes a "
                     "model span only at 0.7 (strict: the calibrated threshold, when in doubt "
                     "neutralize)")(_model_step)  # fmt: skip


@dataclass(frozen=True)
class RecognizersConfig:
    """``deid.anonymizer.recognizers.build_recognizers``'s settings: a score floor for all and per
    registered recognizer ``{enabled, min_score}`` (or ``false``)."""

    min_score: float = 0.5
    recognizers: Mapping[str, Any] = field(default_factory=dict)


def _recognizers_step(version: int) -> Callable[[RecognizersConfig], Step]:
    """The factory of the recognizers step whose default set is ``version``'s
    (deid.anonymizer.recognizers.RECOGNIZER_SETS)."""

    def factory(cfg: RecognizersConfig) -> Step:
        settings = {"min_score": cfg.min_score, "recognizers": dict(cfg.recognizers)}
        built = build_recognizers(settings, version)

        def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
            return merge_spans(spans, analyze_all(text, built) if built else [])

        return run

    return factory


register(RECOGNIZERS, 1, RecognizersConfig,
         description="rule recognizers (IBAN, phone, dates of birth …), merged into the model's spans",
         )(_recognizers_step(1))  # fmt: skip
register(RECOGNIZERS, 2, RecognizersConfig,
         description="recognizers@1 with the numbers of a party's rights in suit (patent, utility model, "
                     "trademark), commercial-register numbers, and permit and contract labels version 1 "
                     "missed (permit_number.v2, contract_number.v2)")(_recognizers_step(2))  # fmt: skip
register(RECOGNIZERS, 3, RecognizersConfig,
         description="recognizers@2 with contract_number.v3: a number's owner before the colon "
                     "('Personalnummer der Klägerin: …'), police diary numbers ('Tagebuchnummer'); and "
                     "street_address.v2: 'Hauptstraße 12' is an address")(_recognizers_step(3))  # fmt: skip
register(RECOGNIZERS, 4, RecognizersConfig,
         description="recognizers@3 with street_address.v3 ('Am Kirchplatz 4', 'Gewerbepark Ost 12'), "
                     "date_of_birth.v2 (a place of birth of several words: 'in Bacău (Rumänien) geboren'), "
                     "contract_number.v4 (invoice, guarantee and notarial deed numbers), local_bank.v1 "
                     "('Sparkasse Deggendorf', 'Raiffeisenbank Freising-Nord eG') and firm_name.v1 (a firm's "
                     "name before its legal form: 'Gruber Hoch- und Tiefbau GmbH & Co. KG') and street_name.v1 (a "
                     "street without its number: 'in der Lindenstraße')")(_recognizers_step(4))  # fmt: skip
register(RECOGNIZERS, 5, RecognizersConfig,
         description="recognizers@4 with street_address.v4 (a street named with a preposition and a common "
                     "field or landmark word, or any word where an address is written: 'Am Mühlbach 3', "
                     "'An der Leiten 12') and permit_number.v3 (an identity document's or licence's number "
                     "with 'Nr.' apart: 'Personalausweis Nr. …', 'Fahrerlaubnis Nr. …'; chip, tender and AZR "
                     "numbers), brand_name.v1 and venue_name.v1 (a mark's, product's or venue's name in quotes "
                     "after the word that names it: 'die Marke „Bergkristall“', 'die Shisha-Bar „Orient "
                     "Lounge“')")(_recognizers_step(5))  # fmt: skip
register(RECOGNIZERS, 6, RecognizersConfig,
         description="recognizers@5 with street_name.v2: 'Hauptstraße', 'Waldstraße', 'Feldstraße' and "
                     "'Berliner Promenade' are streets, and so is a name begun by a preposition capitalized "
                     "in mid-sentence ('wohnt Am Hieb', 'die Straße Zur Vogelhecke'); contract_number.v5: "
                     "contribution, property and child benefit numbers, a pension or tax number by its label, "
                     "a number after 'lautet'; permit_number.v4: a decision's number after its date ('der "
                     "Bescheid vom 3. Mai 2022, Nr. …'), a fine office's file number")(_recognizers_step(6))  # fmt: skip
register(RECOGNIZERS, 7, RecognizersConfig,
         description="recognizers@6 with brand_name.v2: a product a party sells or a suit attacks, named in "
                     "quotes ('die angegriffene Ausführungsform „AquaDos 300“', 'vertreibt unter der "
                     "Bezeichnung „AquaDos 300“ Dosierpumpen'); date_of_death.v1 and marriage_date.v1: a date "
                     "of death or marriage by its cue words ('verstarb am 19.10.2022', 'heirateten am …'); firm_name.v2: "
                     "a one-word name no lexicon lists before a legal form ('die Mannsdörfer GbR')")(_recognizers_step(7))  # fmt: skip
register(RECOGNIZERS, 8, RecognizersConfig,
         description="recognizers@7 with local_bank.v2: a savings or cooperative bank named by its district "
                     "('Sparkasse Berchtesgadener Land'); street_name.v3: no kind of road of two kind words "
                     "('Gemeindeverbindungsstraße') and no 'Anbaustraße'; business_name.v1: a small business by its "
                     "kind and owner ('des Vermessungsbüros Hausladen', 'die Metzgerei Pichlmaier'); officer_name.v1: a "
                     "police officer's name after the rank ('der Zeuge PHM Gerstl'); street_address.v5: a street whose "
                     "name begins with an abbreviated title ('St.-Martin-Str. 18', 'Bgm.-Schmid-Str. 4')")(_recognizers_step(8))  # fmt: skip
register(RECOGNIZERS, 9, RecognizersConfig,
         description="recognizers@8 with contract_number.v6: a patient's or case's number ('Patientennummer "
                     "PN-0042197', 'Fallnummer …') and an identification number by its plain label ('steuerliche "
                     "Identifikationsnummer lautet …'); iban.v2: a German IBAN after its label whatever its "
                     "check digits; handle.v1: a user name on a platform ('unter dem Nutzernamen "
                     "„laaber_deals94“'); clinic_name.v1: a clinic's name after its kind word ('im RoMed Klinikum "
                     "Wasserburg', 'Krankenhaus Mühldorf'); date_of_death.v2: a date the verb 'verstarb' follows "
                     "('Am 14.01.2023 verstarb …'); mastr_number.v1: a power plant's number in the "
                     "Marktstammdatenregister ('SEE937104528813')")(_recognizers_step(9))  # fmt: skip
register(RECOGNIZERS, 10, RecognizersConfig,
         description="recognizers@9 with contract_number.v7: a farm's, register's, device's or ear tag's number "
                     "('Betriebsnummer …', 'IMEI …', 'UELN …', 'Ohrmarke DE 09 372 45118') and each number of a list after "
                     "a label in the plural; iban.v3: any country's IBAN after its label whatever its check "
                     "digits; street_address.v6: a farmstead's name and number after 'Hofstelle'; place_name.v1: "
                     "a village's or district's name after 'im Ortsteil', 'der Gemarkung', a town abroad before "
                     "its country in brackets ('in Side (Türkei)'); kin_name.v1: a relative's first name after the "
                     "kinship ('ihre Kinder Jonas und Emilia'); venue_name.v2: an initiative's, association's or "
                     "chat group's name in quotes ('die Bürgerinitiative „Lebenswertes Isartal“') or the name a business "
                     "trades under ('unter der Bezeichnung „…“ tätig'); clinic_name.v2: a medical care "
                     "centre's, surgery or animal clinic's name ('im MVZ am Regenbogen', 'Pferdeklinik Dr. Rauscher'); "
                     "business_name.v2: a kindergarten's or travel agency's name ('den Kindergarten St. Josef'), a village club's "
                     "name with its town ('des Schützenvereins Edelweiß Gangkofen'); handle.v2: a "
                     "handle after a seller's or platform's account word ('das Verkäuferkonto „…“'); role_name.v1: a "
                     "full name after a noun naming the person ('des Versicherungsvertreters Günther "
                     "Kronschnabl'); brand_name.v3: a product in quotes before the verb of selling ('unter der Bezeichnung "
                     "„…“ anzubieten')")(_recognizers_step(10))  # fmt: skip
register(RECOGNIZERS, 11, RecognizersConfig,
         description="recognizers@10 with permit_number.v5: a permit's number after a compound naming the permit "
                     "('Sondernutzungserlaubnis Nr. SN-2021-038') and an authority's file number of digit groups "
                     "after 'Az.' ('Bescheid vom 6. Juni 2023 (Az. 5 23 118 904 7)'); handle.v3: a handle's shape in "
                     "quotes after 'unter dem Namen' ('unter dem Namen „passauboy89“'); contract_number.v8: a laboratory's, "
                     "examination's, ticket's or report's number ('Untersuchungsnummer T-23-04418', 'Störungsmeldung Nr. "
                     "ST-2024-0113', 'Objektnummer WW-CH-2211'); clinic_name.v3: a clinic of any speciality and an institute by its "
                     "head's name ('der Schmerzklinik am Lusen', 'Institut für Verkehrspsychologie Dr. Moosleitner', "
                     "'Rheumaklinik Bad Abbach'); firm_name.v3: a mutual insurer's and a foreign firm's legal form ('… VVaG', "
                     "'… UAB', '… s.r.o.'), an inspection body public ('TÜV SÜD …'); business_name.v3: a sports club "
                     "by its abbreviation and its town ('des SV Hebertsfelden')")(_recognizers_step(11))  # fmt: skip
register(RECOGNIZERS, 12, RecognizersConfig,
         description="recognizers@11 with ip_address.v1: an IPv4 address ('über die IP-Adresse 84.153.27.196'); "
                     "firm_name.v4: a firm's name of two or more everyday nouns before its legal form ('der Funkturm "
                     "Süd Infrastruktur GmbH'); street_address.v7: a business park's number before a postal code "
                     "('Gewerbepark 11, 94474 …'), 'Am …' with its number after the town ('in Osterhofen, Am "
                     "Schlosspark 12'); business_name.v4: a riding or tennis club's abbreviation, a rifle club's "
                     "kind, a club's town the list lacks ('des RFV Aholming'); venue_name.v3: a band's, a food "
                     "truck's or a market stand's name in quotes ('der Blaskapelle „Ilztaler Musikanten“'); "
                     "contract_number.v9: a certificate's and a tenant's number ('Standortbescheinigungsnummer "
                     "720381', 'Mieternummer …')")(_recognizers_step(12))  # fmt: skip
register(RECOGNIZERS, 13, RecognizersConfig,
         description="recognizers@12 with street_address.v8: a business ring's compass or name word before its "
                     "number ('Gewerbering Nord 14'); ip_address.v2: the cue 'IP' only as a word of its own "
                     "('ZIP-Datei' is none)")(_recognizers_step(13))  # fmt: skip
register(RECOGNIZERS, 14, RecognizersConfig,
         description="recognizers@13 with contract_number.v10: an account's number after a compound of '-konto' "
                     "alone ('Darlehenskonto 7700 418 263')")(_recognizers_step(14))  # fmt: skip
register(RECOGNIZERS, 15, RecognizersConfig,
         description="recognizers@14 with brand_name.v4: a product in quotes after 'angegriffene' and any noun "
                     "('Das angegriffene Scharnier „FlexiMove 2“')")(_recognizers_step(15))  # fmt: skip
register(RECOGNIZERS, 16, RecognizersConfig,
         description="recognizers@15 with permit_number.v6: a file number of letters and digits without an "
                     "authority word near ('ab (Az. UV-2022-018374-RB)'), a last group after an office's letters "
                     "('Az. III/32-Kr 118'), a letter's sign after its date ('Schreiben vom 2. Mai 2023, Zeichen "
                     "…'), a certificate's number in brackets or some words after it ('Sein Jagdschein (Nr. "
                     "97/1994)'); street_name.v4: the second street of a corner after a slash ('Ecke "
                     "Kirchgasse/Rathausplatz'); role_name.v2: a name after a hyphenated noun naming the person ('dem "
                     "Kfz-Händler Ahmet Kaya')")(_recognizers_step(16))  # fmt: skip
register(RECOGNIZERS, 17, RecognizersConfig,
         description="recognizers@16 with brand_name.v5: a word with a capital inside in quotes is a made-up "
                     "product's name ('die Herdenverwaltung „HerdPilot 4“'), not a platform's ('„WhatsApp“'); "
                     "license_plate.v2: a plate after a lorry's, tractor's or camper van's word ('mit dem "
                     "Sattelzug PAN-OL 218'); venue_name.v4: a business traded under a name as a studio, salon, "
                     "practice or kiosk ('unter der Bezeichnung „Lichtmoment Fotografie“ ein Fotostudio')"
                     )(_recognizers_step(17))  # fmt: skip
register(RECOGNIZERS, 18, RecognizersConfig,
         description="recognizers@17 with permit_number.v7: a file number after a compound of '-aktenzeichen' "
                     "('Unfallaktenzeichen 2022 118 640 7'), an insurer's or fund's word as an authority's; "
                     "clinic_name.v4: no clinic's name where a big city alone follows the kind word ('am Klinikum "
                     "Passau'), a kind compounded with a region's name part of the name ('Frankenklinik Bad "
                     "Kissingen'); venue_name.v5: a pharmacy's name in quotes ('mit der Apotheke „Am Rathaus“'); "
                     "street_name.v5: a street of a weak word in the genitive after a road's part ('der Einmündung "
                     "des Kapellenwegs')")(_recognizers_step(18))  # fmt: skip
register(RECOGNIZERS, 19, RecognizersConfig,
         description="recognizers@18 with place_name.v2: a town of the list after a word of direction ('auf der "
                     "Terrasse der Mittelbergalpe oberhalb von Oberstaufen'; no big city, no ordinary or frequent "
                     "word), an alpine pasture's or hut's name by its word ('der Mittelbergalpe'); street_name.v6: "
                     "both streets of a corner where one is named by an adjective and a field word ('Kreuzung "
                     "Unterer Markt / Oberer Graben'); role_name.v3: the name in apposition after the noun and "
                     "whose it is ('Der Marktmeister der Stadt, Hans Wagner, hat …')")(_recognizers_step(19))  # fmt: skip
register(RECOGNIZERS, 20, RecognizersConfig,
         description="recognizers@19 with street_name.v7: a hyphenated street with an abbreviated title or a "
                     "lowercase particle ('Graf-von-Stauffenberg-Weg', 'Bürgermeister-Dr.-Hauser-Straße'); "
                     "street_address.v9: the same with its number, 'Am'/'Im' … with a declined adjective ('Im "
                     "Oberen Feld 4'), a range's last number after 'bis' ('Am Kapellenfeld 2 bis 8'), a hamlet's "
                     "address in quotes after an address word ('das Anwesen „Tintengraben 11“') or in brackets "
                     "after a plot's district ('der Gemarkung Ast (Hammerschlag 37)'), a hamlet's further house numbers "
                     "('zu den Anwesen Oberreit 1, 2 und 4'); contract_number.v11: a number whose letters have an "
                     "umlaut ('Vorgangs-Nr. VPI-MÜ-2023-004187'); permit_number.v8: the further numbers of the same "
                     "shape listed after a labelled one ('Waffenbesitzkarten Nr. 44/2011 und 12/2016')")(_recognizers_step(20))  # fmt: skip
register(RECOGNIZERS, 21, RecognizersConfig,
         description="recognizers@20 with contract_number.v12: a policy's number after 'Versicherungsschein', "
                     "'Police' or 'Vers.-Nr.' ('zum Versicherungsschein 77.410.298-3'), a delivery note's after "
                     "'Lieferschein', a report's by 'Nr.' after it ('Prüfbericht Nr. BA-2212-0386'), a meter's point of delivery "
                     "after its label or by its shape ('Zählpunktnummer DE…'); brand_name.v6: a mark after its "
                     "register number without 'Nr.' ('Wortmarke 30 2014 052 318 „Kellerfürst“'); "
                     "business_name.v5: an inn's name after 'Zum', 'Zur', 'Beim' ('der Gasthof Zum "
                     "Kirchenwirt'); handle.v4: an '@' name with a dot or an underscore inside, no platform "
                     "near ('@sophia.ertl.wanderlust'); marriage_date.v2: the date before the verb ('haben am "
                     "18.06.2014 geheiratet')")(_recognizers_step(21))  # fmt: skip
register(RECOGNIZERS, 22, RecognizersConfig,
         description="recognizers@21 with contract_number.v13: a number of letters, a year and a serial by its "
                     "shape alone ('Rechnungen Nr. SV-21-3317', 'Befund-Nr. BA-23-11842'), a Bavarian police "
                     "case's number ('im Vorgang BY5410-027718-23/4'), a loan's after 'Darlehen Nr.'; "
                     "brand_name.v7: a product's name in quotes after its type or model ('einen Melkroboter des "
                     "Typs „Lactomat VX 2“', 'das Programm „Glanzwerk Premium“'); firm_name.v5: a mutual "
                     "insurer's form written 'VaG' ('bei der Oberpfälzer Landversicherung VaG')")(_recognizers_step(22))  # fmt: skip
register(RECOGNIZERS, 23, RecognizersConfig,
         description="recognizers@22 with seat_name.v1: a town of the list right after an authority's word (not a "
                     "court's), as a seat the profile decides on ('Agentur für Arbeit Weilheim', 'Landratsamt "
                     "Regen')")(_recognizers_step(23))  # fmt: skip


# --- keep zones and span filters: each drops model spans; all judge neighbours on the
# spans as they entered the first of them (ChainContext.candidates) ------------------------


def _court_seat(span: Span, version: int) -> bool:
    """A seat the keep zones leave to the profile, as a court's (keep_zones@14: the model's only)."""
    return span.label == SEAT and (version < 14 or span.source == MODEL_SOURCE)


def _keep_zones_step(version: int) -> Callable[[KeepZonesConfig], Step]:
    """The factory of the keep-zones step ``version`` (deid.anonymizer.policy.keep_zones)."""

    def factory(cfg: KeepZonesConfig) -> Step:
        def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
            context.zones = zones = keep_zones(text, cfg, version)
            starts = [z.start for z in zones]
            # a seat inside a court's name is the profile's to judge (the policy step): no
            # span had that label before the model learnt roles, so every pipeline gated
            # with versions 1 and 2 gives the spans it gave. From version 4 on, a "seat" in a
            # judge's zone is the judge's name ("Richterin am Arbeitsgericht Obermaier"). From
            # version 14 on, only the model's seats: the seat recognizer reads an authority's
            # seat, never a court's, and a zone that holds one (a European case's name) keeps it
            judges = [z for z in zones if z.label == JUDGE] if version >= 4 else []
            judge_starts = [z.start for z in judges]
            return [
                s for s in spans
                if not (in_keep_zone(judges, judge_starts, s) if _court_seat(s, version)
                        else in_keep_zone(zones, starts, s))
            ]  # fmt: skip

        return run

    return factory


register(KEEP_ZONES, 1, KeepZonesConfig, filter=True,
         description="courts, judges, laws, citations, states kept public")(_keep_zones_step(1))  # fmt: skip
register(KEEP_ZONES, 2, KeepZonesConfig, filter=True,
         description="courts, judges, laws, citations, states kept public; signature lines with a "
                     "first-name initial or the judge's office")(_keep_zones_step(2))  # fmt: skip
register(KEEP_ZONES, 3, KeepZonesConfig, filter=True,
         description="keep_zones@2 with the judges of every layout of the bundled decisions (deid.anonymizer."
                     "judges: rubrum benches, criminal participants' lists, signature blocks anywhere with "
                     "office lines and notes, titled judges in the text); a DPMA number after 'Aktenzeichen' "
                     "is no court's case number")(_keep_zones_step(3))  # fmt: skip
register(KEEP_ZONES, 4, KeepZonesConfig, filter=True,
         description="keep_zones@3; an authority's one-token file number after 'Az.' is no court's case "
                     "number, the Bavarian courts' numbers ('M 26b K 19.1234') are, an author before 'aaO' "
                     "or a journal written out is literature, a seat in a judge's zone is the judge's "
                     "name")(_keep_zones_step(4))  # fmt: skip
register(KEEP_ZONES, 5, KeepZonesConfig, filter=True,
         description="keep_zones@4; the Bundeswehr's regulations ('ZDv A-1340/50', 'Erlass A-1340/49') are "
                     "laws, the parties of a European court's case ('C-17/10, Toshiba Corporation u. a.', "
                     "'Kafkaris/Zypern') a citation")(_keep_zones_step(5))  # fmt: skip
register(KEEP_ZONES, 6, KeepZonesConfig, filter=True,
         description="keep_zones@5; 'AG'/'KG' after a firm's name before 'in' and a town is the firm's legal "
                     "form, no court ('Huber Transporte KG in Iphofen')")(_keep_zones_step(6))  # fmt: skip
register(KEEP_ZONES, 7, KeepZonesConfig, filter=True,
         description="keep_zones@6; an authority's file number after 'Az.'/'Aktenzeichen' and before its "
                     "office's name is no court's ('Aktenzeichen 8.2-1234567 der Zentralen "
                     "Bußgeldstelle')")(_keep_zones_step(7))  # fmt: skip
register(KEEP_ZONES, 8, KeepZonesConfig, filter=True,
         description="keep_zones@7; an office's capitals before a number joined by hyphens or dots after "
                     "'Az.' are an authority's file number, no court ('Az. SG 32-1431.2/22-187'); a signature's "
                     "office line may name the judge's role ('Richter am Landgericht als "
                     "Einzelrichter'); no case number across a line break ('1\\nAm 14.01…': a margin number "
                     "and a date)")(_keep_zones_step(8))  # fmt: skip
register(KEEP_ZONES, 9, KeepZonesConfig, filter=True,
         description="keep_zones@8; a university or university of applied sciences named by its seat (a town of "
                     "the list, no name before it) is a public body ('der Technischen Hochschule Rosenheim'); a number after 'Az. des' and an office that is no court is "
                     "the authority's ('Az. des Bundesamts 8912447-423'); a journal's letters after a hyphen are a licence "
                     "plate's, no citation ('Kennzeichen R-BB 2211')")(_keep_zones_step(9))  # fmt: skip
register(KEEP_ZONES, 10, KeepZonesConfig, filter=True,
         description="keep_zones@9; a sole judge's name alone on the line closing the decision, right after its "
                     "last sentence ('… § 465 Abs. 1 StPO.' and 'Seidl')")(_keep_zones_step(10))  # fmt: skip
register(KEEP_ZONES, 11, KeepZonesConfig, filter=True,
         description="keep_zones@10; a Bavarian decision's keywords and chains of norms, the editors' header "
                     "lines ('Schlagworte: Biber, Artenschutz, Dammbau')")(_keep_zones_step(11))  # fmt: skip
register(KEEP_ZONES, 12, KeepZonesConfig, filter=True,
         description="keep_zones@11; the Bundeswehr's central orders are laws too ('Nr. 203 bis 206 ZE B- 1300/46', "
                     "'Zentralerlass B-2640/8'), and a source cited in brackets with a title, a year and a page is "
                     "literature ('(vgl. Danish Immigration Service, Security and human rights …, Januar 2015, "
                     "S. 85)'), never one a role word, a doctor's title or a legal form names")(_keep_zones_step(12))  # fmt: skip
register(KEEP_ZONES, 13, KeepZonesConfig, filter=True,
         description="keep_zones@12; a number after 'Az.' that an authority's act and its date name is the "
                     "authority's file number, however much it looks like a court's ('Widerspruchsbescheid vom 11. "
                     "Juli 2023 (Az. W 1422/23)', 'Schreiben vom 12.01.2023 (Az. BV 17/2022)'), not a "
                     "'Gerichtsbescheid'")(_keep_zones_step(13))  # fmt: skip
register(KEEP_ZONES, 14, KeepZonesConfig, filter=True,
         description="keep_zones@13; a European case's name in brackets after its number is a citation ('C-677/16 "
                     "– [Montero Mateos]'), and a seat the recognizers found (an authority's) is judged by every "
                     "zone; only the model's seats are left to the profile as a court's; a fee schedule's "
                     "positions are law ('Nr. 3100 VV RVG', 'Nr. 9010 GOZ')")(_keep_zones_step(14))  # fmt: skip


@dataclass(frozen=True)
class KeepLabelsConfig:
    labels: tuple[str, ...] = ()  # e.g. ("MONEY",): amounts are public


@register(KEEP_LABELS, 1, KeepLabelsConfig, filter=True, description="labels kept public")
def keep_labels_v1(cfg: KeepLabelsConfig) -> Step:
    labels = frozenset(cfg.labels)

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if s.label not in labels]

    return run


@dataclass(frozen=True)
class UnsureWordConfig:
    min_score: float = UNSURE_MIN_SCORE  # the model's score that keeps the word anyway; 0: off


def _unsure_word_filter(is_word: Callable[[str, Span], bool]) -> Callable[[UnsureWordConfig], Step]:
    """The factory of a filter dropping model spans below ``min_score`` that ``is_word``."""

    def factory(cfg: UnsureWordConfig) -> Step:
        def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
            return [s for s in spans if not (unsure(s, cfg.min_score) and is_word(text, s))]

        return run

    return factory


register(PUBLIC_WORDS, 1, UnsureWordConfig, filter=True,
         description="unsure model spans that are a word the training decisions print in clear",
         )(_unsure_word_filter(public_word))  # fmt: skip
register(COMMON_NOUNS, 1, UnsureWordConfig, filter=True,
         description="unsure model spans that are a lexicon noun")(_unsure_word_filter(common_noun))  # fmt: skip


_PLACE_LABELS = frozenset({LOCATION, SEAT})


@register(COMMON_NOUNS, 2, UnsureWordConfig, filter=True,
          description="common_nouns@1, but a place where the text names one stays: after 'wohnhaft in', "
                      "'mit Sitz in', 'Gemarkung', an authority's word, or 'in' after a person's or firm's "
                      "name ('wohnt in Stephanskirchen', 'Notarin … in Laufen'; deid.words.roles.placed)")  # fmt: skip
def common_nouns_v2(cfg: UnsureWordConfig) -> Step:
    return _common_nouns(cfg, after_aus=False)


def _common_nouns(cfg: UnsureWordConfig, after_aus: bool, grammar: bool = False, first_name: bool = False) -> Step:
    """common_nouns@2's filter; ``after_aus``: version 3's town of the list after "aus" too;
    ``grammar``: version 4's noun by its grammar, however sure the model is; ``first_name``:
    version 5's person right after a first name stays."""

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        ends = name_ends(context.candidates)  # once per document: a large one has many spans
        nouns = nouns_by_grammar(text, spans) if grammar else [False] * len(spans)
        return [
            s for s, noun in zip(spans, nouns)
            if (first_name and _after_first_name(text, s))
            or ((not (unsure(s, cfg.min_score) and common_noun(text, s))
                 or (s.label in _PLACE_LABELS and (placed(text, s, ends) or (after_aus and _town_after_aus(text, s)))))
                and not noun)
        ]  # fmt: skip

    return run


# version 3: a town of the list right after "aus" ("ein Händler aus Bogen", "die Zeugin … aus
# Moos"): the model read a place, and the preposition and the list agree. Not after "in" or
# "nach", where a verb's noun stands too ("in Laufen und Springen", "nach Laufen")
_AUS_BEFORE = re.compile(r"(?<!\w)aus\s$")


@register(COMMON_NOUNS, 3, UnsureWordConfig, filter=True,
          description="common_nouns@2, and a place the model found that is a town of the list right after "
                      "'aus' stays ('ein Händler aus Bogen, die …')")  # fmt: skip
def common_nouns_v3(cfg: UnsureWordConfig) -> Step:
    return _common_nouns(cfg, after_aus=True)


@register(COMMON_NOUNS, 4, UnsureWordConfig, filter=True,
          description="common_nouns@3, and a one-word person span that Wiktionary lists as a noun too, where the "
                      "grammar makes it the noun, however sure the model is: after an indefinite article ('Kündigung "
                      "eines Brauers'), after 'als' with an employment's word ('als Brauer und Mälzer beschäftigt'), "
                      "after a subject and a copula at the sentence's end ('Der Kläger ist Jäger.')")  # fmt: skip
def common_nouns_v4(cfg: UnsureWordConfig) -> Step:
    return _common_nouns(cfg, after_aus=True, grammar=True)


# version 5: a surname that is a noun too, right after a first name ("und Katrin Weißgerber,
# wohnhaft …", where the model read "Weißgerber" alone): the first name makes it a name (the
# batches of the twenty-fourth session, written by others before the chain ran on them)
_FIRST_NAME_BEFORE = re.compile(r"(?<![\w\-.])([A-ZÄÖÜ][a-zäöüß]+)[ \u00a0]$")


def _after_first_name(text: str, span: Span) -> bool:
    m = _FIRST_NAME_BEFORE.search(text, max(0, span.start - 30), span.start)
    return span.label == PERSON and m is not None and is_plain_first_name(m.group(1))


@register(COMMON_NOUNS, 5, UnsureWordConfig, filter=True,
          description="common_nouns@4, but a person span right after a first name stays, noun or not "
                      "('Thomas Weißgerber und Katrin Weißgerber')")  # fmt: skip
def common_nouns_v5(cfg: UnsureWordConfig) -> Step:
    return _common_nouns(cfg, after_aus=True, grammar=True, first_name=True)


def _town_after_aus(text: str, span: Span) -> bool:
    return text[span.start : span.end] in cities() and _AUS_BEFORE.search(text, max(0, span.start - 6), span.start) is not None


@register(PLAIN_COMPOUNDS, 1, UnsureWordConfig, filter=True,
          description="unsure lone model spans that are a compound of ordinary words")  # fmt: skip
def plain_compounds_v1(cfg: UnsureWordConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [
            s for s in spans
            if not (unsure(s, cfg.min_score) and lone_compound(text, s, _is_attached(text, s, context)))
        ]  # fmt: skip

    return run


@dataclass(frozen=True)
class DoubtConfig(UnsureWordConfig):
    # the profiles that drop such a word; strict keeps it: when in doubt, neutralize
    # (docs/anonymization-policy.md)
    profiles: tuple[str, ...] = ("federal",)

    def __post_init__(self) -> None:
        for name in self.profiles:
            check_profile(name)


@dataclass(frozen=True)
class ProfilesConfig:
    """A filter's profiles alone, for a filter that judges any model span, sure or not."""

    # the profiles that drop such a word; strict keeps it: when in doubt, neutralize
    profiles: tuple[str, ...] = ("federal",)

    def __post_init__(self) -> None:
        for name in self.profiles:
            check_profile(name)


def _doubt_filter(cfg: DoubtConfig | ProfilesConfig, doubtful: Callable[[str, Span, ChainContext], bool]) -> Step:
    """A filter dropping the spans ``doubtful`` names, under ``cfg.profiles`` only."""

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        if (context.profile or DEFAULT_PROFILE) not in cfg.profiles:
            return spans
        return [s for s in spans if not doubtful(text, s, context)]

    return run


@register(PLAIN_COMPOUNDS, 2, DoubtConfig, filter=True,
          description="plain_compounds@1 under the federal profile only (strict: when in doubt, neutralize), "
                      "and a compound built like a surname stays: one ending in a surname that ends many "
                      "surnames of the list ('Trosthuber', 'Wolkenhammer'; deid.words.gazetteer.surname_heads), "
                      "or one after a person's role or title ('der Zeuge Schneedreher')")  # fmt: skip
def plain_compounds_v2(cfg: DoubtConfig) -> Step:
    return _doubt_filter(cfg, lambda text, s, context: (
        unsure(s, cfg.min_score) and lone_compound(text, s, _is_attached(text, s, context))
        and not ends_in_surname_head(text[s.start : s.end]) and not after_person_role(text, s)))  # fmt: skip


@dataclass(frozen=True)
class FrequentWordsConfig(DoubtConfig):
    # wordfreq's Zipf scale: 3 is a word met once in a million words of everyday text (de, en, nl)
    min_zipf: float = 2.0


# one plain word: capital, then small letters ("Scheitert", "Hogeschool"). Not a hyphenated one:
# wordfreq rates it by its parts, and a name joins names ("Landshut-Schönbrunn", "Sankt-Josef")
_ONE_WORD = re.compile(CAPITALIZED_WORD)
_NAME_OR_DETAIL_LABELS = frozenset({PERSON, LOCATION, ORGANIZATION, OTHER})


@register(FREQUENT_WORDS, 1, FrequentWordsConfig, filter=True,
          description="under the federal profile only (strict: when in doubt, neutralize), an unsure lone model "
                      "span of one word that everyday German, English or Dutch text uses often (wordfreq) and no "
                      "name list holds: a sentence's capitalized first word, a quoted foreign term ('Scheitert', "
                      "'80th Flying Training Wing', 'Hogeschool'); one after a person's role or title stays")  # fmt: skip
def frequent_words_v1(cfg: FrequentWordsConfig) -> Step:
    return _doubt_filter(cfg, lambda text, s, context: (
        unsure(s, cfg.min_score) and s.label in _NAME_OR_DETAIL_LABELS
        and _ONE_WORD.fullmatch(text, s.start, s.end) is not None
        and not _is_attached(text, s, context) and not after_person_role(text, s)
        and is_frequent_word(text[s.start : s.end], cfg.min_zipf)))  # fmt: skip


@dataclass(frozen=True)
class NoConfig:
    """A component without settings."""


# what a region may be mistaken for; a seat is the policy's to judge, a firm's name may hold a
# region ("Molkerei Oberbayern eG") that the legal-form step extends later
_REGION_LABELS = frozenset({PERSON, LOCATION, OTHER})


@register(REGIONS, 1, NoConfig, filter=True,
          description="spans the model read as a person, place or other detail that are a region "
                      "(deid.words.regions: Wiktionary's toponyms formed as a region's name, '-ien', '-stan', "
                      "'-land', '-gau', that no German place, surname or first name shares)")  # fmt: skip
def regions_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if s.label not in _REGION_LABELS or not is_region(text[s.start : s.end])]

    return run


def _region_v2(text: str, span: Span) -> bool:
    """A region (regions@1) or a Bavarian government district; read as an authority's seat,
    only the district: a Landkreis named like a region ("Landratsamt Unterallgäu") is a seat the
    policy judges, the Bezirk and the Regierung of "Oberbayern" are public bodies it keeps."""
    surface = text[span.start : span.end]
    if span.label == SEAT:
        return is_government_district(surface)
    return span.label in _REGION_LABELS and (is_region(surface) or is_government_district(surface))


@register(REGIONS, 2, NoConfig, filter=True,
          description="regions@1, also a Bavarian government district, whether the model read it as a place or "
                      "an authority's seat ('des Bezirks Oberbayern', 'die Regierung von Niederbayern')")  # fmt: skip
def regions_v2(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if not _region_v2(text, s)]

    return run


@register(LOWERCASE, 1, NoConfig, filter=True, description="model words in lowercase")
def lowercase_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if not _lowercase_model_word(text, s)]

    return run


@register(LOWERCASE, 2, NoConfig, filter=True,
          description="lowercase@1, and a present participle capitalized at a sentence's start ('Strafschärfend "
                      "wirkt, dass …'): a word in lowercase that no gazetteer holds as a name or place")  # fmt: skip
def lowercase_v2(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if not (_lowercase_model_word(text, s) or participle_at_sentence_start(text, s))]

    return run


_ONE_HYPHENATED_WORD = re.compile(rf"{CAPITALIZED_WORD}(?:-{CAPITALIZED_WORD})*")


def _lone_model_word(text: str, span: Span, context: ChainContext) -> bool:
    """A model span of one capitalized word (a hyphenated one too) that may be a name or a
    detail, no list holds as a name, and that no person's role or neighbour claims."""
    word = text[span.start : span.end]
    return (
        span.source == MODEL_SOURCE
        and span.label in _NAME_OR_DETAIL_LABELS
        and _ONE_HYPHENATED_WORD.fullmatch(word) is not None
        and not is_listed_name(word)
        and word not in cities()
        and not _is_attached(text, span, context)
        and not after_person_role(text, span)
    )


def _lowercase_at_sentence_start(text: str, span: Span, context: ChainContext) -> bool:
    """A lone model word at a sentence's start that is lowercase inside a sentence
    (deid.words.written: "Unstreitig ist …", "Beruht die Kündigung …") and no Wiktionary noun."""
    word = text[span.start : span.end]
    return (
        at_sentence_start(text, span.start)
        and lowercase_elsewhere(word)
        and lexical_class(word) == LEX_UNKNOWN
        and _lone_model_word(text, span, context)
    )


@register(LOWERCASE, 3, NoConfig, filter=True,
          description="lowercase@2, and a lone model word at a sentence's start that is lowercase inside a "
                      "sentence (deid.words.written): a word the training decisions write in lowercase or an "
                      "adjective by its suffix ('Beruht die Kündigung', 'Maßgeblich ist'), no Wiktionary noun; "
                      "never a word a list holds as a name, nor one after a person's role")  # fmt: skip
def lowercase_v3(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [
            s for s in spans
            if not (_lowercase_model_word(text, s) or participle_at_sentence_start(text, s)
                    or _lowercase_at_sentence_start(text, s, context))
        ]  # fmt: skip

    return run


@register(TERMS, 1, ProfilesConfig, filter=True,
          description="under the federal profile only (strict: when in doubt, neutralize), a lone model word "
                      "the document introduces as a term, in every mention ('das sogenannte Hawala-Banking', "
                      "'sog. „Clearing-Stelle“'; deid.words.written); never a word a list holds as a name, nor "
                      "one after a person's role")  # fmt: skip
def terms_v1(cfg: ProfilesConfig) -> Step:
    return _doubt_filter(cfg, lambda text, s, context: (
        text[s.start : s.end] in introduced_terms(text) and _lone_model_word(text, s, context)))  # fmt: skip


@register(NO_NAME_SHAPE, 1, NoConfig, filter=True,
          description="model spans no name looks like: shortened compounds, lone symbols")  # fmt: skip
def no_name_shape_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in spans if not _no_name_shape(text, s, _is_attached(text, s, context))]

    return run


# the label words before a plot's number ("FlNr. 1311", "Flst. 318/7", "Flur-Nrn.") and a police
# officer's rank before the name ("POM Kagerer"): the model reads them as a place or a person in
# Bavarian decisions; no name is spelt so
_NO_NAME_WORD = re.compile(rf"(?:Fl\.?[ \u00a0]?-?Nrn?|Flur-?Nrn?|Flst|Flurnummern?)\.?|{POLICE_RANK}")


@register(NO_NAME_SHAPE, 2, NoConfig, filter=True,
          description="no_name_shape@1 and a plot number's label word or a police rank the model read as "
                      "a name ('FlNr', 'Flst', 'Flur-Nrn', 'POM')")  # fmt: skip
def no_name_shape_v2(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [
            s for s in spans
            if not _no_name_shape(text, s, _is_attached(text, s, context))
            and not (s.source == MODEL_SOURCE and _NO_NAME_WORD.fullmatch(text, s.start, s.end))
        ]  # fmt: skip

    return run


def _also_dropping(previous: Step, dropped: Callable[[str, Span], bool]) -> Step:
    """``previous`` and then without the model spans ``dropped`` names: each later version of
    no_name_shape is its predecessor and one more shape."""

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return [s for s in previous(text, spans, context) if not (s.source == MODEL_SOURCE and dropped(text, s))]

    return run


# version 3: a model span of a name's type without a letter ("Velden.\n[2] Das …": a margin
# number after a town at a paragraph's end, read as the town's; the from-scratch dev set). A
# street's bare house number stays: consistency and the address steps give them meaning.
_LETTERLESS_NAME_LABELS = frozenset({PERSON, LOCATION, SEAT, ORGANIZATION})


@register(NO_NAME_SHAPE, 3, NoConfig, filter=True,
          description="no_name_shape@2 and a person, place or firm span of the model without a letter (a margin "
                      "number after a town at a paragraph's end)")  # fmt: skip
def no_name_shape_v3(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v2(cfg), lambda text, s: (
        s.label in _LETTERLESS_NAME_LABELS and not any(c.isalpha() for c in text[s.start : s.end])))  # fmt: skip


# version 4: a model span that is one article or preposition alone ("in der Griesbacher Straße"
# read as "der" and the street apart; the from-scratch dev set): no name is spelt so, and the
# street beside it is a span of its own
_FUNCTION_WORD = re.compile(
    r"(?:der|die|das|dem|den|des|ein|eine|einer|eines|einem|einen|in|im|am|an|auf|aus|bei|beim|von|vom|zu|zum"
    r"|zur|und|oder|mit|nach|über|unter)"
)


@register(NO_NAME_SHAPE, 4, NoConfig, filter=True,
          description="no_name_shape@3 and a model span that is one lowercase article or preposition alone "
                      "('der' before 'Griesbacher Straße')")  # fmt: skip
def no_name_shape_v4(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v3(cfg), lambda text, s: _FUNCTION_WORD.fullmatch(text, s.start, s.end) is not None)


# version 5: a model span that is a public road by its class, alone or with its number
# ("die Staatsstraße 2125 von Lalling", "in die Kreisstraße LA 9", "ist dort Vorfahrtstraße"; the
# from-scratch dev set): the Bavarian gold keeps such roads, as the policy keeps motorways;
# "Landstraße" and "Ortsstraße" are streets' names as well ("Landstraße 3")
_ROAD = re.compile(
    rf"(?i:(?!(?:land|orts)stra)(?:{ROAD_CLASSES}|\w*verbindungs|vorfahrts?)stra(?:ß|ss)e)"
    r"(?:[ \u00a0][A-ZÄÖÜ]{1,3})?(?:[ \u00a0]\d{1,4})?"
)


@register(NO_NAME_SHAPE, 5, NoConfig, filter=True,
          description="no_name_shape@4 and a model span that is a public road by its class, alone or with its "
                      "number ('Staatsstraße 2125', 'Kreisstraße SR 12', 'Vorfahrtstraße')")  # fmt: skip
def no_name_shape_v5(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v4(cfg), lambda text, s: _ROAD.fullmatch(text, s.start, s.end) is not None)


# version 6: a decision's own structure read as a name: a heading alone on its line ("Tenor",
# "Gründe", "Entscheidungsgründe") and an outline or margin mark at a line's start ("Tenor\nI. Die
# Klage …", "… Mühlbachstraße 3.\n2\nDie Beklagte …"; the Bavarian and from-scratch dev sets read
# them as a street, place or identifier). No gold set marks one.
_HEADING = re.compile(
    r"(?:Tenor|Gründe|Tatbestand|Entscheidungsgründe|Leitsätze?|Orientierungssätze?|Rechtsmittelbelehrung"
    r"|Normenketten?|Schlagworte?|Titel|Fundstellen?|Vorinstanzen?|Rubrum|Sachverhalt)"
)
_OUTLINE_MARK = re.compile(r"(?:[IVX]{1,5}|\d{1,3}|[a-z]{1,2})[.)]?")
_HEADING_END = re.compile(r"[ \t]*(?::|\n|$)")  # what may follow a heading: a colon or the line's end
_MARK_END = re.compile(r"[.)]?(?:\s|$)")  # what may follow an outline mark: its dot or bracket, a space


def _structure_mark(text: str, span: Span) -> bool:
    """Whether ``span`` is a heading alone on its line or an outline or margin mark that opens one."""
    if text[text.rfind("\n", 0, span.start) + 1 : span.start].strip():
        return False
    if _HEADING.fullmatch(text, span.start, span.end):
        return _HEADING_END.match(text[span.end : span.end + 3]) is not None
    return (
        _OUTLINE_MARK.fullmatch(text, span.start, span.end) is not None
        and _MARK_END.match(text[span.end : span.end + 2]) is not None
    )


@register(NO_NAME_SHAPE, 6, NoConfig, filter=True,
          description="no_name_shape@5 and a model span that is the decision's own structure: a heading alone "
                      "on its line ('Tenor'), an outline or margin mark opening a line ('I.', '2')")  # fmt: skip
def no_name_shape_v6(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v5(cfg), _structure_mark)


# version 7: an identifier's label word and a quantity's digits read as names or identifiers
# ("(IBAN DE89 …)", "BG-Nummer 83503//0012876", the "Fl" of "Fl. Nr. 312/2", "63.[902],18 €",
# "5,[0703] ha"; the Bavarian dev half, the from-scratch dev set; deid.words.numbers)
# (an amount the model calls one is the keep_labels and policy steps' to keep)
def _label_or_quantity(text: str, span: Span) -> bool:
    return label_word_before_number(text, span.start, span.end) or (
        span.label != MONEY and not any(c.isalpha() for c in text[span.start : span.end])
        and in_quantity(text, span.start, span.end))  # fmt: skip


@register(NO_NAME_SHAPE, 7, NoConfig, filter=True,
          description="no_name_shape@6 and a model span inside an identifier's label word ('IBAN', 'BG-Nummer', "
                      "'Fl.-Nr.' before the number) or a letterless one inside a number with its unit or "
                      "currency ('63.902,18 €', '5,0703 ha'; deid.words.numbers)")  # fmt: skip
def no_name_shape_v7(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v6(cfg), _label_or_quantity)


@register(NO_NAME_SHAPE, 8, NoConfig, filter=True,
          description="no_name_shape@7 and a model span that is the noun of a fixed phrase whose noun is also a "
                      "place or a surname ('sich zur Wehr setzen', 'zu Buche schlagen', 'außer Acht lassen'; "
                      "deid.words.idioms)")  # fmt: skip
def no_name_shape_v8(cfg: NoConfig) -> Step:
    return _also_dropping(no_name_shape_v7(cfg), lambda text, span: in_idiom(text, span.start, span.end))


def _inside_any(span: Span, phrases: list[Span]) -> bool:
    """Whether ``span`` lies within one of ``phrases`` (a vehicle's, a product's, an animal's)."""
    return any(p.start <= span.start and span.end <= p.end for p in phrases)


@register(VEHICLES, 1, NoConfig, filter=True,
          description="model spans inside a vehicle's make and model where the text describes a vehicle ('mit "
                      "seinem Pkw VW Passat, amtliches Kennzeichen …', 'des Traktors Fendt 309 Vario'; "
                      "deid.words.vehicles): a manufacturer named in passing, kept by both profiles")  # fmt: skip
def vehicles_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        phrases = vehicle_phrases(text)
        if not phrases:
            return spans
        return [s for s in spans if s.source != MODEL_SOURCE or not _inside_any(s, phrases)]

    return run


@register(VEHICLES, 2, NoConfig, filter=True,
          description="vehicles@1, and a model named by its type ('vom Typ SQ5 3.0 TDI Quattro', 'mit dem Modell "
                      "„Phonak Audéo P90“'), a device's make and model before the device's own number "
                      "('Mobiltelefon Samsung Galaxy A54 (IMEI …)'), and a plate-shaped make and model ('Pkw "
                      "BMW X5'; deid.words.vehicles)")  # fmt: skip
def vehicles_v2(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        phrases = product_phrases(text)
        return [
            s for s in spans
            if not (s.source == MODEL_SOURCE and _inside_any(s, phrases))
            and not (s.label == LicensePlateRecognizer.LABEL and is_make_and_model(text[s.start : s.end]))
        ]  # fmt: skip

    return run


@register(ANIMALS, 1, NoConfig, filter=True,
          description="model spans that are an animal's name where the text names the animal ('ihren Labrador "
                      "„Balu“', 'vom Hofhund Hasso'), that name in every mention, and a breed ('der "
                      "American-Staffordshire-Mischling'), kept by both profiles; a bare animal word stays, "
                      "surnames are spelt so ('der Zeuge Stier'; deid.words.animals)")  # fmt: skip
def animals_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        names, breeds = animal_mentions(text)
        return _without_kept(text, spans, [*names, *breeds], {text[n.start : n.end] for n in names})

    return run


def _without_kept(text: str, spans: list[Span], kept: list[Span], surfaces: set[str]) -> list[Span]:
    """``spans`` without the model spans inside one of ``kept`` (names a filter keeps) or
    naming one of ``surfaces`` again, in every mention; a span after a person's role stays
    ("der Zeuge Stier")."""
    if not kept:
        return spans
    return [
        s for s in spans
        if s.source != MODEL_SOURCE or after_person_role(text, s)
        or not (text[s.start : s.end] in surfaces or _inside_any(s, kept))
    ]  # fmt: skip


@register(PUBLIC_FIGURES, 1, NoConfig, filter=True,
          description="model spans that name a person of public life by the office or fame before the name "
                      "('wonach Präsident Beji Caid Essebsi', 'des damaligen Bundeswirtschaftsministers Robert "
                      "Habeck', 'des Schauspielers Josh Duhamel'), in every mention, kept by both profiles; never "
                      "a mayor or district administrator, nor a name the text also gives after a person's role "
                      "('der Zeuge …', 'Herr …'; deid.words.public_figures)")  # fmt: skip
def public_figures_v1(cfg: NoConfig) -> Step:
    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return _without_kept(text, spans, *public_figures(text))

    return run


# --- the anonymization profile ---------------------------------------------------------------


@dataclass(frozen=True)
class PolicyProfileConfig:
    """Which profile of the anonymization policy (deid.anonymizer.profiles) decides."""

    profile: str = DEFAULT_PROFILE

    def __post_init__(self) -> None:
        check_profile(self.profile)


def _policy_step(dates: bool, pages: bool = False) -> Callable[[PolicyProfileConfig], Step]:
    def factory(cfg: PolicyProfileConfig) -> Step:
        def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
            return apply_profile(cfg.profile, text, spans, dates=dates, pages=pages)

        return run

    return factory


register(POLICY, 1, PolicyProfileConfig,
         description="the anonymization profile (strict | federal): what is neutralized by type and role, "
                     "roles of a name from the model or its context, big cities kept")(_policy_step(False))  # fmt: skip
register(POLICY, 2, PolicyProfileConfig,
         description="version 1, and a date's role from its clause: dates of birth, death and marriage "
                     "neutralized, other dates and places in the court file ('Bl. 214') kept, "
                     "also where the model called them an ID")(_policy_step(True))  # fmt: skip
register(POLICY, 3, PolicyProfileConfig,
         description="version 2, and a web page's address with a path (a source the decision cites, "
                     "'https://de.wikipedia.org/wiki/Lack', or a party's media) kept under federal; a bare "
                     "domain and a profile on a social network stay neutralized")(_policy_step(True, True))  # fmt: skip


# --- consistency ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsistencyConfig:
    min_score: float = 0.7  # only confident spans are propagated
    min_share: float = 0.25  # ... and only strings found in a quarter of their mentions


def _consistency(cfg: ConsistencyConfig, **behaviour: bool) -> Step:
    """propagate with the component's settings and a version's ``behaviour`` flags."""

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return propagate(text, spans, blocked=context.zones, min_score=cfg.min_score, min_share=cfg.min_share,
                         **behaviour)  # fmt: skip

    return run


@register(CONSISTENCY, 1, ConsistencyConfig,
          description="document-level consistency (outside the keep zones)")  # fmt: skip
def consistency_v1(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg)


@register(CONSISTENCY, 2, ConsistencyConfig,
          description="document-level consistency (outside the keep zones) to every mention: after a title "
                      "or role, inflected, possessive, in capitals, hyphenated")  # fmt: skip
def consistency_v2(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True)


@register(CONSISTENCY, 3, ConsistencyConfig,
          description="version 2, and a first name and surname tagged as two names only a space apart "
                      "are a name in full: its surname spreads")  # fmt: skip
def consistency_v3(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True, adjacent_names=True)


@register(CONSISTENCY, 4, ConsistencyConfig,
          description="version 3, and a recognizer's span spreads as its type (a street address, a local "
                      "bank); an address found with its number spreads the street it names ('Am Kirchplatz "
                      "4' … 'den Kirchplatz') and a postal code its town")  # fmt: skip
def consistency_v4(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True, adjacent_names=True, addresses=True)


@register(CONSISTENCY, 5, ConsistencyConfig,
          description="version 4, and a house number found in an address stands for it again after a "
                      "house's or plot's word ('Ziegeleiweg 8, 10, 12, 14' … 'Die Grundstücke 10, 12, 14')")  # fmt: skip
def consistency_v5(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True, adjacent_names=True, addresses=True, house_numbers=True)


@register(CONSISTENCY, 6, ConsistencyConfig,
          description="version 5, and the surname of a name found in full that is an ordinary word too "
                      "spreads where a person's role or title stands before it ('Raimund Schäffler' … 'der "
                      "Sachverständige Schäffler')")  # fmt: skip
def consistency_v6(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True, adjacent_names=True, addresses=True, house_numbers=True,
                        role_mentions=True)  # fmt: skip


@register(CONSISTENCY, 7, ConsistencyConfig,
          description="version 6, and a party's mark found in quotes spreads ('„Kellerfürstin“'); a mention "
                      "whose found spans all lie inside it takes their place ('der Lehner Agrar' of 'Lehner Agrar "
                      "GmbH' where the model read 'Lehner'); an identifier a recognizer found, of a shape no "
                      "ordinary token has, stands for each token of exactly that shape ('Az. 32-5620.1-0412/21' … "
                      "'32-5620.1-0093/22')")  # fmt: skip
def consistency_v7(cfg: ConsistencyConfig) -> Step:
    return _consistency(cfg, every_mention=True, adjacent_names=True, addresses=True, house_numbers=True,
                        role_mentions=True, brands=True, grow_inside=True, id_shapes=True)  # fmt: skip


# the extent step's version that consistency@8 applies to what it found (deid.anonymizer.extent)
_EXTENT_AFTER_CONSISTENCY = 11


@register(CONSISTENCY, 8, ConsistencyConfig,
          description="version 7, and the mentions it found take their whole extent as the extent step's "
                      "version 11 gives it, which ran before them: a first name before a surname found "
                      "again ('Dipl.-Kfm. Hans-Jürgen Eberl', where only 'Eberl' spread)")  # fmt: skip
def consistency_v8(cfg: ConsistencyConfig) -> Step:
    spread = consistency_v7(cfg)

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return extend_names(text, spread(text, spans, context), context.zones, version=_EXTENT_AFTER_CONSISTENCY)

    return run


# --- the firm's legal form ----------------------------------------------------------------


@dataclass(frozen=True)
class LegalFormConfig:
    labels: tuple[str, ...] = (ORGANIZATION,)  # the spans that take in the legal form after them


@register(LEGAL_FORM, 1, LegalFormConfig,
          description="a firm's span takes in the legal form and practice words after it "
                      "(deid.words.firms): '[ORGANIZATION]', never '[ORGANIZATION] GmbH'")  # fmt: skip
def legal_form_v1(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=1)


@register(LEGAL_FORM, 2, LegalFormConfig,
          description="version 1, and the rest of a firm's name: a person followed by '& Kollegen' is a "
                      "practice, capitalized words between a firm and its legal form belong to it")  # fmt: skip
def legal_form_v2(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=2)


@register(LEGAL_FORM, 3, LegalFormConfig,
          description="version 2, and a span that stops inside a legal form takes the rest of it: "
                      "'… GmbH &' of 'GmbH & Co. KG', '… UG' of 'UG (haftungsbeschränkt)', '… e.V' of "
                      "'e.V.'")  # fmt: skip
def legal_form_v3(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=3)


@register(LEGAL_FORM, 4, LegalFormConfig,
          description="version 3, and a person's or place's name right before a practice's kind is the "
                      "practice's ('Kanzlei Wimmer Rechtsanwälte', 'Strasser Rechtsanwälte'), partners "
                      "after a plus ('Steinberger + Partner'), a recognizer's firm (FIRM_NAME) extends too")  # fmt: skip
def legal_form_v4(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=4)


@register(LEGAL_FORM, 5, LegalFormConfig,
          description="version 4, and a second partner's name after an ampersand belongs to the firm "
                      "('die Rechtsanwälte Hartl & Sperl', where the model found 'Hartl'; not an ordinary "
                      "noun: '& Sohn'), and a name before an insolvency administrator's, tax adviser's or "
                      "auditor's practice is the practice ('Vilsmeier Insolvenzverwaltung')")  # fmt: skip
def legal_form_v5(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=5)


@register(LEGAL_FORM, 6, LegalFormConfig,
          description="version 5, and a trade's compound after a name belongs to the firm ('die Schreinerei "
                      "Wimmer Holzbau', where the model found 'Wimmer'; deid.words.vocab.TRADE_HEADS)")  # fmt: skip
def legal_form_v6(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=6)


@register(LEGAL_FORM, 7, LegalFormConfig,
          description="version 6, and a club of a town 'und Umgebung' is the club ('des Imkervereins Straubing "
                      "und Umgebung e.V.', where the model found the town)")  # fmt: skip
def legal_form_v7(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=7)


@register(LEGAL_FORM, 8, LegalFormConfig,
          description="version 7, and a compound hyphenated to the form is the firm's name ('die Weißbräu Stüberl "
                      "Betriebs-GmbH', where the model found 'Weißbräu Stüberl')")  # fmt: skip
def legal_form_v8(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=8)


@register(LEGAL_FORM, 9, LegalFormConfig,
          description="version 8, and a club's letters with the word after them before a span that ends in a "
                      "legal form ('des FC Eintracht Mainaschaff 1919 e.V.', where the model found 'Mainaschaff "
                      "1919')")  # fmt: skip
def legal_form_v9(cfg: LegalFormConfig) -> Step:
    return _legal_form(cfg, version=9)


def _legal_form(cfg: LegalFormConfig, version: int) -> Step:
    labels = frozenset(cfg.labels)
    if version >= 4:  # and a recognizer's firm ("Steinberger" of "Ingenieurbüro Steinberger + Partner")
        labels |= {fine for fine, coarse in FINE_TO_COARSE.items() if coarse in labels}

    def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
        return extend_firms(text, spans, labels, version=version)

    return run


# --- a name's whole extent -------------------------------------------------------------------


def _extent_step(version: int) -> Callable[[NoConfig], Step]:
    """The factory of the extent step at ``version`` (deid.anonymizer.extent)."""

    def factory(cfg: NoConfig) -> Step:
        def run(text: str, spans: list[Span], context: ChainContext) -> list[Span]:
            return extend_names(text, spans, context.zones, version=version)

        return run

    return factory


register(EXTENT, 1, NoConfig,
         description="a person's first name before the surname the model found, a town's abbreviated "
                     "suffix ('Landau a. d. Isar') (deid.anonymizer.extent); never into a keep zone")(_extent_step(1))  # fmt: skip
register(EXTENT, 2, NoConfig,
         description="extent@1 and a street's head before its own word: a capitalized adjective, title or "
                     "saint ('Alte Poststraße 4', 'Große Rosengasse'), a capitalized preposition where no "
                     "sentence begins ('wohnt Auf dem Hassel')")(_extent_step(2))  # fmt: skip
register(EXTENT, 3, NoConfig,
         description="extent@2 and a house number after a name where an address stands: in brackets "
                     "('Georg Niedermeier (Kirchberg 14)') or before a postcode ('Thonhausen 4, 85416 "
                     "Langenbach'): a village's numbered house; a postal town's suffix ('92318 Neumarkt i. d. "
                     "OPf.')")(_extent_step(3))  # fmt: skip
register(EXTENT, 4, NoConfig,
         description="extent@3 and an identifier's whole token: the model's digits of 'CHA-J-0612' or "
                     "'SG 32-1431.2/22-187' grow over the letters and parts joined to them by hyphens, dots "
                     "or slashes")(_extent_step(4))  # fmt: skip
register(EXTENT, 5, NoConfig,
         description="extent@4 and a town's river or region spelled out ('Weißenburg in Bayern', 'Mühldorf am "
                     "Inn'); a place span without the function words it ran on with ('Eggenfelden an der'), a "
                     "street span without the sentence's stop after its number; a first name before a surname "
                     "the model read as a place ('Maria Huber-Kiefl'); a person's town after the name ('Dr. "
                     "Kerscher aus Bogen')")(_extent_step(5))  # fmt: skip
register(EXTENT, 6, NoConfig,
         description="extent@5 and a town named with its neighbour: two places joined by 'bei' or 'b.' are one "
                     "('Neufahrn bei Freising'); a hamlet's numbered house after its town and a comma ('in Reisbach, "
                     "Oberhausen 2, einen Betrieb')")(_extent_step(6))  # fmt: skip
register(EXTENT, 7, NoConfig,
         description="extent@6 and a name in quotes whole: a name's span inside quotes of at most five words "
                     "shaped as a name grows to the quotes ('die App „TimeTrack Pro“', 'eine Gartenlounge "
                     "„Toscana XL“')")(_extent_step(7))  # fmt: skip
register(EXTENT, 8, NoConfig,
         description="extent@7 and a hamlet's numbered house the model read as a place, before a comma, a "
                     "stop or its town ('des Hofes Hinterberg 2 in Schleching'), or after the house's word ('Ihr Wohnhaus Oed 4 liegt'): one rare word, no big city")(_extent_step(8))  # fmt: skip
register(EXTENT, 9, NoConfig,
         description="extent@8 and the same house number after a street of a declined adjective and a field word "
                     "the model read as a place ('Sie wohnt Unterer Markt 3 in Eslarn')")(_extent_step(9))  # fmt: skip
register(EXTENT, 10, NoConfig,
         description="extent@9 and the words hyphenated before a span that starts after a hyphen ('Karl-Heinz "
                     "Reindl' of 'Heinz Reindl', 'Dr.-Michael-Baumgartner-Straße'); a span without a closing "
                     "bracket it ran on with where it opens none (an opening one likewise), a comma, semicolon or "
                     "colon at its end ('in Tann, Pfarrkirchener Straße'), the quotes around a name ('die Pizzeria "
                     "„La Lanterna“')")(_extent_step(10))  # fmt: skip
register(EXTENT, 11, NoConfig,
         description="extent@10, and a person's, firm's or other name's span without the function words it ran "
                     "on with ('die Schreinerei Wörle in Denklingen'); a club's name with the elided article and "
                     "abbreviation before it ('der GTEV D'Mangfalltaler Großholzhausen e.V.'); a firm's name "
                     "ending in a legal form with the adjective that begins it ('der Bayerischen "
                     "Handwerker-Lebensversicherung a. G.'); a quoted name over the words after the last span "
                     "found ('„Anadolu Kebap & Pizza Haus“')")(_extent_step(11))  # fmt: skip


# --- chains --------------------------------------------------------------------------------


# what a pipeline's model ran with when its settings were fields of the pipeline config, not
# the model step's (a pipeline.json saved then gives only what differed; PipelineConfig.from_dict)
MODEL_DEFAULTS_BEFORE_CHAIN = {"threshold": 0.35}  # below InferenceConfig's 0.5: recall first


def default_chain() -> tuple[StepConfig, ...]:
    """Every component at its newest version with its defaults, in order (keep_labels has
    no label by default, so it is left out); the model runs on torch in the precision the
    hardware allows (bf16 where the CPU has matrix units) with the recall-first threshold."""
    names = (RECOGNIZERS, KEEP_ZONES, REGIONS, PUBLIC_WORDS, COMMON_NOUNS, PLAIN_COMPOUNDS, FREQUENT_WORDS, LOWERCASE,
             TERMS, NO_NAME_SHAPE, VEHICLES, ANIMALS, PUBLIC_FIGURES, POLICY, EXTENT, CONSISTENCY, LEGAL_FORM)  # fmt: skip
    return (step(MODEL, **MODEL_DEFAULTS_BEFORE_CHAIN), *(step(name) for name in names))


def legacy_chain(
    *,
    recognizers: Mapping[str, Any] | bool = True,
    keep_zones: bool = True,
    policy: PolicyConfig | None = None,
    consistency: bool = True,
    consistency_min_score: float = 0.7,
    consistency_min_share: float = 0.25,
) -> tuple[StepConfig, ...]:
    """The chain, every component at version 1, that a ``pipeline.json`` saved before the
    chain ran with its flags (``use_recognizers`` with ``recognizers``, ``use_keep_zones``,
    ``policy``, ``consistency`` with its two thresholds): ``Pipeline.finish`` as it was."""
    policy = policy or PolicyConfig()
    chain: list[StepConfig] = []
    if recognizers is not False:
        settings = dict(recognizers) if isinstance(recognizers, Mapping) else {"min_score": 0.5}
        unknown = set(settings) - {"min_score", "recognizers"}
        if unknown:
            raise ValueError(f"unknown recognizer config keys {sorted(unknown)}")
        chain.append(step(RECOGNIZERS, 1, min_score=float(settings.get("min_score", 0.0)),
                          recognizers=dict(settings.get("recognizers") or {})))  # fmt: skip
    if keep_zones:
        zones = policy.zones
        chain.append(step(KEEP_ZONES, 1, **{f: getattr(zones, f) for f in zones.__dataclass_fields__}))
    if policy.keep_labels:
        chain.append(step(KEEP_LABELS, 1, labels=tuple(policy.keep_labels)))
    for name, on in ((PUBLIC_WORDS, policy.filter_public_words),
                     (COMMON_NOUNS, policy.filter_common_nouns),
                     (PLAIN_COMPOUNDS, policy.filter_plain_compounds)):  # fmt: skip
        if on:
            chain.append(step(name, 1, min_score=policy.common_noun_min_score))
    if policy.filter_lowercase:
        chain.append(step(LOWERCASE, 1))
    if policy.filter_no_name_shape:
        chain.append(step(NO_NAME_SHAPE, 1))
    if consistency:
        chain.append(step(CONSISTENCY, 1, min_score=consistency_min_score, min_share=consistency_min_share))
    return tuple(chain)


def apply_policy(
    text: str, spans: Iterable[Span], cfg: PolicyConfig | None = None, zones: list[Span] | None = None
) -> list[Span]:
    """Drop predicted spans that touch a keep zone (or lie within a state name), carry a kept
    label, are an ordinary word or a lone compound of them the model is not sure about, a
    model word in lowercase or one no name has the shape of: the filter steps of the chain
    that the old policy flags ``cfg`` map to (:func:`legacy_chain`), run on the ``zones``
    given (default: those the flags find)."""
    cfg = cfg or PolicyConfig()
    zones = keep_zones(text, cfg, version=1) if zones is None else zones
    steps = legacy_chain(policy=cfg, recognizers=False, consistency=False)
    filtered = Chain([s for s in steps if s.name != KEEP_ZONES])(text, list(spans))
    starts = [z.start for z in zones]
    return [s for s in filtered if not in_keep_zone(zones, starts, s)]
