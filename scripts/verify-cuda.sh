#!/usr/bin/env bash
# The live check of lanescope's NVIDIA layouts on the NVIDIA GPU of this machine:
# every NVIDIA catalog entry, every sparsity selector, and deliberately corrupted
# claims that must fail with the slot named. Prints a header (date, GPU, driver)
# and the full output; exit status 0 when every check behaved as it must.
# Usage: scripts/verify-cuda.sh [path/to/lanescope-cli]   (default: build/cli/lanescope-cli)
set -u
cli=${1:-build/cli/lanescope-cli}
status=0
echo "# lanescope live run: verify --device cuda"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "lanescope: $(cat "$(dirname "$cli")/commit.txt" 2>/dev/null || git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
echo
echo '$ lanescope-cli verify --device cuda --all'
SECONDS=0
"$cli" verify --device cuda --all || status=1
echo "wall time: ${SECONDS} s"
echo
echo '$ lanescope-cli verify --device cuda --all --every-modifier --arch hopper'
"$cli" verify --device cuda --all --every-modifier --arch hopper >/tmp/lanescope-every-modifier.$$ || status=1
grep -E "selector|^(FAIL|device|probe kernels|[0-9]+ passed)" /tmp/lanescope-every-modifier.$$
rm -f /tmp/lanescope-every-modifier.$$
echo
echo "# deliberately corrupted claims: each must FAIL (exit status 5) with the slot named"
for spec in "mma_m16n8k16_f32_f16 A:swap-lanes:0:1" "mma_m16n8k8_f32_tf32 B:shift-regs" "mma_m8n8k4_f64 D:swap-lanes:4:5" \
            "mma_sp_m16n8k16_f32_f16 K:swap-lanes:0:1" "wgmma_m64n128k16_f32_f16 A:swap-lanes:0:64" \
            "wgmma_m64n64k16_f32_f16 B:shift-regs" "ldmatrix_x4_trans D:swap-lanes:0:1" "stmatrix_x2 D:shift-regs"; do
    set -- $spec
    echo
    echo "\$ lanescope-cli verify --device cuda -a sm_90 -i $1 --corrupt $2 --max-mismatches 3"
    "$cli" verify --device cuda -a sm_90 -i "$1" --corrupt "$2" --max-mismatches 3
    rc=$?
    echo "exit status: $rc"
    [ "$rc" = 5 ] || status=1
done
exit $status
