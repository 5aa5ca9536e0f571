#!/usr/bin/env bash
# Regenerates results/packing/limiting_mode.png and limiting_mode.dump: the mode that limits the time
# step (the eigenvector of omega_max, `dtcrit packing --write-mode`) of 288 polydisperse discs (hex
# lattice, radii 1 mm +- 2 %, compressed by 3 %, between four walls; gran/hooke/history kn = 1e5 N/m,
# kt = 5e4 N/m), each disc coloured by the length of its translation in the mode (largest 1).
# Usage: results/packing/limiting_mode.sh [DTCRIT] (default build/dtcrit). Needs gnuplot.
set -euo pipefail
cd "$(dirname "$0")/../.."
dtcrit="${1:-build/dtcrit}"
out=results/packing
"$dtcrit" packing --lattice hex --n 12 --radius-spread 0.02 --compression 0.03 --seed 3 --periodic none --box-walls \
  --kn 1e5 --kt 5e4 --integrator velocity_verlet --write-mode "$out/limiting_mode.dump" > "$out/limiting_mode.txt"
omega=$(sed -n 's/^top mode (omega = \([0-9.e+]*\) rad\/s.*/\1/p' "$out/limiting_mode.txt")
tail -n +10 "$out/limiting_mode.dump" > "$out/.limiting_mode.rows"
trap 'rm -f "$out/.limiting_mode.rows"' EXIT
gnuplot <<GP
set terminal pngcairo size 900,820 font ",11" noenhanced
set output "$out/limiting_mode.png"
set title "The mode that limits the step: 288 discs, radii 1 mm ± 2 %, four walls (omega_max = $omega rad/s)"
set size ratio -1
set xlabel "x [mm]"
set ylabel "y [mm]"
set cblabel "|translation| in the top mode (largest = 1)"
set palette defined (0 "#f7fbff", 0.3 "#6baed6", 0.6 "#fd8d3c", 1 "#a50f15")
set cbrange [0:1]
set style fill solid 1.0 border lc rgb "#555555"
plot "$out/.limiting_mode.rows" using (\$3*1e3):(\$4*1e3):(\$6*1e3):13 with circles lc palette notitle, \
     "$out/.limiting_mode.rows" using (\$3*1e3):(\$4*1e3):(\$7*1.5):(\$8*1.5) with vectors head size 0.3,20 lc rgb "black" notitle
GP
echo "wrote $out/limiting_mode.png (omega_max = $omega rad/s)"
