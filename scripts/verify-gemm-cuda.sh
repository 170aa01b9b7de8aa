#!/usr/bin/env bash
# The GPU proof of lanescope's generated CUDA helpers: a GEMM whose fragment
# loads, register packing, instructions and stores come only from
# `lanescope-cli header` (tests/gemm_fragments.cu):
#   - mma.sync m16n8k16 f16 -> f32 over a 2x2-warp tile (header --waves 2x2 --shape 64x32x16),
#     fragments from global memory (load_a/load_b, pack) and, as `ldmatrix`, from shared memory
#     through the header's ldmatrix (row addresses from ldmatrix_row);
#   - wgmma m64n64k16 f16 -> f32 with A from registers (header's A::load) and D through
#     the header's store_c (B from shared memory through a descriptor);
# over several matrix sizes, each compared with a GPU reference of the same f16
# values (f32 sums) and with torch.matmul (cuBLAS) within f16's tolerance.
# Prints a log for docs/verification/ (date, GPU, driver, commands, results);
# exit status 0 when every size of every kernel matches.
# Needs: nvcc (CUDA 12.x/13, sm_90a), an NVIDIA Hopper GPU, python3 with torch
# (optional: without it the torch comparison is skipped and says so), and a
# lanescope-cli binary.
# Usage: scripts/verify-gemm-cuda.sh [path/to/lanescope-cli] [nvcc]   (defaults: build/cli/lanescope-cli, nvcc)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$(realpath "${1:-build/cli/lanescope-cli}")
nvcc=${2:-nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
echo "# Live run: a GEMM on lanescope's generated CUDA helpers"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- lanescope: commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/- gpu (name, driver, compute capability): /'
echo "- nvcc: $("$nvcc" --version | tail -1)"
echo "- how: scripts/verify-gemm-cuda.sh (kernels in tests/gemm_fragments.cu)"
echo
echo '```text'
run() { echo "\$ $*" | sed "s|$work|\$WORK|g; s|$root/||g"; "$@" || { echo "exit status $?"; status=1; }; }
run "$cli" header -a sm_90 -i mma_m16n8k16_f32_f16 --waves 2x2 --shape 64x32x16 --namespace tile -o "$work/tile.hpp"
run "$cli" header -a sm_90a -i wgmma_m64n64k16_f32_f16 --namespace wg -o "$work/wg.hpp"
echo "headers: tile.hpp $(wc -c < "$work/tile.hpp") bytes, wg.hpp $(wc -c < "$work/wg.hpp") bytes;" \
     "tables in them: $(grep -c 'closed_form = false' "$work/tile.hpp" "$work/wg.hpp" | awk -F: '{s += $2} END {print s + 0}')"
run "$nvcc" -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -DLS_WGMMA -I"$work" -Xptxas -v \
    "$root/tests/gemm_fragments.cu" -o "$work/gemm" 2>&1 | grep -E '^[$] |error|warning|Compiling entry|stack frame|registers' || true
[ -x "$work/gemm" ] || { echo "build failed"; exit 1; }
echo
mkdir -p "$work/out"
sizes="64 64 64   128 256 512   512 512 1024   1024 2048 256   2048 2048 2048"
# shellcheck disable=SC2086
run "$work/gemm" "$work/out" $sizes
echo
echo '```'
echo
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    echo '```text' 
    echo "torch.matmul (cuBLAS) on the same inputs, f32 products of the f16 values:"
    python3 - "$work/out" <<'EOF' || status=1
import glob, math, os, sys
import numpy as np, torch
torch.backends.cuda.matmul.allow_tf32 = False  # full f32 products, not TF32
bad = 0
for cpath in sorted(glob.glob(os.path.join(sys.argv[1], "*.c.bin"))):
    stem = cpath[:-6]
    name, shape = os.path.basename(stem).rsplit("_", 1)
    M, N, K = map(int, shape.split("x"))
    a = torch.from_numpy(np.fromfile(stem + ".a.bin", dtype=np.float16).reshape(M, K)).cuda()
    b = torch.from_numpy(np.fromfile(stem + ".b.bin", dtype=np.float16).reshape(N, K)).cuda()  # B column-major
    c = torch.from_numpy(np.fromfile(cpath, dtype=np.float32).reshape(M, N)).cuda()
    ref = a.float() @ b.float().t()
    err = (c - ref).abs()
    tol = 1e-3 * (math.sqrt(K) + ref.abs())
    n_bad = int((~(err <= tol)).sum())
    bad += n_bad
    print(f"{name:8s} {M:5d}x{N:5d}x{K:5d}: max |C - torch| = {float(err.max()):.3g}, "
          f"{n_bad} outside tolerance: {'FAIL' if n_bad else 'ok'}")
sys.exit(1 if bad else 0)
EOF
    echo '```'
else
    echo "torch with CUDA is not available here: the torch.matmul comparison was skipped."
fi
echo
[ "$status" = 0 ] && echo "**result: every size of every kernel equals the references**" || echo "**result: FAILED**"
exit $status
