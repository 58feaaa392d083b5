## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} sanitize_apsp ()
## @deftypefnx {} {} sanitize_apsp ("racecheck")
## Exercise every gpu_apsp device path on small graphs, for running under
## @command{compute-sanitizer}: each work type (single, double, the 32-bit and
## packed 16-bit DPX forms, integers in double), one round and several, with
## and without the paths, zero-weight cycles, gpu_array input, the path walk, a negative cycle,
## every path problem (max.+, max.min, min.max, max.*) in each class it takes,
## bad input, the interrupt and the out-of-memory path; and the rows shared
## among two and three shares on one GPU (@qcode{"devices"}, the strip copies
## between them and a gpu_array's rows copied).  Prints
## @samp{sanitize_apsp: OK}; errors out on a result that differs from the CPU
## reference.
## @end deftypefn

function sanitize_apsp (mode = "all")
  cases = {"single", false; "double", true; "int32", false; "int16", false; "uint8", false;
           "int8", true};
  sizes = [1 70 300 300; false false false true];
  share_n = 600;
  share_classes = {"single", "double", "int32", "int16"};
  if (strcmp (mode, "racecheck"))
    ## racecheck takes seconds to instrument each kernel it first sees (an H100: about 8 s a
    ## work type for n = 1, 25 s for n = 300) and runs them slowly: one class per work type
    ## (uint8 runs in int16's, int8 with negative weights in double's), one graph of two pivot
    ## blocks with a ragged edge (n = 300: the closure, the strips and the rest, with and without
    ## P). The shares run those kernels on other rows (racecheck looks within blocks) and took
    ## over 150 s: memcheck covers them
    cases = cases(1:4, :);
    sizes = sizes(:, 3);
    share_classes = {};
  endif
  for q = 1:rows (cases)
    for size_zero = sizes
      [n, zero] = deal (size_zero(1), size_zero(2));
      C = randi ([1 9], n); C(rand (n) > 0.3) = Inf; C(1:n+1:end) = 0;
      if (zero)
        C(1,2) = 0; C(2,1) = 0;   # before the potentials: a cycle of weight 0, none below
      endif
      if (cases{q, 2})
        h = randi ([0 5], n, 1); C = C + h - h';
      endif
      none = isinf (C);   # no edge, before integers hold it as intmax
      if (isinteger (cast (0, cases{q, 1})))
        C(none) = double (intmax (cases{q, 1}));
      endif
      W = cast (C, cases{q, 1});
      [D, P] = gpu_apsp (W);
      [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
      ## with P, plain Floyd-Warshall's order: the CPU reference's D and P
      if (! isequal (D, Dr) || ! isequal (P, Pr) || ! isequal (gpu_apsp (W), D))
        error ("sanitize_apsp: %s n = %d (zero cycle: %d) differs from the CPU reference",
               cases{q, 1}, n, zero);
      endif
      gpu_path (P, 1, n);
      progress (sprintf ("%s n = %d", cases{q, 1}, n));
      if (n > 1 && ! zero && ! isa (W, "uint8"))   # longest paths: shortest paths on -W
        L = -C; L(none) = -Inf; L(1:n+1:end) = 0;
        L(tril (true (n), -1)) = -Inf;   # a DAG: no positive cycle
        if (isinteger (W))
          L(isinf (L)) = double (intmin (cases{q, 1}));
        endif
        L = cast (L, cases{q, 1});
        [D, P] = gpu_apsp (L, "semiring", "max.+");
        [Dr, Pr] = gpu_apsp (L, "semiring", "max.+", "kernel", "cpu");
        if (! isequal (D, Dr) || ! isequal (P, Pr))
          error ("sanitize_apsp: max.+ %s n = %d differs from the CPU reference", cases{q, 1}, n);
        endif
      endif
      others = {"max.min", "min.max", "max.*"};
      if (strcmp (mode, "racecheck"))   # one a class: max.* in single, keys of 32 and 16 bits
        others = others([3 1 2 1](q));
      endif
      for sr = others
        compare_semiring (C, none, cases{q, 1}, sr{1}, n);
      endfor
    endfor
  endfor
  if (! isempty (share_classes))
    shares (share_n, share_classes);
    progress ("shares");
  endif
  if (! strcmp (mode, "racecheck"))   # widest paths on ranks: uint16 and int32 keys
    C = randi ([1 9], 1024); C(rand (1024) > 0.02) = Inf;
    compare_semiring (C, isinf (C), "double", "max.min", 1024);
    compare_semiring (C + rand (1024), isinf (C), "double", "min.max", 1024);
    progress ("ranks");
  endif
  pages (mode);
  progress ("pages");
  G = gpu_array (single (C));
  [DG, PG] = gpu_apsp (G);
  gpu_path (PG, [1 2 3], [3 2 1]);
  clear G DG PG;
  expect_error (@() gpu_apsp ([0 1; -3 0]), "cudakernels:negativecycle");
  expect_error (@() gpu_apsp ([0 NaN; 1 0]), "cudakernels:invalidinput");
  __cudakernels__ ("settings", "test_cancel_after", 0);
  expect_error (@() gpu_apsp (single (randi (9, 700))), "cudakernels:interrupted");
  __cudakernels__ ("settings", "test_alloc_limit", 2^20);
  unwind_protect
    expect_error (@() gpu_apsp (single (randi (9, 700))), "cudakernels:outofmemory");
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
  progress ("errors, interrupt, out of memory");
  __cudakernels__ ("time", "apsp", "min.+", "single", "gpu", 300, 0, 1, "witness");
  if (! isequal (__cudakernels__ ("memory"), [0, 0]))
    error ("sanitize_apsp: device memory left behind");
  endif
  printf ("sanitize_apsp: OK\n");
endfunction

## Pages on the batched kernels: graphs a warp's (9 vertices), a block's (17, 70), a
## cluster's (200) and, distances alone of many pages, a block's by tiles (130, 300); int16
## guessing its words, right and wrong; an unbounded cycle in one page; gpu_arrays and a
## page's path walked on the device.
function pages (mode)
  classes = {"single", "int16", "double", "int8"};
  if (strcmp (mode, "racecheck"))
    classes = classes(1:2);
  endif
  for c = classes
    for n = [9 17 70 200]
      C = randi ([1 9], n, n, 3); C(rand (size (C)) > 0.4) = Inf;
      if (! strcmp (c{1}, "int16"))
        h = randi ([0 5], n, 1); C = C + h - h';
      endif
      if (isinteger (zeros (1, c{1})))
        C(isinf (C)) = double (intmax (c{1}));
      endif
      W = cast (C, c{1});
      [D, P] = gpu_apsp (W);
      [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
      if (! isequal (D, Dr) || ! isequal (P, Pr) || ! isequal (gpu_apsp (W), D))
        error ("sanitize_apsp: %s pages of %d differ from the CPU reference", c{1}, n);
      endif
    endfor
  endfor
  ## distances alone of enough pages past 128 vertices (past 256, one an SM): the tiled kernel,
  ## and its cycle found
  gpus = gpu_device ();
  many = ceil (gpus([gpus.selected]).multiprocessors / 2);
  for c = classes(1:2)
    for n = [130 300]
      C = randi ([1 9], n, n, many * (1 + (n > 256))); C(rand (size (C)) > 0.4) = Inf;
      if (isinteger (zeros (1, c{1})))
        C(isinf (C)) = double (intmax (c{1}));
      endif
      W = cast (C, c{1});
      if (! isequal (gpu_apsp (W), gpu_apsp (W, "kernel", "cpu")))
        error ("sanitize_apsp: %d %s pages of %d differ from the CPU reference", many, c{1}, n);
      endif
    endfor
  endfor
  for n = [130 300]   # past 256 the cycle's page runs again on the rounds
    W = single (randi ([1 9], n, n, many * (1 + (n > 256)))); W(1, 2, 2) = -20;
    expect_error (@() gpu_apsp (W), "cudakernels:negativecycle");
  endfor
  ## with P past 256: many graphs by tiles in one launch, padded and in D and P as they lie,
  ## 16-bit words, and the cycle's page again on the rounds
  for t = {{"single", 260}, {"single", 320}, {"int16", 300}}
    W = cast (randi ([1 9], t{1}{2}, t{1}{2}, 3), t{1}{1});
    [D, P] = gpu_apsp (W);
    [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
    if (! isequal (D, Dr) || ! isequal (P, Pr))
      error ("sanitize_apsp: %s pages of %d with P differ from the CPU reference", t{1}{:});
    endif
  endfor
  W = single (randi ([1 9], 300, 300, 3)); W(1, 2, 2) = -20;
  expect_error (@() with_paths (W), "cudakernels:negativecycle");
  W = int16 (randi ([1 9], 260, 260, many)); W(3, 4, 2) = -1;   # in double: page by page
  if (! isequal (gpu_apsp (W), gpu_apsp (W, "kernel", "cpu")))
    error ("sanitize_apsp: int16 pages of 260 with a negative weight differ from the CPU reference");
  endif
  W = int16 (randi ([1 9], 20, 20, 2)); W(3, 4, 2) = -1;   # the guess misses: again, in double
  if (! isequal (gpu_apsp (W), gpu_apsp (W, "kernel", "cpu")))
    error ("sanitize_apsp: int16 pages with a negative weight differ from the CPU reference");
  endif
  W = single (randi ([1 9], 30, 30, 3)); W(1, 2, 2) = -20;
  expect_error (@() gpu_apsp (W), "cudakernels:negativecycle");
  W(1, 2, 2) = 1;
  [DG, PG] = gpu_apsp (gpu_array (W));
  gpu_path (PG, [1 2], [3 4], 3);
endfunction

## Three and two shares of a graph of 3 blocks, each class's work type's slab phase.
function shares (n, classes)
  C = randi ([0 9], n); C(rand (n) > 0.02) = Inf;
  for cls = classes
    W = cast (C, cls{1});
    if (isinteger (W))
      W(isinf (C)) = intmax (cls{1});
    endif
    [D, P] = gpu_apsp (W, "devices", [1 1 1]);
    [Dr, Pr] = gpu_apsp (W, "devices", 1);
    if (! isequal (D, Dr) || ! isequal (P, Pr) || ! isequal (gpu_apsp (W, "devices", [1 1]), Dr))
      error ("sanitize_apsp: %s on three shares differs from one", cls{1});
    endif
  endfor
  old = __cudakernels__ ("settings", "spread_copies", true);
  [D, P] = gpu_apsp (gpu_array (W), "devices", [1 1]);
  __cudakernels__ ("settings", old);
  if (! isequal (gather (D), Dr) || ! isequal (gather (P), Pr))
    error ("sanitize_apsp: a gpu_array's copied rows give another result");
  endif
endfunction

## The GPU's widest, minimax or most reliable paths against the CPU reference,
## on the graph C (weights 0..9, no edge where `none`) in class cls.
function compare_semiring (C, none, cls, sr, n)
  if (strcmp (sr, "max.*"))
    if (isinteger (cast (0, cls)))
      return;
    endif
    C = 2 .^ -C; C(none) = 0;
  elseif (strcmp (sr, "max.min"))
    C(none) = -Inf;
  else
    C(none) = Inf;
  endif
  W = cast (C, cls);   # integers: +-Inf saturate to intmax and intmin, "no edge"
  [D, P] = gpu_apsp (W, "semiring", sr);
  [Dr, Pr] = gpu_apsp (W, "semiring", sr, "kernel", "cpu");
  if (! isequal (D, Dr) || ! isequal (P, Pr) || ! isequal (gpu_apsp (W, "semiring", sr), Dr))
    error ("sanitize_apsp: %s %s n = %d differs from the CPU reference", sr, cls, n);
  endif
endfunction

## A step done, with the seconds since the start: under a sanitizer, where the time goes.
function progress (what)
  persistent t0 = tic ();
  printf ("sanitize_apsp: %s done (%.0f s)\n", what, toc (t0));
  fflush (stdout);
endfunction

## P of W (nthargout would do, but it raises its errors again without their identifier).
function P = with_paths (W)
  [~, P] = gpu_apsp (W);
endfunction

function expect_error (f, id)
  try
    f ();
  catch err
    if (! strcmp (err.identifier, id))
      error ("sanitize_apsp: expected %s, got %s (%s)", id, err.identifier, err.message);
    endif
    return;
  end_try_catch
  error ("sanitize_apsp: expected %s, got no error", id);
endfunction
