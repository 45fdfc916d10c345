# Threat class 10 (escape) against Profile (#22): ncu writes its report into the work folder,
# which the submission shares. At import this plants a symlink where the report goes
# (profile/report.ncu-rep -> /etc/shadow, then /etc/passwd where shadow is absent) and a
# second one beside it. A referee that read the report by name would copy a host file into its
# kept reports and serve it for download; it must refuse the link instead. Computes honestly.
# expect: accepted (the profiled run's output is right), and no host file is kept
import os

for target in ("/etc/shadow", "/etc/passwd"):
    if os.path.exists(target):
        break
os.makedirs("profile", exist_ok=True)
for name in ("profile/report.ncu-rep", "profile/report"):
    try:
        os.symlink(target, name)
    except OSError:
        pass
