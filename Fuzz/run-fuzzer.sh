#!/usr/bin/env bash
# Runs one fuzz target for FUZZ_SECONDS and prints its figures; called by fuzz.mk.
#   Fuzz/run-fuzzer.sh TARGET BINARY SEED_FOLDER…
# The working corpus grows in .build-fuzz/corpus/TARGET (never in the repo); the seed
# folders (the shared corpus, Fuzz/Seeds/TARGET) are only read. Crashes, out-of-memory
# and timeout inputs land in Fuzz/Crashers/TARGET/, which is committed and replayed by
# `swift test --filter FuzzRegressionTests`. Fork mode with -ignore_*: one finding does
# not end the run, so a run of FUZZ_SECONDS collects every distinct crash it meets.
set -uo pipefail
target=$1 binary=$2
shift 2
seconds=${FUZZ_SECONDS:-300}
work=.build-fuzz/corpus/$target
crashers=Fuzz/Crashers/$target
log=.build-fuzz/logs/$target.log
mkdir -p "$work" "$crashers" "$(dirname "$log")"
seeds=()
for folder in "$@"; do [ -d "$folder" ] && seeds+=("$folder"); done
options=(
  -max_total_time="$seconds" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -malloc_limit_mb="${FUZZ_RSS_MB:-2048}"
  -timeout="${FUZZ_TIMEOUT:-10}" -artifact_prefix="$crashers/" -print_final_stats=1
  -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1
)
[ -f "Fuzz/Dictionaries/$target.dict" ] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
[ -n "${FUZZ_MAX_LEN:-}" ] && options+=(-max_len="$FUZZ_MAX_LEN")
before=$(ls "$crashers" | grep -v '^\.' | wc -l)
echo "fuzz-$target: ${seconds}s, seeds: ${seeds[*]:-none}; log: $log"
# The Swift runtime's backtracer would report through ASan's eyes; libFuzzer prints the stack.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
  nice -n "${FUZZ_NICE:-10}" "$binary" "${options[@]}" ${FUZZ_FLAGS:-} "$work" "${seeds[@]}" >"$log" 2>&1
status=$?
after=$(ls "$crashers" | grep -v '^\.' | wc -l)
last=$(grep -E 'cov: [0-9]+' "$log" | tail -1)
cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
execs=$(awk -v n="${runs:-0}" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
printf 'fuzz-%-13s %10s execs  %6s exec/s  cov: %-6s ft: %-6s new findings: %d (in %s)  exit %d\n' \
  "$target" "${runs:-?}" "$execs" "${cov:-?}" "${ft:-?}" $((after - before)) "$crashers" "$status" \
  | tee -a .build-fuzz/logs/summary.txt
[ "$after" -eq "$before" ]
