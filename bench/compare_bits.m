## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} compare_bits (@var{file}, @var{set})
## @deftypefnx {} {@var{ndiff} =} compare_bits ("check", @var{file_a}, @var{file_b})
## The results two builds of the package give on the same inputs, bit for bit:
## run once per build (@file{bench/gpu_session.sh}'s @code{compare} step), each
## saving its results to @var{file}, then @code{"check"} the files against each
## other.  A change meant to move only speed must leave every bit as it was.
##
## @var{set} names the cases:
## @table @code
## @item "apsp"
## @code{gpu_apsp} where graphs run by tiles: single graphs of 300 to 2048
## vertices and pages of them, with P (single, int16, int32, double, uint8;
## ragged n, many ties, negative edges, max.min), and D of 16-bit pages on the
## tiled kernel (int16 and uint16, min.+, max.min and min.max, ragged n, a
## gpu_array, the error a page's negative cycle raises).
## @item "minplus"
## @code{gpu_minplus} with its witness at ragged and paged shapes in single,
## double, int32, int16, uint8 and int8, narrowing on and off.
## @end table
## The inputs are drawn from fixed seeds, so every build sees the same ones.
## Each case prints the plan that ran (@code{__cudakernels__ ("last_plan")}).
##
## @code{"check"} prints each result that differs (floating-point values compared
## as their bits, so that -0 against 0 differs) and a summary line, and returns
## the number of results that differ.
## @end deftypefn

