"""Rule recognizers for structured identifiers, and the registry that builds them from config.

Registry names are versioned (``deid.recognizers.iban.v1``): when a recognizer's behaviour
changes, register ``.v2`` beside ``.v1`` so that stored configs keep their meaning. Which
recognizers run by default is part of the chain's ``recognizers`` component version
(:data:`RECOGNIZER_SETS`): a pipeline saved with ``recognizers@1`` runs the set it was gated
with, whatever was registered since.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from deid.anonymizer.recognizers.address import (
    PostalTownRecognizer,
    StreetAddressRecognizer,
    StreetAddressRecognizerV2,
    StreetAddressRecognizerV3,
    StreetAddressRecognizerV4,
    StreetAddressRecognizerV5,
    StreetAddressRecognizerV6,
    StreetAddressRecognizerV7,
    StreetAddressRecognizerV8,
    StreetAddressRecognizerV9,
)
from deid.anonymizer.recognizers.base import (
    Pattern,
    PatternRecognizer,
    Recognizer,
    resolve_overlaps,
)
from deid.anonymizer.recognizers.bic import BicRecognizer
from deid.anonymizer.recognizers.business_name import (
    BusinessNameRecognizer,
    BusinessNameRecognizerV2,
    BusinessNameRecognizerV3,
    BusinessNameRecognizerV4,
    BusinessNameRecognizerV5,
)
from deid.anonymizer.recognizers.clinic_name import (
    ClinicNameRecognizer,
    ClinicNameRecognizerV2,
    ClinicNameRecognizerV3,
    ClinicNameRecognizerV4,
)
from deid.anonymizer.recognizers.commercial_register import CommercialRegisterRecognizer
from deid.anonymizer.recognizers.contract_number import (
    ContractNumberRecognizer,
    ContractNumberRecognizerV2,
    ContractNumberRecognizerV3,
    ContractNumberRecognizerV4,
    ContractNumberRecognizerV5,
    ContractNumberRecognizerV6,
    ContractNumberRecognizerV7,
    ContractNumberRecognizerV8,
    ContractNumberRecognizerV9,
    ContractNumberRecognizerV10,
    ContractNumberRecognizerV11,
    ContractNumberRecognizerV12,
    ContractNumberRecognizerV13,
)
from deid.anonymizer.recognizers.date_of_birth import (
    DateOfBirthRecognizer,
    DateOfBirthRecognizerV2,
    DateOfDeathRecognizer,
    DateOfDeathRecognizerV2,
    MarriageDateRecognizer,
    MarriageDateRecognizerV2,
)
from deid.anonymizer.recognizers.email import EmailRecognizer
from deid.anonymizer.recognizers.firm_name import (
    FirmNameRecognizer,
    FirmNameRecognizerV2,
    FirmNameRecognizerV3,
    FirmNameRecognizerV4,
    FirmNameRecognizerV5,
)
from deid.anonymizer.recognizers.handle import (
    HandleRecognizer,
    HandleRecognizerV2,
    HandleRecognizerV3,
    HandleRecognizerV4,
)
from deid.anonymizer.recognizers.iban import IbanRecognizer, IbanRecognizerV2, IbanRecognizerV3
from deid.anonymizer.recognizers.ip_address import IpAddressRecognizer, IpAddressRecognizerV2
from deid.anonymizer.recognizers.kin_name import KinNameRecognizer
from deid.anonymizer.recognizers.license_plate import LicensePlateRecognizer, LicensePlateRecognizerV2
from deid.anonymizer.recognizers.local_bank import LocalBankRecognizer, LocalBankRecognizerV2
from deid.anonymizer.recognizers.mastr_number import MastrNumberRecognizer
from deid.anonymizer.recognizers.officer_name import OfficerNameRecognizer
from deid.anonymizer.recognizers.parcel_number import ParcelNumberRecognizer
from deid.anonymizer.recognizers.patent_number import PatentNumberRecognizer
from deid.anonymizer.recognizers.permit_number import (
    PermitNumberRecognizer,
    PermitNumberRecognizerV2,
    PermitNumberRecognizerV3,
    PermitNumberRecognizerV4,
    PermitNumberRecognizerV5,
    PermitNumberRecognizerV6,
    PermitNumberRecognizerV7,
    PermitNumberRecognizerV8,
)
from deid.anonymizer.recognizers.phone import PhoneRecognizer
from deid.anonymizer.recognizers.place_name import PlaceNameRecognizer, PlaceNameRecognizerV2
from deid.anonymizer.recognizers.quoted_name import (
    BrandNameRecognizer,
    BrandNameRecognizerV2,
    BrandNameRecognizerV3,
    BrandNameRecognizerV4,
    BrandNameRecognizerV5,
    BrandNameRecognizerV6,
    BrandNameRecognizerV7,
    VenueNameRecognizer,
    VenueNameRecognizerV2,
    VenueNameRecognizerV3,
    VenueNameRecognizerV4,
    VenueNameRecognizerV5,
)
from deid.anonymizer.recognizers.role_name import RoleNameRecognizer, RoleNameRecognizerV2, RoleNameRecognizerV3
from deid.anonymizer.recognizers.seat_name import SeatNameRecognizer
from deid.anonymizer.recognizers.social_security import SocialSecurityRecognizer
from deid.anonymizer.recognizers.street_name import (
    StreetNameRecognizer,
    StreetNameRecognizerV2,
    StreetNameRecognizerV3,
    StreetNameRecognizerV4,
    StreetNameRecognizerV5,
    StreetNameRecognizerV6,
    StreetNameRecognizerV7,
)
from deid.anonymizer.recognizers.tax_id import TaxIdRecognizer
from deid.anonymizer.recognizers.tax_number import TaxNumberRecognizer
from deid.anonymizer.recognizers.trademark_number import TrademarkNumberRecognizer
from deid.anonymizer.recognizers.url import UrlRecognizer
from deid.anonymizer.recognizers.utility_model import UtilityModelRecognizer
from deid.anonymizer.recognizers.vat_id import VatIdRecognizer
from deid.anonymizer.recognizers.vehicle_id import VehicleIdRecognizer
from deid.schema import Span

__all__ = [
    "RECOGNIZERS",
    "RECOGNIZER_SETS",
    "Pattern",
    "PatternRecognizer",
    "Recognizer",
    "analyze_all",
    "build_recognizers",
    "resolve_overlaps",
]

_FIRST_SET: dict[str, type[PatternRecognizer]] = {
    "deid.recognizers.iban.v1": IbanRecognizer,
    "deid.recognizers.bic.v1": BicRecognizer,
    "deid.recognizers.email.v1": EmailRecognizer,
    "deid.recognizers.url.v1": UrlRecognizer,
    "deid.recognizers.phone.v1": PhoneRecognizer,
    "deid.recognizers.tax_id.v1": TaxIdRecognizer,
    "deid.recognizers.tax_number.v1": TaxNumberRecognizer,
    "deid.recognizers.vat_id.v1": VatIdRecognizer,
    "deid.recognizers.social_security.v1": SocialSecurityRecognizer,
    "deid.recognizers.license_plate.v1": LicensePlateRecognizer,
    "deid.recognizers.vehicle_id.v1": VehicleIdRecognizer,
    "deid.recognizers.permit_number.v1": PermitNumberRecognizer,
    "deid.recognizers.contract_number.v1": ContractNumberRecognizer,
    "deid.recognizers.parcel_number.v1": ParcelNumberRecognizer,
    "deid.recognizers.street_address.v1": StreetAddressRecognizer,
    "deid.recognizers.postal_town.v1": PostalTownRecognizer,
    "deid.recognizers.date_of_birth.v1": DateOfBirthRecognizer,
}
RECOGNIZERS: dict[str, type[PatternRecognizer]] = {
    **_FIRST_SET,
    # what the `strict` profile needs (issue 26): the rights in suit, register numbers, and
    # the labels of permit and contract numbers that version 1 missed
    "deid.recognizers.permit_number.v2": PermitNumberRecognizerV2,
    "deid.recognizers.contract_number.v2": ContractNumberRecognizerV2,
    "deid.recognizers.patent_number.v1": PatentNumberRecognizer,
    "deid.recognizers.utility_model.v1": UtilityModelRecognizer,
    "deid.recognizers.trademark_number.v1": TrademarkNumberRecognizer,
    "deid.recognizers.commercial_register.v1": CommercialRegisterRecognizer,
    # a number's owner before the colon ("Personalnummer der Klägerin: …"), police diary numbers
    "deid.recognizers.contract_number.v3": ContractNumberRecognizerV3,
    # "Hauptstraße 12" is an address
    "deid.recognizers.street_address.v2": StreetAddressRecognizerV2,
    # a street "Am Kirchplatz" with its number, a business park's address; a place of birth of
    # several words; invoice, guarantee and deed numbers; local banks; a firm's name before its
    # legal form; a street's name without its number (the from-scratch dev set, probes)
    "deid.recognizers.street_address.v3": StreetAddressRecognizerV3,
    "deid.recognizers.date_of_birth.v2": DateOfBirthRecognizerV2,
    "deid.recognizers.contract_number.v4": ContractNumberRecognizerV4,
    "deid.recognizers.local_bank.v1": LocalBankRecognizer,
    "deid.recognizers.firm_name.v1": FirmNameRecognizer,
    "deid.recognizers.street_name.v1": StreetNameRecognizer,
    # a street "Am Mühlbach", "An der Leiten" with its number (probes of OpenStreetMap's streets)
    "deid.recognizers.street_address.v4": StreetAddressRecognizerV4,
    # an identity document's or licence's number with "Nr." apart, chip and tender numbers
    "deid.recognizers.permit_number.v3": PermitNumberRecognizerV3,
    # a mark's, product's or venue's name in quotes after the word that names it so
    "deid.recognizers.brand_name.v1": BrandNameRecognizer,
    "deid.recognizers.venue_name.v1": VenueNameRecognizer,
    # "Hauptstraße", "Waldstraße" are streets; a name begun by a capital preposition in
    # mid-sentence ("wohnt Am Hieb") (probes of OpenStreetMap's streets)
    "deid.recognizers.street_name.v2": StreetNameRecognizerV2,
    # contribution, property and child benefit numbers, a pension or tax number by its label; a
    # number after "lautet" ("Die Kundennummer des Klägers lautet …") (probes)
    "deid.recognizers.contract_number.v5": ContractNumberRecognizerV5,
    # a decision's number after its date ("der Bescheid vom 3. Mai 2022, Nr. …"), a fine
    # office's file number (probes)
    "deid.recognizers.permit_number.v4": PermitNumberRecognizerV4,
    # a product a party sells or a suit attacks, in quotes ("die angegriffene Ausführungsform
    # „AquaDos 300“", "vertreibt unter der Bezeichnung „…“") (the from-scratch dev set)
    "deid.recognizers.brand_name.v2": BrandNameRecognizerV2,
    # dates of death and marriage by their cue words ("verstarb am …", "heirateten am …"), which
    # the policy neutralizes as it does a birth date (the Bavarian set's dev half)
    "deid.recognizers.date_of_death.v1": DateOfDeathRecognizer,
    "deid.recognizers.marriage_date.v1": MarriageDateRecognizer,
    # a firm's one-word name no lexicon lists, though it reads as a compound ("die Mannsdörfer GbR")
    "deid.recognizers.firm_name.v2": FirmNameRecognizerV2,
    # a bank named by its district ("Sparkasse Berchtesgadener Land") (the from-scratch dev set)
    "deid.recognizers.local_bank.v2": LocalBankRecognizerV2,
    # no kind of road of two kind words ("Gemeindeverbindungsstraße"), no "Anbaustraße"
    "deid.recognizers.street_name.v3": StreetNameRecognizerV3,
    # a small business by its kind and owner ("des Vermessungsbüros Hausladen")
    "deid.recognizers.business_name.v1": BusinessNameRecognizer,
    # a police officer's name after the rank ("der Zeuge PHM Gerstl")
    "deid.recognizers.officer_name.v1": OfficerNameRecognizer,
    # a street whose name begins with an abbreviated title ("St.-Martin-Str. 18")
    "deid.recognizers.street_address.v5": StreetAddressRecognizerV5,
    # patient and case numbers, an identification number by its plain label ("steuerliche
    # Identifikationsnummer lautet …") (the from-scratch dev set)
    "deid.recognizers.contract_number.v6": ContractNumberRecognizerV6,
    # a German IBAN after its label whatever its check digits; a user name on a platform
    # ("unter dem Nutzernamen „…“") (the from-scratch dev set)
    "deid.recognizers.iban.v2": IbanRecognizerV2,
    "deid.recognizers.handle.v1": HandleRecognizer,
    # a clinic's name after its kind word ("im RoMed Klinikum Wasserburg", "Krankenhaus Mühldorf")
    "deid.recognizers.clinic_name.v1": ClinicNameRecognizer,
    # a date the verb "verstarb" follows ("Am 14.01.2023 verstarb …"); a power plant's number
    # in the Marktstammdatenregister ("SEE937104528813")
    "deid.recognizers.date_of_death.v2": DateOfDeathRecognizerV2,
    "deid.recognizers.mastr_number.v1": MastrNumberRecognizer,
    # a farm's, register's, device's or ear tag's number and a plural label's list; any country's
    # IBAN after its label; a farmstead after "Hofstelle"; a village after "im Ortsteil" (the
    # from-scratch dev set)
    "deid.recognizers.contract_number.v7": ContractNumberRecognizerV7,
    "deid.recognizers.iban.v3": IbanRecognizerV3,
    "deid.recognizers.street_address.v6": StreetAddressRecognizerV6,
    "deid.recognizers.place_name.v1": PlaceNameRecognizer,
    # a child's first name after the kinship ("ihre Kinder Jonas und Emilia"); an initiative's
    # or association's name in quotes ("die Bürgerinitiative „Lebenswertes Isartal“")
    "deid.recognizers.kin_name.v1": KinNameRecognizer,
    "deid.recognizers.venue_name.v2": VenueNameRecognizerV2,
    # a medical care centre's, surgery or animal clinic's name ("im MVZ am Regenbogen"); a
    # kindergarten's or travel agency's ("den Kindergarten St. Josef")
    "deid.recognizers.clinic_name.v2": ClinicNameRecognizerV2,
    "deid.recognizers.business_name.v2": BusinessNameRecognizerV2,
    # a handle after a seller's or a platform's account word ("das Verkäuferkonto „…“"); a full
    # name after a noun that names the person ("des Versicherungsvertreters Günther Kronschnabl")
    "deid.recognizers.handle.v2": HandleRecognizerV2,
    "deid.recognizers.role_name.v1": RoleNameRecognizer,
    # a product in quotes before the verb of selling ("unter der Bezeichnung „…“ anzubieten")
    "deid.recognizers.brand_name.v3": BrandNameRecognizerV3,
    # a permit's number after a compound naming it ("Sondernutzungserlaubnis Nr. …"), an
    # authority's file number of digit groups ("Az. 5 23 118 904 7"); a handle in quotes after
    # "unter dem Namen" (the from-scratch dev set)
    "deid.recognizers.permit_number.v5": PermitNumberRecognizerV5,
    "deid.recognizers.handle.v3": HandleRecognizerV3,
    # a laboratory's, examination's, ticket's or report's number ("Untersuchungsnummer …",
    # "Störungsmeldung Nr. …")
    "deid.recognizers.contract_number.v8": ContractNumberRecognizerV8,
    # a clinic of any speciality ("der Schmerzklinik am Lusen"), an institute by its head's name
    # ("Institut für Verkehrspsychologie Dr. Moosleitner")
    "deid.recognizers.clinic_name.v3": ClinicNameRecognizerV3,
    # a mutual insurer's ("… VVaG") and a foreign firm's legal form ("… UAB", "… s.r.o.")
    "deid.recognizers.firm_name.v3": FirmNameRecognizerV3,
    # a sports club by its abbreviation and its town ("des SV Hebertsfelden")
    "deid.recognizers.business_name.v3": BusinessNameRecognizerV3,
    # an IP address ("über die IP-Adresse 84.153.27.196"); a firm's name of everyday nouns ("der
    # Funkturm Süd Infrastruktur GmbH"); a business park's number before a postal code, "Am …"
    # with its number after the town; a club's abbreviation or kind and a town the list lacks ("des
    # RFV Aholming"); a band's or a food truck's name in quotes; a certificate's and a tenant's
    # number (the from-scratch dev set)
    "deid.recognizers.ip_address.v1": IpAddressRecognizer,
    "deid.recognizers.firm_name.v4": FirmNameRecognizerV4,
    "deid.recognizers.street_address.v7": StreetAddressRecognizerV7,
    "deid.recognizers.business_name.v4": BusinessNameRecognizerV4,
    "deid.recognizers.venue_name.v3": VenueNameRecognizerV3,
    "deid.recognizers.contract_number.v9": ContractNumberRecognizerV9,
    # a business ring's compass or name word before the number ("Gewerbering Nord 14", the
    # from-scratch dev set); the IP address's cue only as a word of its own
    "deid.recognizers.street_address.v8": StreetAddressRecognizerV8,
    "deid.recognizers.ip_address.v2": IpAddressRecognizerV2,
    # an account's number after a compound of "-konto" alone ("Darlehenskonto 7700 418 263", the
    # from-scratch dev set)
    "deid.recognizers.contract_number.v10": ContractNumberRecognizerV10,
    # a product in quotes after "angegriffene" and any noun ("Das angegriffene Scharnier „…“",
    # the from-scratch dev set)
    "deid.recognizers.brand_name.v4": BrandNameRecognizerV4,
    # a file number of letters and digits without an authority word near, a last group after an
    # office's letters, a letter's sign, a certificate's number in brackets (the from-scratch dev set)
    "deid.recognizers.permit_number.v6": PermitNumberRecognizerV6,
    # the second street of a corner after a slash ("Ecke Kirchgasse/Rathausplatz", the
    # from-scratch dev set)
    "deid.recognizers.street_name.v4": StreetNameRecognizerV4,
    # a person's name after a hyphenated noun naming the person ("dem Kfz-Händler Ahmet Kaya",
    # the from-scratch dev set)
    "deid.recognizers.role_name.v2": RoleNameRecognizerV2,
    # a word with a capital inside in quotes, a made-up product's name ("die Herdenverwaltung
    # „HerdPilot 4“", the from-scratch dev set)
    "deid.recognizers.brand_name.v5": BrandNameRecognizerV5,
    # a plate after a lorry's, tractor's or camper van's word ("mit dem Sattelzug PAN-OL 218")
    "deid.recognizers.license_plate.v2": LicensePlateRecognizerV2,
    # a business traded under a name as a studio, salon, practice or kiosk ("unter der
    # Bezeichnung „Lichtmoment Fotografie“ ein Fotostudio")
    "deid.recognizers.venue_name.v4": VenueNameRecognizerV4,
    # a file number after a compound of "-aktenzeichen" ("Unfallaktenzeichen 2022 118 640 7"),
    # an insurer's word as an authority's (the batch of the twenty-second session)
    "deid.recognizers.permit_number.v7": PermitNumberRecognizerV7,
    # no clinic's name where a big city alone follows the kind word ("am Klinikum Passau")
    "deid.recognizers.clinic_name.v4": ClinicNameRecognizerV4,
    # a pharmacy's name in quotes ("mit der Apotheke „Am Rathaus“")
    "deid.recognizers.venue_name.v5": VenueNameRecognizerV5,
    # a street of a weak word in the genitive after a road's part ("der Einmündung des Kapellenwegs")
    "deid.recognizers.street_name.v5": StreetNameRecognizerV5,
    # a town of the list after a word of direction ("oberhalb von Oberstaufen"), an alpine
    # pasture's name ("der Mittelbergalpe")
    "deid.recognizers.place_name.v2": PlaceNameRecognizerV2,
    # both streets of a corner where one is an adjective's ("Kreuzung Unterer Markt / Oberer Graben")
    "deid.recognizers.street_name.v6": StreetNameRecognizerV6,
    # the name in apposition after the noun and whose it is ("Der Marktmeister der Stadt, Hans Wagner,")
    "deid.recognizers.role_name.v3": RoleNameRecognizerV3,
    # a hyphenated street with a title or a particle ("Graf-von-Stauffenberg-Weg",
    # "Dr.-Michael-Baumgartner-Straße")
    "deid.recognizers.street_name.v7": StreetNameRecognizerV7,
    # the same with its number; "Im Oberen Feld 4"; "Am Kapellenfeld 2 bis 8"; a hamlet's address
    # in quotes after "Anwesen" or in brackets after a plot's district
    "deid.recognizers.street_address.v9": StreetAddressRecognizerV9,
    # a number whose letters have an umlaut ("Vorgangs-Nr. VPI-MÜ-2023-004187")
    "deid.recognizers.contract_number.v11": ContractNumberRecognizerV11,
    # the further numbers of the same shape listed after a labelled one ("Waffenbesitzkarten Nr.
    # 44/2011 und 12/2016")
    "deid.recognizers.permit_number.v8": PermitNumberRecognizerV8,
    # a policy's number after "Versicherungsschein", "Police" or "Vers.-Nr."; a meter's point of
    # delivery ("Zählpunktnummer DE…", or by its shape)
    "deid.recognizers.contract_number.v12": ContractNumberRecognizerV12,
    # a mark after its register number without "Nr." ("Wortmarke 30 2014 052 318 „Kellerfürst“")
    "deid.recognizers.brand_name.v6": BrandNameRecognizerV6,
    # an inn's name after "Zum", "Zur", "Beim" ("der Gasthof Zum Kirchenwirt")
    "deid.recognizers.business_name.v5": BusinessNameRecognizerV5,
    # an "@" name with a dot or an underscore inside, no platform near ("@sophia.ertl.wanderlust")
    "deid.recognizers.handle.v4": HandleRecognizerV4,
    # the date before the verb ("haben am 18.06.2014 geheiratet")
    "deid.recognizers.marriage_date.v2": MarriageDateRecognizerV2,
    # a number of letters, a year and a serial by its shape ("Rechnungen Nr. SV-21-3317"), a
    # Bavarian police case's ("BY5410-027718-23/4"), a loan's after "Darlehen Nr."
    "deid.recognizers.contract_number.v13": ContractNumberRecognizerV13,
    # a product's name in quotes after its type or model ("des Typs „Lactomat VX 2“")
    "deid.recognizers.brand_name.v7": BrandNameRecognizerV7,
    # a mutual insurer's form written "VaG"
    "deid.recognizers.firm_name.v5": FirmNameRecognizerV5,
    # the town after an authority's word, not a court's ("Agentur für Arbeit Weilheim")
    "deid.recognizers.seat_name.v1": SeatNameRecognizer,
}

_SUPERSEDED = {"deid.recognizers.permit_number.v1", "deid.recognizers.contract_number.v1"}
# What each later version of the set changes: the recognizers it runs instead of the earlier
# version's ({new: replaced}), and those it adds.
_CHANGES: dict[int, tuple[dict[str, str], frozenset[str]]] = {
    3: ({"deid.recognizers.contract_number.v3": "deid.recognizers.contract_number.v2",
         "deid.recognizers.street_address.v2": "deid.recognizers.street_address.v1"}, frozenset()),
    4: ({"deid.recognizers.contract_number.v4": "deid.recognizers.contract_number.v3",
         "deid.recognizers.street_address.v3": "deid.recognizers.street_address.v2",
         "deid.recognizers.date_of_birth.v2": "deid.recognizers.date_of_birth.v1"},
        frozenset({"deid.recognizers.local_bank.v1", "deid.recognizers.firm_name.v1",
                   "deid.recognizers.street_name.v1"})),
    5: ({"deid.recognizers.street_address.v4": "deid.recognizers.street_address.v3",
         "deid.recognizers.permit_number.v3": "deid.recognizers.permit_number.v2"},
        frozenset({"deid.recognizers.brand_name.v1", "deid.recognizers.venue_name.v1"})),
    6: ({"deid.recognizers.street_name.v2": "deid.recognizers.street_name.v1",
         "deid.recognizers.contract_number.v5": "deid.recognizers.contract_number.v4",
         "deid.recognizers.permit_number.v4": "deid.recognizers.permit_number.v3"}, frozenset()),
    7: ({"deid.recognizers.brand_name.v2": "deid.recognizers.brand_name.v1",
         "deid.recognizers.firm_name.v2": "deid.recognizers.firm_name.v1"},
        frozenset({"deid.recognizers.date_of_death.v1", "deid.recognizers.marriage_date.v1"})),
    8: ({"deid.recognizers.local_bank.v2": "deid.recognizers.local_bank.v1",
         "deid.recognizers.street_name.v3": "deid.recognizers.street_name.v2",
         "deid.recognizers.street_address.v5": "deid.recognizers.street_address.v4"},
        frozenset({"deid.recognizers.business_name.v1", "deid.recognizers.officer_name.v1"})),
    9: ({"deid.recognizers.contract_number.v6": "deid.recognizers.contract_number.v5",
         "deid.recognizers.iban.v2": "deid.recognizers.iban.v1",
         "deid.recognizers.date_of_death.v2": "deid.recognizers.date_of_death.v1"},
        frozenset({"deid.recognizers.handle.v1", "deid.recognizers.clinic_name.v1",
                   "deid.recognizers.mastr_number.v1"})),
    10: ({"deid.recognizers.contract_number.v7": "deid.recognizers.contract_number.v6",
          "deid.recognizers.iban.v3": "deid.recognizers.iban.v2",
          "deid.recognizers.street_address.v6": "deid.recognizers.street_address.v5",
          "deid.recognizers.venue_name.v2": "deid.recognizers.venue_name.v1",
          "deid.recognizers.clinic_name.v2": "deid.recognizers.clinic_name.v1",
          "deid.recognizers.business_name.v2": "deid.recognizers.business_name.v1",
          "deid.recognizers.handle.v2": "deid.recognizers.handle.v1",
          "deid.recognizers.brand_name.v3": "deid.recognizers.brand_name.v2"},
         frozenset({"deid.recognizers.place_name.v1", "deid.recognizers.kin_name.v1",
                    "deid.recognizers.role_name.v1"})),
    11: ({"deid.recognizers.permit_number.v5": "deid.recognizers.permit_number.v4",
          "deid.recognizers.handle.v3": "deid.recognizers.handle.v2",
          "deid.recognizers.contract_number.v8": "deid.recognizers.contract_number.v7",
          "deid.recognizers.clinic_name.v3": "deid.recognizers.clinic_name.v2",
          "deid.recognizers.firm_name.v3": "deid.recognizers.firm_name.v2",
          "deid.recognizers.business_name.v3": "deid.recognizers.business_name.v2"}, frozenset()),
    12: ({"deid.recognizers.firm_name.v4": "deid.recognizers.firm_name.v3",
          "deid.recognizers.street_address.v7": "deid.recognizers.street_address.v6",
          "deid.recognizers.business_name.v4": "deid.recognizers.business_name.v3",
          "deid.recognizers.venue_name.v3": "deid.recognizers.venue_name.v2",
          "deid.recognizers.contract_number.v9": "deid.recognizers.contract_number.v8"},
         frozenset({"deid.recognizers.ip_address.v1"})),
    13: ({"deid.recognizers.street_address.v8": "deid.recognizers.street_address.v7",
          "deid.recognizers.ip_address.v2": "deid.recognizers.ip_address.v1"}, frozenset()),
    14: ({"deid.recognizers.contract_number.v10": "deid.recognizers.contract_number.v9"}, frozenset()),
    15: ({"deid.recognizers.brand_name.v4": "deid.recognizers.brand_name.v3"}, frozenset()),
    16: ({"deid.recognizers.permit_number.v6": "deid.recognizers.permit_number.v5",
          "deid.recognizers.street_name.v4": "deid.recognizers.street_name.v3",
          "deid.recognizers.role_name.v2": "deid.recognizers.role_name.v1"}, frozenset()),
    17: ({"deid.recognizers.brand_name.v5": "deid.recognizers.brand_name.v4",
          "deid.recognizers.license_plate.v2": "deid.recognizers.license_plate.v1",
          "deid.recognizers.venue_name.v4": "deid.recognizers.venue_name.v3"}, frozenset()),
    18: ({"deid.recognizers.permit_number.v7": "deid.recognizers.permit_number.v6",
          "deid.recognizers.clinic_name.v4": "deid.recognizers.clinic_name.v3",
          "deid.recognizers.venue_name.v5": "deid.recognizers.venue_name.v4",
          "deid.recognizers.street_name.v5": "deid.recognizers.street_name.v4"}, frozenset()),
    19: ({"deid.recognizers.place_name.v2": "deid.recognizers.place_name.v1",
          "deid.recognizers.street_name.v6": "deid.recognizers.street_name.v5",
          "deid.recognizers.role_name.v3": "deid.recognizers.role_name.v2"}, frozenset()),
    20: ({"deid.recognizers.street_name.v7": "deid.recognizers.street_name.v6",
          "deid.recognizers.street_address.v9": "deid.recognizers.street_address.v8",
          "deid.recognizers.contract_number.v11": "deid.recognizers.contract_number.v10",
          "deid.recognizers.permit_number.v8": "deid.recognizers.permit_number.v7"}, frozenset()),
    21: ({"deid.recognizers.contract_number.v12": "deid.recognizers.contract_number.v11",
          "deid.recognizers.brand_name.v6": "deid.recognizers.brand_name.v5",
          "deid.recognizers.business_name.v5": "deid.recognizers.business_name.v4",
          "deid.recognizers.handle.v4": "deid.recognizers.handle.v3",
          "deid.recognizers.marriage_date.v2": "deid.recognizers.marriage_date.v1"}, frozenset()),
    22: ({"deid.recognizers.contract_number.v13": "deid.recognizers.contract_number.v12",
          "deid.recognizers.brand_name.v7": "deid.recognizers.brand_name.v6",
          "deid.recognizers.firm_name.v5": "deid.recognizers.firm_name.v4"}, frozenset()),
    23: ({}, frozenset({"deid.recognizers.seat_name.v1"})),
}  # fmt: skip


def _recognizer_sets() -> dict[int, tuple[str, ...]]:
    """Each version's set: version 2 all but the superseded and the later versions' own, each
    later one its predecessor with :data:`_CHANGES` applied; in the order of RECOGNIZERS."""
    later = {name for replaces, adds in _CHANGES.values() for name in (*replaces, *adds)}
    chosen = set(RECOGNIZERS) - _SUPERSEDED - later
    sets = {1: tuple(_FIRST_SET), 2: tuple(n for n in RECOGNIZERS if n in chosen)}
    for version, (replaces, adds) in sorted(_CHANGES.items()):
        chosen = (chosen - set(replaces.values())) | set(replaces) | adds
        sets[version] = tuple(n for n in RECOGNIZERS if n in chosen)
    return sets


# The recognizers on by default, by version of the chain's `recognizers` component
# (deid.anonymizer.components); the newest is build_recognizers' default.
RECOGNIZER_SETS: dict[int, tuple[str, ...]] = _recognizer_sets()


def _entry(name: str, value: Any) -> dict[str, Any]:
    """One recognizer's settings: ``true``/``false`` is shorthand for ``{enabled: ...}``."""
    if isinstance(value, bool):
        return {"enabled": value}
    if not isinstance(value, Mapping):
        raise TypeError(f"config for {name} must be a bool or a mapping")
    unknown = set(value) - {"enabled", "min_score"}
    if unknown:
        raise ValueError(f"config for {name}: unknown keys {sorted(unknown)}")
    return dict(value)


