"""Timed runs checked at sampled positions (sampled.py): the hook's answers agree with the full
reference, a misuse names the folder's file and hook, and the check catches what the full one
would on the rows it samples plus unwritten outputs anywhere."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from judge.problem import loader
from judge.problem.schema import ProblemError
from judge.timing import sampled


@pytest.fixture(scope="module")
def fa() -> tuple[object, object]:
    p = loader.resolve("flash-attention")
    return p, loader.load_reference(p)


@pytest.mark.parametrize("shape", [(1, 1, 1, 16), (2, 3, 77, 32), (1, 2, 130, 64)])
def test_flash_attention_sample_agrees_with_the_full_reference(
    fa: tuple[object, object], shape: tuple[int, int, int, int]
) -> None:
    p, ref = fa
    params = dict(zip("bhsd", shape, strict=True))
    gen = torch.Generator().manual_seed(7)
    inputs = loader.call_generate(ref, p, params, "random", gen, torch.device("cpu"))
    full = ref.reference(inputs, params)["o"].reshape(-1).double()
    s = sampled.make(ref, p, inputs, params, gen)["o"]
    assert s.idx.numel() == 32 * params["d"]
    assert torch.allclose(full[s.idx], s.values, rtol=1e-6, atol=1e-7)
    # the check passes the full reference's answer and catches a wrong row
    got = full.float().reshape(shape)
    assert sampled.compare("o", got, s, p.check)[0]
    wrong = got.clone().reshape(-1)
    wrong[s.idx[: params["d"]]] += 0.5
    ok, message, _ = sampled.compare("o", wrong.reshape(shape), s, p.check)
    assert not ok and "secret positions" in message


def test_an_unwritten_element_anywhere_fails(fa: tuple[object, object]) -> None:
    p, ref = fa
    params = {"b": 1, "h": 2, "s": 64, "d": 16}
    gen = torch.Generator().manual_seed(3)
    inputs = loader.call_generate(ref, p, params, "random", gen, torch.device("cpu"))
    got = ref.reference(inputs, params)["o"].clone()
    s = sampled.make(ref, p, inputs, params, gen)["o"]
    unsampled = next(i for i in range(got.numel()) if i not in set(s.idx.tolist()))
    got.view(-1)[unsampled] = float("nan")
    ok, message, _ = sampled.compare("o", got, s, p.check)
    assert not ok and "poisoned" in message and f"flat index {unsampled}" in message


@pytest.mark.parametrize(
    "answer",
    [
        None,
        {"o": "nope"},
        {"o": (torch.tensor([0, 1], dtype=torch.int32), torch.zeros(2))},
        {"o": (torch.tensor([0, 10**9]), torch.zeros(2))},
        {"o": (torch.tensor([0, 1]), torch.zeros(3))},
        {},
    ],
)
def test_a_wrong_hook_answer_names_the_file_and_hook(
    fa: tuple[object, object], answer: object
) -> None:
    p, _ = fa
    fake = SimpleNamespace(reference_sample=lambda inputs, params, gen: answer)
    with pytest.raises(ProblemError) as e:
        sampled.make(fake, p, {}, {"b": 1, "h": 1, "s": 8, "d": 16}, None)
    assert "reference.py" in str(e.value) and "reference_sample" in str(e.value)


def test_probe_positions_are_among_the_sampled_ones(fa: tuple[object, object]) -> None:
    p, ref = fa
    params = {"b": 1, "h": 1, "s": 40, "d": 16}
    gen = torch.Generator().manual_seed(5)
    inputs = loader.call_generate(ref, p, params, "random", gen, torch.device("cpu"))
    s = sampled.make(ref, p, inputs, params, gen)["o"]
    idx, finite = sampled.probe_positions(torch.zeros(40 * 16), s, 64)
    assert set(idx.tolist()) <= set(s.idx.tolist()) and bool(finite.all())
