## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{names} =} check_help ()
## The user functions listed in the package's INDEX, each of which must carry
## Texinfo help (checked by the tests below, rendered where makeinfo exists).
## @end deftypefn

function names = check_help ()
  index = fileread (fullfile (fileparts (mfilename ("fullpath")), "..", "INDEX"));
  lines = strsplit (index, "\n");
  names = strtrim (lines(strncmp (lines, " ", 1)));
  names = names(! cellfun (@isempty, names));
endfunction

%!test
%! names = check_help ();
%! assert (numel (names) >= 10);
%! for i = 1:numel (names)
%!   [text, format] = get_help_text (names{i});
%!   assert (format, "texinfo", sprintf ("%s: no Texinfo help", names{i}));
%!   assert (! isempty (strfind (text, "@deftypefn")), sprintf ("%s: no @deftypefn", names{i}));
%!   assert (! isempty (strfind (text, names{i})), sprintf ("%s: help does not name it", names{i}));
%!   ## a line without "##" inside the block cuts the help short
%!   assert (! isempty (strfind (text, "@end deftypefn")), sprintf ("%s: help cut short", names{i}));
%!   if (! isempty (file_in_path (getenv ("PATH"), "makeinfo")))
%!     [msg, status] = __makeinfo__ (text, "plain text");
%!     assert (status, 0, sprintf ("%s: makeinfo failed", names{i}));
%!   endif
%! endfor
