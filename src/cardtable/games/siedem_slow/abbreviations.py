"""Which lower-case forms of a word list are abbreviations (games/siedem_slow/pages/siedem-slow.md,
"Words that are not allowed").

The rulebook bans proper nouns, hyphenated words, abbreviations and acronyms — nothing
else. The SJP list marks proper nouns and most acronyms by their capitals, but it also
holds abbreviations in lower case (np, itd, kg, mgr) next to short ordinary words (sen,
ul, ok). The list cannot tell them apart; the Polish morphological analyser can: morfeusz2
(SGJP) gives every reading of a form, and marks abbreviations (``brev``) and acronyms.

A form is an **abbreviation** when morfeusz2 has no ordinary reading of it, nor reads it
as a piece of a fixed phrase, and it has an abbreviation reading or no vowel:

* an *ordinary* reading is a part of speech other than ``brev`` (abbreviation), ``ign``
  (unknown) and ``frag`` (a piece of a fixed phrase: "dawien" of "dawien dawna", "Tel" of
  "Tel Awiw") whose lemma is lower case — noun, verb, interjection (brr, hm), preposition
  (w, z)...; SGJP lists some abbreviations as nouns with a lower-case lemma (mgr, dr,
  bhp) and adjectives (ck): one written with no vowel is not an ordinary reading;
* an *abbreviation* reading is ``brev`` (kg, zł, wg), an acronym or Roman numeral (a
  lemma in capitals: CD, VAT, XX), such a vowel-less noun, or a ``brev`` reading of the
  form followed by a dot (np., itd., prof., ew.);
* a form with no vowel that morfeusz2 does not know is taken for an abbreviation too
  (ćw, gł, śr, pdf); the interjections it knows (brr, hm, pst) are words.

Any other form stays a word: the SJP list has it in lower case. So sen, lek, ul, min,
por, ok (each an ordinary noun form) and tel (a piece of "Tel Awiw" to morfeusz2; "tel."
abbreviates telefon only with its dot) are words; np, itd, kg, mgr, cd are not.

Over the whole SJP list (4.0 M lower-case forms) this marks about 400 forms, none longer
than 5 letters, so only forms of up to :data:`MAX_LENGTH` letters are analysed (the whole
list would take two minutes instead of three seconds).

Languages without an analyser (English) keep a plain rule: a form with no vowel letter
(a, e, i, o, u, y), or one of the Latin abbreviations the list holds in lower case.

>>> is_abbreviation = abbreviation_test("pl")
>>> [w for w in ("sen", "ul", "ok", "tel", "brr", "np", "itd", "kg", "mgr", "cd")
...  if is_abbreviation(w)]
['np', 'itd', 'kg', 'mgr', 'cd']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from cardtable.games.siedem_slow.tables import DECKS

#: Forms longer than this are never analysed (the longest abbreviation of the SJP list
#: has 5 letters).
MAX_LENGTH = 6
#: Abbreviations an English spell-checker list holds in lower case (no analyser for it).
LATIN_ABBREVIATIONS = frozenset(["etc", "ie", "eg"])


class Reading(StrEnum):
    """What one morfeusz2 reading of a whole form says about it."""

    ORDINARY = "ordinary"
    ABBREVIATION = "abbreviation"
    PROPER = "proper"  # a proper noun's form; the list has it in lower case too
    FRAGMENT = "fragment"
    UNKNOWN = "unknown"


@functools.cache
def analyser_for(language: str) -> Any | None:
    """The morphological analyser of a language (morfeusz2 for Polish), loaded once."""
    if language != "pl":
        return None
    import morfeusz2  # noqa: PLC0415 - a 20 MB library: loaded when Polish is needed

    return morfeusz2.Morfeusz(expand_tags=False)


def readings(analyser: Any, form: str) -> set[Reading]:
    """How morfeusz2 reads ``form`` as one segment (readings that split it are skipped)."""
    vowels = DECKS["pl"].vowels
    found = set()
    for start, end, (_orth, lemma, tag, *_rest) in analyser.analyse(form):
        if start != 0 or end != 1:
            continue
        part = tag.split(":")[0]
        base = lemma.split(":")[0]
        if part == "ign":
            found.add(Reading.UNKNOWN)
        elif part == "frag":
            found.add(Reading.FRAGMENT)
        elif part == "brev" or (len(base) > 1 and base.isupper()):
            found.add(Reading.ABBREVIATION)
        elif base[:1].isupper():
            found.add(Reading.PROPER)
        elif part in ("subst", "adj") and not any(ch in vowels for ch in form):
            found.add(Reading.ABBREVIATION)  # SGJP lists mgr, dr, bhp, ck so
        else:
            found.add(Reading.ORDINARY)
    return found


def analysed_abbreviation(analyser: Any, form: str) -> bool:
    """The rule of this module for one lower-case form (see the module's text)."""
    if len(form) > MAX_LENGTH:
        return False
    found = readings(analyser, form)
    if Reading.ORDINARY in found or Reading.FRAGMENT in found:
        return False
    if Reading.ABBREVIATION in found or not any(ch in DECKS["pl"].vowels for ch in form):
        return True
    return Reading.ABBREVIATION in readings(analyser, form + ".")


def abbreviation_test(language: str) -> Callable[[str], bool]:
    """``test(form)``: is this lower-case form of the language's list an abbreviation?"""
    analyser = analyser_for(language)
    if analyser is not None:
        return functools.partial(analysed_abbreviation, analyser)
    vowels = DECKS[language].vowels | {"y"}  # by, my, rhythm are words
    return lambda form: form in LATIN_ABBREVIATIONS or not any(ch in vowels for ch in form)
