#!/bin/bash
# One batched verification on a GPU machine that has CUDA but no Octave (see doc/DEVELOPING.md):
# the full test suite, compute-sanitizer memcheck and racecheck over every kernel, the reference
# ceiling programs, and the benchmark, all in one run so that the ratios hold.
#   bench/gpu_session.sh PKG_PREFIX OCTAVE_TARBALL OUTDIR [PERF_DIR] [STEPS]
# PKG_PREFIX: the folder `make check` installed the package into (build/pkg), built here for the
# GPU, or a tree whose gateway `make quick` built (src/__cudakernels__.mex and inst/);
# OCTAVE_TARBALL: the portable Octave; PERF_DIR: optional prebuilt ceiling programs (their
# output goes beside ours); STEPS: any of "tests sanitize memcheck racecheck perf bench mxm
# narrow pages paths closure apsp e2e matmulbench sumbench devices compare dev" (mxm: bench_mxm, with
# MXM_ARGS, Octave option pairs) (compare: this build against those installed under the
# prefixes in $COMPARE_PKG, or built in trees (src/__cudakernels__.mex and inst/), LABEL=PATH
# each or one bare PATH, alternating processes
# $COMPARE_ROUNDS times, default 2, on bench_compare's cases $COMPARE_SET, default or apsp; with
# $COMPARE_BITS, apsp or minplus, every build's results checked bit for bit against the first's
# by compare_bits) (devices: one GPU against all of them; on a one-GPU machine the
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
. "$tests/build_dirs.sh" # build_dirs: a pkg prefix's or a tree's folders
build_dirs "$prefix"
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

# memcheck (with leak checking) over every sanitize script in one process; racecheck one script
# per process, each under its own time limit and timed, so that a slow one is named rather than
# ending the whole call ("sanitize" is both).
sanitizer() { # TOOL LOG SCRIPTS
  compute-sanitizer --tool "$1" --leak-check full --error-exitcode 9 \
    "$octave" --no-gui --no-init-file --no-history --eval "$path_cmd $3" > "$2" 2>&1
}
has_step sanitize && steps="$steps memcheck racecheck"
if has_step memcheck; then
  echo "== compute-sanitizer memcheck"
  start=$SECONDS
  sanitizer memcheck "$out/memcheck.log" \
    "sanitize_minplus (); sanitize_mxm (); sanitize_sum (); sanitize_matmul (); sanitize_apsp (); sanitize_spread ();"
  rc=$?
  grep -E "ERROR SUMMARY|LEAK SUMMARY|sanitize_|error" "$out/memcheck.log" | head -20
  echo "memcheck exit status: $rc ($((SECONDS - start)) s)"
  [ $rc -eq 0 ] || status=1
fi
if has_step racecheck; then
  # racecheck lost track of launches from two host threads at once and hung: the spread
  # products' threads run under memcheck only (tests/sanitize_spread.m)
  for script in ${RACECHECK_SCRIPTS:-sanitize_minplus sanitize_mxm sanitize_sum sanitize_matmul sanitize_apsp}; do
    echo "== compute-sanitizer racecheck: $script"
    start=$SECONDS
    export -f sanitizer
    export octave path_cmd
    args=""
    [[ $script == sanitize_apsp || $script == sanitize_mxm ]] && args='"racecheck"' # smaller forms
    timeout "${RACECHECK_LIMIT:-240}" bash -c "sanitizer racecheck '$out/racecheck_$script.log' '$script ($args);'"
    rc=$?
    grep -E "RACECHECK SUMMARY|ERROR SUMMARY|sanitize_|error" "$out/racecheck_$script.log" | head -8
    echo "racecheck $script exit status: $rc ($((SECONDS - start)) s)"
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

has_step mxm && bench_step bench_mxm.txt "gpu_mxm: every semiring against its ceiling" \
  "bench_mxm (${MXM_ARGS:+$MXM_ARGS, }'csv', '$out/bench_mxm.csv');"
has_step narrow && bench_step bench_narrow.txt "integer-valued single and double on the integer paths" \
  "bench_narrow ('csv', '$out/bench_narrow.csv');"
has_step pages && bench_step bench_pages.txt "paged products and small calls" \
  "bench_pages ('csv', '$out/bench_pages.csv');"
