## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{r} =} bench_e2e ()
## @deftypefnx {} {@var{r} =} bench_e2e (@var{n}, @var{reps})
## Where the time of @code{gpu_minplus (A, A)} on a host array goes beyond the
## product itself, at @var{n}-by-@var{n} single (default 8192), beside what
## Octave itself spends producing a fresh array of that size, all in one run.
##
## Each figure is the median of @var{reps} (default 7) after a warm-up, every
## result cleared before the next call so that each call allocates afresh; the
## host-side calls are taken in turns, so that the host's drift moves them alike:
##
## @table @asis
## @item kernel
## the device time of the product (events, @qcode{"minplus_time"});
## @item end to end
## @code{C = gpu_minplus (A, A)} from Octave, and its time beyond the kernel;
## @item A + 1
## Octave's own element-wise operation producing a fresh array of the same size
## (the goal: the time beyond the kernel at most 1.2x this);
## @item upload, gather
## @code{gpu_array (A)} and @code{gather} of an n-by-n gpu_array;
## @item MEX return floor
## where @code{mex_return_floor} (bench/mex_return_floor.c, built with
## mkoctfile) is on the path: a MEX function that returns an n-by-n single it
## never wrote, which Octave 7 copies element by element into its own array:
## the floor any MEX gateway pays for returning the result.
## @end table
## @end deftypefn

function r = bench_e2e (n = 8192, reps = 7)
  ## the product in single throughout (integer-valued data would run on the integer paths)
  old = __cudakernels__ ("settings", "minplus_narrow", "off");
  restore = onCleanup (@() __cudakernels__ ("settings", old));
  A = single (randi (1000, n) - 1);
  gpu_minplus (A(1:256, 1:256));   # load the gateway, create the context
  r.n = n;
  r.kernel_ms = median (__cudakernels__ ("time", "product", "min.+", "single", "warptile", [n n n], 1, reps));
  ## the three host-side figures interleaved, so that the host's drift moves them alike
  calls = {@() gpu_minplus(A, A), @() A + 1};
  if (exist ("mex_return_floor") == 3)
    calls{3} = @() mex_return_floor (n, 0);
  endif
  t = interleaved_ms (calls, reps);
  r.e2e_ms = t(1);
  r.plus1_ms = t(2);
  r.floor_ms = NaN;
  if (numel (t) > 2)
    r.floor_ms = t(3);
  endif
  r.beyond_ms = r.e2e_ms - r.kernel_ms;
  G = gpu_array (A);
  t = interleaved_ms ({@() gpu_array(A), @() gather(G)}, reps);
  r.upload_ms = t(1);
  r.gather_ms = t(2);
  clear G
  printf ("# host-array min-plus end to end, single n = %d, %s, median of %d\n", n, ...
          gpu_info ()(1).name, reps);
  printf ("  kernel (events)              %8.1f ms\n", r.kernel_ms);
  printf ("  gpu_minplus (A, A)           %8.1f ms  (%.2fx kernel)\n", r.e2e_ms, ...
          r.e2e_ms / r.kernel_ms);
  printf ("  beyond the kernel            %8.1f ms\n", r.beyond_ms);
  printf ("  Octave's A + 1               %8.1f ms  beyond/(A+1) = %.2f (goal <= 1.2)\n", ...
          r.plus1_ms, r.beyond_ms / r.plus1_ms);
  printf ("  MEX return floor             %8.1f ms  (%.2fx A + 1)\n", r.floor_ms, ...
          r.floor_ms / r.plus1_ms);
  printf ("  gpu_array (A) upload         %8.1f ms\n", r.upload_ms);
  printf ("  gather of an n x n gpu_array %8.1f ms\n", r.gather_ms);
endfunction

## The median wall time in ms of each call in `calls`, taken in turns (each dropped after it
## returns), after one warm-up of each.
function t = interleaved_ms (calls, reps)
  e = zeros (reps, numel (calls));
  for i = 0:reps
    for c = 1:numel (calls)
      t0 = tic ();
      x = calls{c} ();
      dt = 1e3 * toc (t0);
      clear x
      if (i > 0)
        e(i, c) = dt;
      endif
    endfor
  endfor
  t = median (e, 1);
endfunction
