"""Ctrl-C stops a long `mad score --pairs` or `mad eval` run, and the command line says what it
kept (issue 39): "mad: interrupted: N rows kept in X.csv; run the same command with --resume",
N being the rows the file holds. The process still ends by the signal."""

import pathlib
import signal
import subprocess
import time

import pytest


def rows_in(path):
    text = pathlib.Path(path).read_text()
    return text.count("\n") - 1  # complete lines, less the header


def interrupt_when_rows(command, out, cwd, rows=2, sig=signal.SIGINT):
    """Starts `command`, waits until `out` holds `rows` rows, sends `sig`; (stderr, code)."""
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        if out.exists() and out.read_text().count("\n") > rows:
            break
        time.sleep(0.05)
    assert child.poll() is None, "the run ended before it could be interrupted"
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    return err, child.returncode


@pytest.fixture(scope="module")
def dataset(cli, tmp_path_factory):
    """A synthetic set of 100 pairs of 256x256 (a CPU pair: tenths of a second)."""
    folder = tmp_path_factory.mktemp("interrupt")
    made = subprocess.run([cli, "eval", "set", "--make-synthetic", "--synthetic-refs", "4",
                           "--synthetic-size", "256x256", "-q"], cwd=folder, capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stderr
    return folder


def test_score_pairs_says_how_many_rows_it_kept(cli, dataset):
    (dataset / "list.csv").write_text(
        "ref,dist\n" + "set/images/I01.png,set/images/I01_01_05.png\n" * 2000)
    out = dataset / "out.csv"
    err, code = interrupt_when_rows([cli, "score", "--backend", "cpu", "--pairs", "list.csv",
                                     "--out", "out.csv"], out, dataset)
    assert code == -signal.SIGINT, err  # ended by the signal, as before
    kept = rows_in(out)
    assert 2 <= kept < 2000
    assert ("mad: interrupted: %d rows kept in out.csv; run the same command with --resume"
            % kept) in err, err


def test_eval_says_how_many_rows_it_kept_on_sigterm(cli, dataset):
    out = dataset / "res.csv"
    err, code = interrupt_when_rows([cli, "eval", "set", "--backend", "cpu", "--out", "res.csv"],
                                    out, dataset, sig=signal.SIGTERM)
    assert code == -signal.SIGTERM, err
    kept = rows_in(out)
    assert 2 <= kept < 100
    assert ("mad: interrupted: %d rows kept in res.csv; run the same command with --resume"
            % kept) in err, err