function ndiff = compare_bits (file, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  if (strcmp (file, "check"))
    if (nargin != 3)
      print_usage ();
    endif
    ndiff = check (varargin{:});
    return;
  endif
  switch (varargin{1})
    case "apsp"
      R = apsp_cases ();
    case "minplus"
      R = minplus_cases ();
    otherwise
      error ("cudakernels:invalidinput", "compare_bits: no set '%s' (apsp, minplus)", varargin{1});
  endswitch
  save ("-binary", file, "R");
endfunction

## One result: what was run, its values and the plan that ran.
function r = result (what, vals)
  plan = __cudakernels__ ("last_plan");
  printf ("compare_bits: %-40s %s\n", what, strtrim (disp (plan.work)));
  r = struct ("what", what, "vals", {vals});
endfunction

function R = apsp_cases ()
  R = struct ("what", {}, "vals", {});
  ## n, pages, class, weights (0: 1..999 or the class's largest below "no edge", 1: sparse with
  ## negative edges, 2: 1..9), semiring
  graphs = {1024, 1, "single", 0, "min.+"; 2048, 1, "single", 0, "min.+";
            1000, 1, "single", 1, "min.+"; 1100, 1, "single", 1, "min.+";
            1024, 1, "int16", 0, "min.+"; 2048, 1, "int16", 0, "min.+";
            1024, 1, "int32", 1, "min.+"; 1024, 1, "double", 0, "min.+";
            512, 6, "single", 0, "min.+"; 300, 40, "single", 1, "min.+";
            1024, 3, "int16", 0, "min.+"; 640, 5, "int16", 1, "min.+";
            1024, 1, "int16", 0, "max.min"; 1024, 1, "single", 0, "max.min";
            777, 2, "uint8", 0, "min.+"; 1024, 1, "int16", 2, "min.+"};
  R = run_apsp (R, graphs, 1000, 2);   # D and P
  pages = {256, 256, "int16", 0, "min.+"; 256, 256, "int16", 1, "min.+";
           200, 300, "int16", 1, "min.+"; 129, 256, "int16", 0, "min.+";
           320, 264, "int16", 0, "min.+"; 256, 256, "int16", 0, "max.min";
           300, 220, "int16", 0, "min.max"; 256, 256, "uint16", 0, "min.+";
           256, 100, "int16", 0, "min.+"; 256, 256, "single", 0, "min.+"};
  R = run_apsp (R, pages, 2000, 1);    # D alone
  W = weights (256, 256, "int16", 0, 3000);
  R(end+1) = result ("D gpu_array 256 x 256 int16", {gather(gpu_apsp (gpu_array (W)))});
  W(5, 9, 77) = -2000;
  W(9, 5, 77) = 10;
  try
    gpu_apsp (W);
    msg = "no error";
  catch err
    msg = [err.identifier ": " err.message];
  end_try_catch
  R(end+1) = struct ("what", "a page's negative cycle", "vals", {{msg}});
endfunction

function R = minplus_cases ()
  R = struct ("what", {}, "vals", {});
  shapes = {[1 1 1], [63 65 1000], [1000 63 65], [257 1 300], [64 64 64 64], [65 33 17 9]};
  classes = {"single", "double", "int32", "int16", "uint8", "int8"};
  old = __cudakernels__ ("settings", "minplus_narrow", "auto").minplus_narrow;
  unwind_protect
    k = 0;
    for mode = {"off", "auto"}
      __cudakernels__ ("settings", "minplus_narrow", mode{1});
      for c = classes
        for s = shapes
          sz = s{1};
          k++;
          A = operand ([sz(1) sz(2) sz(4:end)], c{1}, 4000 + k);
          B = operand ([sz(2) sz(3) sz(4:end)], c{1}, 5000 + k);
          [C, K] = gpu_minplus (A, B);
          R(end+1) = result (sprintf ("C, K %s %s narrow %s", mat2str (sz), c{1}, mode{1}), {C, K});
        endfor
      endfor
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", "minplus_narrow", old);
  end_unwind_protect
endfunction

## Each row of table (n, pages, class, weights, semiring) through gpu_apsp, its inputs from seed0
## + the row, nout of its outputs kept.
function R = run_apsp (R, table, seed0, nout)
  for i = 1:rows (table)
    [n, p, cls, kind, sr] = table{i, :};
    out = cell (1, nout);
    [out{:}] = gpu_apsp (weights (n, p, cls, kind, seed0 + i), "semiring", sr);
    R(end+1) = result (sprintf ("%s %d x %d %s %s %d", merge (nout > 1, "D, P", "D"), n, p, cls, ...
                                sr, kind), out);
  endfor
endfunction

## p graphs of n vertices in class cls, from seed: weights 1..999 (kind 0; in uint8 1..254, below
## "no edge"), __ck_graph__'s sparse graphs with negative edges where the class has them (1), or
## 1..9, many ties (2).
function W = weights (n, p, cls, kind, seed)
  rand ("state", seed);
  W = zeros (n, n, p, cls);
  for q = 1:p
    switch (kind)
      case 0
        top = 999;
        if (isinteger (W))
          top = min (top, double (intmax (cls)) - 1);
        endif
        W(:,:,q) = cast (randi (top, n), cls);
      case 1
        W(:,:,q) = __ck_graph__ (n, cls, 0.3, ! strncmp (cls, "u", 1));
      otherwise
        W(:,:,q) = cast (randi (9, n), cls);
    endswitch
  endfor
  if (strcmp (cls, "single") && kind == 0)
    W += single (rand (n, n, p) > 0.5) / 4;   # not integer-valued: single's own path
  endif
endfunction

## A min-plus operand from seed: the tests' mix of ties, NaN, ±Inf and intmax (__ck_messy__).
function A = operand (sz, cls, seed)
  rand ("state", seed);
  randn ("state", seed);
  A = __ck_messy__ (sz, cls);
endfunction

function ndiff = check (file_a, file_b)
  a = load (file_a).R;
  b = load (file_b).R;
  if (numel (a) != numel (b))
    error ("cudakernels:invalidinput", "compare_bits: %s holds %d results, %s %d", ...
           file_a, numel (a), file_b, numel (b));
  endif
  ndiff = 0;
  for i = 1:numel (a)
    if (! strcmp (a(i).what, b(i).what))
      error ("cudakernels:invalidinput", "compare_bits: case %d is '%s' in %s, '%s' in %s", ...
             i, a(i).what, file_a, b(i).what, file_b);
    endif
    for j = 1:numel (a(i).vals)
      if (! same_bits (a(i).vals{j}, b(i).vals{j}))
        ndiff++;
        printf ("compare_bits: DIFFERS: %s, output %d\n", a(i).what, j);
      endif
    endfor
  endfor
  printf ("compare_bits: %d cases, %d results differ (%s against %s)\n", numel (a), ndiff, ...
          file_b, file_a);
endfunction

function tf = same_bits (u, v)
  tf = strcmp (class (u), class (v)) && isequal (size (u), size (v));
  if (tf && isfloat (u) && ! isempty (u))
    w = merge (isa (u, "double"), "uint64", "uint32");
    tf = isequal (typecast (u(:), w), typecast (v(:), w));
  elseif (tf)
    tf = isequal (u, v);
  endif
endfunction

%!error <Invalid call> compare_bits ()
%!error id=cudakernels:invalidinput compare_bits ("/tmp/x.mat", "nothing")
%!test
%! a = tempname (); b = tempname ();
%! unwind_protect
%!   R = struct ("what", {"x", "msg"}, "vals", {{single([1 NaN -Inf]), int32(3)}, {"e: m"}});
%!   save ("-binary", a, "R");
%!   save ("-binary", b, "R");
%!   assert (compare_bits ("check", a, b), 0);
%!   R(1).vals{1}(1) = single (1 + eps ("single"));   # one bit
%!   R(2).vals{1} = "e: n";
%!   save ("-binary", b, "R");
%!   assert (compare_bits ("check", a, b), 2);
%!   R = struct ("what", {"x"}, "vals", {{[0 1]}});
%!   save ("-binary", a, "R");
%!   R.vals{1}(1) = -0;                               # equal as values, not as bits
%!   save ("-binary", b, "R");
%!   assert (compare_bits ("check", a, b), 1);
%!   R.vals{1} = single ([0 1]);                      # another class
%!   save ("-binary", b, "R");
%!   assert (compare_bits ("check", a, b), 1);
%! unwind_protect_cleanup
%!   unlink (a); unlink (b);
%! end_unwind_protect
