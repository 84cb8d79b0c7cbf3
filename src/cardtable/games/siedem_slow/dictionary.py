"""The word list: filtered once, compiled into a compact index cached on disk.

A :class:`Dictionary` answers "is this a word, and if not, why not" (not in the list, a
proper noun, an abbreviation, a hyphenated form) and holds, for the solver, a matrix of
how often each consonant occurs in each word (capped at 2, which is all scoring needs).

The Polish list is the SJP spell-checker list from Debian's ``wpolish``
(``/usr/share/dict/polish``); English is ``wamerican``. Any one-word-a-line file can be given
instead. Filtering follows the game's rules (its page's "Words that are not allowed"): entries
with a capital letter are proper nouns, all-capital ones acronyms, lower-case ones that the
morphological analyser reads only as abbreviations (:mod:`.abbreviations`) abbreviations, and
forms with a hyphen or an apostrophe are not allowed.

The index is built on first use (about 15 s for the 4.3 M lines of wpolish) and saved
under the user's cache directory; later loads memory-map it in milliseconds.

>>> d = Dictionary.from_words(["kot", "Kraków", "dom", "np", "e-mail"], language="pl")
>>> "kot" in d, d.problem("kraków"), d.problem("np")
(True, 'proper noun (Kraków)', 'abbreviation')
"""

from __future__ import annotations

import bisect
import hashlib
import json
import multiprocessing
import os
import shutil
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from cardtable.core.errors import OptionError
from cardtable.core.rng import RandomSource, draw_below
from cardtable.games.siedem_slow.abbreviations import abbreviation_test
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.tables import DECKS
from cardtable.locales import Reason, reason

#: Bump when the filter or the index layout changes: old caches are then rebuilt.
INDEX_FORMAT = 5
SYSTEM_LISTS = {"pl": "/usr/share/dict/polish", "en": "/usr/share/dict/american-english"}
DEBIAN_PACKAGE = {"pl": "wpolish", "en": "wamerican"}
CHUNK = 200_000

Progress = Callable[[str], None]
U8 = npt.NDArray[np.uint8]


#: why a word may be refused, by code: the catalogues say it as ``siedem.why.CODE`` (short,
#: for "KOT struck: {why}") and ``pad.why.CODE`` / ``illegal.siedem.word.CODE`` (whole sentences)
PROBLEM_CODES = (
    "empty",
    "hyphen",
    "apostrophe",
    "letters_only",
    "one_word",
    "foreign_letter",
    "abbreviation",
    "proper_noun",
    "not_in_dictionary",
)


