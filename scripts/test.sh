#!/usr/bin/env bash
# One command for a newcomer: install, build, and run every test (the web page's included).
#   scripts/test.sh             Release build in build/, all tests
#   scripts/test.sh --sanitize  the same with AddressSanitizer + UBSan in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The web page's site (build-web/site/, docs/web.md): built once, reused by the second run.
scripts/web.sh
if [[ ${1:-} == --sanitize ]]; then
  BUILD_DIR=build-asan BUILD_TYPE=Debug scripts/build.sh -DLANESCOPE_SANITIZE=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
else
  scripts/build.sh
  scripts/install-python.sh   # import lanescope after this command, as the README shows
  ctest --test-dir build --output-on-failure -j"$(nproc)"
fi
