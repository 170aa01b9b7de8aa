#!/usr/bin/env bash
# The H200 proof of the generated header's shared-memory helpers (tests/gemm_tma.cu): a TMA-fed,
# wgmma SS-form GEMM C = A * B^T whose TMA boxes, tensor-map swizzles, descriptors and K-slice
# addresses come only from `lanescope-cli header` (wg::smem), at every swizzle mode; each result is
# compared with a GPU reference and with torch.matmul, and each mode's TFLOP/s is printed beside
# torch.matmul's (cuBLAS, f16 in, f32 accumulation) at the same size: a measurement.
# Usage: scripts/verify-gemm-tma.sh [lanescope-cli] [nvcc]   (prints a log for docs/verification/)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cli=$(realpath "${1:-build/cli/lanescope-cli}")
nvcc=${2:-nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
echo "# Live run: a TMA + wgmma GEMM on lanescope's generated shared-memory helpers"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/- gpu (name, driver, compute capability): /'
echo "- nvcc: $("$nvcc" --version | tail -1)"
echo "- how: scripts/verify-gemm-tma.sh (kernel in tests/gemm_tma.cu)"
echo
echo '```text'
run() { echo "\$ $*" | sed "s|$work|\$WORK|g; s|$root/||g"; "$@" || { echo "exit status $?"; status=1; }; }
run "$cli" header -a sm_90a -i wgmma_m64n128k16_f32_f16 --namespace wg -o "$work/wg.hpp"
echo "wg.hpp: $(wc -c < "$work/wg.hpp") bytes; smem helpers: $(grep -c 'LANESCOPE_HD constexpr' "$work/wg.hpp")"
run "$nvcc" -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -I"$work" -Xptxas -v "$root/tests/gemm_tma.cu" -lcuda \
    -o "$work/gemm" 2>&1 | grep -E '^[$] |error|warning|Compiling entry|spill|registers' || true
[ -x "$work/gemm" ] || { echo "build failed"; echo '```'; exit 1; }
mkdir -p "$work/small" "$work/big"
run "$work/gemm" "$work/small" 256 384 512 5
run "$work/gemm" "$work/big" 4096 4096 4096 20
echo '```'
echo
echo '```text'
python3 - "$work/big" 4096 4096 4096 <<'PY' || status=1
import sys, numpy as np, torch
d, M, N, K = sys.argv[1], *map(int, sys.argv[2:])
a = torch.from_numpy(np.fromfile(d + "/A.bin", dtype=np.float16).reshape(M, K)).cuda()
b = torch.from_numpy(np.fromfile(d + "/B.bin", dtype=np.float16).reshape(N, K)).cuda()
torch.backends.cuda.matmul.allow_tf32 = False
ref = a.float() @ b.float().T
bad = 0
for mode in ["none", "32B", "64B", "128B"]:
    c = torch.from_numpy(np.fromfile(d + "/C_%s.bin" % mode, dtype=np.float32).reshape(M, N)).cuda()
    err = (c - ref).abs().max().item()
    tol = 1e-3 * (1 + ref.abs())
    out = int(((c - ref).abs() > tol).sum().item())
    bad += out
    print("swizzle %-4s: max |C - torch (f32)| = %.3g, %d outside tolerance: %s" % (mode, err, out, "ok" if out == 0 else "FAIL"))
for i in range(3):
    torch.matmul(a, b.T)
torch.cuda.synchronize()
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s.record()
for i in range(20):
    torch.matmul(a, b.T)
e.record()
torch.cuda.synchronize()
ms = s.elapsed_time(e) / 20
print("torch.matmul (cuBLAS, f16 x f16 -> f16, f32 accumulation) %dx%dx%d: %.1f TFLOP/s (%.3f ms), torch %s"
      % (M, N, K, 2 * M * N * K / (ms * 1e-3) / 1e12, ms, torch.__version__))
sys.exit(1 if bad else 0)
PY
echo '```'
echo
[ $status -eq 0 ] && echo "**result: every swizzle mode equals the references**" || echo "**result: FAILED**"
exit $status
