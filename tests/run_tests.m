## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{nfail} =} run_tests (@var{dirs})
## Run every test block of the .m files in the folders @var{dirs} (a cellstr:
## the installed package's function folder, tests/; an entry may also name one
## .m file, e.g. for @samp{make quick T=gpu_minplus}) and in their private
## folders, and print one line per file and the summary line @samp{N passed,
## N failed, N skipped}.  Skipped tests are
## those whose @code{%!testif} condition was false (GPU tests without a GPU).
## Returns the number of failures; the caller turns it into the exit status.
## @end deftypefn

function nfail = run_tests (dirs)
  totals = zeros (1, 3);   # passed, failed, skipped
  failed_files = {};
  for d = 1:numel (dirs)
    subs = {"", "private"};
    if (! isfolder (dirs{d}))   # one file
      subs = {""};
    endif
    for sub = subs
      if (isfolder (dirs{d}))
        files = dir (fullfile (dirs{d}, sub{1}, "*.m"));
      else
        files = dir (dirs{d});
      endif
      for f = 1:numel (files)
        file = fullfile (files(f).folder, files(f).name);
        if (! has_tests (file))
          continue;
        endif
        name = fullfile (sub{1}, files(f).name);
        t0 = tic ();
        [npass, nf, ns] = run_file (file, ! isempty (sub{1}));
        totals += [npass, nf, ns];
        printf ("%-28s %3d passed, %d failed, %d skipped  (%.1f s)\n", name, npass, nf, ns,
                toc (t0));
        if (nf > 0)
          failed_files{end+1} = name;
        endif
      endfor
    endfor
  endfor
  if (! isempty (failed_files))
    printf ("failures in: %s\n", strjoin (failed_files, ", "));
  endif
  printf ("%d passed, %d failed, %d skipped\n", totals);
  nfail = totals(2);
endfunction

## A private function's tests run from inside its folder: a test block cannot
## reach the private functions of the folder its file is in, but the current
## folder's functions it can.
function [npass, nf, ns] = run_file (file, private)
  file = make_absolute_filename (file);
  log = [tempname(), ".log"];
  fid = fopen (log, "w");
  here = pwd ();
  unwind_protect
    if (private)
      cd (fileparts (file));
    endif
    [npass, nmax, nxfail, nbug, nskip, nrtskip, nregress] = test (file, "quiet", fid);
  unwind_protect_cleanup
    cd (here);
    fclose (fid);
  end_unwind_protect
  print_failed_blocks (log);
  unlink (log);
  nf = nmax - npass - nxfail - nbug - nregress;
  ns = nskip + nrtskip;
endfunction

## Octave's test log starts each block with "*****" and marks a failure with "!!!!!": show those
## blocks only, so that a run's output is the per-file lines plus what went wrong.
function print_failed_blocks (log)
  text = fileread (log);
  blocks = strsplit (text, "\n*****");
  for b = 1:numel (blocks)
    if (! isempty (strfind (blocks{b}, "!!!!!")))
      printf ("*****%s\n", blocks{b});
    endif
  endfor
endfunction

function tf = has_tests (file)
  text = fileread (file);
  tf = ! isempty (regexp (text, '^%!(test|assert|error|fail|warning)', "once", "lineanchors"));
endfunction
