#!/usr/bin/env bash
# The web load at 1, 2, 4 and 8 server processes, 5 000 and 1 000 koi-koi seats, in one
# call on a lent 16-core machine (the device tool: `run` with this script, carry
# [".devkit"], timeout_s 600): the clients in load-generator processes of their own, so
# they are not what saturates; the servers behind nginx on a scratch PostgreSQL (make
# cluster's parts). Figures go to $OUT (the device tool brings them back), one JSON file a
# run, and a summary line each to $OUT/summary.txt, written as each run ends.
#
# That machine reaches no registry and has no Debian packages: `.venv/bin/python
# benchmarks/device_kit.py` gathers what it needs into .devkit/ first (Python 3.12 wheels,
# PostgreSQL's programs, Debian's nginx, the compiled engine), and this script unpacks it
# into /tmp there. Without a .devkit the machine must have it all already.
#
# DEVICE_SEATS, DEVICE_PROCESSES, CLIENT_PROCESSES and DURATION change what is measured
# (device_kit.py --check runs a small one here).
set -euo pipefail
OUT=${OUT:-benchmarks/results/device}
PYTHON=${PYTHON:-python3}
DURATION=${DURATION:-15}
SEATS=${DEVICE_SEATS:-5000 1000}
PROCESSES=${DEVICE_PROCESSES:-1 2 4 8}
CLIENTS=${CLIENT_PROCESSES:-6}
source benchmarks/device_setup.sh
command -v nginx >/dev/null || { echo "missing: nginx (Debian's package, or .devkit)"; exit 2; }
"$PYTHON" -c "from cardtable.server.local_cluster import postgres_bin; postgres_bin()" \
    || { echo "missing: PostgreSQL's programs (Debian's package, or .devkit)"; exit 2; }
echo "engine: $ENGINE; $(nproc) cores" | tee "$OUT/summary.txt"
for seats in $SEATS; do
    for processes in $PROCESSES; do
        name="web_${seats}_seats_${processes}_processes"
        # a run that fails is said in the summary, and the others still run
        if "$PYTHON" benchmarks/bench_web.py --seats "$seats" --duration "$DURATION" \
            --cluster "$processes" --client-processes "$CLIENTS" 2>"$OUT/$name.err" \
            | tee "$OUT/$name.txt"; then
            head -2 "$OUT/$name.txt" | tr '\n' ' ' | sed "s/^/$name: /" >> "$OUT/summary.txt"
            cp "$RESULTS/web_load.json" "$OUT/$name.json" || true
        else
            tail -5 "$OUT/$name.err"
            echo -n "$name: failed (see $name.err)" >> "$OUT/summary.txt"
        fi
        echo >> "$OUT/summary.txt"
    done
done
cat "$OUT/summary.txt"
