"""The word-family rule (games/siedem_slow/pages/siedem-slow.md, "The word-family rule"): no
word of a family used before.

Two layers, as the rules file recommends:

* a **hard block** on a shared lemma: the morphological analyser ``morfeusz2`` (it ships
  the SGJP dictionary) maps every inflected form to its lemmas, so śmiechy, śmiech and
  "śmiechowi" are one word; and
* a **soft warning** when two words share a root: after stripping a known prefix, a
  common beginning of at least 4 letters (3 when one of them *is* that short root, as
  dom in przydomowy). Software cannot settle derivation reliably, so a warning is never a
  rejection: the players settle it by a challenge and a vote.

Languages without an analyser (English) compare the words themselves for the hard block.

>>> families = families_for("pl")
>>> families.same_lemma("śmiechy", "śmiech"), families.same_lemma("dom", "domowy")
(True, False)
>>> families.shared_root("dom", "przydomowy"), families.shared_root("kot", "dom")
('dom', None)
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from cardtable.games.siedem_slow.abbreviations import analyser_for
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.tables import DECKS

PREFIXES = {
    "pl": (
        "przed", "prze", "przy", "naj", "nie", "roz", "pod", "wy", "za", "na", "po", "od",
        "do", "ob", "u", "w", "z", "s", "ś", "o",
    ),
    "en": ("under", "over", "re", "un", "dis", "pre", "mis", "in", "im"),
}  # fmt: skip
#: Infinitive endings: the verb's stem is compared with the other word (śmiać -> śmi).
VERB_ENDINGS = {
    "pl": ("ować", "ywać", "iwać", "ać", "eć", "ić", "yć", "ąć", "uć", "ść", "źć", "c"),
    "en": (),
}
ROOT_MIN = 4
SHORT_ROOT = 3


class Families(Protocol):
    """What the game asks of a morphology: lemmas and shared roots (tests inject fakes)."""

    def lemmas(self, word: str) -> frozenset[str]: ...

    def same_lemma(self, first: str, second: str) -> bool: ...

    def shared_root(self, first: str, second: str) -> str | None: ...


class StemFamilies:
    """Lemmas from an analyser when there is one; roots by prefix stripping."""

    def __init__(self, language: str, analyser: Any | None = None) -> None:
        self.language = language
        self.analyser = analyser
        self.prefixes = PREFIXES.get(language, ())
        self.verb_endings = VERB_ENDINGS.get(language, ())
        self.vowels = DECKS[language].vowels
        self._lemmas = functools.lru_cache(maxsize=65536)(self._compute_lemmas)

    def __reduce__(self) -> tuple[Any, ...]:
        # the analyser (a SWIG object) cannot travel: a worker process loads its own, so
        # only the language's shared checker can be sent, by name
        if self.analyser is not analyser_for(self.language):
            raise TypeError("only families_for(language) can be pickled")
        return (families_for, (self.language,))

    def lemmas(self, word: str) -> frozenset[str]:
        return self._lemmas(normalize(word))

    def _compute_lemmas(self, word: str) -> frozenset[str]:
        if self.analyser is None:
            return frozenset({word})
        found = set()
        for start, _end, (_orth, lemma, tag, *_rest) in self.analyser.analyse(word):
            # only the first segment names the word: "śmialiśmy" is śmiać + the aglt "-śmy"
            if start == 0 and tag != "ign":
                found.add(lemma.split(":")[0].lower())
        return frozenset(found or {word})

    def same_lemma(self, first: str, second: str) -> bool:
        return bool(self.lemmas(first) & self.lemmas(second))

    def roots(self, word: str) -> set[str]:
        """The word and its lemmas, verbs also without their infinitive ending, each also
        without a known prefix."""
        forms = {normalize(word), *self.lemmas(word)}
        for form in list(forms):
            for ending in self.verb_endings:
                if form.endswith(ending) and len(form) - len(ending) >= SHORT_ROOT:
                    forms.add(form[: -len(ending)])
                    break
            if len(form) > SHORT_ROOT and form[-1] in self.vowels:
                forms.add(form[:-1])
        out = set()
        for form in forms:
            out.add(form)
            for prefix in self.prefixes:
                if form.startswith(prefix) and len(form) - len(prefix) >= SHORT_ROOT:
                    out.add(form[len(prefix) :])
        return out

    def shared_root(self, first: str, second: str) -> str | None:
        """A root the two words seem to share (a warning, never proof), or None.

        The shared beginning must be a whole root of one word, or have at least 4 letters
        of which 3 follow any known prefix (a shared "prze-" alone is no family)."""
        best = ""
        for a in self.roots(first):
            for b in self.roots(second):
                common = _common_prefix(a, b)
                if len(common) <= len(best) or len(common) < SHORT_ROOT:
                    continue
                whole = len(common) in (len(a), len(b))
                if whole or (len(common) >= ROOT_MIN and self._beyond_prefix(common) >= 3):
                    best = common
        return best or None

    def _beyond_prefix(self, common: str) -> int:
        longest = max((len(p) for p in self.prefixes if common.startswith(p)), default=0)
        return len(common) - longest


def _common_prefix(a: str, b: str) -> str:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return a[:size]


@functools.cache
def families_for(language: str) -> StemFamilies:
    """The family checker of a language (morfeusz2 for Polish, loaded once)."""
    return StemFamilies(language, analyser_for(language))
