# Threat class 9 (resource attacks): write a 1 GiB file into the work folder. RLIMIT_FSIZE
# (256 MiB) stops the write (Python ignores SIGXFSZ, so write() fails with EFBIG).
# expect: runtime_error
def solve(a, b, c, n):
    chunk = b"\0" * (16 << 20)
    with open("/sandbox/fill.bin", "wb") as f:
        for _ in range(64):
            f.write(chunk)
