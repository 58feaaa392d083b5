## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{X} =} __ck_messy__ (@var{dims})
## @deftypefnx {} {@var{X} =} __ck_messy__ (@var{dims}, @var{cls}, @var{ints})
## Test helper: a min-plus operand of size @var{dims} (pages too) and class
## @var{cls} (default double) that mixes the cases a product must get right:
## values around 0 (standard deviation 100; when @var{ints}, the default,
## integers of standard deviation 10, so many ties), 5% NaN, 3% Inf, two
## @code{-Inf}, and where there are 3 rows and 2 columns or more, an all-NaN
## row 2 and column 2 on every page, so that some results are NaN.
##
## In an integer class NaN becomes 0 and Inf @code{intmax}, and no @code{-Inf}
## is drawn: @code{intmin} beside positive values sends the 32-bit classes to
## their wide path, which the tests choose where they mean to.
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function X = __ck_messy__ (dims, cls = "double", ints = true)
  X = 100 * randn (dims);
  if (ints)
    X = round (X / 10);
  endif
  u = rand (dims);
  X(u < 0.05) = NaN;
  X(u >= 0.05 & u < 0.08) = Inf;
  if (numel (X) > 0 && any (strcmp (cls, {"double", "single"})))
    X(randperm (numel (X), min (2, numel (X)))) = -Inf;
  endif
  if (rows (X) >= 3 && columns (X) >= 2)
    X(2, :, :) = NaN;
    X(:, 2, :) = NaN;
  endif
  X = cast (X, cls);
endfunction

%!test
%! X = __ck_messy__ ([5 4 3], "single");
%! assert (class (X), "single");
%! assert (size (X), [5 4 3]);
%! assert (all (isnan (X(2, :, :))(:)) && all (isnan (X(:, 2, :))(:)));
%! assert (nnz (X == -Inf) <= 2);   # row 2 and column 2 may cover them
%! assert (nnz (__ck_messy__ ([2 2], "double") == -Inf), 2);
%!test
%! X = __ck_messy__ ([40 50], "int32");
%! assert (class (X), "int32");
%! assert (! any (X(:) == intmin ("int32")));
%! assert (all (X(2, :) == 0));
%!assert (size (__ck_messy__ ([0 3])), [0 3])
