# Sourced by tests/run_tests.sh and bench/gpu_session.sh (POSIX sh).
# build_dirs BUILD: a build's folders, into pkgdir (its .m files) and archdir (its gateway), for
# a folder that `pkg install` installed cudakernels into (`make check`'s build/pkg), or a tree
# whose gateway is built (src/__cudakernels__.mex beside inst/, as `make quick` leaves it), which
# needs no install. archdir is empty where no gateway is found.
build_dirs() {
  if [ -f "$1/src/__cudakernels__.mex" ]; then
    pkgdir=$1/inst/ archdir=$1/src/
  else
    pkgdir=$(ls -d "$1"/cudakernels-*/ 2>/dev/null | head -n 1)
    archdir=$(ls -d "$pkgdir"*-api-*/ 2>/dev/null | head -n 1)
  fi
}
