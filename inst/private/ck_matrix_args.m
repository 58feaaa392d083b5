## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {[@var{A}, @var{B}, @var{kernel}, @var{devices}] =} ck_matrix_args (@var{caller}, @var{op}, @var{default}, @var{aliases}, @var{A}, @dots{})
## Parse and check the arguments of a matrix product @code{@var{caller} (@var{A},
## [@var{B}], "kernel", @var{name}, "devices", @var{list})}: real, full single or double operands
## (@var{op} @qcode{"minplus"}: also the integer classes up to 32 bits; @qcode{"orand"}: logical)
## with agreeing inner dimensions (@var{B} = @var{A}, square, when absent), of
## any number of dimensions, the ones beyond the second (pages) matching or 1,
## as in @code{pagemtimes}; single wins over double; the kernel one of @code{gpu_kernels
## (@var{op})} or of @var{aliases}, case-insensitive; @var{devices} a row of
## device numbers, [] for the default.  When either operand is a gpu_array both
## are returned as gpu_arrays on its device (the other one uploaded there, a
## class conversion done on the device).  Errors carry the identifier
## @code{cudakernels:invalidinput}.
## @end deftypefn

function [A, B, kernel, devices] = ck_matrix_args (caller, op, default, aliases, A, varargin)
  opts = varargin;
  have_b = ! isempty (opts) && ! ischar (opts{1});
  if (have_b)
    B = opts{1};
    opts(1) = [];
  endif
  ## the kernels' list costs a gateway call, asked for only when "kernel" is
  ## given; the closure that asks, 3.5 us to make, is made once per caller
  persistent kernel_checks = struct ();
  if (! isfield (kernel_checks, caller))
    family = ck_pick (strcmp (op, "orand"), "minplus", op);   # or.and: the semirings' kernels
    kernel_checks.(caller) = @() {gpu_kernels(family), aliases};
  endif
  [kernel, devices] = ck_options (caller, opts, {"kernel", default, kernel_checks.(caller);
                                                "devices", [], "devices"});
  classes = supported_classes (op);
  ## each operand's class and size read once: on a gpu_array every method call
  ## costs Octave 10-20 us, more than a small product on the device
  [a_dev, ca, sa] = operand_facts (A);
  check_operand (caller, A, a_dev, ca, sa, "A", classes);
  if (! have_b)
    if (sa(1) != sa(2))
      error ("cudakernels:invalidinput", "%s: A must be square for %s (A); it is %dx%d",
             caller, caller, sa(1), sa(2));
    endif
    B = A; b_dev = a_dev; cb = ca;
  else
    [b_dev, cb, sb] = operand_facts (B);
    check_operand (caller, B, b_dev, cb, sb, "B", classes);
    if (sa(2) != sb(1))
      error ("cudakernels:invalidinput",
             "%s: inner dimensions must agree: A is %dx%d, B is %dx%d",
             caller, sa(1), sa(2), sb(1), sb(2));
    endif
    check_pages (caller, sa, sb);
  endif
  if (! strcmp (ca, cb) && ! (any (strcmp (ca, {"single", "double"}))
                              && any (strcmp (cb, {"single", "double"}))))
    ## Octave's int + double rounds after adding; converting first would not match it
    error ("cudakernels:invalidinput",
           "%s: A is %s and B is %s; integer operands must both be of the same class",
           caller, ca, cb);
  endif
  single_wins = ! strcmp (ca, cb);   # single and double: single wins, as in A + B
  if (a_dev || b_dev)
    ## a host operand goes where the gpu_array lives
    [~, ~, where] = ck_call (caller, "array_info", device_id (ck_pick (a_dev, A, B)));
    A = on_device (A, a_dev, ca, single_wins, where);
    B = on_device (B, b_dev, cb, single_wins, where);
  elseif (single_wins)
    A = single (A);
    B = single (B);
  endif
endfunction

function [dev, cls, dims] = operand_facts (X)
  dev = isa (X, "gpu_array");
  if (dev)
    [~, cls, dims] = facts (X);
  else
    cls = class (X);
    dims = size (X);
  endif
endfunction

function G = on_device (X, dev, cls, to_single, where)
  if (! dev)
    if (to_single)
      X = single (X);
    endif
    G = gpu_array (X, "device", where);
  elseif (to_single && ! strcmp (cls, "single"))
    G = to_class (X, "single");
  else
    G = X;
  endif
endfunction

function c = supported_classes (op)
  c = {"double", "single"};
  if (strcmp (op, "orand"))
    c = {"logical"};
  elseif (strcmp (op, "minplus"))
    c = [c, {"int8", "uint8", "int16", "uint16", "int32", "uint32"}];
  endif
endfunction

function check_operand (caller, X, dev, cls, dims, name, classes)
  if (dev)
    if (! any (strcmp (cls, classes)))
      error ("cudakernels:invalidinput",
             "%s: %s is a %s gpu_array; the supported classes are %s",
             caller, name, cls, strjoin (classes, ", "));
    endif
    return;
  endif
  if ((isinteger (X) || islogical (X)) && ! any (strcmp (cls, classes)))
    error ("cudakernels:invalidinput",
           "%s: %s is %s; the supported classes are %s", caller, name, cls,
           strjoin (classes, ", "));
  elseif (! (isfloat (X) || isinteger (X) || islogical (X)))
    error ("cudakernels:invalidinput",
           "%s: %s must be a numeric matrix of class %s, not %s", caller, name,
           strjoin (classes, ", "), cls);
  elseif (! isreal (X))
    error ("cudakernels:invalidinput", "%s: %s must be real, not complex", caller, name);
  elseif (issparse (X))
    error ("cudakernels:invalidinput",
           "%s: %s must be full, not sparse (use full (%s))", caller, name, name);
  endif
endfunction

## Each dimension beyond the second (the pages) matches, or is 1 on one side.
function check_pages (caller, sa, sb)
  L = max (numel (sa), numel (sb));
  sa(end+1:L) = 1; sb(end+1:L) = 1;
  bad = find (sa(3:end) != sb(3:end) & sa(3:end) != 1 & sb(3:end) != 1, 1);
  if (! isempty (bad))
    error ("cudakernels:invalidinput",
           "%s: page dimension %d must agree or be 1: A has %d, B has %d",
           caller, bad + 2, sa(bad + 2), sb(bad + 2));
  endif
endfunction
