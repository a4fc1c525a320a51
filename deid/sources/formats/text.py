"""Plain text (UTF-8, Windows-1252, UTF-16 with a byte-order mark): the text is the file
decoded exactly (``deid.sources.io.decode_text``), so offsets index the file as its user reads it."""

from __future__ import annotations

from collections.abc import Sequence

from deid.sources.formats.base import DocumentFormat, Parsed, Replacement
from deid.sources.io import DEFAULT_MAX_BYTES, decode_text
from deid.sources.textedit import apply_replacements


class TextFormat(DocumentFormat):
    name = "text"
    suffixes = (".txt",)
    media_type = "text/plain; charset=utf-8"

    def parse(self, data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Parsed:
        text, codec = decode_text(data, name=name, max_bytes=max_bytes)
        return Parsed(text, {"encoding": codec})  # no "format" key: text is the default

    def write(self, data: bytes, replacements: Sequence[Replacement], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
        """UTF-8 (with its byte-order mark when the input had one): every replacement an
        operator makes (a mask character, a label) can be written, which a Windows-1252
        file could not always hold."""
        text, codec = decode_text(data, max_bytes=max_bytes)
        new_text = apply_replacements(text, list(replacements))[0]
        return new_text.encode("utf-8-sig" if codec == "utf-8-sig" else "utf-8")


TEXT = TextFormat()