class SortedStrings(Sequence[str]):
    """Strings stored as one UTF-8 blob plus offsets; sorted, so ``bisect`` finds a word."""

    __slots__ = ("blob", "offsets")

    def __init__(self, blob: U8, offsets: npt.NDArray[np.int64]) -> None:
        self.blob = blob
        self.offsets = offsets

    @classmethod
    def build(cls, words: Sequence[str]) -> SortedStrings:
        encoded = [w.encode() for w in words]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        blob = np.frombuffer(b"".join(encoded), dtype=np.uint8).copy()
        return cls(blob, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        start, end = int(self.offsets[index]), int(self.offsets[index + 1])
        return self.blob[start:end].tobytes().decode()

    def find(self, word: str) -> int:
        """The index of ``word``, or -1."""
        index = bisect.bisect_left(self, word)
        return index if index < len(self) and self[index] == word else -1

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.find(word) >= 0

    def __iter__(self) -> Iterator[str]:
        for i in range(len(self)):
            yield self[i]


@dataclass(frozen=True)
class Filtered:
    """A raw list split the way the game's rules see it."""

    words: list[str]
    proper: list[str]  # lower-cased forms of capitalised entries (proper nouns)
    abbreviations: list[str]


def _form_problem(text: str) -> str | None:
    """What makes ``text`` no single word at all, whatever the list holds (§8)."""
    if not text:
        return "empty"
    if "-" in text:
        return "hyphen"
    if "'" in text or "’" in text:
        return "apostrophe"
    if not text.replace(" ", "").isalpha():
        return "letters_only"
    if " " in text:
        return "one_word"
    return None


def split_entries(lines: Iterable[str], language: str) -> Filtered:
    """Keep the lower-case words of the alphabet that are no abbreviation (see
    :mod:`.abbreviations`); sort the rest by why not."""
    alphabet = set(DECKS[language].alphabet)
    is_abbreviation = abbreviation_test(language)
    words, proper, abbreviations = set(), set(), set()
    for raw in lines:
        entry = unicodedata.normalize("NFC", raw.strip())
        if not entry or "-" in entry or "'" in entry or " " in entry:
            continue
        lower = entry.lower()
        if not set(lower) <= alphabet:
            continue
        if entry != lower:
            if entry.isupper() and len(entry) > 1:
                abbreviations.add(lower)
            else:
                proper.add(entry)
            continue
        if is_abbreviation(lower):
            abbreviations.add(lower)
            continue
        words.add(lower)
    proper_lower = {p.lower(): p for p in sorted(proper)}
    return Filtered(
        sorted(words),
        sorted(f"{k}\t{v}" for k, v in proper_lower.items() if k not in words),
        sorted(abbreviations - words),
    )


class Dictionary:
    """A filtered word list with its solver index.

    ``counts[r, i]`` is how often ``letters[r]`` occurs in word ``i``, capped at 2;
    ``lengths[i]`` its length in letters (capped at 255).
    """

    def __init__(
        self,
        language: str,
        words: SortedStrings,
        letters: str,
        counts: U8,
        lengths: U8,
        proper: SortedStrings,
        abbreviations: frozenset[str],
        source: str,
    ) -> None:
        self.language = language
        self.words = words
        self.letters = letters
        self.row_of = {letter: row for row, letter in enumerate(letters)}
        self.counts = counts
        self.lengths = lengths
        self.proper = proper
        self.abbreviations = abbreviations
        self.source = source
        self.folder: Path | None = None  # where the index lives on disk, if it does
        #: the ``load_dictionary`` arguments that give this very list in any process
        self.loaded_as: tuple[str, str] | None = None
        self._masks: dict[float, npt.NDArray[np.bool_]] = {}

    def __len__(self) -> int:
        return len(self.words)

    def __reduce__(self) -> str | tuple[Any, ...]:
        # a loaded list travels by name: a worker process opens its own copy of the
        # on-disk index (memory-mapped, shared by the system) instead of receiving ~100 MB
        if self.loaded_as is not None:
            return (load_dictionary, self.loaded_as)
        return super().__reduce__()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.words.find(normalize(word)) >= 0

    def __repr__(self) -> str:
        return f"<Dictionary {self.language} {len(self):,} words from {self.source}>"

    def index_of(self, word: str) -> int:
        return self.words.find(normalize(word))

    def problem(self, word: str) -> Reason | None:
        """Why ``word`` may not be played (said in any language), or None when it may."""
        found = self.problem_code(word)
        return None if found is None else reason(f"siedem.why.{found[0]}", **found[1])

    def problem_code(self, word: str) -> tuple[str, dict[str, str]] | None:
        """Why ``word`` may not be played as a code of :data:`PROBLEM_CODES` with its values (a
        front end says it in its reader's language: ``pad.why.CODE``), or None."""
        text = unicodedata.normalize("NFC", word.strip())
        form = _form_problem(text)
        if form is not None:
            return form, {}
        lower = text.lower()
        foreign = sorted(set(lower) - set(DECKS[self.language].alphabet))
        if foreign:
            return "foreign_letter", {"letters": ", ".join(foreign), "language": self.language}
        if self.words.find(lower) >= 0:
            return None
        if lower in self.abbreviations:
            return "abbreviation", {}
        index = bisect.bisect_left(self.proper, lower + "\t")
        if index < len(self.proper):
            key, _, shown = self.proper[index].partition("\t")
            if key == lower:
                return "proper_noun", {"noun": shown}
        return "not_in_dictionary", {}

    def random_word(self, rng: RandomSource) -> str:
        return self.words[draw_below(rng, len(self.words))]

    # -- frequency pools for the word bots -------------------------------------------------
    def common_mask(self, min_zipf: float) -> npt.NDArray[np.bool_]:
        """Words at least this common by ``wordfreq`` (Zipf scale: 3 = once per million words
        of text), as a boolean mask over the list; computed once per threshold."""
        if min_zipf in self._masks:
            return self._masks[min_zipf]
        saved = None if self.folder is None else self.folder / f"common-{min_zipf:g}.npy"
        if saved is not None and saved.exists():
            self._masks[min_zipf] = np.load(saved)
            return self._masks[min_zipf]
        from wordfreq import get_frequency_dict  # noqa: PLC0415 - 0.6 s import, bots only

        mask = np.zeros(len(self.words), dtype=np.bool_)
        floor = 10.0 ** (min_zipf - 9)
        for word, frequency in get_frequency_dict(self.language).items():
            if frequency >= floor:
                index = self.words.find(normalize(word))
                if index >= 0:
                    mask[index] = True
        self._masks[min_zipf] = mask
        if saved is not None:
            staging = saved.with_suffix(f".tmp{os.getpid()}.npy")
            np.save(staging, mask)
            staging.replace(saved)
        return mask

    # -- building -----------------------------------------------------------------------
    @classmethod
    def from_words(
        cls, lines: Iterable[str], language: str = "pl", source: str = "<words>"
    ) -> Dictionary:
        """A dictionary built in memory (tests, small lists); nothing is cached."""
        arrays = _compile(split_entries(lines, language), language)
        return cls._from_arrays(arrays, language, source)

    @classmethod
    def _from_arrays(cls, arrays: dict[str, Any], language: str, source: str) -> Dictionary:
        return cls(
            language,
            SortedStrings(arrays["word_blob"], arrays["word_offsets"]),
            str(arrays["letters"]),
            arrays["counts"],
            arrays["lengths"],
            SortedStrings(arrays["proper_blob"], arrays["proper_offsets"]),
            frozenset(str(a) for a in arrays["abbreviations"]),
            source,
        )


def _compile(filtered: Filtered, language: str, progress: Progress | None = None) -> dict[str, Any]:
    deck = DECKS[language]
    words = filtered.words
    letters = "".join(ch for ch in deck.alphabet if ch not in deck.vowels)
    lut = np.full(0x2FF, len(letters), dtype=np.int64)
    for row, letter in enumerate(letters):
        lut[ord(letter)] = row
    counts = np.zeros((len(letters), len(words)), dtype=np.uint8)
    lengths = np.zeros(len(words), dtype=np.uint8)
    for start in range(0, len(words), CHUNK):
        chunk = words[start : start + CHUNK]
        size = len(chunk)
        codes = np.frombuffer("".join(chunk).encode("utf-32-le"), dtype=np.uint32)
        sizes = np.fromiter((len(w) for w in chunk), dtype=np.int64, count=size)
        owner = np.repeat(np.arange(size, dtype=np.int64), sizes)
        rows = lut[np.minimum(codes, len(lut) - 1)]
        tally = np.bincount(rows * size + owner, minlength=(len(letters) + 1) * size)
        block = tally[: len(letters) * size].reshape(len(letters), size)
        counts[:, start : start + size] = np.minimum(block, 2)
        lengths[start : start + size] = np.minimum(sizes, 255)
        if progress is not None:
            progress(f"indexed {min(start + size, len(words)):,} of {len(words):,} words")
    word_strings = SortedStrings.build(words)
    proper_strings = SortedStrings.build(filtered.proper)
    return {
        "word_blob": word_strings.blob,
        "word_offsets": word_strings.offsets,
        "letters": letters,
        "counts": counts,
        "lengths": lengths,
        "proper_blob": proper_strings.blob,
        "proper_offsets": proper_strings.offsets,
        "abbreviations": filtered.abbreviations,
    }


# -- the on-disk cache ----------------------------------------------------------------------
_ARRAYS = ("word_blob", "word_offsets", "counts", "lengths", "proper_blob", "proper_offsets")


def cache_root() -> Path:
    """``$CARDTABLE_CACHE_DIR``, else the user's cache directory."""
    override = os.environ.get("CARDTABLE_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs  # noqa: PLC0415 - only when a cache is needed

    return Path(platformdirs.user_cache_dir("cardtable"))


def resolve_source(source: str, language: str) -> Path:
    """``"default"`` is the system list of the language; anything else is a file path."""
    if source in ("default", language, ""):
        path = Path(SYSTEM_LISTS[language])
        if not path.exists():
            package = DEBIAN_PACKAGE[language]
            raise OptionError(
                f"the {language} word list {path} is missing: install it with "
                f"`apt-get install {package}` (make test and make run do), or pass a file "
                "with one word per line"
            )
        return path
    path = Path(source).expanduser()
    if not path.is_file():
        raise OptionError(f"no word list at {path} (a text file with one word per line)")
    return path


def index_dir(path: Path, language: str) -> Path:
    stat = path.stat()
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{language}|{INDEX_FORMAT}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_root() / "dictionaries" / f"{language}-{path.stem}-{digest}"


def build_index(path: Path, language: str, folder: Path, progress: Progress | None = None) -> None:
    """Filter ``path`` and save its index in ``folder`` (written aside, then renamed, so a
    reader never sees half an index)."""
    if progress is not None:
        progress(f"reading {path}")
    with path.open(encoding="utf-8", errors="replace") as handle:
        filtered = split_entries(handle, language)
    arrays = _compile(filtered, language, progress)
    staging = folder.with_name(folder.name + f".tmp{os.getpid()}")
    _remove_abandoned(folder)
    staging.mkdir(parents=True, exist_ok=True)
    for name in _ARRAYS:
        np.save(staging / f"{name}.npy", arrays[name])
    meta = {
        "format": INDEX_FORMAT,
        "language": language,
        "source": str(path),
        "letters": arrays["letters"],
        "abbreviations": arrays["abbreviations"],
        "words": len(filtered.words),
    }
    (staging / "meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    try:
        staging.rename(folder)
    except OSError:  # another process won the race: its index is as good as ours
        for item in staging.iterdir():
            item.unlink()
        staging.rmdir()


def open_index(folder: Path, language: str) -> Dictionary:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    arrays: dict[str, Any] = {
        name: np.load(folder / f"{name}.npy", mmap_mode="r") for name in _ARRAYS
    }
    arrays["letters"] = meta["letters"]
    arrays["abbreviations"] = meta["abbreviations"]
    dictionary = Dictionary._from_arrays(arrays, language, meta["source"])
    dictionary.folder = folder
    return dictionary


def _remove_abandoned(folder: Path) -> None:
    """Half-written indexes of ``folder`` whose process is gone (a server stopped while it
    built one): each is hundreds of megabytes nothing else would remove."""
    if not folder.parent.is_dir():
        return
    for staging in folder.parent.glob(f"{folder.name}.tmp*"):
        pid = staging.name.rsplit(".tmp", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            shutil.rmtree(staging, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # (PermissionError: somebody else's, so running)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _build_aside(path: Path, language: str, folder: Path) -> None:
    """:func:`build_index` in a process of its own: the ~1 GB the Polish list takes while
    it is filtered goes back to the system when it ends, not into a server's heap."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        pool.submit(build_index, path, language, folder).result()


_LOADED: dict[tuple[str, str], Dictionary] = {}
# one load of a list at a time: the server's warm-up and a first table's state, in two
# threads, wait for the same build instead of making it twice; other lists go on
_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def load_dictionary(
    source: str = "default",
    language: str = "pl",
    progress: Progress | None = None,
    *,
    aside: bool = False,
) -> Dictionary:
    """The dictionary of a language (its system list) or of a word-list file, built into
    the cache on first use (``progress`` hears how the build goes; ``aside``: built in a
    process of its own, see :func:`_build_aside`). Kept per process."""
    if language not in DECKS:
        raise OptionError(f"no dictionary language {language!r}; valid: {', '.join(DECKS)}")
    path = resolve_source(source, language)
    key = (str(path.resolve()), language)
    loaded = _LOADED.get(key)
    if loaded is not None:
        return loaded
    with _LOCKS_GUARD:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key not in _LOADED:
            folder = index_dir(path, language)
            if not (folder / "meta.json").exists():
                if aside:
                    _build_aside(path, language, folder)
                else:
                    build_index(path, language, folder, progress)
            loaded = open_index(folder, language)
            loaded.loaded_as = (key[0], language)
            _LOADED[key] = loaded
        return _LOADED[key]


def prepare() -> list[str]:
    """Every language's system dictionary that is installed, loaded (its index built into
    the cache the first time, about 30 s for Polish): the ``PREPARE`` capability."""
    return [
        f"{language} dictionary, {len(load_dictionary('default', language, aside=True)):,} words"
        for language in DECKS
        if Path(SYSTEM_LISTS[language]).exists()
    ]
