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
  # The witnesses' own work is left to the Release run: tests whose time is a compiler, TeX or the
  # browser judging lanescope's output (clang-22, nvcc, ptxas, pdflatex, the wasm page), which no
  # sanitizer instruments; lanescope's side of each is exercised here by the other tests.
  witnesses='^header: .*(compile with clang-22|compile for gfx942|compiles with nvcc|compile with nvcc)'
  witnesses+='|^TikZ: the largest figures compile with pdflatex|assembles with ptxas for sm_100a'
  witnesses+='|^gpu\.conformance|^web: '
  # The app's Copy text against 3,600 CLI runs, byte for byte: the same core calls run sanitized in
  # the other app and CLI tests; here it would take minutes of the sanitized CLI's start-up alone.
  witnesses+='|^app:copy parity: every catalog row'
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -E "$witnesses"
else
  scripts/build.sh
  scripts/install-python.sh   # import lanescope after this command, as the README shows
  ctest --test-dir build --output-on-failure -j"$(nproc)"
fi
