// Threat class 8 (shortcuts) on matmul: load cuBLAS at run time with dlopen/dlsym, so no
// cublas* symbol appears in the object file. The rules check refuses dlopen/dlsym themselves.
// expect: rejected
#include <cuda_runtime.h>
#include <dlfcn.h>

typedef int (*create_t)(void**);
typedef int (*sgemm_t)(void*, int, int, int, int, int, const float*, const float*, int,
                       const float*, int, const float*, float*, int);

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    static void* h = nullptr;
    static sgemm_t sgemm = nullptr;
    if (!sgemm) {
        void* lib = dlopen("libcublas.so", RTLD_NOW);
        if (!lib) lib = dlopen("libcublas.so.12", RTLD_NOW);
        if (!lib) lib = dlopen("libcublas.so.13", RTLD_NOW);
        if (!lib) return;
        ((create_t)dlsym(lib, "cublasCreate_v2"))(&h);
        sgemm = (sgemm_t)dlsym(lib, "cublasSgemm_v2");
    }
    const float one = 1.0f, zero = 0.0f;
    sgemm(h, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
}
