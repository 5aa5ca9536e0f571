#!/usr/bin/env bash
# README command 1: install what is missing, build the dtcrit command first and run the main job on its
# embedded example as soon as it is linked, then build the rest (tests, studies) in the background of
# the answer: its output comes after the example's.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh default dtcrit_cli >&2
status=0
build/dtcrit example "$@" || status=$?
echo "dtcrit: the answer above is complete; now building the tests and studies for tools/test.sh" \
  "(interrupting this does not affect the answer)" >&2
cmake --build --preset default -j "$(nproc)" >&2
exit "$status"
