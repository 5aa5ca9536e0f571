#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job on its embedded example.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh default >&2
exec build/dtcrit example "$@"
