// Threat class 10 (escape) from C++: TCP connect to Redis (6379), PostgreSQL (5432) on
// loopback and to 1.1.1.1:53. Any success makes the kernel write GARBAGE, so `accepted` proves
// the sandbox has no route to them.
// expect: accepted (truthful)
#include <cuda_runtime.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>

__global__ void add_kernel(const float* a, const float* b, float* c, int n, float poison) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + poison;
}

static bool reach(const char* ip, int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return false;
    fcntl(s, F_SETFL, O_NONBLOCK);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    inet_pton(AF_INET, ip, &addr.sin_addr);
    bool ok = false;
    if (connect(s, (sockaddr*)&addr, sizeof(addr)) == 0) {
        ok = true;
    } else if (errno == EINPROGRESS) {
        pollfd p{s, POLLOUT, 0};
        if (poll(&p, 1, 1000) == 1) {
            int err = 0;
            socklen_t len = sizeof(err);
            getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
            ok = err == 0;
        }
    }
    close(s);
    return ok;
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    static int hit = -1;
    if (hit < 0) hit = (reach("127.0.0.1", 6379) || reach("127.0.0.1", 5432) || reach("1.1.1.1", 53)) ? 1 : 0;
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n, hit ? 1000.0f : 0.0f);
}
