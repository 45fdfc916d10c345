"""The problem loader: the real folders load, and a broken folder names the file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge import languages
from judge.problem import loader
from judge.problem.loader import load_problem
from judge.problem.schema import ProblemError
from judge.verdicts import Verdict

CORE = ["vector-add", "reduction", "softmax", "matmul", "flash-attention"]
SIGNATURES = {
    "vector-add": (
        "a, b, c, n",
        'extern "C" void solve(const float* a, const float* b, float* c, int n)',
    ),
    "reduction": ("x, out, n", 'extern "C" void solve(const float* x, float* out, int n)'),
    "softmax": (
        "x, y, rows, cols",
        'extern "C" void solve(const float* x, float* y, int rows, int cols)',
    ),
    "matmul": (
        "a, b, c, m, n, k",
        'extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k)',
    ),
    "flash-attention": (
        "q, k, v, o, b, h, s, d",
        'extern "C" void solve(const half* q, const half* k, '
        "const half* v, half* o, int b, int h, int s, int d)",
    ),
}


def test_core_problems_load_with_contract_signatures() -> None:
    report = loader.load_all(loader.REPO_PROBLEMS)
    assert report.errors == []
    by_slug = {p.slug: p for p in report.problems}
    for slug in CORE:
        p = by_slug[slug]
        py, cu = SIGNATURES[slug]
        assert languages.require("triton").signature(p) == f"def solve({py}):"
        assert languages.require("cuda").signature(p) == cu
        verdicts = {s.expected for s in p.samples}
        assert Verdict.ACCEPTED in verdicts and Verdict.WRONG_ANSWER in verdicts
        # Each of these languages has an accepted and a rejected sample of every core problem
        # (#19, #38); Mojo (#38) has none for flash-attention yet.
        for verdict_set in (
            {s.language for s in p.samples if s.expected == Verdict.ACCEPTED},
            {s.language for s in p.samples if s.expected != Verdict.ACCEPTED},
        ):
            assert {"triton", "cuda", "pytorch", "numba", "pallas", "helion"} <= verdict_set, (
                slug,
                verdict_set,
            )
        loader.load_reference(p)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    dst = tmp_path / "vector-add"
    shutil.copytree(loader.REPO_PROBLEMS / "vector-add", dst)
    return dst


def _edit(folder: Path, old: str, new: str) -> None:
    toml = folder / "problem.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ('difficulty = "easy"', 'difficulty = "trivial"', "difficulty", "expected one of"),
        ('difficulty = "easy"', "difficulty = 3", "difficulty", "expected a string"),
        (
            'dtype = "float32", shape = ["n"] },',
            'dtype = "float33", shape = ["n"] },',
            "signature.args[0].dtype",
            "float33",
        ),
        ('shape = ["n"] },', 'shape = ["m"] },', "signature.args[0].shape", "not int arguments"),
        ("\nrtol = 1e-6", '\nrtol = "tight"', "check.rtol", "expected an integer or a number"),
        ('title = "Vector Addition"', 'titel = "Vector Addition"', "title", "missing"),
        ('\nbytes = "12 * n"', '\nbytes = "12 * n; import os"', "roofline.bytes", "arithmetic"),
        (
            '[[tests]]\nname = "n = 1"\nn = 1',
            '[[tests]]\nname = "n = 1"\nn = 0',
            "tests[0].n",
            "at least 1",
        ),
        (
            '[[tests]]\nname = "n = 1"\nn = 1',
            '[[tests]]\nname = "n = 1"\nsize = 1',
            "tests[0].n",
            "missing",
        ),
    ],
)
def test_broken_field_is_named(folder: Path, old: str, new: str, field: str, words: str) -> None:
    _edit(folder, old, new)
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    err = info.value
    assert err.file.endswith("problem.toml")
    assert err.field == field
    assert words in str(err)


def test_unknown_field_is_named(folder: Path) -> None:
    _edit(folder, "[check]\n", "[check]\nrtoll = 1.0\n")
    with pytest.raises(ProblemError, match=r"problem\.toml: check\.rtoll: unknown field"):
        load_problem(folder)


def test_invalid_toml_and_missing_files(folder: Path) -> None:
    (folder / "statement.md").unlink()
    with pytest.raises(ProblemError, match=r"statement\.md: file not found"):
        load_problem(folder)
    (folder / "problem.toml").write_text("title = [unclosed")
    with pytest.raises(ProblemError, match=r"problem\.toml: not valid TOML"):
        load_problem(folder)


def test_rejected_sample_must_declare_its_verdict(folder: Path) -> None:
    (folder / "solutions" / "rejected" / "mystery.py").write_text(
        "def solve(a, b, c, n):\n    pass\n"
    )
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert info.value.file.endswith("mystery.py") and info.value.field == "expect"
    (folder / "solutions" / "rejected" / "mystery.py").write_text("# expect: wrong_anwser\n")
    with pytest.raises(ProblemError, match="unknown verdict 'wrong_anwser'"):
        load_problem(folder)


def test_broken_folder_does_not_hide_the_others(folder: Path) -> None:
    good = folder.parent / "vector-add-copy"
    shutil.copytree(folder, good)
    _edit(folder, 'difficulty = "easy"', 'difficulty = "trivial"')
    report = loader.load_all(folder.parent)
    assert [p.slug for p in report.problems] == ["vector-add-copy"]
    assert len(report.errors) == 1 and report.errors[0].field == "difficulty"


def test_reference_must_define_generate(folder: Path) -> None:
    (folder / "reference.py").write_text("def reference(inputs, params):\n    return {}\n")
    with pytest.raises(ProblemError, match=r"reference\.py: generate: must define"):
        loader.load_reference(load_problem(folder))


def test_resolve_unknown_slug_lists_known() -> None:
    with pytest.raises(ProblemError, match=r"no such problem.*vector-add"):
        loader.resolve("vector-addd", loader.REPO_PROBLEMS)


def test_rejected_sample_may_declare_its_message(folder: Path) -> None:
    rejected = folder / "solutions" / "rejected"
    (rejected / "no_mask.py").write_text(
        "# expect: wrong_answer\n# expect-message:  c: wrote past the end  \n# Bug: ...\n"
    )
    (rejected / "no_check.cu").write_text(
        "// Bug: no bounds check.\n// expect-message: c: wrote past the end, at c[n]\n"
        "// expect: wrong_answer\n"
    )
    (rejected / "wrong_answer_late.py").write_text("#\n" * 10 + "# expect-message: too late\n")
    by_name = {s.path.name: s for s in load_problem(folder).samples}
    s = by_name["no_mask.py"]
    assert s.expected == Verdict.WRONG_ANSWER and s.expected_message == "c: wrote past the end"
    assert s.message_ok("8 of 10 cases failed; first: n = 1: c: wrote past the end, at c[n]")
    assert not s.message_ok("8 of 10 cases failed; first: n = 1: max error 1.0 at c[3]")
    assert not s.message_ok(None)
    cu = by_name["no_check.cu"]
    assert cu.expected == Verdict.WRONG_ANSWER
    assert cu.expected_message == "c: wrote past the end, at c[n]"
    # Only the first ten lines are a header; without the line, any message will do.
    late = by_name["wrong_answer_late.py"]
    assert late.expected == Verdict.WRONG_ANSWER and late.expected_message is None
    assert late.message_ok("anything") and late.message_ok(None)
    assert by_name["wrong_answer_tail.py"].expected_message is None
    assert all(s.expected_message is None for s in by_name.values() if "accepted" in str(s.path))


def test_empty_expected_message_is_an_error(folder: Path) -> None:
    (folder / "solutions" / "rejected" / "wrong_answer_x.py").write_text(
        "# expect-message:\ndef solve(a, b, c, n):\n    pass\n"
    )
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert info.value.file.endswith("wrong_answer_x.py")
    assert info.value.field == "expect-message"


def test_core_problems_have_guard_band_samples_with_messages() -> None:
    by_slug = {p.slug: p for p in loader.load_all(loader.REPO_PROBLEMS).problems}
    for slug in CORE:
        samples = {s.path.name: s for s in by_slug[slug].samples}
        for name in ("wrong_answer_no_mask.py", "wrong_answer_no_bounds_check.cu"):
            s = samples[name]
            assert s.expected == Verdict.WRONG_ANSWER, (slug, name)
            assert s.expected_message and "wrote past the end" in s.expected_message, (slug, name)


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        (
            "[check]\n",
            '[check]\nchecker = "closest"\n',
            "check.checker",
            "unknown checker 'closest'",
        ),
        ("[check]\n", '[check]\nchecker = "exact"\n', "check.atol", "unknown field for the exact"),
        (
            "[check]\n",
            '[check]\nchecker = "argmax"\n',
            "check.atol",
            "unknown field for the argmax checker",
        ),
        ('track = "foundations"', 'track = "basics"', "track", "expected one of"),
        ("order = 1\n", 'order = 1\nprerequisites = ["Vector Add"]\n', "prerequisites[0]", "slug"),
        (
            "order = 1\n",
            'order = 1\nprerequisites = ["vector-add"]\n',
            "prerequisites[0]",
            "cannot require itself",
        ),
        ('role = "output"', 'role = "result"', "signature.args[2].role", "'inout'"),
    ],
)
def test_broken_check_track_and_role_are_named(
    folder: Path, old: str, new: str, field: str, words: str
) -> None:
    test_broken_field_is_named(folder, old, new, field, words)


def _rewrite_as_sort(folder: Path, check: str) -> None:
    """vector-add's folder with an in-place sort's signature and the given [check] table."""
    text = (folder / "problem.toml").read_text()
    head, rest = text.split("[signature]", 1)
    tail = rest[rest.index("\n[roofline]") :]
    (folder / "problem.toml").write_text(
        head
        + "[signature]\nargs = [\n"
        + '  { name = "keys", role = "inout", dtype = "uint32", shape = ["n"] },\n'
        + '  { name = "vals", role = "inout", dtype = "int32", shape = ["n"] },\n'
        + '  { name = "n", role = "int" },\n]\n\n'
        + check
        + "\n"
        + tail
    )


def test_in_place_arguments_and_checker_options(folder: Path) -> None:
    _rewrite_as_sort(folder, '[check]\nchecker = "sorted_stable"\nkeys = "keys"\nvalues = "vals"\n')
    p = load_problem(folder)
    assert p.check.checker == "sorted_stable" and p.check.option("values") == "vals"
    assert [a.name for a in p.inputs] == [a.name for a in p.outputs] == ["keys", "vals"]
    assert (
        languages.require("cuda").signature(p)
        == 'extern "C" void solve(unsigned int* keys, int* vals, int n)'
    )
    (folder / "starter" / "solution.py").unlink()  # the generated starter names the roles
    assert "in place keys [n] uint32, vals [n] int32" in languages.require("triton").starter(p)


@pytest.mark.parametrize(
    ("check", "field", "words"),
    [
        ('checker = "sorted_stable"\nkeys = "keys"\n', "check.values", "missing"),
        (
            'checker = "sorted_stable"\nkeys = "keys"\nvalues = "v"\n',
            "check.values",
            "not an output",
        ),
        (
            'checker = "sorted_stable"\nkeys = "keys"\nvalues = "keys"\n',
            "check.values",
            "different",
        ),
        (
            'checker = "compaction"\nvalues = "keys"\ncount = "vals"\n',
            "check.count",
            'of shape ["1"]',
        ),
        ('checker = "argmax"\n', None, None),
    ],
)
def test_checker_options_are_validated(
    folder: Path, check: str, field: str | None, words: str | None
) -> None:
    _rewrite_as_sort(folder, "[check]\n" + check)
    if field is None:
        load_problem(folder)  # integer outputs: argmax applies
        return
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert info.value.field == field and words is not None and words in str(info.value)


def test_argmax_refuses_float_outputs(folder: Path) -> None:
    _edit(folder, "[check]\n", '[check]\nchecker = "argmax"\n')
    text = (folder / "problem.toml").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("rtol", "atol")))
    (folder / "problem.toml").write_text(text)
    with pytest.raises(ProblemError, match=r"check\.checker: argmax checks integer index outputs"):
        load_problem(folder)


def test_prerequisites_must_exist_and_not_form_a_cycle(folder: Path) -> None:
    other = folder.parent / "vector-sub"
    shutil.copytree(folder, other)
    _edit(folder, "order = 1\n", 'order = 1\nprerequisites = ["vector-sub"]\n')
    _edit(other, "order = 1\n", 'order = 1\nprerequisites = ["vector-mul"]\n')
    report = loader.load_all(folder.parent)
    assert [p.slug for p in report.problems] == ["vector-add"]
    assert [(e.field, "vector-mul" in str(e)) for e in report.errors] == [
        ("prerequisites[0]", True)
    ]
    _edit(other, 'prerequisites = ["vector-mul"]', 'prerequisites = ["vector-add"]')
    report = loader.load_all(folder.parent)
    assert report.problems == []
    assert {e.field for e in report.errors} == {"prerequisites"}
    assert "a cycle: vector-add -> vector-sub -> vector-add" in str(report.errors[0])
