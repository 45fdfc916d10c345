// Threat class 11 (faults): a host-side null-pointer write inside solve (SIGSEGV in the
// runner process).
// expect: runtime_error
extern "C" void solve(const float* a, const float* b, float* c, int n) {
    volatile int* p = nullptr;
    *p = n;
}
