/* The kernel ledger: loaded by the CUDA driver into a GPU runner (CUDA_INJECTION64_PATH) when the
 * runner's CUDA context starts, before any submission code exists. Through CUPTI's callback API it
 * writes the name of every kernel launched in the process, once per name, to a pipe whose other
 * end the referee holds (KD_LEDGER_FD). The referee (judge/sandbox/ledger.py) then checks, from
 * its own side, that a kernel-track solve launched only the submission's own kernels: a rule the
 * submission cannot switch off from Python (SECURITY.md, "Library rules").
 *
 * Lines written: "ok <libcupti path>" once CUPTI took the subscription, or "off <reason>";
 * "k <name>" per new kernel name ("k ?" if the driver gave none); "graph" for a CUDA graph
 * launch (its kernels are not named at launch); "lost" if the pipe was full and names were
 * dropped. Built by the referee with the host's C compiler and the CUDA headers Triton ships.
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define SLOTS 8192
#define MAX_LINE 4000

typedef CUptiResult (*subscribe_fn)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
typedef CUptiResult (*enable_fn)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
                                 CUpti_CallbackId);
typedef CUresult (*func_name_fn)(const char **, CUfunction);

static int ledger_fd = -1;
static int lost = 0;
static uint64_t seen[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUpti_SubscriberHandle subscriber;
static func_name_fn func_name;

static int put(const char *text, size_t len) {
    while (len > 0) {
        ssize_t n = write(ledger_fd, text, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        text += n;
        len -= (size_t)n;
    }
    return 1;
}

static void note(const char *kind, const char *name) {
    char line[MAX_LINE + 16];
    int len = name ? snprintf(line, sizeof line, "%s %.*s\n", kind, MAX_LINE, name)
                   : snprintf(line, sizeof line, "%s\n", kind);
    if (len > (int)sizeof line - 1) len = (int)sizeof line - 1;
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the line: one write per distinct line */
    for (int i = 0; i < len; i++) h = (h ^ (unsigned char)line[i]) * 1099511628211ULL;
    if (h == 0) h = 1;
    pthread_mutex_lock(&lock);
    size_t slot = (size_t)(h % SLOTS);
    for (size_t probe = 0; probe < SLOTS; probe++, slot = (slot + 1) % SLOTS) {
        if (seen[slot] == h) goto out; /* written before */
        if (seen[slot] == 0) break;
    }
    if (lost && put("lost\n", 5)) lost = 0;
    if (put(line, (size_t)len)) {
        if (seen[slot] == 0) seen[slot] = h; /* a full table writes every time: never silent */
    } else {
        lost = 1;
    }
out:
    pthread_mutex_unlock(&lock);
}

static CUfunction driver_function(CUpti_CallbackId cbid, const void *params) {
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        return ((const cuLaunchKernel_params *)params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        return ((const cuLaunchKernelEx_params *)params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        return ((const cuLaunchCooperativeKernel_params *)params)->f;
    default:
        return NULL;
    }
}

static void CUPTIAPI on_launch(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void *data) {
    (void)userdata;
    const CUpti_CallbackData *info = (const CUpti_CallbackData *)data;
    if (info->callbackSite != CUPTI_API_ENTER) return;
    if ((domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
          cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)) ||
        (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
         (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
          cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000))) {
        note("graph", NULL);
        return;
    }
    const char *name = info->symbolName;
    if ((name == NULL || *name == 0) && domain == CUPTI_CB_DOMAIN_DRIVER_API && func_name) {
        CUfunction f = driver_function(cbid, info->functionParams);
        if (f == NULL || func_name(&name, f) != CUDA_SUCCESS) name = NULL;
    }
    note("k", (name && *name) ? name : "?");
}

static const CUpti_CallbackId driver_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

static const CUpti_CallbackId runtime_ids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
};

/* One candidate libcupti: 1 if it took the subscription and every launch callback. */
static int try_cupti(const char *path, char *why, size_t why_len) {
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        snprintf(why, why_len, "%s: %s", path, dlerror());
        return 0;
    }
    subscribe_fn subscribe = (subscribe_fn)dlsym(lib, "cuptiSubscribe");
    enable_fn enable = (enable_fn)dlsym(lib, "cuptiEnableCallback");
    if (subscribe == NULL || enable == NULL) {
        snprintf(why, why_len, "%s: no callback API", path);
        dlclose(lib);
        return 0;
    }
    CUptiResult r = subscribe(&subscriber, (CUpti_CallbackFunc)on_launch, NULL);
    if (r != CUPTI_SUCCESS) {
        snprintf(why, why_len, "%s: cuptiSubscribe failed (%d)", path, (int)r);
        dlclose(lib);
        return 0;
    }
    for (size_t i = 0; i < sizeof driver_ids / sizeof *driver_ids; i++)
        if ((r = enable(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i])) != CUPTI_SUCCESS)
            break;
    for (size_t i = 0; r == CUPTI_SUCCESS && i < sizeof runtime_ids / sizeof *runtime_ids; i++)
        r = enable(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i]);
    if (r != CUPTI_SUCCESS) {
        snprintf(why, why_len, "%s: cuptiEnableCallback failed (%d)", path, (int)r);
        return 0; /* subscribed but blind: stay loaded, report off */
    }
    return 1;
}

int InitializeInjection(void) {
    const char *fd_text = getenv("KD_LEDGER_FD");
    if (fd_text == NULL) return 1;
    ledger_fd = atoi(fd_text);
    if (ledger_fd <= 2 || fcntl(ledger_fd, F_GETFD) < 0) return 1;
    fcntl(ledger_fd, F_SETFD, FD_CLOEXEC); /* not inherited by anything the runner starts */
    /* Never block a launch on a full pipe: drop the name and say "lost" (the referee refuses). */
    fcntl(ledger_fd, F_SETFL, fcntl(ledger_fd, F_GETFL) | O_NONBLOCK);
    func_name = (func_name_fn)dlsym(RTLD_DEFAULT, "cuFuncGetName");
    char why[1024] = "no libcupti named in KD_CUPTI_PATHS";
    const char *paths = getenv("KD_CUPTI_PATHS");
    char *copy = paths ? strdup(paths) : NULL, *save = NULL;
    for (char *p = copy ? strtok_r(copy, ":", &save) : NULL; p; p = strtok_r(NULL, ":", &save)) {
        if (try_cupti(p, why, sizeof why)) {
            note("ok", p);
            free(copy);
            return 1;
        }
    }
    free(copy);
    note("off", why);
    return 1;
}
