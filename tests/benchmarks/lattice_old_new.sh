# Sourced by the records that run `dtcrit packing` on the polydisperse FCC lattice of issue 36 with
# this checkout's build and an older one (record_precision.sh, record_default_command.sh). Expects
# the caller to have cd'ed to the repository root and set out_md's default; reads OLD_BUILD (the
# older Release build directory), BUILD_DIR (default build), N (default 63) and ROUNDS (default:
# $default_rounds). Sets old, build, n, rounds, old_commit, new_stamp, tmp (removed on exit),
# load_before, lattice, damping; defines run.
old="${OLD_BUILD:?set OLD_BUILD to the older Release build directory}"
build="${BUILD_DIR:-build}"
n="${N:-63}"
rounds="${ROUNDS:-$default_rounds}"
old_commit=$(git -C "$old/.." rev-parse --short HEAD 2>/dev/null || echo "unknown")
[[ -x $old/dtcrit ]] || { echo "missing $old/dtcrit" >&2; exit 1; }
cmake --build "$build" --target dtcrit_cli >/dev/null
# The commit the new build was made from, taken now: the runs take long, and the tree may change.
new_stamp="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- lib tools ':!*.md' || echo ' (sources modified)')"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
lattice="--lattice fcc --n $n --compression 2e-3 --radius-spread 1e-3 --kn 1e5 --kt 3e4"
damping="--gamma-n 2000 --gamma-t 1000"

# run CASE WHICH ROUND [OPTION...]: CASE undamped or damped, WHICH old (the older build) or any other
# label (this build), the options added to the command. Its JSON into $tmp/CASE.WHICH.ROUND.json,
# "case which round wall peak_mb load" into $tmp/times.
run() {
  local case=$1 which=$2 round=$3 dir=$build args="$lattice"
  shift 3
  [[ $which == old ]] && dir=$old
  [[ $case == damped ]] && args+=" $damping"
  # shellcheck disable=SC2086
  /usr/bin/time -f "%M %e" -o "$tmp/time" "$dir/dtcrit" packing $args "$@" --json >"$tmp/$case.$which.$round.json"
  read -r kb wall <"$tmp/time"
  echo "$case $which $round $wall $((kb / 1024)) $(cut -d' ' -f1 /proc/loadavg)" >>"$tmp/times"
  echo "$case $which round $round: $wall s" >&2
}
