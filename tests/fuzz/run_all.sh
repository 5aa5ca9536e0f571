#!/usr/bin/env bash
# Runs the libFuzzer targets of the preset `fuzz` (build first: tools/setup.sh fuzz), one after the
# other in one process each, N inputs per target (default 10^6), and prints a Markdown table: inputs
# run, seconds, findings (files libFuzzer wrote: crash-, leak-, timeout-, oom-). Each target starts
# from tests/fuzz/corpus/<target>/ and keeps what it learns in build-fuzz/fuzz/<target>/corpus;
# findings go to build-fuzz/fuzz/<target>/findings/. Exits non-zero if any target found something.
# MAX_SECONDS=S stops each target after S seconds if it has not run N inputs by then.
#   [MAX_SECONDS=S] tests/fuzz/run_all.sh [N] [target ...]
set -uo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-1000000}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(lammps_data lammps_dump body_spec key_values integrator_spec vary wall network_json network_csv lammps_input lammps_contacts json_input python_arrays)
bin=build-fuzz/tests/fuzz
status=0
echo "| target | inputs run | seconds | findings |"
echo "| --- | ---: | ---: | ---: |"
for t in "${targets[@]}"; do
  work="build-fuzz/fuzz/$t"
  mkdir -p "$work/corpus" "$work/findings"
  start=$(date +%s.%N)
  "$bin/fuzz_$t" -runs="$runs" -max_total_time="${MAX_SECONDS:-0}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/findings/" "$work/corpus" "tests/fuzz/corpus/$t" > "$work/log" 2>&1
  rc=$?
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  findings=$(find "$work/findings" -type f | wc -l)
  [ "$rc" -ne 0 ] && findings="$findings (exit $rc, see $work/log)"
  [ "$rc" -ne 0 ] || [ "$findings" != 0 ] && status=1
  printf '| %s | %s | %.0f | %s |\n' "$t" "${inputs:-?}" "$seconds" "$findings"
done
exit $status
