## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{D} =} gpu_apsp (@var{W})
## @deftypefnx {} {[@var{D}, @var{P}] =} gpu_apsp (@var{W})
## @deftypefnx {} {[@dots{}] =} gpu_apsp (@dots{}, "kernel", @var{name})
## @deftypefnx {} {[@dots{}] =} gpu_apsp (@dots{}, "verbose", @var{tf})
## @deftypefnx {} {[@dots{}] =} gpu_apsp (@dots{}, "devices", @var{list})
## @deftypefnx {} {[@dots{}] =} gpu_apsp (@dots{}, "semiring", @var{S})
## All-pairs shortest paths on the GPU, by blocked Floyd--Warshall, and the
## other path problems of the semirings.
##
## @var{W} is an @var{n}-by-@var{n} matrix of edge weights: @code{W(i,j)} is
## the weight of the edge from vertex @var{i} to vertex @var{j}, @code{Inf}
## (double, single) or @code{intmax} (integer classes) where there is no edge.
## The diagonal counts as 0.  @code{D(i,j)} is the length of a shortest path
## from @var{i} to @var{j} (@code{Inf} or @code{intmax} where there is none),
## in the class of @var{W}.
##
## @code{P(i,j)} is the vertex just before @var{j} on one shortest path from
## @var{i} to @var{j}, 0 on the diagonal and where @var{j} cannot be reached
## from @var{i}; @code{gpu_path (P, s, t)} walks the paths back.  @var{P} is
## int32 (half the memory of double; Octave indexes with it as with any
## integer).  It is computed only when asked for.
##
## @itemize
## @item Classes: double, single, int8, uint8, int16, uint16, int32, uint32.
## A sparse @var{W} (double) has an edge for each stored (nonzero) entry; every
## other pair has none.  A gpu_array @var{W} gives gpu_array results, computed
## without leaving the device.
## @item Negative weights are allowed.  A negative cycle raises the error
## @code{cudakernels:negativecycle}, whose message names one vertex on it (a
## negative diagonal entry is a negative cycle of one vertex).
## @item Integer lengths are exact and saturate to the class, as Octave's
## integer sums do: a path of length @code{intmax} or more counts as no path.
## Nonnegative int8, uint8 and int16 weights run on the GPU's 16-bit DPX
## min-add, two sums per instruction; nonnegative int32 and uint16 on the
## 32-bit one; other integer data (negative weights, uint32) in double, where
## every sum is exact.
## @item Single and double weights that are all nonnegative integers (or
## @code{Inf}), no @code{-0}, run in the 16-bit or 32-bit integer work type
## when every shortest path's length, at most n - 1 times the largest weight,
## stays below 32767 or 2^31 - 1 (for single also at most 2^24, where its sums
## are exact): @var{D} and @var{P} are then those of the class, bit for bit
## (the field @code{work} of @code{__cudakernels__ ("last_plan")} names the work
## type of the last call).
## @item Floating-point lengths are sums in the class of @var{W} along the
## path, in the order the algorithm adds them.  Where they round (weights that
## are not integers, or sums beyond @code{flintmax}), @var{D} computed without
## @var{P} may differ from the @qcode{"cpu"} kernel's in the last bits, and a
## path walked
## through @var{P} may sum to a value that differs from @var{D} by a few
## units in the last place.
## @item Paths: @var{P} describes a shortest path for every pair, also on
## graphs with cycles of total weight zero.  When @var{P} is asked for, the
## GPU follows plain Floyd--Warshall's order exactly (blocked, each strip
## evolved step by step), so @var{D} and @var{P} are those of the
## @qcode{"cpu"} kernel, bit for bit.  Without @var{P} the rounds combine
## whole blocks, which is faster; the distances are the same, up to
## rounding where floating-point sums round.  A graph of 257 to 2816
## vertices on one GPU (work values of up to 4 bytes: not the double work
## type of non-integer double data and of the integers that run in double),
## with or without @var{P}, runs in one launch by 64-wide tiles, each tile's
## update taken by a thread block once the
## tiles it reads are ready: @var{D} alone at 1.5 to 1.8 times the rounds'
## speed at 1024 and 2048 vertices on an H100, with @var{P} in plain order
## from each tile's histories at 1.6 to 2.5 times; the field @code{tile} of
## @code{__cudakernels__ ("last_plan")} is then @code{[64 64 64]}.
## @item NaN or @code{-Inf} weights, and non-square, complex or logical
## input raise @code{cudakernels:invalidinput}; a problem too large for the
## device @code{cudakernels:outofmemory}.  No device memory is kept after the
## call.
## @end itemize
##
## Pages: a @var{W} of size n-by-n-by-p (any trailing dimensions) holds p
## graphs, one a page, and @var{D} and @var{P} have the size of @var{W}: each
## page is what its own 2-D call gives (@code{gpu_path (P, s, t, q)} walks
## page q's paths).  Graphs of up to 256 vertices run on the GPU all in one
## launch (or a few, a few milliseconds apart, so that Ctrl-C is heard): each
## lies in the registers of a group of threads (from 129 vertices, of a cluster
## of blocks, on Hopper GPUs; before them up to 128; @var{D} alone of many
## int16 graphs of 16 vertices, of one thread each, and of 64 vertices, of one
## warp each, on Hopper GPUs) for the whole of plain Floyd--Warshall, so @var{D} and @var{P} are the
## @qcode{"cpu"} kernel's, bit for bit, with or without @var{P} (up to the sign
## of a zero).  A 2-D call of that size runs there too, and pages with @var{P}
## of up to 128 vertices.  One exception, which
## is faster: @var{D} alone of many graphs of 129 to 1024 vertices (at least
## half as many pages as the GPU has multiprocessors up to 256 vertices, past
## it as many; where the work values take at most 4 bytes: single, and the
## integer classes that run on 16-bit or 32-bit words, not those that run in
## double; where the GPU gives a thread block 80 KB of shared memory, 40 KB for
## 16-bit words; on the selected GPU or the gpu_array's) runs by 64-wide blocks,
## a graph a thread block, all in one launch or a few, and its distances are
## then the same up to rounding where floating-point sums (or max.*'s products)
## round, as the larger graphs' are.  The other pages of more than 128
## vertices (with @var{P}, and @var{D} alone past 256 vertices where the last
## does not take them), up to 2816, run on one GPU as graphs by 64-wide
## tiles, many in one launch (or a few): each page exactly as its 2-D call,
## with @var{P} in plain order (on an H100 @var{P} costs 2.7 to 3.0 times
## @var{D} alone in single and 4.1 to 5.7 in int16 up to 512 vertices, 1.9 to
## 2.0 and 2.9 to 3.3 past them; 32 graphs of 1024 vertices, @var{D} alone, in
## 4.4 ms).  Pages in double, and larger ones, run one after the other as 2-D
## calls.
## An unbounded cycle in any page raises the error, naming the first such page
## and a vertex on the cycle.  With several GPUs (the option @qcode{"devices"},
## below) pages of up to 1024 vertices are shared among them whole: each GPU
## takes a run of pages and closes them as one GPU would (its own upload of host
## pages; a gpu_array's pages in place on its own GPU and copied to the others),
## so @var{D} and @var{P} are the same; by default host pages of as much work as
## 8192^3 pair updates or more use every visible GPU, others the selected GPU or
## the gpu_array's.
##
## The option @qcode{"kernel"} is @qcode{"gpu"} (the default) or
## @qcode{"cpu"}, a multi-threaded CPU reference (plain Floyd--Warshall) that
## needs no GPU.  Long runs answer Ctrl-C within a second or so, with the error
## @code{cudakernels:interrupted}, leaving nothing on the device;
## @code{"verbose", true} prints the rounds done about once a second.
##
## The option @qcode{"semiring"} poses another path problem, with @var{D} and
## @var{P} defined as above with ADD in place of min and MUL in place of +:
##
## @multitable @columnfractions 0.14 0.30 0.56
## @headitem @var{S} @tab problem @tab no edge; the diagonal; unbounded
## @item @qcode{"min.+"} @tab shortest paths (the default) @tab @code{Inf} or
## @code{intmax}; 0; a negative cycle
## @item @qcode{"max.+"} @tab longest paths (critical paths of a DAG) @tab
## @code{-Inf} or @code{intmin}; 0; a positive cycle,
## @code{cudakernels:positivecycle}
## @item @qcode{"max.min"} @tab widest (bottleneck) paths @tab @code{-Inf} or
## @code{intmin}; @code{Inf}; never
## @item @qcode{"min.max"} @tab minimax paths @tab @code{Inf} or @code{intmax};
## @code{-Inf}; never
## @item @qcode{"max.*"} @tab most reliable paths @tab 0 (or @code{-Inf});
## 1; a cycle whose product exceeds 1, @code{cudakernels:positivecycle}
## @end multitable
##
## The GraphBLAS spellings (@qcode{"max.plus"}, @qcode{"max.times"}, @dots{})
## are accepted.  @code{D(i,j)} is the ADD identity (the no-edge value) where
## @var{j} cannot be reached from @var{i}.  @qcode{"max.+"} takes the signed
## classes and refuses @code{+Inf} weights; its integer lengths saturate to the
## class; it runs on the GPU as shortest paths on @code{-W}, exactly (a zero
## length comes out @code{+0}).  @qcode{"max.*"} takes single and double
## weights that are not negative.  On the GPU @qcode{"max.min"} and
## @qcode{"min.max"} run the integer classes on keys that keep the order of the
## weights (32-bit words, or two 16-bit keys a word), and single and double in
## their class or, from 1024 vertices, on the ranks of their values (which
## takes memory for a sort of the n^2 weights): every answer is exact.
## @qcode{"max.*"} runs in the class.  The @qcode{"cpu"} kernel takes every one
## of them (plain Floyd--Warshall, with the same @var{P} rule), and the GPU's
## @var{D} and @var{P} equal it bit for bit, with two exceptions: the sign of a
## zero (max.+ gives @code{+0}; max.min and min.max either sign where @var{W}
## holds both @code{-0} and @code{+0}), and, for max.* without @var{P}, products
## that round (weights not powers of two), which may differ in the last bits as
## min.+'s sums do.
##
## Several GPUs: the option @qcode{"devices"} (numbers as @code{gpu_device ()}
## lists them) shares the rows of the work out among the listed GPUs, in whole
## blocks of 256 vertices (pages of up to 1024 vertices: whole pages, above);
## each round's pivot block row goes from the GPU that holds it to the others
## (peer to peer where the GPUs allow it).  @var{D} and @var{P} are those of one
## GPU, bit for bit, but @var{D} alone of a graph of 257 to 2816 vertices, which
## one GPU computes by tiles in blocked order: the same up to rounding where
## sums round.  By
## default a graph of 8192 vertices or more uses every visible GPU, a smaller
## one the selected GPU.  A gpu_array @var{W} stays where
## it lives, as do the results; the other GPUs work on copies of their rows.
##
## Example:
##
## @example
## @group
## W = [0 3 Inf; Inf 0 1; 2 Inf 0];
## [D, P] = gpu_apsp (W)
## @result{} D =
##      0     3     4
##      3     0     1
##      2     5     0
## @result{} P =
##      0     1     2
##      3     0     2
##      3     1     0
## gpu_path (P, 1, 3)
## @result{} 1   2   3
## @end group
## @end example
##
## @seealso{gpu_path, gpu_minplus, gpu_array}
## @end deftypefn

