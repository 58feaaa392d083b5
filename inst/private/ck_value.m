## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{v} =} ck_value (@var{caller}, @var{name}, @var{value}, @var{check})
## Check one argument of @var{caller}, an option's value (see
## @code{ck_options}) or a positional argument, and return it normalised.
## @var{check} is one of:
##
## @table @asis
## @item a list of words
## a string, one of them, case-insensitive; returned in lower case.
## @code{@{@var{words}, @var{aliases}@}} accepts @var{aliases} too without
## listing them in the error (@qcode{"v3"} for @qcode{"warptile"});
## @item a function handle taking no arguments
## it returns the check, made only when the argument is given (a list of
## kernels costs a call to the gateway);
## @item @qcode{"any"}
## anything, returned as it is;
## @item @qcode{"string"}
## a character row (or empty);
## @item @qcode{"strings"}
## a string or a cell array of strings; returned as a cell;
## @item @qcode{"logical"}
## a real scalar, not NaN; returned as logical;
## @item @qcode{"index"}, @qcode{"count"}
## an integer scalar from 1, or from 0; returned as double;
## @item @qcode{"positive"}
## a finite real scalar above 0; returned as double;
## @item @qcode{"sizes"}
## a nonempty vector of positive integers; returned as a double row;
## @item @qcode{"devices"}
## a list of device numbers (1-based, as @code{gpu_device} numbers them), a
## nonempty vector of at most 8 positive integers; returned as a double row;
## whether each device exists the gateway checks.
## @end table
##
## A value that fails raises @code{cudakernels:invalidinput}, the message
## starting with @var{caller} and naming @var{name}.
## @end deftypefn

function v = ck_value (caller, name, value, check)
  if (is_function_handle (check))
    check = check ();
  endif
  if (iscell (check))   # a list of words
    words = check;
    aliases = {};
    if (iscell (check{1}))
      [words, aliases] = deal (check{:});
    endif
    if (! (ischar (value) && isrow (value)))
      error ("cudakernels:invalidinput", "%s: the %s must be named by a string; the %ss are: %s",
             caller, name, name, strjoin (words, ", "));
    endif
    v = lower (value);
    if (! any (strcmp (v, words)) && ! any (strcmp (v, aliases)))
      error ("cudakernels:invalidinput", "%s: unknown %s \"%s\"; the %ss are: %s",
             caller, name, value, name, strjoin (words, ", "));
    endif
    return;
  endif
  ## the numeric checks share these, inline: on a wrapper's path a call to a
  ## helper costs more than the check
  num = isnumeric (value) && isreal (value);
  whole = num && all (isfinite (value(:)) & value(:) == fix (value(:)));
  switch (check)
    case "any"
      ok = true;
    case "string"
      ok = ischar (value) && (isrow (value) || isempty (value));
      wanted = "a string";
    case "strings"
      ok = (ischar (value) && isrow (value)) || iscellstr (value);
      wanted = "a string or a cell array of strings";
    case "logical"
      ok = (num || islogical (value)) && isscalar (value) && ! isnan (value);
      wanted = "true or false";
    case "index"
      ok = whole && isscalar (value) && value >= 1;
      wanted = "a positive integer";
    case "count"
      ok = whole && isscalar (value) && value >= 0;
      wanted = "a nonnegative integer";
    case "positive"
      ok = num && isscalar (value) && isfinite (value) && value > 0;
      wanted = "a positive number";
    case "sizes"
      ok = whole && isvector (value) && all (value >= 1);
      wanted = "a list of positive integers";
    case "devices"
      ok = whole && isvector (value) && numel (value) <= 8 && all (value >= 1);
      wanted = "a list of 1 to 8 device numbers, as gpu_device () shows them";
    otherwise
      error ("ck_value: no check named \"%s\"", check);   # a mistake in the package
  endswitch
  if (! ok)
    error ("cudakernels:invalidinput", "%s: %s must be %s", caller, name, wanted);
  endif
  switch (check)   # the value in the form the package uses
    case {"index", "count", "positive"}
      v = double (value);
    case {"sizes", "devices"}
      v = double (value(:)');
    case "logical"
      v = logical (value);
    case "strings"
      v = cellstr (value);
    otherwise
      v = value;
  endswitch
endfunction

%!assert (ck_value ("f", "kernel", "CPU", {"gpu", "cpu"}), "cpu")
%!assert (ck_value ("f", "kernel", "V3", {{"warptile"}, {"v3"}}), "v3")
%!assert (ck_value ("f", "kernel", "cpu", @() {"gpu", "cpu"}), "cpu")
%!assert (ck_value ("f", "x", {1}, "any"), {1})
%!assert (ck_value ("f", "csv", "", "string"), "")
%!assert (ck_value ("f", "classes", "single", "strings"), {"single"})
%!assert (ck_value ("f", "verbose", 2, "logical"), true)
%!assert (ck_value ("f", "I", int8 (3), "index"), 3)
%!assert (ck_value ("f", "NOUT", 0, "count"), 0)
%!assert (ck_value ("f", "budget", 0.5, "positive"), 0.5)
%!assert (ck_value ("f", "sizes", [1; 2], "sizes"), [1 2])
%!assert (ck_value ("f", "devices", int32 ([2; 1]), "devices"), [2 1])
%!error <f: unknown kernel "v3"; the kernels are: warptile, cpu> ...
%! ck_value ("f", "kernel", "v3", {"warptile", "cpu"})
%!error <f: the kernel must be named by a string; the kernels are: gpu, cpu> ...
%! ck_value ("f", "kernel", 2, {"gpu", "cpu"})
%!error <f: verbose must be true or false> ck_value ("f", "verbose", NaN, "logical")
%!error <f: DIM must be a positive integer> ck_value ("f", "DIM", 0, "index")
%!error <f: NOUT must be a nonnegative integer> ck_value ("f", "NOUT", -1, "count")
%!error <f: devices must be a list of 1 to 8> ck_value ("f", "devices", ones (1, 9), "devices")
%!test
%! for bad = {0, 1.5, [], "a", {1}, [1 -1], 1i}
%!   try
%!     ck_value ("f", "devices", bad{1}, "devices");
%!     error ("test:noerror", "no error");
%!   catch err
%!     assert (err.identifier, "cudakernels:invalidinput");
%!   end_try_catch
%! endfor
