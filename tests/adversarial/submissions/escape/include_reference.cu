// Threat class 10 (escape) at compile time: #include the problem's reference (to compile the
// expected-output code in, or to leak it through the compiler's error messages). The
// repository is not mounted in the compile sandbox: "cannot open source file", no contents.
// expect: compile_error
#include "/work/main/problems/vector-add/reference.py"

extern "C" void solve(const float* a, const float* b, float* c, int n) {}
