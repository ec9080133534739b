"""The words are read once, by whichever thread speaks first: a server answers requests on many threads at once, and
a language asked for by two at the same moment must be whole for both (not English for the one that came second)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # Python processes of their own

# A fresh interpreter (no catalogue read yet): threads held at a barrier ask for the same languages at once.
_RACE = """
import threading
from dreizehn.words import words

barrier = threading.Barrier(12)
said = []

def speak(lang):
    barrier.wait()
    said.append((lang, words(lang).catalogue()["web.account.sign_up"], words(lang)("knizia13.title")))

threads = [threading.Thread(target=speak, args=(lang,)) for lang in ("de", "nl", "en") * 4]
for t in threads:
    t.start()
for t in threads:
    t.join()
for entry in sorted(set(said)):
    print(*entry, sep="|")
"""


def test_languages_asked_for_at_once_by_many_threads_are_each_whole() -> None:
    from dreizehn.words import words
    expected = {f"{lang}|{words(lang).catalogue()['web.account.sign_up']}|{words(lang)('knizia13.title')}"
                for lang in ("de", "nl", "en")}
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", _RACE], capture_output=True, text=True, check=True).stdout
        assert set(out.splitlines()) == expected
