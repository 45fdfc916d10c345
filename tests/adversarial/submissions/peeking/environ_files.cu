// Threat class 4 (peeking) from C++: getenv for the worker's secrets, read /proc/1/environ
// and /proc/self/environ, try to open the problem's reference. Anything found: the kernel
// writes GARBAGE, so `accepted` proves nothing leaked.
// expect: accepted (truthful)
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void add_kernel(const float* a, const float* b, float* c, int n, float poison) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + poison;
}

static bool file_has(const char* path, const char* needle) {
    FILE* f = fopen(path, "rb");
    if (!f) return false;
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    for (size_t i = 0; i < len; ++i) if (buf[i] == 0) buf[i] = '\n';
    buf[len] = 0;
    return strstr(buf, needle) != nullptr;
}

static bool leaked() {
    if (getenv("KERNELDOJO_TEST_SECRET") || getenv("DATABASE_URL") || getenv("REDIS_URL")) return true;
    if (file_has("/proc/1/environ", "kd-canary-") || file_has("/proc/self/environ", "kd-canary-")) return true;
    const char* refs[] = {"/work/main/problems/vector-add/reference.py", "/app/problems/vector-add/reference.py",
                          "/problems/vector-add/reference.py", "/sandbox/reference.py"};
    for (const char* r : refs) if (file_has(r, "def reference")) return true;
    return false;
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    static int found = -1;
    if (found < 0) found = leaked() ? 1 : 0;
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n, found ? 1000.0f : 0.0f);
}
