// Threat class 8 (shortcuts) on matmul: call cuBLAS (declared by hand, no header needed).
// The link-level rules check finds the cublas* import in the object file.
// expect: rejected
#include <cuda_runtime.h>

extern "C" {
typedef void* cublasHandle_t;
int cublasCreate_v2(cublasHandle_t* handle);
int cublasSgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
                   const float* alpha, const float* A, int lda, const float* B, int ldb,
                   const float* beta, float* C, int ldc);
}

extern "C" void solve(const float* a, const float* b, float* c, int m, int n, int k) {
    static cublasHandle_t h = nullptr;
    if (!h) cublasCreate_v2(&h);
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T.
    cublasSgemm_v2(h, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
}
