#!/usr/bin/env bash
# Regenerates everything under results/ that a study or benchmark writes. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh default
build/studies/study_burns_hanley_2016 --out results/burns_hanley_2016
build/studies/study_critical_step_tables --out results/tables
