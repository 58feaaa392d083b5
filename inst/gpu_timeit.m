## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{t} =} gpu_timeit (@var{f})
## @deftypefnx {} {@var{t} =} gpu_timeit (@var{f}, @var{nout})
## Time a call, in seconds, the way MATLAB's @code{gputimeit} does.
##
## @var{f} is a function handle taking no arguments.  It is called once to warm
## up (first-call costs: loading, allocation, caches), then repeatedly, each
## call bracketed by waits for the GPU to finish, so that asynchronous device
## work is counted and nothing earlier is; the result is the median of the
## timed calls.  As many calls are made as fit in about one second, at least 3
## and at most 25.  @var{nout} (default 1, or 0 when @var{f} returns nothing) is
## the number of outputs to request from @var{f}.  On a machine without a GPU
## the calls are timed all the same, with nothing to wait for.
##
## @example
## A = rand (4096, "single");
## gpu_timeit (@@() gpu_matmul (A, A))
## @end example
##
## @seealso{gpu_bench, tic, toc}
## @end deftypefn

function t = gpu_timeit (f, nout)
  if (nargin < 1 || ! is_function_handle (f))
    print_usage ();
  endif
  gpu = gpu_available ();
  if (nargin < 2)                  # one output if F gives one, else none
    try
      nout = 1;
      call (f, nout, gpu);         # warm-up
    catch err
      if (isempty (strfind (err.message, "undefined")) && isempty (strfind (err.message, "value")))
        rethrow (err);
      endif
      nout = 0;
      call (f, nout, gpu);
    end_try_catch
  else
    nout = ck_value ("gpu_timeit", "NOUT", nout, "count");
    call (f, nout, gpu);           # warm-up
  endif
  times = [];
  total = 0;
  while (numel (times) < 3 || (total < 1 && numel (times) < 25))
    times(end+1) = call (f, nout, gpu);
    total += times(end);
  endwhile
  t = median (times);
endfunction

function t = call (f, nout, gpu)
  out = cell (1, nout);
  if (gpu)
    __cudakernels__ ("sync");
  endif
  t0 = tic ();
  [out{:}] = f ();
  if (gpu)
    __cudakernels__ ("sync");
  endif
  t = toc (t0);
endfunction

%!test
%! t = gpu_timeit (@() pause (0.01));
%! assert (t >= 0.009 && t < 0.5);
%!test
%! t = gpu_timeit (@() rand (10), 1);
%! assert (t > 0 && t < 0.1);
%!error <Invalid call> gpu_timeit ()
%!error <Invalid call> gpu_timeit (1)
%!error id=cudakernels:invalidinput gpu_timeit (@() 1, -1)
%!testif ; gpu_available ()
%! A = rand (2048, "single");
%! t = gpu_timeit (@() gpu_matmul (A, A));
%! assert (t > 0 && t < 1);