function [D, P] = gpu_apsp (W, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [kernel, verbose, devices, sr] = ck_options ("gpu_apsp", varargin,
                                               {"kernel", "gpu", {"gpu", "cpu"};
                                                "verbose", 0, "logical";
                                                "devices", [], "devices";
                                                "semiring", "min.+", "string"});
  sr = ck_semiring ("gpu_apsp", sr, "the semiring");
  verbose = double (verbose);   # the gateway takes a number
  if (isa (W, "gpu_array"))
    [id, cls, dims] = facts (W);
    check_class ("W", cls, true);
    check_square (dims);
    if (strcmp (kernel, "cpu"))
      error ("cudakernels:invalidinput",
             "gpu_apsp: the cpu kernel works on host arrays; gather W first");
    endif
    if (nargout < 2)
      D = gpu_array ("__cudakernels_wrap__",
                     ck_call ("gpu_apsp", "apsp", sr, "device", id, kernel, verbose,
                              devices, dims), cls, dims);
    else
      [idd, idp] = ck_call ("gpu_apsp", "apsp", sr, "device", id, kernel, verbose, devices,
                            dims);
      D = gpu_array ("__cudakernels_wrap__", idd, cls, dims);
      P = gpu_array ("__cudakernels_wrap__", idp, "int32", dims);
    endif
    return;
  endif
  if (issparse (W))
    W = full_graph (W, sr);   # sparse arrays are 2-D: one graph
  endif
  check_class ("W", class (W), isnumeric (W) && isreal (W));
  check_square (size (W));
  if (nargout < 2)
    D = ck_call ("gpu_apsp", "apsp", sr, "host", W, kernel, verbose, devices);
  else
    [D, P] = ck_call ("gpu_apsp", "apsp", sr, "host", W, kernel, verbose, devices);
  endif
endfunction

function check_class (name, cls, real_numeric)
  classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"};
  if (! real_numeric || ! any (strcmp (cls, classes)))
    error ("cudakernels:invalidinput",
           "gpu_apsp: %s must be a real matrix of class %s (it is %s%s)", name,
           strjoin (classes, ", "), ck_pick (real_numeric, "", "complex or non-numeric "), cls);
  endif
endfunction

## n-by-n, or n-by-n-by-... (pages: a graph each).
function check_square (dims)
  if (dims(1) != dims(2))
    error ("cudakernels:invalidinput",
           "gpu_apsp: W must be square (n-by-n, or n-by-n-by-... for pages of graphs); it is %s",
           strjoin (arrayfun (@num2str, dims, "UniformOutput", false), "x"));
  endif
endfunction

## Stored entries are edges, everything else no edge (the semiring's ADD identity).
function F = full_graph (S, sr)
  if (! isa (S, "double") || ! isreal (S))
    error ("cudakernels:invalidinput", "gpu_apsp: a sparse W must be real double");
  endif
  [i, j, v] = find (S);
  F = repmat (ck_pick (any (strcmp (sr, {"min.+", "min.max"})), Inf,
                       ck_pick (strcmp (sr, "max.*"), 0, -Inf)), size (S));
  F(sub2ind (size (S), i, j)) = v;
endfunction

## Test helpers.  ref_fw is Octave's own plain Floyd-Warshall (exact on the
## integer-valued weights the tests use); the graphs (__ck_graph__, shared with
## tests/) get negative edges without negative cycles from potentials (w(i,j) =
## c(i,j) + h(i) - h(j), c >= 0, so every cycle weighs sum (c) >= 0, and
## zero-weight cycles occur where asked for).
%!function [D, P] = ref_fw (W)
%!  n = rows (W); cls = class (W);
%!  if (isinteger (W))
%!    hi = double (intmax (cls)); lo = double (intmin (cls));
%!    Wd = double (W); Wd(Wd == hi) = Inf;
%!  else
%!    Wd = W;
%!  endif
%!  D = Wd; D(1:n+1:end) = 0;
%!  P = repmat ((1:n)', 1, n) .* isfinite (D); P(1:n+1:end) = 0;
%!  for k = 1:n
%!    S = D(:,k) + D(k,:);
%!    m = S < D;
%!    D(m) = S(m);
%!    Pk = repmat (P(k,:), n, 1);
%!    P(m) = Pk(m);
%!  endfor
%!  if (isinteger (W))
%!    P(D >= hi) = 0;
%!    D = cast (max (min (D, hi), lo), cls);
%!  endif
%!  P = int32 (P);
%!endfunction
%!function check_paths (W, D, P)
%!  ## every path walked back through P ends at its source and weighs D (in
%!  ## double: exact for these weights); unreachable pairs have P == 0
%!  n = rows (W);
%!  Wd = double (W); Dd = double (D);
%!  if (isinteger (W))
%!    hi = double (intmax (class (W)));
%!    Wd(Wd == hi) = Inf; Dd(Dd == hi) = Inf;
%!  endif
%!  Pd = double (P);
%!  reach = isfinite (Dd) & ! eye (n);
%!  assert (all (Pd(reach) >= 1 & Pd(reach) <= n));
%!  assert (all (Pd(! reach) == 0));
%!  [i, j] = find (reach);
%!  ## every pair: the last edge of its path is tight, D(i,j) = D(i,p) + W(p,j)
%!  p = Pd(reach);
%!  assert (Dd(sub2ind ([n n], i, p)) + Wd(sub2ind ([n n], p, j)), Dd(reach));
%!  ## and a sample walked back whole (no loops)
%!  if (numel (i) > 300)
%!    q = randperm (numel (i), 300); i = i(q); j = j(q);
%!  endif
%!  for q = 1:numel (i)
%!    p = gpu_path (P, i(q), j(q));
%!    assert (p(1), i(q)); assert (p(end), j(q));
%!    w = sum (Wd(sub2ind ([n n], p(1:end-1), p(2:end))));
%!    assert (w, Dd(i(q), j(q)));
%!  endfor
%!endfunction

## ---- the CPU reference against Octave's own Floyd-Warshall (runs everywhere) ----
%!test
%! for cls = {"double", "single", "int8", "uint8", "int16", "int32", "uint32"}
%!   for n = [1 2 5 31 64]
%!     neg = ! any (strcmp (cls{1}, {"uint8", "uint32"}));
%!     W = __ck_graph__ (n, cls{1}, 0.3, neg);
%!     [D, P] = gpu_apsp (W, "kernel", "cpu");
%!     [Dr, Pr] = ref_fw (W);
%!     assert (class (D), cls{1}); assert (class (P), "int32");
%!     assert (D, Dr, 0);
%!     assert (P, Pr);
%!     check_paths (W, D, P);
%!   endfor
%! endfor

%!test
%! W = [0 3 Inf; Inf 0 1; 2 Inf 0];
%! [D, P] = gpu_apsp (W, "kernel", "cpu");
%! assert (D, [0 3 4; 3 0 1; 2 5 0]);
%! assert (P, int32 ([0 1 2; 3 0 2; 3 1 0]));
%! assert (gpu_apsp (sparse ([0 3 0; 0 0 1; 2 0 0]), "kernel", "cpu"), D);

## integers saturate: a path of intmax or more is no path
%!test
%! W = int8 ([0 100 127; 127 0 100; 127 127 0]);
%! [D, P] = gpu_apsp (W, "kernel", "cpu");
%! assert (D, int8 ([0 100 127; 127 0 100; 127 127 0]));
%! assert (P, int32 ([0 1 0; 0 0 2; 0 0 0]));
%! W = int8 ([0 -100 127; 127 0 -100; 127 127 0]);
%! assert (gpu_apsp (W, "kernel", "cpu"), int8 ([0 -100 -128; 127 0 -100; 127 127 0]));

## zero-weight cycles: plain Floyd-Warshall's predecessors lead home
%!test
%! W = [0 0 5; 0 0 Inf; Inf 1 0];
%! [D, P] = gpu_apsp (W, "kernel", "cpu");
%! assert (D, [0 0 5; 0 0 5; 1 1 0]);
%! check_paths (W, D, P);

## ---- bad input: identified errors, on any machine ----
%!error <negative cycle> gpu_apsp ([0 1; -2 0], "kernel", "cpu")
%!error <vertex 2> gpu_apsp ([0 1 Inf; Inf -1 Inf; 1 1 0], "kernel", "cpu")
%!test
%! try
%!   gpu_apsp ([0 1 Inf; Inf 0 -3; 1 Inf 0], "kernel", "cpu");
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "cudakernels:negativecycle");
%! end_try_catch
%!error <NaN> gpu_apsp ([0 NaN; 1 0], "kernel", "cpu")
%!error <-Inf> gpu_apsp ([0 -Inf; 1 0], "kernel", "cpu")
%!error <square> gpu_apsp (ones (2, 3))
%!error <square> gpu_apsp (ones (2, 3, 2))
%!error <complex> gpu_apsp ([0 1i; 1 0])
%!error <logical> gpu_apsp (true (2))
%!error <int64> gpu_apsp (int64 ([0 1; 1 0]))
%!error <unknown option> gpu_apsp (1, "foo", 1)
%!error <kernel> gpu_apsp (1, "kernel", "warptile")
%!test
%! try
%!   gpu_apsp ([0 NaN; 1 0], "kernel", "cpu");
%! catch err
%!   assert (err.identifier, "cudakernels:invalidinput");
%! end_try_catch
%!test
%! assert (size (gpu_apsp (zeros (0, 0), "kernel", "cpu")), [0 0]);

## ---- the GPU against the CPU reference ----
%!testif ; gpu_available ()
%! for cls = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"}
%!   for n = [1 2 31 257 1000]
%!     for neg = [false true]
%!       if (neg && any (strcmp (cls{1}, {"uint8", "uint16", "uint32"})))
%!         continue;
%!       endif
%!       if (n == 1000 && ! any (strcmp (cls{1}, {"single", "int16", "int32"})))
%!         continue;   # the larger size on one class of each work type
%!       endif
%!       W = __ck_graph__ (n, cls{1}, 0.05 + 0.5 * rand (), neg);
%!       W0 = W;
%!       [D, P] = gpu_apsp (W);
%!       [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
%!       assert (class (D), cls{1});
%!       assert (D, Dr, 0);
%!       assert (P, Pr);                 # plain Floyd-Warshall's order: the same P
%!       assert (gpu_apsp (W), D, 0);   # the same without P
%!       assert (W, W0);                 # input untouched
%!       check_paths (W, D, P);
%!     endfor
%!   endfor
%! endfor
%! assert (__ck_released__ ());

## many rounds (17 at n = 4099, which one GPU runs looking a round ahead: the
## next round's strips beside the product) in every class and every work type,
## with P and without; one graph, sparse enough that paths have many edges and
## short enough that no class saturates, so that the CPU reference runs once
## and every class's D and P must be its own (single and double also with
## narrowing off, on their float work types)
%!function X = as_class (X, cls)
%!  ## a double graph or distance matrix in class cls (Inf as intmax)
%!  if (! any (strcmp (cls, {"double", "single"})))
%!    X(isinf (X)) = double (intmax (cls));
%!  endif
%!  X = cast (X, cls);
%!endfunction
%!testif ; gpu_available ()
%! W = __ck_graph__ (4099, "double", 0.002, false);
%! [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
%! assert (max (Dr(isfinite (Dr))) < 127);   # no class saturates
%! runs = {"int8", "auto", "uint16"; "uint8", "auto", "uint16"; "int16", "auto", "uint16";
%!         "uint16", "auto", "uint32"; "int32", "auto", "uint32"; "uint32", "auto", "double";
%!         "double", "auto", "uint32"; "single", "auto", "uint32";
%!         "double", "off", "double"; "single", "off", "single"}';
%! for r = runs
%!   Wc = as_class (W, r{1});
%!   old = __cudakernels__ ("settings", "minplus_narrow", r{2});
%!   unwind_protect
%!     [D, P] = gpu_apsp (Wc);
%!     ran = __cudakernels__ ("last_plan").work;
%!     D1 = gpu_apsp (Wc);
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", old);
%!   end_unwind_protect
%!   assert ([r{1} " " r{2} ": " ran], [r{1} " " r{2} ": " r{3}]);   # its work type
%!   assert (D, as_class (Dr, r{1}), 0);
%!   assert (P, Pr);
%!   assert (D1, D, 0);
%! endfor
%! check_paths (W, D, P);   # every class's P is Pr
%! assert (__ck_released__ ());

## graphs with zero-weight cycles (where blocked Floyd-Warshall's order alone
## would let P lead round in circles): the same D and P as the CPU reference
%!testif ; gpu_available ()
%! for cls = {"double", "single", "int8", "int16", "int32", "uint16"}
%!   neg = any (strcmp (cls{1}, {"double", "int8"}));
%!   for n = [2 300]
%!     W = __ck_graph__ (n, cls{1}, 0.3, neg, true);
%!     [D, P] = gpu_apsp (W);
%!     [Dc, Pc] = gpu_apsp (W, "kernel", "cpu");
%!     assert (D, Dc, 0); assert (P, Pc);
%!     check_paths (W, D, P);
%!   endfor
%! endfor
%! ## on the device
%! W = __ck_graph__ (257, "single", 0.3, false, true); W(3,4) = 0; W(4,3) = 0;
%! [D, P] = gpu_apsp (gpu_array (W));
%! [Dc, Pc] = gpu_apsp (W, "kernel", "cpu");
%! assert (gather (D), Dc, 0); assert (gather (P), Pc);
%! clear D P
%! assert (__ck_released__ ());

## disconnected parts, isolated vertices and integer extremes
%!testif ; gpu_available ()
%! n = 300;
%! W = __ck_graph__ (n, "double", 0.2, true);
%! W(1:150, 151:end) = Inf; W(151:end, 1:150) = Inf;   # two parts
%! W(77, :) = Inf; W(:, 77) = Inf; W(77, 77) = 0;      # an isolated vertex
%! [D, P] = gpu_apsp (W);
%! assert (D, gpu_apsp (W, "kernel", "cpu"), 0);
%! assert (all (isinf (D(1:150, 151:end))(:)));
%! assert (all (P(1:150, 151:end)(:) == 0));
%! check_paths (W, D, P);
%! for cls = {"int16", "int32", "uint16"}   # weights near intmax: sums at and past it
%!   hi = double (intmax (cls{1}));
%!   W = cast (randi ([floor(hi / 3), hi], 70), cls{1});
%!   W(1:71:end) = 0;
%!   [D, P] = gpu_apsp (W);
%!   [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
%!   assert (D, Dr, 0);
%!   assert (P(D == intmax (cls{1})), zeros (nnz (D == intmax (cls{1})), 1, "int32"));
%!   check_paths (W, D, P);
%! endfor

## integer-valued single and double in an integer work type: tests/test_apsp_narrow.m

## non-integer weights: with P exactly the CPU's; D alone the same up to
## rounding; paths weigh D up to rounding
%!testif ; gpu_available ()
%! for cls = {"double", "single"}
%!   W = cast (rand (300) * 10, cls{1});
%!   W(rand (300) > 0.1) = Inf;
%!   [D, P] = gpu_apsp (W);
%!   [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
%!   assert (D, Dr, 0);   # with P: plain Floyd-Warshall's sums, in its order
%!   assert (P, Pr);
%!   tol = 64 * eps (cls{1});
%!   assert (double (gpu_apsp (W)), double (Dr), -tol);
%!   [i, j] = find (isfinite (D) & ! eye (300));
%!   for q = randperm (numel (i), 200)
%!     p = gpu_path (P, i(q), j(q));
%!     w = sum (double (W(sub2ind ([300 300], p(1:end-1), p(2:end)))));
%!     assert (w, double (D(i(q), j(q))), -tol);
%!   endfor
%! endfor

## gpu_array in, gpu_array out; sparse; negative cycles
%!testif ; gpu_available ()
%! W = __ck_graph__ (400, "single", 0.1, true);
%! G = gpu_array (W);
%! [DG, PG] = gpu_apsp (G);
%! assert (isa (DG, "gpu_array") && isa (PG, "gpu_array"));
%! assert (classUnderlying (PG), "int32");
%! [D, P] = gpu_apsp (W);
%! assert (gather (DG), D, 0);
%! assert (gpu_path (PG, 3, 100), gpu_path (gather (PG), 3, 100));
%! check_paths (W, gather (DG), gather (PG));
%! S = sparse ([1 2 3], [2 3 1], [4 5 6], 3, 3);
%! assert (gpu_apsp (S), [0 4 9; 11 0 5; 6 10 0]);
%! clear G DG PG;
%! assert (__ck_released__ ());
%!testif ; gpu_available ()
%! for cls = {"double", "single", "int16", "int32"}
%!   W = __ck_graph__ (600, cls{1}, 0.3, false);
%!   W(400, 17) = -1000; W(17, 523) = 0; W(523, 400) = 0;   # the cycle 17 -> 523 -> 400 -> 17
%!   try
%!     gpu_apsp (W);
%!     error ("no error");
%!   catch err
%!     assert (err.identifier, "cudakernels:negativecycle");
%!     ## every negative cycle uses the edge 400 -> 17: v is on one when a path
%!     ## 17 ~> v ~> 400 without that edge is shorter than 1000
%!     v = str2double (regexp (err.message, 'vertex (\d+)', "tokens", "once"){1});
%!     W(400, 17) = __ck_intmax_of__ (class (W));
%!     D0 = double (gpu_apsp (W, "kernel", "cpu"));
%!     assert (D0(17, v) + D0(v, 400) < 1000);
%!   end_try_catch
%!   assert (__ck_released__ ());
%! endfor
%!testif ; gpu_available ()
%! __ck_expect_error__ (@() gpu_apsp ([0 1; -1 -1]), "cudakernels:negativecycle", "vertex 2");
%!testif ; gpu_available ()
%! __ck_expect_error__ (@() gpu_apsp (gpu_array ([0 NaN; 1 0])), "cudakernels:invalidinput", ".");
%! assert (__ck_released__ ());

## Ctrl-C (through the test hook) and out of memory leave nothing behind
%!testif ; gpu_available ()
%! W = __ck_graph__ (2000, "single", 0.5, false);
%! for graph = {"rounds", "auto"}   # between the rounds; before the tiles' one launch
%!   old = __cudakernels__ ("settings", "apsp_graph", graph{1});
%!   __cudakernels__ ("settings", "test_cancel_after", 2 * strcmp (graph{1}, "rounds"));
%!   unwind_protect
%!     try
%!       [D, P] = gpu_apsp (W);
%!       error ("no error");
%!     catch err
%!       assert (err.identifier, "cudakernels:interrupted");
%!     end_try_catch
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", old);
%!   end_unwind_protect
%!   assert (__ck_released__ ());
%! endfor
%! __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%! unwind_protect
%!   __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:outofmemory", ".");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! assert (gpu_apsp (W(1:300, 1:300)), gpu_apsp (W(1:300, 1:300), "kernel", "cpu"));

%!demo
%! ## Shortest routes in a small road network (minutes), with the route itself
%! W = Inf (5); W(1:6:end) = 0;
%! W(1,2) = 7; W(2,3) = 4; W(1,4) = 2; W(4,3) = 3; W(3,5) = 1; W(4,5) = 9;
%! kernel = "cpu";
%! if (gpu_available ())
%!   kernel = "gpu";
%! endif
%! [D, P] = gpu_apsp (W, "kernel", kernel);
%! printf ("1 -> 5 takes %d minutes via %s\n", D(1,5), mat2str (gpu_path (P, 1, 5)));
