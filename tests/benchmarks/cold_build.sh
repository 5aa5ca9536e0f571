#!/usr/bin/env bash
# One cold build, for the build benchmarks (record_build_change.sh, record_unity_build.sh): configures
# SRC in a fresh DIR (Release, plus the CMake options given), builds TARGET with -j2 and ccache off
# under /usr/bin/time, and prints one Markdown table row:
#   | LABEL | compiler runs | user [s] | sys [s] | CPU [min] | wall [s] | load before / after |
# (user and sys summed over every compiler and linker process). The build's output goes to DIR.log.
# Usage: cold_build.sh SRC DIR TARGET LABEL [CMake options...]
set -euo pipefail
src="$1" dir="$2" target="$3" label="$4"
shift 4
rm -rf "$dir"
export CCACHE_DISABLE=1
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$dir.configure.log"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "%U %S %e" -o "$dir.time" cmake --build "$dir" -j2 --target "$target" > "$dir.log" 2>&1
read -r user sys wall < "$dir.time"
objects="$(grep -c 'Building CXX object' "$dir.log" || true)"
echo "| $label | $objects | $user | $sys | $(awk "BEGIN { printf \"%.1f\", ($user + $sys) / 60 }") | $wall | $load_before / $(cut -d' ' -f1-3 /proc/loadavg) |"
