## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{p} =} gpu_path (@var{P}, @var{s}, @var{t})
## @deftypefnx {} {@var{c} =} gpu_path (@var{P}, @var{s}, @var{t})
## @deftypefnx {} {@dots{} =} gpu_path (@var{P}, @var{s}, @var{t}, @var{q})
## The shortest path from vertex @var{s} to vertex @var{t}, from the
## predecessor matrix @var{P} of @code{[D, P] = gpu_apsp (W)}.
##
## For scalar @var{s} and @var{t}, @var{p} is a row vector of vertices, @var{s}
## first and @var{t} last: just @var{s} when @code{@var{s} == @var{t}}, and
## empty (1-by-0) when @var{t} cannot be reached from @var{s}.  With vectors
## @var{s} and @var{t} of the same size (or one of them scalar), @var{c} is a
## cell array of such paths, one per pair, shaped like the larger of the two.
##
## @var{P} may be a host matrix (any numeric class) or a gpu_array: then the
## paths are walked on the device and only their vertices are copied back.
## Where @var{P} has pages (@code{gpu_apsp} of an n-by-n-by-p @var{W}), @var{q}
## names the page whose paths are walked (a linear page number, 1 by default;
## @code{gpu_path (P(:,:,q), s, t)} is the same for a host @var{P}).  A
## @var{P} that leads round in circles (not made by @code{gpu_apsp}) raises
## @code{cudakernels:invalidinput}.
##
## Example:
##
## @example
## @group
## [D, P] = gpu_apsp ([0 3 Inf; Inf 0 1; 2 Inf 0]);
## gpu_path (P, 3, 2)
## @result{} 3   1   2
## @end group
## @end example
##
## @seealso{gpu_apsp}
## @end deftypefn

function p = gpu_path (P, s, t, q = 1)
  if (nargin < 3 || nargin > 4)
    print_usage ();
  endif
  dev = isa (P, "gpu_array");
  if (dev)
    [id, cls, dims] = facts (P);
  else
    cls = class (P);
    dims = size (P);
    if (! (isnumeric (P) && isreal (P)))
      error ("cudakernels:invalidinput", "gpu_path: P must be a real numeric matrix");
    endif
  endif
  if (dims(1) != dims(2))
    error ("cudakernels:invalidinput", "gpu_path: P must be square, or square pages");
  endif
  n = dims(1);
  pages = prod (dims(3:end));
  if (! (isnumeric (q) && isreal (q) && isscalar (q) && q == fix (q) && q >= 1 && q <= pages))
    error ("cudakernels:invalidinput", "gpu_path: q must be a page of P: an integer from 1 to %d",
           pages);
  endif
  if (! dev && pages > 1)
    P = P(:,:,q);
  endif
  check_vertices (s, n, "s");
  check_vertices (t, n, "t");
  if (! isscalar (s) && ! isscalar (t) && ! isequal (size (s), size (t)))
    error ("cudakernels:invalidinput",
           "gpu_path: s and t must have the same size, or one of them be a scalar");
  endif
  shape = size (s);
  if (isscalar (s))
    shape = size (t);
  endif
  s = double (s(:)') .* ones (1, prod (shape));
  t = double (t(:)') .* ones (1, prod (shape));
  if (dev)
    if (! strcmp (cls, "int32"))
      error ("cudakernels:invalidinput", "gpu_path: a gpu_array P must be int32, as gpu_apsp makes it");
    endif
    [len, v] = ck_call ("gpu_path", "path_dev", id, n, s, t, double (q));
    c = mat2cell (v, 1, len);
  else
    c = cell (1, numel (s));
    for q = 1:numel (s)
      c{q} = walk (P, n, s(q), t(q));
    endfor
  endif
  if (prod (shape) == 1)
    p = c{1};
    if (isempty (p))
      p = zeros (1, 0);
    endif
  else
    c(cellfun (@isempty, c)) = {zeros(1, 0)};
    p = reshape (c, shape);
  endif
endfunction

function check_vertices (v, n, name)
  if (! isnumeric (v) || ! isreal (v) || isempty (v) || any (v(:) != fix (v(:)))
      || any (v(:) < 1) || any (v(:) > n))
    error ("cudakernels:invalidinput",
           "gpu_path: %s must hold vertices: integers from 1 to %d", name, n);
  endif
endfunction

function p = walk (P, n, s, t)
  p = zeros (1, n);
  p(1) = t;
  len = 1;
  v = t;
  while (v != s)
    v = double (P(s, v));
    if (v < 1 || v > n)
      p = zeros (1, 0);
      return;
    endif
    len += 1;
    if (len > n)
      error ("cudakernels:invalidinput",
             "gpu_path: P leads round in circles from %d to %d: it was not made by gpu_apsp", s, t);
    endif
    p(len) = v;
  endwhile
  p = fliplr (p(1:len));
endfunction

%!shared P
%! P = int32 ([0 1 2; 3 0 2; 3 1 0]);   # of [0 3 Inf; Inf 0 1; 2 Inf 0]
%!assert (gpu_path (P, 1, 3), [1 2 3])
%!assert (gpu_path (P, 3, 2), [3 1 2])
%!assert (gpu_path (P, 2, 2), 2)
%!assert (gpu_path (double (P), 2, 1), [2 3 1])
%!assert (gpu_path (P, [1 3], [3 2]), {[1 2 3], [3 1 2]})
%!assert (gpu_path (P, 1, [1; 2]), {1; [1 2]})
%!test
%! Q = int32 ([0 1; 0 0]);   # 2 cannot reach 1
%! assert (size (gpu_path (Q, 2, 1)), [1 0]);
%! assert (gpu_path (Q, [2 1], [1 2]), {zeros(1, 0), [1 2]});
%!error <vertices> gpu_path (P, 0, 1)
%!error <vertices> gpu_path (P, 1, 4)
%!error <vertices> gpu_path (P, 1.5, 1)
%!error <same size> gpu_path (P, [1 2], [1 2 3])
%!error <square> gpu_path (ones (2, 3), 1, 1)
%!error <circles> gpu_path (int32 ([0 2 2; 0 0 3; 0 2 0]), 1, 3)
%!testif ; gpu_available ()
%! G = gpu_array (P);
%! assert (gpu_path (G, 1, 3), [1 2 3]);
%! assert (gpu_path (G, [1 3 2], [3 2 2]), {[1 2 3], [3 1 2], 2});
%! assert (size (gpu_path (gpu_array (int32 ([0 1; 0 0])), 2, 1)), [1 0]);
%!testif ; gpu_available ()
%! try
%!   gpu_path (gpu_array (int32 ([0 2 2; 0 0 3; 0 2 0])), 1, 3);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "cudakernels:invalidinput");
%! end_try_catch

%!demo
%! W = [0 3 Inf; Inf 0 1; 2 Inf 0];
%! kernel = "cpu";
%! if (gpu_available ())
%!   kernel = "gpu";
%! endif
%! [D, P] = gpu_apsp (W, "kernel", kernel);
%! for t = 1:3
%!   printf ("1 -> %d: %s (length %g)\n", t, mat2str (gpu_path (P, 1, t)), D(1, t));
%! endfor
