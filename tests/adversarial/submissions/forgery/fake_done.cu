// Threat class 3 (forgery) from C++: find the runner's control pipe in /proc/self/cmdline
// (--ctl-out N), write a forged {"op":"done","ms":0.0001} and launch the kernel after it, so
// the referee hears "done" before the work exists. The runner's own "done" then arrives late
// and breaks the protocol; the referee must not accept either way.
// expect: not accepted
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <fcntl.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static int ctl_out_fd() {
    char buf[8192];
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0) return -1;
    ssize_t len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0) return -1;
    buf[len] = 0;
    for (ssize_t i = 0; i < len;) {
        const char* arg = buf + i;
        size_t l = strlen(arg);
        if (strcmp(arg, "--ctl-out") == 0 && i + (ssize_t)l + 1 < len) return atoi(arg + l + 1);
        i += l + 1;
    }
    return -1;
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int fd = ctl_out_fd();
    if (fd >= 0) {
        const char* msg = "{\"op\": \"done\", \"ms\": 0.0001}\n";
        (void)!write(fd, msg, strlen(msg));
        usleep(20000);
    }
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
