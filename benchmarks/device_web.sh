#!/usr/bin/env bash
# The web load at 1, 2, 4 and 8 server processes, 1 000 and 5 000 koi-koi seats, in one
# call on a lent 16-core machine (the device tool: `run` with this script, under its
# 10-minute limit): the clients in 8 load-generator processes of their own, so they are
# not what saturates; the servers behind nginx on a scratch PostgreSQL (make cluster's
# parts). Figures go to $OUT (the device tool brings them back), one JSON file a run, and a
# summary line each to $OUT/summary.txt.
#
# Needs on that machine: the project installed in a Python there (its wheels carried:
# the machine reaches no registry), Debian's nginx and postgresql. The script checks
# them first and says what is missing.
set -euo pipefail
OUT=${OUT:-benchmarks/results/device}
PYTHON=${PYTHON:-python3}
DURATION=${DURATION:-20}
mkdir -p "$OUT"
for need in nginx; do
    command -v "$need" >/dev/null || { echo "missing: $need (Debian's package)"; exit 2; }
done
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "missing: Debian's postgresql"; exit 2; }
"$PYTHON" -c "import cardtable.server.app" || { echo "missing: the project in $PYTHON"; exit 2; }
nproc | tee "$OUT/cores.txt"
for seats in 1000 5000; do
    for processes in 1 2 4 8; do
        name="web_${seats}_seats_${processes}_processes"
        "$PYTHON" benchmarks/bench_web.py --seats "$seats" --duration "$DURATION" \
            --cluster "$processes" --client-processes 8 | tee "$OUT/$name.txt" | head -2 \
            | tr '\n' ' ' | sed "s/^/$name: /" >> "$OUT/summary.txt"
        echo >> "$OUT/summary.txt"
        cp benchmarks/results/web_load.json "$OUT/$name.json"
    done
done
cat "$OUT/summary.txt"
