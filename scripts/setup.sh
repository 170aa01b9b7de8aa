#!/usr/bin/env bash
# Installs what lanescope needs to build and test on Debian 12 (bookworm).
# Safe to run again: apt-get skips what is already there.
set -euo pipefail

# One list per part of the project, one package a line ('#' starts a comment).
packages=()
for list in "$(dirname "$0")"/packages/*.txt; do
  while read -r line; do
    line=${line%%#*}
    if [[ -n ${line// /} ]]; then packages+=($line); fi
  done <"$list"
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi

sudo=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
