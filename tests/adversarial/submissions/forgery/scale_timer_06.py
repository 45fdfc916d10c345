# Threat class 3 (forgery), the modest lie: every CUDA-event time this process reads is scaled
# by 0.6. The catalogue prepends this file to an honest accepted sample (Entry.base), so the
# kernel is honest and only the runner's clock lies. The referee reports the larger of the
# runner's time and its own floor (gate.py, timing.referee_floor): the reported median must stay
# within 2% (or 5 us) of the honest sample's. The static policy refuses this source outright;
# the catalogue grades it with the policy off to test the timing defence behind it.
# expect: GPU accepted, timed within 2% / 5 us of the honest sample; CPU accepted
import torch as _torch_for_the_lie

_true_elapsed = _torch_for_the_lie.cuda.Event.elapsed_time
_torch_for_the_lie.cuda.Event.elapsed_time = lambda self, end: 0.6 * _true_elapsed(self, end)
