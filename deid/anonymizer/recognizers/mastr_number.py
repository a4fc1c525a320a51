"""A number of the Marktstammdatenregister, the federal register of every power plant and its
operator ("SEE937104528813": a unit; "ABR…": an operator; "SNB…": a grid operator).

A party's solar panels, wind turbine or biogas plant carries one, and it names the party as
surely as a register number of a firm does (docs/anonymization-policy.md: identifiers). The
shape alone is the evidence: three capitals of the register's kinds and twelve digits, which
no other number decisions print takes. Chosen on the from-scratch dev set (a farm's solar
plant); the 598 training and validation decisions hold none.
"""

from __future__ import annotations

from deid.anonymizer.recognizers.base import Pattern, PatternRecognizer

# the register's prefixes: units (SEE electricity, GEE gas, SVE/GVE consumers, SAN/GAN
# plants, SSE/GSE storage), operators (ABR), grid operators (SNB/GNB)
_KINDS = r"(?:SEE|GEE|SVE|GVE|SAN|GAN|SSE|GSE|ABR|SNB|GNB)"


class MastrNumberRecognizer(PatternRecognizer):
    """A Marktstammdatenregister number by its shape."""

    NAME = "mastr_number"
    LABEL = "PERMIT_NUMBER"
    PATTERNS = (Pattern("mastr", rf"(?<![\w\-]){_KINDS}\d{{12}}(?![\w\-])", 0.85),)
