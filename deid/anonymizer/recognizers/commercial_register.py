"""Commercial-register numbers (``HRB 12345``, ``HRA 6789 B``, ``Amtsgericht München, HRB
123456``) and the numbers of the registers of associations (``VR 1234``), cooperatives
(``GnR 56``) and partnerships (``PR 789``).

A register number identifies a firm as surely as its name, and courts blank it ("Registernummer
HRB …" in the published corpus); both profiles neutralize it. The register's abbreviation
stays and only the number (with a court's letter, "HRB 12345 B") is the span. ``HRA``/``HRB``
and ``GnR`` are unambiguous; ``VR`` and ``PR`` need a register word nearby, and never fire in a
court's own file number ("BVerwG 1 VR 8.17", "1 WDS-VR 10.17").
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

_NUMBER = r"(?P<value>\d{1,6}(?:[ \u00a0][A-Z]{1,2}(?![\w\-]))?)(?![\w]|[./\-]\d)"
_S = r"[ \u00a0]?"


class CommercialRegisterRecognizer(PatternRecognizer):
    """Register numbers after HRA/HRB/GnR, after VR/PR near a register word, and after
    "Handelsregister … unter der Nummer"."""

    NAME = "commercial_register"
    LABEL = "COMMERCIAL_REGISTER"
    PATTERNS = (
        Pattern("hr", rf"(?<![\w\-])(?:HR{_S}[AB]|GnR|GenR){_S}(?:Nr\.{_S})?{_NUMBER}", 0.85),
        # not "1 VR 8.17" (a court's file number) nor "WDS-VR 10.17"
        Pattern("vr_pr", rf"(?<![\w\-])(?<!\d[ \u00a0])(?:VR|PR){_S}(?:Nr\.{_S})?{_NUMBER}", 0.6, needs_context=True),
        Pattern(
            "register_number",
            r"(?<!\w)(?:Handels|Vereins|Genossenschafts|Partnerschafts)register(?:[ \u00a0][AB](?![\w]))?"
            rf"[^.;\n]{{0,60}}?(?:unter[ \u00a0](?:der[ \u00a0])?(?:Nummer|Nr\.)|Nr\.|Nummer){_S}:?{_S}{_NUMBER}",
            0.8,
        ),
    )
    CONTEXT = (
        "vereinsregister", "partnerschaftsregister", "genossenschaftsregister", "registergericht",
        "register", "eingetragen", "amtsgericht", "e.v.", "e. v.", "verein", "partnerschaft",
    )  # fmt: skip
    CONTEXT_WINDOW = 60
    CONTEXT_BOOST = 0.3
