"""Network text made plain: control characters removed (the desk's `tui.text` and the alert
rules' messages both use it)."""

from __future__ import annotations

import re
import unicodedata

# C0 and C1 controls, DEL, and the bidi overrides that can reorder what a trader reads.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(value: object) -> str:
    """The text with every control character removed (tabs and newlines become spaces)."""
    text = "" if value is None else str(value)
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    text = _CONTROL.sub("", text)
    # Drop any other format/control code points the regex does not list.
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs"))


#: Letters NFKD leaves whole: written as a reader without them types them (`bodo`, `tromso`).
_FOLDED = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
     "ı": "i", "ħ": "h", "ŧ": "t"}
)  # fmt: skip


def fold(text: str) -> str:
    """Text for matching, the one fold of the desk's find and the service's search: case
    folded, accents removed, and the letters without a decomposition spelt out (`bodo` finds
    `Bodø`, `zurich` `Zürich`, `lodz` `Łódź`)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold()).translate(_FOLDED)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
