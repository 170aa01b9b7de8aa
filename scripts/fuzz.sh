#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang-19 (ASan + UBSan) and runs
# each one from its committed seed corpus (fuzz/corpus/<name>/).
#   scripts/fuzz.sh                 every target for 300 s (a longer local run)
#   scripts/fuzz.sh --seconds 30    every target for 30 s (what CI runs)
#   scripts/fuzz.sh --seconds 60 catalog settings   only these targets
# Exit status: 0 no finding; 1 a finding (crash, leak, timeout, sanitizer
# report; the reproducer is kept under $BUILD_DIR/findings/); 2 build failed.
# New inputs found are kept in $BUILD_DIR/corpus/<name>/, not in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=300
targets=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
build=${BUILD_DIR:-build-fuzz}
cxx=${FUZZ_CXX:-clang++-19}
if ! command -v "$cxx" >/dev/null; then echo "fuzz: $cxx not found (scripts/packages/gpu.txt installs clang-19)" >&2; exit 2; fi
# -O1 -g1: a quarter less compile time than RelWithDebInfo's -O2 -g (CI builds this from scratch),
# reports still with functions and lines.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_COMPILER="$cxx" \
  -DLANESCOPE_FUZZ=ON -DLANESCOPE_BUILD_TESTS=OFF -DLANESCOPE_BUILD_APP=OFF -DLANESCOPE_BUILD_FIGURES=OFF \
  -DLANESCOPE_BUILD_GPU=OFF -DLANESCOPE_BUILD_CLI=OFF >/dev/null || exit 2
cmake --build "$build" >/dev/null || { cmake --build "$build"; exit 2; }
if ((${#targets[@]} == 0)); then
  for seeds in fuzz/corpus/*/; do targets+=("$(basename "$seeds")"); done
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for t in "${targets[@]}"; do
  exe=$build/fuzz/fuzz_$t
  [[ -x $exe ]] || { echo "fuzz: no target '$t' (built: $(ls "$build"/fuzz | grep '^fuzz_' | tr '\n' ' '))" >&2; exit 2; }
  corpus=$build/corpus/$t findings=$build/findings/$t
  mkdir -p "$corpus" "$findings"
  log=$build/fuzz-$t.log
  # stderr of the target closed (-close_fd_mask=2): its own error messages are
  # expected; sanitizer and libFuzzer reports still reach the log.
  if "$exe" "$corpus" "fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=8192 -close_fd_mask=2 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    echo "fuzz $t: ${seconds} s, ${execs:-?} executions, coverage ${cov:-?} edges, ${ft:-?} features, corpus $(ls "$corpus" | wc -l) inputs: no finding"
  else
    echo "fuzz $t: FINDING (reproducer in $findings/; log $log)" >&2
    grep -E 'ERROR|SUMMARY|==[0-9]+==|deadly|Test unit written' "$log" | head -20 >&2 || tail -30 "$log" >&2
    status=1
  fi
done
exit $status
