#!/usr/bin/env bash
# Proves that a change to the replay's speed left every result as it was: runs `akira-mm backtest`
# from two checkouts on the same recording, per strategy and model set-up, and compares the --json
# summary (every key but events_per_sec) and the whole --report HTML (fills, path samples, scorecard;
# its speed figures masked). With a second recording, also two pairs on one account (the first
# recording with ENV_FILE, the second with SECOND_ENV_FILE): the {account, pairs} summary (every key
# but events_per_sec and wall_s) and the account's page and each pair's report.
# Exit status 0 when every run matches, 1 otherwise.
#
# usage: bench/same-results.sh BEFORE_CHECKOUT AFTER_CHECKOUT RECORDING [ENV_FILE [SECOND_RECORDING [SECOND_ENV_FILE]]]
#   e.g. git worktree add /tmp/before main
#        node bin/akira-mm.js data import --format binance ../shared/data/binance-spot-hftbacktest/ethusdt_2024080*.gz --out /tmp/eth.data
#        node bin/akira-mm.js data import --format binance ../shared/data/binance-spot-hftbacktest/btcusdt_2024080*.gz --out /tmp/btc.data
#        bench/same-results.sh /tmp/before . /tmp/eth.data config/ETH-USDC.env /tmp/btc.data config/STRK-USDC.env
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '10,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
recording=$3
env_file=${4:-config/ETH-USDC.env}
second=${5:-}
second_env=${6:-config/STRK-USDC.env}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Each line: a name, then the flags of one run (after the recording and env file).
runs=(
  "ladder --strategy ladder"
  "avellaneda-stoikov --strategy avellaneda-stoikov"
  "glft --strategy glft"
  "ladder-jitter-power --strategy ladder --queue power:2 --latency-ms 5 --latency-jitter-ms 20 --seed 7"
  "ladder-zero-latency --strategy ladder --latency-ms 0 --feed-latency-ms 0 --queue log"
  "ladder-hedged --strategy ladder --hedge $recording"
  "ladder-reference-blend --strategy ladder --reference $recording --set FAIR_PRICE=blend"
  "ladder-thin --strategy ladder --venue thin"
  "glft-thin-arb-off --strategy glft --venue thin --thin-arbitrage off --thin-taker-share 0.05 --seed 3"
  "ladder-alpha-toxicity --strategy ladder --set ALPHA_OBI_BPS=1 --set ALPHA_OFI_BPS=0.5 --set ALPHA_TRADE_FLOW_BPS=0.2 --set ALPHA_MAX_BPS=2 --set TOXICITY_WIDEN_RATIO=1"
  "ladder-reference-alpha --strategy ladder --reference $recording --set FAIR_PRICE=blend --set ALPHA_OBI_BPS=1 --set ALPHA_MAX_BPS=2"
)
[ -n "$second" ] && runs+=("account-two-pairs --data $second --env $second_env --latency-jitter-ms 10 --seed 7")

# The speed is the one thing a run may change: mask it in the summary line and the reports.
mask() { sed -E 's/[0-9,]+ events\/s \([0-9,.]+ m?s wall\)/SPEED/g; s/&quot;events_per_sec&quot;: [0-9.e+]+/EVENTS_PER_SEC/g; s/&quot;wall_s&quot;: [0-9.e+]+/WALL_S/g' "$1"; }
summary() {
  tail -n 1 "$1" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const o=JSON.parse(s);delete o.events_per_sec;if(o.account){delete o.account.events_per_sec;delete o.account.wall_s;for(const p of Object.values(o.pairs))delete p.events_per_sec}process.stdout.write(JSON.stringify(o,null,1))})'
}
describe() { summary "$1" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const j=JSON.parse(s);const o=j.account??j;process.stdout.write(`${o.events} events, ${o.fills} fills, PnL ${o.pnl_quote}${j.account?` (account of ${o.pairs.join(" + ")})`:""}`)})'; }

failed=0
for run in "${runs[@]}"; do
  name=${run%% *}
  read -r -a flags <<<"${run#* }"
  for side in before after; do
    dir=$before
    [ "$side" = after ] && dir=$after
    mkdir -p "$out/$side"
    (cd "$dir" && node bin/akira-mm.js backtest --data "$recording" --env "$env_file" "${flags[@]}" --json --report "$out/$side/$name.html" >"$out/$name.$side.txt" 2>&1)
  done
  same=1
  # A run that printed no summary (it failed) is never "the same" as another that failed alike.
  [ -n "$(summary "$out/$name.after.txt" 2>/dev/null)" ] || { same=0; tail -n 5 "$out/$name.after.txt"; }
  diff <(summary "$out/$name.before.txt") <(summary "$out/$name.after.txt") >"$out/$name.summary.diff" || same=0
  : >"$out/$name.report.diff"
  for report in "$out/before/$name".*html; do
    diff <(mask "$report") <(mask "$out/after/${report##*/}") >>"$out/$name.report.diff" || same=0
  done
  if [ $same = 1 ]; then
    echo "same    $name ($(describe "$out/$name.after.txt"))"
  else
    echo "DIFFER  $name"
    # A differing summary skips the report's diff (the && above): show what exists, and go on to the next run.
    head -n 20 "$out/$name.summary.diff" "$out/$name.report.diff" 2>/dev/null || true
    failed=1
  fi
done
exit $failed
