// Threat class 9 (resource attacks): a compile bomb. Nested macros expand to 2^40 tokens; the
// preprocessor runs until the compile time limit (or its address-space limit) stops it.
// expect: compile_error
#define X1(x) x x
#define X2(x) X1(X1(x))
#define X4(x) X2(X2(x))
#define X8(x) X4(X4(x))
#define X16(x) X8(X8(x))
#define X32(x) X16(X16(x))
#define X40(x) X32(X8(x))

static int bomb[] = { X40(1,) 1 };

extern "C" void solve(const float* a, const float* b, float* c, int n) { (void)bomb; }
