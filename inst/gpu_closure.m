## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{R} =} gpu_closure (@var{G})
## @deftypefnx {} {@var{R} =} gpu_closure (@var{G}, "reflexive")
## @deftypefnx {} {@var{R} =} gpu_closure (@dots{}, "kernel", @var{name})
## Transitive closure of a directed graph on the GPU: which vertices reach
## which.
##
## @var{G} is an @var{n}-by-@var{n} adjacency matrix, logical or numeric (a
## nonzero entry, or a stored entry of a sparse @var{G}, is an edge from its row
## to its column).  @code{R(i,j)} is true when a path of one or more edges leads
## from @var{i} to @var{j}; as in MATLAB's @code{transclosure}, @var{i} reaches
## itself only on a cycle.  With @qcode{"reflexive"} every vertex also reaches
## itself (the path of no edges).  @var{R} is logical; a gpu_array @var{G}
## gives a gpu_array @var{R}.
##
## The GPU computes the closure as Warshall's algorithm in pivot blocks of 1024
## vertices, bit-packed (a 65536-vertex graph is a 512 MiB bit matrix): per
## block, the block's own closure, then the block's row strip through it, and
## then every pair of the matrix through the block's columns in place, an
## or.and product on the 1-bit tensor cores (wgmma on Hopper; a plain kernel
## elsewhere).  That is one product's worth of work, @var{n}^3 bit pairs, in
## all.  A gpu_array @var{G} stays on its device.
##
## The option @qcode{"kernel"} is @qcode{"gpu"} (the default) or @qcode{"cpu"},
## repeated boolean squaring of @code{G | I} on @code{gpu_mxm}'s CPU kernel
## (host arrays; no GPU needed), stopping as soon as a squaring changes
## nothing.
##
## NaN in a numeric @var{G} (as Octave's @code{logical} does), complex,
## non-square or N-D input raise @code{cudakernels:invalidinput}.
##
## @seealso{gpu_mxm, gpu_apsp}
## @end deftypefn

