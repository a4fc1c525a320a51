"""Which ``deid.schema`` keep label an LER entity gets when it stays in clear text.

Judges, courts, laws, case references and literature have their own labels; every other
entity LER annotates and the courts left unanonymized (a country, an authority, a public
person) is a ``PUBLIC_ENTITY``.
"""

from __future__ import annotations

from deid.schema import CASE_REFERENCE, COURT, JUDGE, LAW, LITERATURE, PUBLIC_ENTITY

LER_KEEP_LABELS: dict[str, str] = {
    "RR": JUDGE,
    "GRT": COURT,
    "GS": LAW,
    "VO": LAW,
    "EUN": LAW,
    "VS": LAW,
    "VT": LAW,
    "RS": CASE_REFERENCE,
    "LIT": LITERATURE,
}


def keep_label(ler_tag: str) -> str:
    """The keep label of an LER tag whose entity is not a placeholder."""
    return LER_KEEP_LABELS.get(ler_tag, PUBLIC_ENTITY)
