#!/usr/bin/env bash
# A compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that appends one line per compiler run to
# $COMPILE_TIMER_LOG: user and system CPU seconds, wall seconds and the object written (-o).
# Used by record_compile_profile.sh to find which objects a cold build spends its CPU on.
set -euo pipefail
object="?"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = -o ] && [ $((i + 1)) -lt ${#args[@]} ]; then object="${args[$((i + 1))]}"; fi
done
exec /usr/bin/time -f "%U %S %e $object" -a -o "${COMPILE_TIMER_LOG:?COMPILE_TIMER_LOG must name the log}" "$@"
