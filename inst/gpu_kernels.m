## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{names} =} gpu_kernels (@var{op})
## List the kernel versions that can be chosen for operation @var{op}.
##
## @var{op} is @qcode{"minplus"}, @qcode{"matmul"} or @qcode{"sum"}.  The names are those accepted by the
## @qcode{"kernel"} option of the operation's function, from the simplest
## version to the fastest; @qcode{"cpu"} is the CPU reference.
##
## @example
## @group
## gpu_kernels ("minplus")
## @result{} @{"naive", "coalesced", "regblock", "warptile", "cpu"@}
## @end group
## @end example
##
## @seealso{gpu_minplus, gpu_matmul, gpu_sum}
## @end deftypefn

function names = gpu_kernels (op)
  if (nargin != 1)
    print_usage ();
  endif
  if (! ischar (op) || ! isrow (op))   # not ck_value: every product naming a kernel comes here
    error ("cudakernels:invalidinput", "gpu_kernels: OP must be a string");
  endif
  names = ck_call ("gpu_kernels", "kernels", op);
endfunction

%!assert (gpu_kernels ("minplus"), {"naive", "coalesced", "regblock", "warptile", "cpu"})
%!assert (gpu_kernels ("sum"), {"atomic", "pairwise", "interleaved", "strided", ...
%!        "sequential", "twoload", "warpunroll", "shuffle", "cub", "cpu"})
%!error <Invalid call> gpu_kernels ()
%!error id=cudakernels:invalidinput gpu_kernels (1)
%!error id=cudakernels:invalidinput gpu_kernels ("nosuchop")
