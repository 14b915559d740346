"""The results file of `mad score --pairs LIST --out FILE` (CSV), written and resumed from Python
(mad.dask) by the command line's rules, so that either one resumes the other's file.

The format and the rules are those of datasets/results_file.* and tools/cli_pairs_output.*:
the header below; one row per pair, flushed as soon as it is known; numbers as "%.17g" (they
read back to the same bits); a row's `line` keys it (here: the pair's 1-based place in the
list, which is a headerless list file's line). FILE.settings records the settings that change
a score (datasets/results_settings.h). Resuming keeps every finished row, scores failed rows
again, drops a last line cut short, and refuses a file made with other settings or from
another list. tests/python/test_dask.py checks both directions against the executable.
"""

import csv
import os

import numpy as np

from ._mad import InvalidArgument
from ._scorer import BATCH_DTYPE

HEADER = ["ref", "dist", "mad", "hi", "lo", "sig", "width", "height", "backend", "mad_version",
          "seconds", "error", "backend_reason", "line"]
# The sidecar's keys that --resume compares, with the option that sets each (in its order).
_COMPARED = [("mad_version", "mad_version"), ("input_class", "input_class"),
             ("precision", "precision"), ("backend", "backend"), ("a5_variant", "--a5"),
             ("det_variant", "--det-variant"), ("shard", "--shard"),
             ("subband_transform", "--subband-transform")]
_KNOWN = {k for k, _ in _COMPARED} | {"dataset", "dataset_folder", "dataset_pairs"}
_PROCEED = ": pass force=True to score everything again into it, or write to another out"


def _escape(field):
    padded = field[:1] in (" ", "\t") or field[-1:] in (" ", "\t")
    if not (set(field) & set(',"\r\n')) and not padded and not field.startswith("#"):
        return field
    return '"' + field.replace('"', '""') + '"'


def join(fields):
    return ",".join(_escape(f) for f in fields)


def number(v):
    return "%.17g" % v  # as format_double (mad/result_json.cpp): reads back to the same bits


def line_of(ref, dist, result, backend_reason, line):
    """One row's text: `result` a mad.Result, or the message of a failed pair."""
    if isinstance(result, str):
        fields = [ref, dist] + [""] * 9 + [result]
    else:
        r = result
        fields = [ref, dist, number(r.mad), number(r.hi), number(r.lo), number(r.sig),
                  str(r.width), str(r.height), r.backend, str(r.mad_version), number(r.seconds),
                  ""]
    return join(fields + [backend_reason, str(line)])


def _open_text(path, mode):
    # Paths in rows are the C++ side's bytes: surrogateescape carries any of them through.
    return open(path, mode, encoding="utf-8", errors="surrogateescape", newline="")


def _read_settings(path):
    side = path + ".settings"
    if not os.path.exists(side):
        return None
    with _open_text(side, "r") as f:
        lines = f.read().split("\n")
    if not lines[0].startswith("# mad-settings 1"):
        raise InvalidArgument("%s: not a settings file of mad (no '# mad-settings 1' line)" % side)
    found = {}
    for text in lines[1:]:
        key, eq, value = text.rstrip("\r").partition("=")
        if text and (not eq or key not in _KNOWN):
            raise InvalidArgument("%s: unknown setting '%s'" % (side, text))
        if eq:
            found[key] = value
    return found


def write_settings(path, settings):
    with _open_text(path + ".settings", "w") as f:
        f.write("# mad-settings 1 (the settings that change a score of %s)\n" % path)
        # The keys in the command line's order (datasets/results_settings.cpp); shard is
        # never set here, so it is left out as the command line leaves an empty one out.
        for key, _ in _COMPARED[:6] + _COMPARED[7:]:
            f.write("%s=%s\n" % (key, settings[key]))


def _finished_rows(path):
    """The finished rows of a results file, in file order, as field lists (failed rows and a
    last line cut short are left out)."""
    with _open_text(path, "r") as f:
        text = f.read()
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines[-1:] = []  # cut short by an interruption (or empty)
    rows, header = [], None
    for at, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        fields = next(csv.reader([raw.rstrip("\r")], strict=True))
        if header is None:
            if fields != HEADER:
                raise InvalidArgument("%s:%d: not a results file of mad score --pairs as this "
                                      "version writes it (expected the header %s)"
                                      % (path, at, join(HEADER)))
            header = fields
        elif len(fields) != len(HEADER):
            raise InvalidArgument("%s:%d: expected %d fields, got %d"
                                  % (path, at, len(HEADER), len(fields)))
        elif not fields[11]:
            rows.append(fields)
    return rows


def resume(path, pairs, settings):
    """Reads the file a resumed run continues: {list index: BATCH_DTYPE row} of the finished
    pairs, and the rows to keep. Refuses other settings, another list, a foreign file."""
    rows = _finished_rows(path)
    if rows:
        before = _read_settings(path)
        if before is None:
            raise InvalidArgument("'%s' has no record of the settings it was made with (%s is "
                                  "missing), so resume cannot check that its scores match this "
                                  "run's%s" % (path, path + ".settings", _PROCEED))
        for key, option in _COMPARED:
            if before.get(key, "") != settings.get(key, ""):
                raise InvalidArgument("'%s' was made with %s %s; this run uses %s: resume with "
                                      "the same setting, pass force=True to replace the file, or "
                                      "write to another out" % (path, option,
                                                                before.get(key) or "(none)",
                                                                settings.get(key) or "(none)"))
    done = {}
    for f in rows:
        line = int(f[13])
        if not 1 <= line <= len(pairs):
            raise InvalidArgument("'%s' holds a row for line %d (%s) but the list has %d pairs: "
                                  "it was made from another list%s" % (path, line, f[1],
                                                                       len(pairs), _PROCEED))
        if (f[0], f[1]) != pairs[line - 1]:
            raise InvalidArgument("'%s' holds, for line %d of the list, the pair %s, %s; the "
                                  "list's line %d is now %s, %s: the list changed since that "
                                  "run%s" % ((path, line, f[0], f[1], line)
                                             + pairs[line - 1] + (_PROCEED,)))
        done.setdefault(line - 1, np.array(
            (float(f[2]), float(f[3]), float(f[4]), float(f[5]), int(f[6]), int(f[7]), True,
             None), dtype=BATCH_DTYPE))
    return done, rows


class Writer:
    """Appends rows, one flushed line each. A fresh file is refused over a non-empty one unless
    `force`; a resumed one is first rewritten (header and kept rows) through a rename."""

    def __init__(self, path, settings, keep=None, force=False):
        if keep is None:
            if not force and os.path.exists(path) and os.path.getsize(path) > 0:
                raise InvalidArgument("'%s' exists: pass resume=True to continue that run or "
                                      "force=True to replace it" % path)
            keep = []
        tmp = path + ".tmp"
        with _open_text(tmp, "w") as f:
            f.write("".join(join(r) + "\n" for r in [HEADER] + keep))
        os.replace(tmp, path)  # atomic: the old file stays whole until then
        self._file = _open_text(path, "a")
        write_settings(path, settings)

    def write(self, lines):
        self._file.write("".join(line + "\n" for line in lines))
        self._file.flush()

    def close(self):
        self._file.close()
