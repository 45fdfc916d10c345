"""The judge's self-test (judge/doctor.py): a language whose library is broken on this host is
unavailable, with an error that names the library's file package-relative (never the host's
site-packages path); a known-good sample comes from the registry; a failed grading of it is the
host's fault too."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from judge import doctor, grader, languages
from judge.languages.python import PythonLanguage
from judge.problem import loader
from judge.results import GradeResult
from judge.verdicts import Verdict
from tests.broken_env import ERROR, broken_package


class Broken(PythonLanguage):
    """A registered language whose package's import raises inside the library."""

    name: ClassVar[str] = "brokenlang"
    label: ClassVar[str] = "BrokenLang"
    menu_label: ClassVar[str] = "BrokenLang (test)"
    starter_stem: ClassVar[str] = "brokenlang"
    packages: ClassVar[frozenset[str]] = frozenset({"numpy", "kdbroken"})


def _register(monkeypatch: pytest.MonkeyPatch, lang: Any) -> None:
    monkeypatch.setattr(languages, "_ALL", (*languages.all(), lang))
    monkeypatch.setattr(languages, "_BY_NAME", {**languages._BY_NAME, lang.name: lang})


def _on_path(monkeypatch: pytest.MonkeyPatch, site: Path, name: str) -> None:
    """``site`` first on sys.path, no ``name`` imported yet (restored afterwards)."""
    monkeypatch.syspath_prepend(str(site))
    for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        monkeypatch.delitem(sys.modules, mod)


def test_a_registered_language_whose_library_raises_on_import_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _on_path(monkeypatch, broken_package(tmp_path, "kdbroken"), "kdbroken")
    _register(monkeypatch, Broken())
    heard: list[doctor.LanguageStatus] = []
    report = doctor.run("cpu", ["brokenlang"], on_status=heard.append)
    [status] = report.languages
    assert heard == [status]
    assert (status.status, status.available, report.ok) == ("unavailable", False, False)
    assert status.verdict is None  # not graded: its import failed
    assert status.error.startswith("import kdbroken: AttributeError: " + ERROR)
    assert "raised in kdbroken/_core.py, line 5, in _register" in status.error
    assert str(tmp_path) not in status.error and "site-packages" not in status.error
    assert report.environment["packages"]["numpy"]
    assert report.to_dict()["languages"][0]["status"] == "unavailable"


def test_a_broken_numba_on_the_path_makes_numba_unavailable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _on_path(monkeypatch, broken_package(tmp_path), "numba")
    error = doctor.import_error(languages.require("numba"))
    assert error is not None and ERROR in error and "numba/_core.py" in error
    assert str(tmp_path) not in error
    assert doctor.import_error(languages.require("triton")) is None


def test_each_registered_language_has_its_known_good_sample() -> None:
    problem = doctor.sample_problem()
    for lang in languages.all():
        sample = doctor.known_good(problem, lang)
        assert sample is not None, lang.name
        assert sample.path.name == f"{lang.name}_simple{lang.suffix}"
        assert sample.expected == Verdict.ACCEPTED


def test_the_sample_problem_falls_back_to_the_repositorys(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KERNELDOJO_PROBLEMS", str(tmp_path))  # a class's own problems only
    assert doctor.sample_problem().path == loader.REPO_PROBLEMS / "vector-add"


def test_what_a_known_good_sample_must_get() -> None:
    cuda, triton = languages.require("cuda"), languages.require("triton")
    assert doctor.expected_verdict(cuda, "cpu") == Verdict.NOT_RUN  # compiled only
    assert doctor.expected_verdict(cuda, "cuda") == Verdict.ACCEPTED
    assert doctor.expected_verdict(triton, "cpu") == Verdict.ACCEPTED


def test_a_known_good_sample_that_fails_makes_its_language_unavailable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba-cuda on NumPy 2.5: the sample's kernel launch raised inside the library."""
    host = "/opt/torch/.venv/lib/python3.12/site-packages/numba_cuda/numba/cuda/dispatcher.py"

    def grade(problem: Any, source: str, language: str, **kw: Any) -> GradeResult:
        assert kw["mode"] == "run" and kw["device"] == "cpu"
        return GradeResult(
            Verdict.RUNTIME_ERROR, problem.slug, language, "cpu-interpreter", f"{ERROR} in {host}"
        )

    monkeypatch.setattr(grader, "grade", grade)
    status = doctor.LanguageStatus("numba", "Numba")
    doctor.grade_sample(status, languages.require("numba"), doctor.sample_problem(), "cpu")
    assert (status.status, status.verdict) == ("unavailable", "runtime_error")
    assert status.sample == "vector-add/solutions/accepted/numba_simple.py"
    assert "got runtime_error, not accepted" in status.error
    assert "numba_cuda/numba/cuda/dispatcher.py" in status.error
    assert "/opt/torch" not in status.error and "site-packages" not in status.error


def test_a_grader_that_raises_is_the_hosts_fault_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def grade(*_: Any, **__: Any) -> GradeResult:
        raise RuntimeError("no ptxas")

    monkeypatch.setattr(grader, "grade", grade)
    status = doctor.LanguageStatus("triton", "Triton")
    doctor.grade_sample(status, languages.require("triton"), doctor.sample_problem(), "cpu")
    assert status.status == "unavailable"
    assert status.error.startswith("grading its known-good sample: RuntimeError: no ptxas")


def test_a_language_without_a_known_good_sample_is_untested_and_available(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lang = Broken()
    monkeypatch.setattr(Broken, "packages", frozenset({"numpy"}))
    status = doctor.LanguageStatus(lang.name, lang.label)
    doctor.grade_sample(status, lang, doctor.sample_problem(), "cpu")
    assert (status.status, status.available) == ("untested", True)
    assert "no accepted BrokenLang sample in vector-add" in status.error


def test_unknown_languages_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        doctor.chosen(["cobol"])
