#!/usr/bin/env bash
# Installs the Python module that BUILD_DIR (default: build) built under CMake's prefix
# (default /usr/local: /usr/local/lib/python3.11/dist-packages, on Debian python3's path), so
# that `python3 -c "import lanescope"` works after scripts/run.sh or scripts/test.sh.
# Without root or sudo it says how to use the build folder's module instead.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
[[ -d $build_dir/python/lanescope ]] || exit 0   # configured without the module
sudo=()
if [[ $(id -u) != 0 ]]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo); else
    echo "python: not installed (needs root); use PYTHONPATH=$build_dir/python python3" >&2
    exit 0
  fi
fi
"${sudo[@]}" cmake --install "$build_dir" --component python >/dev/null
echo "python: lanescope installed under $(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build_dir/CMakeCache.txt")"