def build_recognizers(
    config: Mapping[str, Any] | None = None, version: int = max(RECOGNIZER_SETS)
) -> list[Recognizer]:
    """Instantiate the recognizers of set ``version`` (:data:`RECOGNIZER_SETS`); all are on
    unless the config turns them off, and a registered recognizer outside the set is on only
    when the config says ``enabled: true``.

    ``config``::

        {"min_score": 0.5,                          # floor for every recognizer
         "recognizers": {
             "deid.recognizers.phone.v1": {"enabled": false},
             "deid.recognizers.url.v1": {"min_score": 0.8},
             "deid.recognizers.parcel_number.v1": false}}  # shorthand for enabled: false
    """
    config = dict(config or {})
    unknown = set(config) - {"min_score", "recognizers"}
    if unknown:
        raise ValueError(f"unknown recognizer config keys {sorted(unknown)}")
    floor = float(config.get("min_score", 0.0))
    entries = {name: _entry(name, v) for name, v in (config.get("recognizers") or {}).items()}
    missing = set(entries) - set(RECOGNIZERS)
    if missing:
        raise ValueError(f"unknown recognizers {sorted(missing)}; known: {sorted(RECOGNIZERS)}")
    default_on = frozenset(RECOGNIZER_SETS[version])
    built: list[Recognizer] = []
    for name, cls in RECOGNIZERS.items():
        entry = entries.get(name, {})
        if not entry.get("enabled", name in default_on):
            continue
        min_score = max(floor, float(entry.get("min_score", floor)))
        built.append(cls(name=name, min_score=min_score))
    return built


def analyze_all(text: str, recognizers: Iterable[Recognizer]) -> list[Span]:
    """Spans of all recognizers, sorted by offset; where two overlap, the higher score wins,
    on a tie the longer span."""
    spans = [span for recognizer in recognizers for span in recognizer.analyze(text)]
    return sorted(resolve_overlaps(spans))
