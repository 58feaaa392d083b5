#!/bin/bash
# One batched verification on a GPU machine that has CUDA but no Octave (see doc/DEVELOPING.md):
# the full test suite, compute-sanitizer memcheck and racecheck over every kernel, the reference
# ceiling programs, and the benchmark, all in one run so that the ratios hold.
#   bench/gpu_session.sh PKG_PREFIX OCTAVE_TARBALL OUTDIR [PERF_DIR] [STEPS]
# PKG_PREFIX: the folder `make check` installed the package into (build/pkg), built here for the
# GPU; OCTAVE_TARBALL: the portable Octave; PERF_DIR: optional prebuilt ceiling programs (their
# output goes beside ours); STEPS: any of "tests sanitize perf bench narrow pages apsp e2e
# matmulbench sumbench devices" (devices: one GPU against all of them; on a one-GPU machine the
# cost of the spread, at 16384 only unless DEVICES_ARGS, Octave option pairs, say otherwise)
# (default: all). EXTRA_PATH (environment): a folder added to Octave's path, e.g. one holding
# mex_return_floor.mex for the e2e step.
set -u
prefix=$1 tarball=$2 out=$3 perf=${4:-} steps=${5:-"tests sanitize perf bench narrow pages apsp e2e matmulbench sumbench devices"}
here=$(cd "$(dirname "$0")" && pwd)
tests=$(cd "$here/../tests" && pwd)
prefix=$(cd "$prefix" && pwd) # absolute: tests may change folder
mkdir -p "$out" /tmp/octave-portable
tar -C /tmp/octave-portable -xJf "$tarball" || exit 2
octave=/tmp/octave-portable/octave
pkgdir=$(ls -d "$prefix"/cudakernels-*/ | head -n 1)
archdir=$(ls -d "$pkgdir"*-api-*/ | head -n 1)
path_cmd="addpath ('$archdir'); addpath ('$pkgdir'); addpath ('$here'); addpath ('$tests');"
[[ -n ${EXTRA_PATH:-} ]] && path_cmd="$path_cmd addpath ('$(cd "$EXTRA_PATH" && pwd)');"
run_octave() { "$octave" --no-gui --no-init-file --no-history --eval "$path_cmd $1"; }
status=0
has_step() { [[ " $steps " == *" $1 "* ]]; }
# bench_step FILE TITLE COMMAND: an Octave benchmark, its output shown and kept in OUTDIR/FILE.
bench_step() {
  echo "== $2"
  run_octave "$3" 2>&1 | grep -v "ignoring const" | tee "$out/$1"
}

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$out/gpu.txt"

if has_step tests; then
  echo "== test suite"
  "$tests/run_tests.sh" "$prefix" "$octave" 2>&1 | grep -v "ignoring const" | tee "$out/tests.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

if has_step sanitize; then
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer $tool"
    # racecheck lost track of launches from two host threads at once and hung: the spread
    # products' threads run under memcheck only (tests/sanitize_spread.m)
    spread=""
    [[ $tool == memcheck ]] && spread="sanitize_spread ();"
    compute-sanitizer --tool "$tool" --leak-check full --error-exitcode 9 \
      "$octave" --no-gui --no-init-file --no-history \
      --eval "$path_cmd sanitize_minplus (); sanitize_sum (); sanitize_matmul (); sanitize_apsp (); $spread" > "$out/$tool.log" 2>&1
    rc=$?
    grep -E "ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|sanitize_|error" "$out/$tool.log" | head -20
    echo "$tool exit status: $rc"
    [ $rc -eq 0 ] || status=1
  done
fi

if has_step perf && [[ -n $perf ]]; then
  echo "== reference ceilings (../shared/perf)"
  for p in "$perf"/*; do [ -x "$p" ] && "$p" | tee "$out/$(basename "$p").txt"; done
fi

if has_step bench; then
  echo "== benchmark"
  run_octave "bench_minplus ('sizes', [1024 2048 4096 8192], 'shapes', [8192 256 8192; 256 8192 256], \
    'classes', {'single', 'double', 'int32', 'int16', 'uint8'}, 'kernels', {'regblock', 'warptile'}, \
    'e2e', false, 'budget', 0.5, 'narrow', 'off', 'csv', '$out/bench_minplus.csv'); \
    bench_minplus ('sizes', [1024 4096], 'witness', false, 'budget', 0.5, 'octave', 2048, \
    'narrow', 'off', 'csv', '$out/bench_minplus_ladder.csv'); \
    bench_minplus ('sizes', 8192, 'classes', {'single'}, 'kernels', {'warptile'}, 'witness', false, \
    'narrow', 'off', 'csv', '$out/bench_minplus_e2e.csv');" 2>&1 | grep -v "ignoring const" | tee "$out/bench.txt"
fi

has_step narrow && bench_step bench_narrow.txt "integer-valued single and double on the integer paths" \
  "bench_narrow ('csv', '$out/bench_narrow.csv');"
has_step pages && bench_step bench_pages.txt "paged products and small calls" \
  "bench_pages ('csv', '$out/bench_pages.csv');"
has_step apsp && bench_step bench_apsp.txt "APSP: gpu_apsp against gpu_minplus, squaring and the CPU reference" \
  "bench_apsp ('csv', '$out/bench_apsp.csv'); bench_squaring ();"
has_step e2e && bench_step bench_e2e.txt "host-array end to end, beside Octave's own A + 1" "bench_e2e ();"

has_step matmulbench && bench_step bench_matmul.txt "matmul benchmark" \
  "gpu_bench ('matmul', 'csv', '$out/bench_matmul.csv');"
has_step sumbench && bench_step bench_sum.txt "sum benchmark" \
  "gpu_bench ('sum', 'sizes', 2.^[20 24 26 28], 'csv', '$out/bench_sum.csv');"
if has_step devices; then
  gpus=$(nvidia-smi -L | wc -l)
  args=${DEVICES_ARGS:-}
  [[ -z $args && $gpus -lt 2 ]] && args="'sizes', 16384, 'sweep', [1024 4096], 'apsp', [8192 16384]"
  bench_step bench_devices.txt "one GPU against all of them ($gpus visible)" \
    "bench_devices (${args:+$args, }'csv', '$out/bench_devices.csv');"
fi
exit $status