function R = gpu_closure (G, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [kernel, mode] = ck_options ("gpu_closure", varargin,
                               {"kernel", "gpu", {"gpu", "cpu"}, false;
                                "mode", "transitive", {"reflexive"}, true});
  on_device = isa (G, "gpu_array");
  if (on_device && strcmp (kernel, "cpu"))
    error ("cudakernels:invalidinput",
           "gpu_closure: the cpu kernel works on host arrays; gather G first");
  endif
  reflexive = strcmp (mode, "reflexive");
  if (on_device)
    if (ndims (G) != 2 || rows (G) != columns (G))
      error ("cudakernels:invalidinput",
             "gpu_closure: G must be a real square logical or numeric matrix");
    endif
    G = ck_as_logical ("gpu_closure", G, "G");
    n = rows (G);
    if (n == 0)
      R = gpu_array (false (0));
      return;
    endif
    id = ck_call ("gpu_closure", "closure", "device", device_id (G), double (reflexive));
    R = gpu_array ("__cudakernels_wrap__", id, "logical", [n n]);
    return;
  endif
  A = adjacency (G);
  n = rows (A);
  if (n == 0)
    R = false (0);
  elseif (strcmp (kernel, "gpu"))
    R = ck_call ("gpu_closure", "closure", "host", A, double (reflexive));
  else
    R = squarings_on_host (A, A | logical (eye (n)), n, reflexive);
  endif
endfunction

## G as a logical host matrix: nonzero (or stored) entries are edges.
function A = adjacency (G)
  if (! ((isnumeric (G) || islogical (G)) && isreal (G) && ndims (G) == 2
         && rows (G) == columns (G)))
    error ("cudakernels:invalidinput",
           "gpu_closure: G must be a real square logical or numeric matrix");
  endif
  A = ck_as_logical ("gpu_closure", G, "G");
endfunction

## The number of squarings of G | I that hold every path of up to n - 1 edges.
function s = squarings (n)
  s = max (ceil (log2 (max (n - 1, 1))), 0);
endfunction

function R = squarings_on_host (A, M, n, reflexive)
  for s = 1:squarings (n)
    M2 = gpu_mxm (M, M, "or.and", "kernel", "cpu");
    if (isequal (M2, M))
      break;
    endif
    M = M2;
  endfor
  if (reflexive)
    R = M;
  else
    R = gpu_mxm (A, M, "or.and", "kernel", "cpu");
  endif
endfunction

## Warshall's algorithm in Octave: the independent reference.
%!function R = warshall (G)
%!  R = full (G != 0);
%!  for k = 1:rows (R)
%!    R = R | (R(:, k) & R(k, :));
%!  endfor
%!endfunction

%!test
%! ## against Warshall's algorithm: shapes, densities, self-loops, numeric and sparse input
%! rand ("seed", 3);
%! for n = [0 1 2 3 31 65 100]
%!   for density = [0 0.02 0.1 0.5 1]
%!     G = rand (n) < density;
%!     W = warshall (G);
%!     R = gpu_closure (G, "kernel", "cpu");
%!     assert (islogical (R) && isequal (R, W), sprintf ("n = %d, density %g", n, density));
%!     assert (isequal (gpu_closure (G, "reflexive", "kernel", "cpu"), W | logical (eye (n))));
%!   endfor
%! endfor
%! G = [0 2 0; 0 0 -1; 0 0 0];   # numeric: nonzero is an edge; no cycle: no diagonal
%! assert (gpu_closure (G, "kernel", "cpu"), logical ([0 1 1; 0 0 1; 0 0 0]));
%! assert (gpu_closure (sparse (G), "kernel", "cpu"), logical ([0 1 1; 0 0 1; 0 0 0]));
%! assert (gpu_closure ([0 1; 1 0], "kernel", "cpu"), true (2));   # a cycle reaches itself
%! assert (gpu_closure (int8 ([1 0; 0 0]), "kernel", "cpu"), logical ([1 0; 0 0]));   # a self-loop

%!test
%! ## against gpu_apsp's reachability (the cpu kernels): finite distances
%! rand ("seed", 5);
%! G = rand (300) < 0.004;
%! W = Inf (300); W(G) = 1;
%! assert (gpu_closure (G, "reflexive", "kernel", "cpu"), isfinite (gpu_apsp (W, "kernel", "cpu")));

%!error <square> gpu_closure (true (2, 3))
%!error <NaN> gpu_closure ([0 NaN; 1 0], "kernel", "cpu")
%!error id=cudakernels:invalidinput gpu_closure ([0 1i; 1 0])
%!error id=cudakernels:invalidinput gpu_closure (true (2, 2, 2))
%!error <unknown option> gpu_closure (true (2), "symmetric")

%!testif ; gpu_available ()
%! ## the GPU's blocked Warshall against the cpu kernel's squarings, gpu_apsp and Warshall's:
%! ## sizes ragged against the 32-bit words, the 256-row tiles and the 1024-vertex blocks
%! rand ("seed", 9);
%! for n = [1 2 31 33 257 1000 1025 2049]
%!   for density = [0 1/n 3/n 0.05]
%!     G = rand (n) < density;
%!     R = gpu_closure (G);
%!     Rr = gpu_closure (G, "reflexive");
%!     what = sprintf ("n = %d, density %g", n, density);
%!     assert (islogical (R) && isequal (Rr, R | logical (eye (n))), what);
%!     if (n <= 1000)
%!       assert (isequal (R, gpu_closure (G, "kernel", "cpu")), what);
%!     else   # the cpu kernel's squarings take long here: gpu_apsp's reachability instead
%!       W = Inf (n, "single");
%!       W(G) = 1;
%!       assert (isequal (Rr, isfinite (gpu_apsp (W))), what);
%!     endif
%!     if (n <= 257)
%!       assert (isequal (R, warshall (G)), what);
%!     endif
%!   endfor
%! endfor

%!testif ; gpu_available ()
%! ## long paths: a chain through the vertices in random order (upper triangular in that order),
%! ## and the same closed into one cycle (everything reaches everything)
%! rand ("seed", 11);
%! n = 2100;
%! p = randperm (n);
%! G = sparse (p(1:end-1), p(2:end), true, n, n);
%! R = gpu_closure (G);
%! want = triu (true (n), 1);
%! assert (isequal (R(p, p), want));
%! G(p(end), p(1)) = true;
%! assert (all (gpu_closure (G)(:)));

%!testif ; gpu_available ()
%! ## gpu_array in and out (numeric, converted on the device), nothing left behind
%! rand ("seed", 13);
%! G = rand (700) < 0.003;
%! H = gpu_closure (gpu_array (double (G)));
%! assert (isa (H, "gpu_array") && isequal (gather (H), gpu_closure (G, "kernel", "cpu")));
%! H = gpu_closure (gpu_array (G), "reflexive");
%! assert (isequal (gather (H), gpu_closure (G, "reflexive", "kernel", "cpu")));
%! assert (size (gpu_closure (gpu_array (false (0)))), [0 0]);
%! clear H;
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## Ctrl-C (through the test hook) and out of memory leave nothing behind
%! G = rand (5000) < 0.001;
%! __cudakernels__ ("settings", "test_cancel_after", 0);
%! try
%!   gpu_closure (G);
%!   error ("no error");
%! catch err
%!   __cudakernels__ ("settings", "test_cancel_after", -1);
%!   assert (err.identifier, "cudakernels:interrupted");
%! end_try_catch
%! assert (__ck_released__ ());
%! __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%! try
%!   gpu_closure (G);
%!   error ("no error");
%! catch err
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%!   assert (err.identifier, "cudakernels:outofmemory");
%! end_try_catch
%! assert (__ck_released__ ());

%!demo
%! ## which stations reach which: a one-way ring of 4 with a spur
%! G = false (5); G(1, 2) = G(2, 3) = G(3, 4) = G(4, 1) = G(4, 5) = true;
%! R = gpu_closure (G, "kernel", "cpu")   # 5 reaches nothing, and nothing on the ring misses 5

%!demo
%! ## the reflexive closure of a random sparse graph on the GPU
%! G = sprand (2000, 2000, 1e-3) != 0;
%! tic; R = gpu_closure (G, "reflexive"); t = toc;
%! printf ("n = 2000: %d of %d pairs reachable, %.1f ms\n", nnz (R), numel (R), 1e3 * t);
