#!/usr/bin/env bash
# The web page (docs/web.md): core, the figure renderers and the CLI compiled to
# WebAssembly with Debian's emscripten, and a static site in build-web/site/.
#   scripts/web.sh                 build (again only what changed) into build-web/site/
#   scripts/web.sh --serve [PORT]  build, then serve the site on 127.0.0.1:PORT (default 8028)
# The site needs no server code: any static host serves build-web/site/ as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${LANESCOPE_WEB_DIR:-build-web}
# Debian's emscripten runs its JS tools with node and finds node-acorn there, also
# when the machine's Node.js is not Debian's.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
command -v em++ >/dev/null || { echo "web: em++ not found: install emscripten and node-acorn (scripts/setup.sh)" >&2; exit 1; }
# emcc compiles through ccache (its own wrapper hook) when ccache is there: a second
# build of unchanged sources, or CI's second run, takes seconds.
if command -v ccache >/dev/null; then export EM_COMPILER_WRAPPER=ccache; fi
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_COMPILER_LAUNCHER

# Only the headers the engine needs from /usr/include (all of it would shadow emscripten's C library).
mkdir -p "$out/include"
ln -sfn /usr/include/CLI "$out/include/CLI"
ln -sfn /usr/include/stb "$out/include/stb"
emcmake cmake -S . -B "$out/cmake" -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_CXX_FLAGS=-fwasm-exceptions \
  -DLANESCOPE_BUILD_TESTS=OFF -DLANESCOPE_BUILD_CLI=OFF -DLANESCOPE_BUILD_GPU=OFF -DLANESCOPE_BUILD_APP=OFF \
  -DLANESCOPE_BUILD_WEB=ON -DLANESCOPE_STB_INCLUDE="$root/$out/include" -DLANESCOPE_CLI11_INCLUDE="$root/$out/include" >/dev/null
cmake --build "$out/cmake" --target lanescope_web

# The site: the page, its script and style, the engine (JS + wasm; the catalog is
# inside it), and the font PNG downloads are drawn with (fetched only for a PNG).
site=$out/site
rm -rf "$site.tmp" && mkdir -p "$site.tmp"
cp web/index.html web/app.js web/paint.js web/gallery.html web/gallery.js web/style.css "$out/cmake/web/lanescope.js" "$out/cmake/web/lanescope.wasm" "$site.tmp/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$site.tmp/"
rm -rf "$site" && mv "$site.tmp" "$site"
bytes=$(($(stat -c %s "$site/lanescope.js") + $(stat -c %s "$site/lanescope.wasm") + $(stat -c %s "$site/app.js") + $(stat -c %s "$site/paint.js")))
echo "web: site in $site (engine and page script: $((bytes / 1024)) KiB; the whole site: $(du -sk "$site" | cut -f1) KiB)"

if [[ ${1:-} == --serve ]]; then
  port=${2:-8028}
  echo "web: serving http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
fi
