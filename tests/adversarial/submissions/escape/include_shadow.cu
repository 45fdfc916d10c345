// Threat class 10 (escape) at compile time: #include /etc/shadow so that the compiler's error
// messages quote its first lines (password hashes) back to the learner. It must end in a
// compile error whose log holds no "root:" entry.
// expect: compile_error
#include "/etc/shadow"

extern "C" void solve(const float* a, const float* b, float* c, int n) {}
