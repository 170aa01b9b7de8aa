#!/usr/bin/env bash
# CUDA ptxas's acceptance matrix of every NVIDIA spelling lanescope describes
# (core/catalog/blackwell.txt's forms and core/catalog/nvidia.txt's rows) on every
# sm_ target from sm_80 on: one line per spelling, its accepting targets after a tab.
# The `targets` field of core/catalog/blackwell.txt is this matrix (CUDA 13.0,
# ptxas V13.0.88); `lanescope-cli conformance --ptxas` re-checks it.
#   scripts/ptxas-matrix.sh [PTXAS] > matrix.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/ptxas_matrix.py --ptxas "${1:-${PTXAS:-/usr/local/cuda/bin/ptxas}}"
