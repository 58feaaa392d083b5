## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{X} =} ck_as_logical (@var{caller}, @var{X}, @var{name})
## A boolean operand as logical: nonzero (or a stored sparse entry) is true,
## NaN an error (@code{cudakernels:invalidinput}) as in Octave's @code{A & B};
## a gpu_array converts on its device.  Anything else is returned as it is, for
## the caller's own checks to name.
## @end deftypefn

function X = ck_as_logical (caller, X, name)
  if (isa (X, "gpu_array"))
    X = to_class (X, "logical");
  elseif (isnumeric (X) && isreal (X))
    if (any (isnan (nonzeros (X))))
      error ("cudakernels:invalidinput",
             "%s: %s has NaN, which cannot be taken as true or false", caller, name);
    endif
    X = full (X != 0);
  elseif (islogical (X))
    X = full (X);
  endif
endfunction

%!assert (ck_as_logical ("f", [0 2; -1 0], "A"), logical ([0 1; 1 0]))
%!assert (ck_as_logical ("f", sparse ([0 3]), "A"), logical ([0 1]))
%!error <f: A has NaN> ck_as_logical ("f", [0 NaN], "A")
