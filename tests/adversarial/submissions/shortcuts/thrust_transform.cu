// Threat class 8 (shortcuts): let thrust do the elementwise work instead of a kernel of one's
// own. The rules check refuses thrust.
// expect: rejected
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    thrust::device_ptr<const float> pa(a), pb(b);
    thrust::device_ptr<float> pc(c);
    thrust::transform(pa, pa + n, pb, pc, thrust::plus<float>());
}
