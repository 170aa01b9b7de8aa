#!/bin/bash
# The live shared-memory check on an H200 (docs/verification/2026-12-02-h200-smem-live.md):
# verify --device cuda --smem (and every corruption), then bank wavefronts with Nsight Compute.
# Usage: gpu/smem_probe/run_h200.sh CLI OUTDIR
CLI=${1:-build/cli/lanescope-cli}
OUT=${2:-out}
mkdir -p "$OUT"
here=$(dirname "$0")
{
  date -u
  nvidia-smi -L
  nvidia-smi --query-gpu=driver_version,compute_cap --format=csv,noheader
  nvcc --version | tail -2
  ncu --version 2>&1 | tail -1
} > "$OUT/env.txt" 2>&1
"$CLI" verify --device cuda --smem > "$OUT/smem.txt" 2>&1; echo "exit $?" >> "$OUT/smem.txt"
"$CLI" verify --device cuda --smem --format json > "$OUT/smem.json" 2>&1
for c in no-swizzle base-offset-added start-anchored swap-lbo-sbo no-padding; do
  "$CLI" verify --device cuda --smem --corrupt "$c" --max-mismatches 2 > "$OUT/smem-corrupt-$c.txt" 2>&1
  echo "exit $?" >> "$OUT/smem-corrupt-$c.txt"
done
nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a "$here/bank_probe.cu" -o "$OUT/bank_probe" > "$OUT/bank_build.txt" 2>&1
cuobjdump -sass "$OUT/bank_probe" > "$OUT/bank_probe.sass" 2>&1
ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum "$OUT/bank_probe" "$here/patterns.txt" \
  > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit $?" >> "$OUT/ncu.err"
# Each probe kernel must hold exactly 64 of its SASS instruction (nothing hoisted or merged).
awk '/Function :/{f=$3} /LDSM|STSM|LDS|STS/{for(i=1;i<=NF;i++) if($i ~ /^(LDSM|STSM|LDS|STS)/){c[f" "$i]++; break}}
     END{for(k in c) print k, c[k]}' "$OUT/bank_probe.sass" | sort > "$OUT/bank_sass_counts.txt"
python3 "$here/banks.py" compare "$here/patterns.txt" "$OUT/ncu.csv" > "$OUT/banks.md" 2>&1; echo "exit $?" >> "$OUT/banks.md"
# What verify says of Blackwell entries on this GPU, and the register probes of wgmma as before.
for i in tcgen05.ld.sync.aligned.16x64b.x1.b32 tcgen05_mma_m128n64k16_f32_f16; do
  "$CLI" verify --device cuda -a sm_100a -i "$i" >> "$OUT/blackwell.txt" 2>&1; echo "exit $?" >> "$OUT/blackwell.txt"
done
"$CLI" verify --device cuda -a sm_90a -i wgmma_m64n64k16_f32_f16 > "$OUT/wgmma_registers.txt" 2>&1; echo "exit $?" >> "$OUT/wgmma_registers.txt"
rm -f "$OUT/bank_probe"
(cd "$OUT" && tar czf smem-live-output.tar.gz --exclude smem-live-output.tar.gz *)
