## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {[@dots{}] =} ck_call (@var{caller}, @var{command}, @dots{})
## Run a command of the package's MEX gateway and re-raise its errors in the
## name of @var{caller}, keeping their @code{cudakernels:} identifiers.
## @end deftypefn

function varargout = ck_call (caller, varargin)
  try
    if (nargout == 0)   # commands that return nothing (reset, free)
      __cudakernels__ (varargin{:});
    else
      [varargout{1:nargout}] = __cudakernels__ (varargin{:});
    endif
  catch err
    msg = regexprep (err.message, '^__cudakernels__: ', '');
    if (isempty (err.identifier))
      ## The gateway itself failed to load or run: say so, and how to rebuild it.
      error ("cudakernels:broken", "%s: the cudakernels gateway failed: %s", caller, msg);
    endif
    error (err.identifier, "%s: %s", caller, msg);
  end_try_catch
endfunction
