"""A made-up language put into the registry for one test: what reads the registry shows it,
what hard-codes the list does not."""

from __future__ import annotations

from typing import ClassVar

import pytest

from judge import languages
from judge.languages.base import Language
from judge.problem.schema import Problem


class Fake(Language):
    name: ClassVar[str] = "fakelang"
    label: ClassVar[str] = "FakeLang"
    menu_label: ClassVar[str] = "FakeLang (test)"
    suffix: ClassVar[str] = ".fk"
    editor_mode: ClassVar[str] = "python"
    comment: ClassVar[str] = "#"
    runs_on_cpu: ClassVar[bool] = True

    def signature(self, problem: Problem) -> str:
        return f"fake solve({' '.join(a.name for a in problem.args)})"

    def generate_starter(self, problem: Problem) -> str:
        return "# fake starter\n"


def register(monkeypatch: pytest.MonkeyPatch) -> Language:
    lang = Fake()
    monkeypatch.setattr(languages, "_ALL", (*languages.all(), lang))
    monkeypatch.setattr(languages, "_BY_NAME", {**languages._BY_NAME, lang.name: lang})
    monkeypatch.setattr(languages, "_BY_SUFFIX", {**languages._BY_SUFFIX, lang.suffix: lang})
    return lang
