// Threat class 3 (forgery): exit(0) from inside solve without computing, hoping a zero exit
// status reads as success. The referee needs a "done" answer and checked outputs.
// expect: runtime_error
#include <cstdlib>

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    std::exit(0);
}
