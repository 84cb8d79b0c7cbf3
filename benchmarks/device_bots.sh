#!/usr/bin/env bash
# The long strength runs of a level above `expert` (benchmarks/against_hard.py: mirrored
# single koi-koi rounds) in one call on a lent 16-core machine: a game process a core, each
# game journalled as it ends into $OUT, so a run the call's limit cuts short still counts
# every game played; the figures over the deals played from both seats end the summary.
# On 16 cores about the 1 600 rounds the issue asks of a level (4-6 s of one core a round
# here) fit one call. With the device tool: `run` with this script, carry [".devkit"]
# (`make device-kit` first: it carries Python 3.12 wheels and the compiled engine).
#
# VARIANTS (comma-separated, against_hard.py's), AGAINST, DEALS (each from both seats),
# JOBS and RUN_SECONDS (the wall time the games may take in all) change what is played;
# GAME and PLAYERS another hanafuda game (GAME=hana-awase PLAYERS=2), ROUNDS a match.
set -euo pipefail
OUT=${OUT:-benchmarks/results/device}
PYTHON=${PYTHON:-python3}
VARIANTS=${VARIANTS:-turns-2}
GAME=${GAME:-koi-koi}
PLAYERS=${PLAYERS:-2}
ROUNDS=${ROUNDS:-1}
AGAINST=${AGAINST:-expert}
DEALS=${DEALS:-800}
JOBS=${JOBS:-$(nproc)}
RUN_SECONDS=${RUN_SECONDS:-500}
source benchmarks/device_setup.sh
export OPENBLAS_NUM_THREADS=1  # a game process a core: numpy's threads would fight them
echo "engine: $ENGINE; $(nproc) cores; $VARIANTS against $AGAINST, $DEALS deals, $JOBS jobs" \
    | tee "$OUT/summary.txt"
# INT, as Ctrl-C: the pool stops its games and the journals keep every game that ended
timeout --signal=INT --kill-after=30 "$RUN_SECONDS" \
    "$PYTHON" benchmarks/against_hard.py --variants "$VARIANTS" --against "$AGAINST" \
    --game "$GAME" --players "$PLAYERS" --rounds "$ROUNDS" \
    --deals "$DEALS" --jobs "$JOBS" --out "$OUT" \
    || echo "stopped after $RUN_SECONDS s: the journals hold the games played" \
    | tee -a "$OUT/summary.txt"
for journal in $(find "$OUT" -name "*.jsonl"); do
    "$PYTHON" benchmarks/against_hard.py --tally "$journal" | tee -a "$OUT/summary.txt"
done
