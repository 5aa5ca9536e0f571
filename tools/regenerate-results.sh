#!/usr/bin/env bash
# Regenerates everything under results/ that a study or benchmark writes. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh default
build/studies/study_burns_hanley_2016 --out results/burns_hanley_2016
build/studies/study_critical_step_tables --out results/tables
build/studies/study_guide --out results/guide
build/studies/study_xue_2023 --out results/xue_2023
build/studies/study_convergence_orders --out results/convergence_orders
build/studies/study_de_klerk_2022 --out results/de_klerk_2022
build/studies/study_nonlinear_contacts --out results/nonlinear_contacts
build/studies/study_shape --out results/shape
results/packing/limiting_mode.sh build/dtcrit
