## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{sr} =} ck_semiring (@var{caller}, @var{s}, @var{what})
## The semiring named @var{s} (one of the package's names or SuiteSparse:GraphBLAS's
## @@GrB spellings, case-insensitive) as the gateway knows it: @qcode{"min.+"},
## @qcode{"max.+"}, @qcode{"max.min"}, @qcode{"min.max"}, @qcode{"max.*"} or
## @qcode{"or.and"}.  @var{what} names the argument in the error.
## @end deftypefn

function sr = ck_semiring (caller, s, what)
  names = {"min.+", "max.+", "max.min", "min.max", "max.*", "or.and"};
  aliases = {"min.plus", "max.plus", "max.min", "min.max", "max.times", "lor.land"};
  if (! (ischar (s) && isrow (s)))
    error ("cudakernels:invalidinput", "%s: %s must be a name such as \"max.min\"", caller, what);
  endif
  at = find (strcmpi (s, names) | strcmpi (s, aliases), 1);
  if (isempty (at))
    error ("cudakernels:invalidinput", "%s: unknown semiring \"%s\"; the semirings are %s",
           caller, s, strjoin (names, ", "));
  endif
  sr = names{at};
endfunction

%!assert (ck_semiring ("f", "MAX.Times", "S"), "max.*")
%!assert (ck_semiring ("f", "lor.land", "S"), "or.and")
%!error <f: S must be a name> ck_semiring ("f", 3, "S")
%!error <f: unknown semiring "min.min"> ck_semiring ("f", "min.min", "S")
