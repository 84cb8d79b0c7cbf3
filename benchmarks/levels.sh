#!/usr/bin/env bash
# The bot levels of every game against each other: hard (ISMCTS) against greedy and
# medium, then medium > easy > random. Each pairing plays DEALS deals from every seat
# (mirrored: 2 x DEALS games in 2-player games), one round per game; Hana-awase 88 is a
# 3-player round robin of three bots; 7 słów pairs its word bots by level. Koi-koi's hard
# also plays greedy in 6-round matches (the yardstick). Results and plots go to
# benchmarks/results/levels/, and the head-to-head table of every run is printed at the end
# (benchmarks/tally_levels.py). The top level, expert, plays hard (greedy in Bakappana,
# where no honest bot gains more: docs/bots.md) as the issue "Stronger bots" asks: koi-koi
# in single rounds and 12-round matches, Hana-awase in single rounds and 6-round matches,
# Hana-awase 88 as a trio with greedy. Long: about four hours on 2 cores without the expert
# runs, about twelve more with them (the 12- and 6-round matches most; EXPERT=0 leaves
# them out).
#
#     make levels            (or DEALS=50 JOBS=2 benchmarks/levels.sh koi-koi)
set -euo pipefail
DEALS=${DEALS:-200}
JOBS=${JOBS:-2}
OUT=${OUT:-benchmarks/results/levels}
ARENA=${ARENA:-.venv/bin/cardtable arena}
PYTHON=${PYTHON:-.venv/bin/python}
GAMES=${*:-koi-koi bakappana hana-awase hana-awase-88 ohanami siedem-slow}
EXPERT=${EXPERT:-1}

expert() {  # game, rival, name, extra arena options...: the top level against a rival
  local game=$1 rival=$2 name=$3
  shift 3
  [ "$EXPERT" = 1 ] || return 0
  $ARENA "$game" --bots "expert,$rival" --games "$DEALS" --jobs "$JOBS" "$@" --out "$OUT/$name"
}

levels() {  # game, extra arena options...: hard against greedy and medium, then down the levels
  local game=$1
  shift
  local rivals=greedy,medium
  [ "$game" = ohanami ] && rivals=greedy  # Ohanami's medium is its greedy bot
  $ARENA "$game" --bots "hard,$rivals" --mode gauntlet --games "$DEALS" --jobs "$JOBS" "$@" \
    --out "$OUT/$game-hard"
  for pair in medium,easy easy,random; do
    $ARENA "$game" --bots "$pair" --games "$DEALS" --jobs "$JOBS" "$@" \
      --out "$OUT/$game-${pair/,/-}"
  done
}

for game in $GAMES; do
  case $game in
    koi-koi)
      levels koi-koi --rule rounds=1
      $ARENA koi-koi --rule rounds=6 --bots hard,greedy --games "$DEALS" --jobs "$JOBS" \
        --out "$OUT/koi-koi-6-rounds-hard-greedy"
      expert koi-koi hard koi-koi-expert-hard --rule rounds=1
      expert koi-koi hard koi-koi-12-rounds-expert-hard --rule rounds=12
      ;;
    bakappana)
      levels bakappana --players 2 --rule rounds=1
      expert bakappana greedy bakappana-expert-greedy --players 2 --rule rounds=1
      ;;
    hana-awase)
      levels hana-awase --players 2 --rule rounds=1
      expert hana-awase hard hana-awase-expert-hard --players 2 --rule rounds=1
      expert hana-awase hard hana-awase-6-rounds-expert-hard --players 2 --rule rounds=6
      ;;
    ohanami)
      levels ohanami --players 2
      expert ohanami hard ohanami-expert-hard --players 2
      ;;
    hana-awase-88)
      if [ "$EXPERT" = 1 ]; then
        $ARENA hana-awase-88 --bots expert,hard,greedy --games $((DEALS * 2 / 3)) \
          --jobs "$JOBS" --rule rounds=1 --out "$OUT/hana-awase-88-expert-hard-greedy"
      fi
      for trio in hard,medium,greedy medium,easy,random; do
        $ARENA hana-awase-88 --bots "$trio" --games $((DEALS * 2 / 3)) --jobs "$JOBS" \
          --rule rounds=1 --out "$OUT/hana-awase-88-${trio//,/-}"
      done
      ;;
    siedem-slow)  # the word bots: hard = greedy = ismcts there (docs/siedem-slow.md)
      for pair in hard,medium medium,easy easy,random; do
        $ARENA siedem-slow --players 2 --bots "$pair" --games "$DEALS" --jobs "$JOBS" \
          --out "$OUT/siedem-slow-${pair/,/-}"
      done
      ;;
    *) echo "no levels run for $game" >&2 && exit 2 ;;
  esac
done

$PYTHON benchmarks/tally_levels.py "$OUT"