has_step closure && bench_step bench_closure.txt "gpu_closure: whole calls on gpu_arrays and host arrays" \
  "bench_closure ();"
has_step paths && bench_step bench_paths.txt "gpu_apsp's path problems: every semiring beside its product" \
  "bench_paths ();"
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
if has_step compare && [[ -n ${COMPARE_PKG:-} ]]; then
  # the builds: each COMPARE_PKG entry, LABEL=PREFIX or a bare PREFIX ("old"), then this one
  # ("new"); each a path command for Octave
  labels=() pcmds=()
  for entry in $COMPARE_PKG; do
    label=old; [[ $entry == *=* ]] && label=${entry%%=*} entry=${entry#*=}
    base=$(cd "$entry" && pwd)
    if [[ $label == new || " ${labels[*]:-} " == *" $label "* ]]; then
      echo "compare: the label $label is taken (COMPARE_PKG: LABEL=PATH, each its own)" >&2
      exit 2
    fi
    labels+=("$label") pcmds+=("$(build_dirs "$base" # a subshell: pkgdir and archdir stay this build's
      echo "addpath ('$archdir'); addpath ('$pkgdir'); addpath ('$here'); addpath ('$tests');")")
  done
  labels+=(new) pcmds+=("$path_cmd")
  echo "== builds ${labels[*]}, alternating processes (cases: ${COMPARE_SET:-default})"
  bits=/tmp/cudakernels_bits
  rm -rf "$bits" && mkdir -p "$bits" && rm -f "$out/compare.csv" "$out/compare_bits.txt"
  for round in $(seq "${COMPARE_ROUNDS:-2}"); do
    for i in "${!labels[@]}"; do
      who=${labels[$i]}
      save=""
      [[ $round == 1 && -n ${COMPARE_BITS:-} ]] &&
        save="try compare_bits ('$bits/$who.mat', '$COMPARE_BITS'); catch e; disp (['compare_bits: ' e.message]); end_try_catch;"
      "$octave" --no-gui --no-init-file --no-history --eval "${pcmds[$i]} $save \
        bench_compare ('$who', '$out/compare.csv', '${COMPARE_SET:-default}');" 2>&1 |
        grep -v "ignoring const"
    done
  done | tee "$out/compare.txt"
  if [[ -n ${COMPARE_BITS:-} ]]; then # every build's results against the first one's, bit for bit
    for who in "${labels[@]:1}"; do
      run_octave "exit (compare_bits ('check', '$bits/${labels[0]}.mat', '$bits/$who.mat') > 0);" 2>&1 |
        grep -v "ignoring const" | tee -a "$out/compare_bits.txt"
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done
  fi
  # per case: the median of each build's rounds, and each build's over the first's
  awk -F, -v order="${labels[*]}" '{ t[$2 "," $1] = t[$2 "," $1] " " $3; cases[$2] = 1 }
    function med(s,  a, n, i, j, x) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { nb = split(order, b, " "); printf "%-34s", "case"; for (i = 1; i <= nb; i++) printf " %10s", b[i] " ms"
      for (i = 2; i <= nb; i++) printf " %9s", b[i] "/" b[1]; printf "\n"
      for (c in cases) { printf "%-34s", c; for (i = 1; i <= nb; i++) { m[i] = med(t[c "," b[i]]); printf " %10.4f", m[i] }
        for (i = 2; i <= nb; i++) if (m[1] > 0 && m[i] > 0) printf " %9.3f", m[i] / m[1]; else printf " %9s", "-"
        printf "\n" } }' \
    "$out/compare.csv" | { read -r head; echo "$head"; sort; } | tee "$out/compare_summary.txt"
fi

if has_step dev && [[ -x $here/../dev/semiring ]]; then
  echo "== dev/: the C drivers, check and time without Octave"
  d=$here/../dev
  for drv in ceilings semiring boolean matmul sum apsp; do
    [[ -x $d/$drv ]] || continue
    echo "-- dev/$drv"
    args=${DEV_ARGS:-}
    [[ $drv == ceilings ]] && args="" # its one argument is n
    "$d/$drv" $args 2>&1 | tee "$out/dev_$drv.txt" | tail -40
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
fi
exit $status
