## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {[@var{A}, @var{B}, @var{kernel}] =} ck_matrix_args (@var{caller}, @var{op}, @var{default}, @var{aliases}, @var{A}, @dots{})
## Parse and check the arguments of a matrix product @code{@var{caller} (@var{A},
## [@var{B}], "kernel", @var{name})}: real, full, 2-D single or double
## operands with agreeing inner dimensions (@var{B} = @var{A}, square, when
## absent); single wins over double; the kernel one of @code{gpu_kernels
## (@var{op})} or of @var{aliases}, case-insensitive.  When either operand is a
## gpu_array both are returned as gpu_arrays (the other one uploaded, a class
## conversion done on the device).  Errors carry the identifier
## @code{cudakernels:invalidinput}.
## @end deftypefn

function [A, B, kernel] = ck_matrix_args (caller, op, default, aliases, A, varargin)
  opts = varargin;
  B = [];
  have_b = ! isempty (opts) && ! ischar (opts{1});
  if (have_b)
    B = opts{1};
    opts(1) = [];
  endif
  kernel = parse_kernel (caller, op, default, aliases, opts);
  classes = supported_classes (op);
  check_operand (caller, A, "A", classes);
  if (! have_b)
    if (rows (A) != columns (A))
      error ("cudakernels:invalidinput", "%s: A must be square for %s (A); it is %dx%d",
             caller, caller, rows (A), columns (A));
    endif
    B = A;
  else
    check_operand (caller, B, "B", classes);
    if (columns (A) != rows (B))
      error ("cudakernels:invalidinput",
             "%s: inner dimensions must agree: A is %dx%d, B is %dx%d",
             caller, rows (A), columns (A), rows (B), columns (B));
    endif
  endif
  ca = class_of (A); cb = class_of (B);
  if (! strcmp (ca, cb) && ! (any (strcmp (ca, {"single", "double"}))
                              && any (strcmp (cb, {"single", "double"}))))
    ## Octave's int + double rounds after adding; converting first would not match it
    error ("cudakernels:invalidinput",
           "%s: A is %s and B is %s; integer operands must both be of the same class",
           caller, ca, cb);
  endif
  single_wins = ! strcmp (ca, cb);   # single and double: single wins, as in A + B
  if (isa (A, "gpu_array") || isa (B, "gpu_array"))
    A = on_device (A, single_wins);
    B = on_device (B, single_wins);
  elseif (single_wins)
    A = single (A);
    B = single (B);
  endif
endfunction

function c = class_of (X)
  if (isa (X, "gpu_array"))
    c = classUnderlying (X);
  else
    c = class (X);
  endif
endfunction

function G = on_device (X, to_single)
  if (! isa (X, "gpu_array"))
    if (to_single)
      X = single (X);
    endif
    G = gpu_array (X);
  elseif (to_single)
    G = to_class (X, "single");
  else
    G = X;
  endif
endfunction

function kernel = parse_kernel (caller, op, default, aliases, opts)
  kernel = default;
  if (mod (numel (opts), 2) != 0)
    error ("cudakernels:invalidinput", "%s: options must come in NAME, VALUE pairs", caller);
  endif
  for i = 1:2:numel (opts)
    if (! ischar (opts{i}) || ! strcmpi (opts{i}, "kernel"))
      error ("cudakernels:invalidinput", "%s: unknown option; the options are: \"kernel\"",
             caller);
    endif
    value = opts{i+1};
    if (! ischar (value) || ! isrow (value))
      error ("cudakernels:invalidinput", "%s: the kernel must be named by a string", caller);
    endif
    kernel = lower (value);
    names = gpu_kernels (op);
    if (! any (strcmp (kernel, [names, aliases])))
      error ("cudakernels:invalidinput", "%s: unknown kernel \"%s\"; the kernels are: %s",
             caller, value, strjoin (names, ", "));
    endif
  endfor
endfunction

function c = supported_classes (op)
  c = {"double", "single"};
  if (strcmp (op, "minplus"))
    c = [c, {"int8", "uint8", "int16", "uint16", "int32", "uint32"}];
  endif
endfunction

function check_operand (caller, X, name, classes)
  if (isa (X, "gpu_array"))
    if (! any (strcmp (classUnderlying (X), classes)))
      error ("cudakernels:invalidinput",
             "%s: %s is a %s gpu_array; the supported classes are %s",
             caller, name, classUnderlying (X), strjoin (classes, ", "));
    elseif (ndims (X) != 2)
      error ("cudakernels:invalidinput", "%s: %s must be a 2-D matrix", caller, name);
    endif
    return;
  endif
  if ((isinteger (X) && ! any (strcmp (class (X), classes))) || islogical (X))
    error ("cudakernels:invalidinput",
           "%s: %s is %s; the supported classes are %s", caller, name, class (X),
           strjoin (classes, ", "));
  elseif (! (isfloat (X) || isinteger (X)))
    error ("cudakernels:invalidinput",
           "%s: %s must be a numeric matrix of class %s, not %s", caller, name,
           strjoin (classes, ", "), class (X));
  elseif (! isreal (X))
    error ("cudakernels:invalidinput", "%s: %s must be real, not complex", caller, name);
  elseif (issparse (X))
    error ("cudakernels:invalidinput",
           "%s: %s must be full, not sparse (use full (%s))", caller, name, name);
  elseif (ndims (X) != 2)
    error ("cudakernels:invalidinput",
           "%s: %s must be a 2-D matrix; it has %d dimensions", caller, name, ndims (X));
  endif
endfunction
