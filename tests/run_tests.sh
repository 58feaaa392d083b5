#!/bin/sh
# Run the package's test suite against an installed copy of the package.
#   tests/run_tests.sh PREFIX [OCTAVE]
# PREFIX is a folder that `pkg install` installed cudakernels into (see `make check`), or a tree
# whose gateway is built (src/__cudakernels__.mex beside inst/, as `make quick` leaves it); OCTAVE is the
# Octave to run (default: octave-cli), e.g. a portable Octave on a GPU machine without one installed.
# The package's folders are added to the path directly, so the same installed copy works wherever
# it is moved (pkg's own list stores absolute paths). Exit status: 0 only if no test failed.
set -eu
prefix=$(cd "${1:?usage: tests/run_tests.sh PREFIX [OCTAVE]}" && pwd) # absolute: tests may change folder
octave=${2:-octave-cli}
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/../bench" && pwd) # benchmarks and plots: their own tests run too
. "$here/build_dirs.sh"
build_dirs "$prefix"
[ -n "$archdir" ] || { echo "no compiled gateway under $pkgdir" >&2; exit 2; }
exec "$octave" --no-gui --no-init-file --no-history --eval "
  addpath ('$archdir'); addpath ('$pkgdir'); addpath ('$here'); addpath ('$bench');
  printf ('cudakernels from %s; GPU: %d\n', '$pkgdir', gpu_available ());
  exit (run_tests ({'$pkgdir', '$here', '$bench'}) > 0);"
