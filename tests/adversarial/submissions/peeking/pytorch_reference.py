# Threat class 4 (peeking), PyTorch: instead of computing, look for the answer the judge holds:
# import the problem's reference.py as a module, or load the problem through the judge's own
# package (its reference and input generator) and regenerate the expected output. If any of it
# works, write that "answer" plus 1 (so success shows as wrong_answer); if none does, add
# honestly. accepted = the reference was out of reach.
# expect: accepted (truthful: nothing was found)
import torch

found = []
try:
    import reference  # the problem folder on the module path?

    found.append(reference)
except Exception as e:
    print("import reference:", type(e).__name__, e)
try:
    from judge.problem import loader  # the judge's package, inside the runner's process

    found.append(loader.load_reference(loader.resolve("vector-add")))
except Exception as e:
    print("the judge's loader:", type(e).__name__, e)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    torch.add(a, b, out=c)
    if found:
        c.add_(1.0)
