"""Land parcel numbers (``Fl.Nr. 421/5``, ``Flurstück Nr. 4938``, ``FlNrn. 12/3 und 12/4``).

A parcel number identifies a piece of land and through the land register its owner, so
courts anonymize it ("Flurstück B", "Fl.Nr. ...", "Flur-Nr. xx/001" in the published corpus).
Bare numbers with a slash are everywhere in legal text (``12/18``), so a number fires only
right after a parcel label, or as a further item of a list that starts with one. The sheet
of the land register ("Grundbuch von Ahorn, Blatt 1287") names the owner the same way
("Blatt 2. .." in the published corpus) and counts too.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import (
    NUM_RIGHT,
    Pattern,
    PatternRecognizer,
    list_item_patterns,
)

_S = r"[ \u00a0]?"
# Fl.Nr., FlNr., Fl.-Nr., Fl.Nrn., Flur-Nr., Flurnummer, Flurstück(s) (Nr.), Flst.(-Nr.)
_KEY = (
    r"(?:(?:Fl\.?" + _S + r"-?Nrn?\.|Flur-?Nrn?\.|Flurnummer(?:n)?|Flurstück(?:s|e|en)?|Flst\.)"
    r"(?:" + _S + r"-?(?:Nrn?\.|Nummer(?:n)?))?)"
)
_NUMBER = r"\d{1,5}(?:/\d{1,4})?(?:[a-z](?![\w]))?"
_MAX_ITEMS = 8
_ITEM_SEP = r"(?:,[ \u00a0]|[ \u00a0](?:und|sowie|bis|u\.)[ \u00a0])"


class ParcelNumberRecognizer(PatternRecognizer):
    """Cadastral parcel numbers after their label, and the further items of such a list."""

    NAME = "parcel_number"
    LABEL = "PARCEL_NUMBER"
    PATTERNS = (
        Pattern("parcel_labelled", rf"(?<![\w.]){_KEY}:?{_S}(?P<value>{_NUMBER}){NUM_RIGHT}", 0.85),
        # "Grundbuch (des Amtsgerichts Coburg) von Ahorn, Blatt 1287"
        Pattern(
            "land_register_sheet",
            r"(?<!\w)Grundbuch(?:s|es)?[ \u00a0][^\n,;()]{2,60}?,?[ \u00a0](?:Blatt|Bl\.)[ \u00a0]?(?P<value>\d{1,6})" + NUM_RIGHT,
            0.85,
        ),
        # "Fl.Nrn. 421/5, 421/6 und 422": the further items of a labelled list
        *list_item_patterns(
            "parcel_list_item",
            rf"(?<![\w.]){_KEY}:?{_S}",
            _NUMBER,
            _ITEM_SEP,
            0.8,
            _MAX_ITEMS,
            NUM_RIGHT,
        ),
    )
