"""One resume rule for Python and the command line (issue 38): mad.dask opens its results file
through the C++ results room (mad/results, bound as _mad._PairsResults), so a file the command
line wrote and an interruption cut short is resumed from Python as `mad score --pairs --resume`
resumes it, and the rows Python adds are taken by the command line's --resume. Runs without
Dask: only the file's side of mad.dask is used."""

import subprocess

import pytest

import mad
import mad.dask
from mad import _mad
from conftest import needs_pnm, textured, write_pnm

pytestmark = needs_pnm()


def make_pairs(folder):
    """Line 1 a pair, line 2 a missing distorted image (a failed row), line 3 a pair."""
    def image(name, seed):
        path = folder / (name + ".pgm")
        write_pnm(path, textured(40, 48, seed), 255)
        return str(path)
    ref = image("ref", 1)
    return [(ref, image("d1", 2)), (ref, str(folder / "missing.pgm")), (ref, image("d3", 3))]


def test_python_resumes_the_command_lines_file_and_the_reverse(cli, tmp_path):
    pairs = make_pairs(tmp_path)
    listing, out = tmp_path / "list.csv", tmp_path / "out.csv"
    listing.write_text("".join("%s,%s\n" % p for p in pairs))
    run = subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out),
                          "--backend", "cpu", "--quiet"], capture_output=True, text=True)
    assert run.returncode == 5, run.stderr  # kExitPartial: the missing image fails alone
    lines = out.read_text().split("\n")
    line1_mad = float(lines[1].split(",")[2])
    # Interrupted: the header, line 1 (finished), line 2 (failed) and half of line 3.
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])

    settings = _mad._run_settings("cpu", 2011, "auto", "double")
    assert dict(settings) == {k: v for k, v in (
        t.split("=", 1) for t in (tmp_path / "out.csv.settings").read_text().split("\n")[1:]
        if t)}
    done, results = mad.dask._open_out(str(out), pairs, settings, resume=True, force=False)
    # The rule: finished rows kept, the failed row and the cut line scored again.
    assert sorted(done) == [0]
    assert done[0]["ok"] and done[0]["mad"] == line1_mad and done[0]["width"] == 48
    assert out.read_text() == "\n".join(lines[:2]) + "\n"  # the rewrite keeps line 1 alone
    scored = mad.score(pairs[2][0], pairs[2][1], backend="cpu")
    results.write([_mad._pairs_row(pairs[1][0], pairs[1][1], "cannot open missing.pgm", "r", 2),
                   _mad._pairs_row(pairs[2][0], pairs[2][1], scored, "r", 3)])
    results.close()

    run = subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out), "--resume",
                          "--backend", "cpu"], capture_output=True, text=True)
    assert "1 failed" in run.stderr and "2 already done" in run.stderr, run.stderr
    rows = [r.split(",") for r in out.read_text().split("\n")[1:] if r]
    assert [(r[13], r[11] == "") for r in rows] == [("1", True), ("3", True), ("2", False)]
    assert float(rows[1][2]) == scored.mad


def test_python_refuses_what_the_command_line_refuses(cli, tmp_path):
    pairs = make_pairs(tmp_path)
    listing, out = tmp_path / "list.csv", tmp_path / "out.csv"
    listing.write_text("".join("%s,%s\n" % p for p in pairs))
    subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out), "--backend", "cpu",
                    "--quiet"], capture_output=True)
    settings = _mad._run_settings("cpu", 2011, "auto", "double")
    with pytest.raises(ValueError, match="exists: pass resume=True .* or force=True"):
        mad.dask._open_out(str(out), pairs, settings, resume=False, force=False)
    with pytest.raises(ValueError, match="the list changed since that run"):
        mad.dask._open_out(str(out), pairs[::-1], settings, resume=True, force=False)
    other = _mad._run_settings("cpu", 2010, "auto", "double")
    with pytest.raises(ValueError, match="made with mad_version=2011; this run uses 2010"):
        mad.dask._open_out(str(out), pairs, other, resume=True, force=False)
