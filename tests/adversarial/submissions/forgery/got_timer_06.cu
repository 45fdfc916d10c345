// Threat class 3 (forgery) from CUDA, with no forbidden symbol: a load-time constructor walks
// the loaded objects (dl_iterate_phdr), finds every GOT slot that imports
// cudaEventElapsedTime*, makes it writable (mprotect) and points it at a wrapper that scales
// the time by 0.6. torch's Event.elapsed_time in the runner then reads 60% of the truth. The
// catalogue prepends this file to an honest accepted sample (Entry.base): the referee's own
// clock (gate.py) must keep the reported median within 2% (or 5 us) of the honest sample's.
#include <cuda_runtime.h>
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
// expect: GPU accepted, timed within 2% / 5 us of the honest sample; CPU not_run

typedef cudaError_t (*kd_elapsed_fn)(float*, cudaEvent_t, cudaEvent_t);
static kd_elapsed_fn kd_true_elapsed = 0;

static cudaError_t kd_scaled_elapsed(float* ms, cudaEvent_t a, cudaEvent_t b) {
    cudaError_t err = kd_true_elapsed(ms, a, b);
    if (err == cudaSuccess && ms) *ms *= 0.6f;
    return err;
}

static ElfW(Addr) kd_abs(ElfW(Addr) base, ElfW(Addr) p) { return p < base ? p + base : p; }

static void kd_patch_table(ElfW(Addr) base, const ElfW(Rela)* rel, size_t size,
                           const ElfW(Sym)* syms, const char* strs) {
    long page = sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < size / sizeof(ElfW(Rela)); i++) {
        const char* name = strs + syms[ELF64_R_SYM(rel[i].r_info)].st_name;
        if (strncmp(name, "cudaEventElapsedTime", 20) != 0) continue;
        void** slot = (void**)(base + rel[i].r_offset);
        if (*slot == (void*)kd_scaled_elapsed) continue;
        if (!kd_true_elapsed) kd_true_elapsed = (kd_elapsed_fn)*slot;
        void* pg = (void*)((ElfW(Addr))slot & ~(ElfW(Addr))(page - 1));
        if (mprotect(pg, page, PROT_READ | PROT_WRITE) == 0) *slot = (void*)kd_scaled_elapsed;
    }
}

static int kd_visit(struct dl_phdr_info* info, size_t, void*) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        const ElfW(Dyn)* dyn = (const ElfW(Dyn)*)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        const ElfW(Rela)* jmprel = 0; const ElfW(Rela)* rela = 0;
        size_t jmpsz = 0, relasz = 0;
        const ElfW(Sym)* syms = 0; const char* strs = 0;
        for (; dyn->d_tag != DT_NULL; dyn++) {
            ElfW(Addr) p = kd_abs(info->dlpi_addr, dyn->d_un.d_ptr);
            switch (dyn->d_tag) {
                case DT_JMPREL: jmprel = (const ElfW(Rela)*)p; break;
                case DT_PLTRELSZ: jmpsz = dyn->d_un.d_val; break;
                case DT_RELA: rela = (const ElfW(Rela)*)p; break;
                case DT_RELASZ: relasz = dyn->d_un.d_val; break;
                case DT_SYMTAB: syms = (const ElfW(Sym)*)p; break;
                case DT_STRTAB: strs = (const char*)p; break;
            }
        }
        if (!syms || !strs || info->dlpi_addr == 0) continue;
        if (jmprel) kd_patch_table(info->dlpi_addr, jmprel, jmpsz, syms, strs);
        if (rela) kd_patch_table(info->dlpi_addr, rela, relasz, syms, strs);
    }
    return 0;
}

__attribute__((constructor)) static void kd_install_the_lie() { dl_iterate_phdr(kd_visit, 0); }
