#!/usr/bin/env bash
# Proves that a change to the replay's speed left every result as it was: runs `akira-mm backtest`
# from two checkouts on the same recording, per strategy and model set-up, and compares the --json
# summary (every key but events_per_sec) and the whole --report HTML (fills, path samples, scorecard;
# its speed figures masked). Exit status 0 when every run matches, 1 otherwise.
#
# usage: bench/same-results.sh BEFORE_CHECKOUT AFTER_CHECKOUT RECORDING [ENV_FILE]
#   e.g. git worktree add /tmp/before main
#        node bin/akira-mm.js data import --format binance ../shared/data/binance-spot-hftbacktest/ethusdt_2024080*.gz --out /tmp/eth.data
#        bench/same-results.sh /tmp/before . /tmp/eth.data
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
recording=$3
env_file=${4:-config/ETH-USDC.env}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Each line: a name, then the flags of one run.
runs=(
  "ladder --strategy ladder"
  "avellaneda-stoikov --strategy avellaneda-stoikov"
  "glft --strategy glft"
  "ladder-jitter-power --strategy ladder --queue power:2 --latency-ms 5 --latency-jitter-ms 20 --seed 7"
  "ladder-zero-latency --strategy ladder --latency-ms 0 --feed-latency-ms 0 --queue log"
  "ladder-hedged --strategy ladder --hedge $recording"
  "ladder-reference-blend --strategy ladder --reference $recording --set FAIR_PRICE=blend"
)

# The speed is the one thing a run may change: mask it in the summary line and the report.
mask() { sed -E 's/[0-9,]+ events\/s \([0-9,.]+ m?s wall\)/SPEED/g; s/&quot;events_per_sec&quot;: [0-9.e+]+/EVENTS_PER_SEC/g' "$1"; }
summary() { tail -n 1 "$1" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const o=JSON.parse(s);delete o.events_per_sec;process.stdout.write(JSON.stringify(o,null,1))})'; }

failed=0
for run in "${runs[@]}"; do
  name=${run%% *}
  read -r -a flags <<<"${run#* }"
  for side in before after; do
    dir=$before
    [ "$side" = after ] && dir=$after
    (cd "$dir" && node bin/akira-mm.js backtest --data "$recording" --env "$env_file" "${flags[@]}" --json --report "$out/$name.$side.html" >"$out/$name.$side.txt" 2>&1)
  done
  if diff <(summary "$out/$name.before.txt") <(summary "$out/$name.after.txt") >"$out/$name.summary.diff" &&
    diff <(mask "$out/$name.before.html") <(mask "$out/$name.after.html") >"$out/$name.report.diff"; then
    echo "same    $name ($(summary "$out/$name.after.txt" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const o=JSON.parse(s);process.stdout.write(`${o.events} events, ${o.fills} fills, PnL ${o.pnl_quote}`)})'))"
  else
    echo "DIFFER  $name"
    # A differing summary skips the report's diff (the && above): show what exists, and go on to the next run.
    head -n 20 "$out/$name.summary.diff" "$out/$name.report.diff" 2>/dev/null || true
    failed=1
  fi
done
exit $failed
