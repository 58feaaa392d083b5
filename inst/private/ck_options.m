## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{opts} =} ck_options (@var{caller}, @var{args}, @var{spec})
## @deftypefnx {} {[@var{v1}, @var{v2}, @dots{}] =} ck_options (@dots{})
## The options of @var{caller}: @var{args} is the tail of its argument list (a
## cell), NAME, VALUE pairs; @var{spec} a cell with one row per option,
## @code{@{@var{name}, @var{default}, @var{check}@}}.  Returns a struct with one
## field per option (its lower-case @var{name}), holding the given value as
## @code{ck_value} checked and normalised it, or @var{default}.  Names match
## case-insensitively; a later pair overrides an earlier one.  With more than
## one output, the values come out one per output in the order of @var{spec}
## instead: no struct to build, which on the many calls without options is
## most of the time the parsing takes.
##
## A fourth column, true in a row, makes an option given by its value alone:
## @var{check} is then a list of words, and a word of the list standing alone in
## @var{args} sets the option (as @qcode{"native"} sets the type of
## @code{gpu_sum}).
##
## An unknown name, a name that is not a string, a name without a value and a
## value that fails its check raise @code{cudakernels:invalidinput}, the message
## starting with @var{caller}, as the gateway's errors do (@code{ck_call}).
## @end deftypefn

function varargout = ck_options (caller, args, spec)
  ## no helper calls on the way of valid options: in Octave a call costs about
  ## 10 us, as much as a small product's gateway call
  if (isempty (args) && nargout > 1)   # most calls give no options: the defaults, at once
    varargout = spec(:, 2);
    return;
  endif
  values = spec(:, 2);
  names = spec(:, 1);
  alone = false (rows (spec), 1);
  if (columns (spec) > 3)
    alone = [spec{:, 4}]';
  endif
  i = 1;
  while (i <= numel (args))
    name = args{i};
    if (! (ischar (name) && isrow (name)))
      error ("cudakernels:invalidinput",
             "%s: expected an option name, not a %s; the options are: %s",
             caller, class (name), listing (spec, alone));
    endif
    r = find (strcmpi (name, names) & ! alone, 1);
    if (isempty (r))
      r = find_word (name, spec, alone);
      if (isempty (r))
        error ("cudakernels:invalidinput", "%s: unknown option \"%s\"; the options are: %s",
               caller, name, listing (spec, alone));
      endif
      values{r} = lower (name);
      i += 1;
      continue;
    endif
    if (i == numel (args))
      error ("cudakernels:invalidinput", "%s: the option \"%s\" needs a value",
             caller, names{r});
    endif
    values{r} = ck_value (caller, names{r}, args{i+1}, spec{r, 3});
    i += 2;
  endwhile
  if (nargout > 1)
    varargout = values;
  else
    varargout = {cell2struct(values, names, 1)};
  endif
endfunction

## The row of the option that stands alone whose words hold WORD, or [].
function r = find_word (word, spec, alone)
  r = [];
  for k = find (alone)'
    if (any (strcmpi (word, spec{k, 3})))
      r = k;
      return;
    endif
  endfor
endfunction

## What the caller accepts, for error messages: the names, and the words of
## the options that stand alone.
function s = listing (spec, alone)
  items = {};
  for k = 1:rows (spec)
    if (alone(k))
      items = [items, spec{k, 3}];
    else
      items{end+1} = spec{k, 1};
    endif
  endfor
  s = ["\"", strjoin(items, "\", \""), "\""];
endfunction

%!test
%! spec = {"kernel", "gpu", {"gpu", "cpu"}; "verbose", false, "logical"};
%! o = ck_options ("f", {}, spec);
%! assert (o, struct ("kernel", "gpu", "verbose", false));
%! o = ck_options ("f", {"Kernel", "CPU", "verbose", 1}, spec);
%! assert (o, struct ("kernel", "cpu", "verbose", true));
%! o = ck_options ("f", {"kernel", "cpu", "kernel", "gpu"}, spec);   # the last one wins
%! assert (o.kernel, "gpu");
%! [k, v] = ck_options ("f", {}, spec);
%! assert ({k, v}, {"gpu", false});
%! [k, v] = ck_options ("f", {"verbose", true}, spec);
%! assert ({k, v}, {"gpu", true});
%!test
%! spec = {"type", "default", {"native", "double"}, true; "kernel", "x", "string", false};
%! o = ck_options ("f", {"Native", "kernel", "y"}, spec);
%! assert (o, struct ("type", "native", "kernel", "y"));
%!error <f: unknown option "speed"; the options are: "kernel", "verbose"> ...
%! ck_options ("f", {"speed", 1}, {"kernel", "gpu", {"gpu"}; "verbose", false, "logical"})
%!error <f: unknown option "fast"; the options are: "native", "double", "kernel"> ...
%! ck_options ("f", {"fast"}, {"type", "default", {"native", "double"}, true;
%!                             "kernel", "", "string", false})
%!error <f: the option "kernel" needs a value> ...
%! ck_options ("f", {"kernel"}, {"kernel", "", "string"})
%!error <f: expected an option name, not a double> ck_options ("f", {3}, {"kernel", "", "string"})
%!error id=cudakernels:invalidinput ck_options ("f", {"kernel", 3}, {"kernel", "", "string"})
