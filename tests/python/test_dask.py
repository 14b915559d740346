"""mad.dask.score_pairs on a LocalCluster of 2 worker processes (issue 27): the rows of
score_batch bit for bit, a failed pair fails alone, one warm scorer per process, and results
files that `mad score --pairs --resume` and score_pairs(resume=True) take from each other."""

import csv
import subprocess

import numpy as np
import pytest

import mad
from conftest import needs_pnm, textured, write_pnm

distributed = pytest.importorskip("distributed")
import mad.dask  # noqa: E402  (needs distributed only when called; imported after the skip)

pytestmark = needs_pnm()
SHAPES = {"a": (40, 48), "b": (64, 64), "c": (48, 56)}  # (height, width)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    """12 pairs of 3 references in 3 shapes, listed out of order; line 6 names a missing file
    and line 9 a distorted image of another size; line 12 repeats line 2."""
    folder = tmp_path_factory.mktemp("dask_pairs")

    def image(name, seed, shape):
        path = folder / (name + ".pgm")
        write_pnm(path, textured(*shape, seed), 255)
        return str(path)

    refs = {k: image(k, i, s) for i, (k, s) in enumerate(SHAPES.items())}
    dist = {(k, n): image("%s_%d" % (k, n), 10 * i + n, s)
            for i, (k, s) in enumerate(SHAPES.items()) for n in (1, 2, 3)}
    order = [("a", 1), ("b", 1), ("a", 2), ("c", 1), ("b", 2), None, ("c", 2), ("b", 3),
             "mismatch", ("c", 3), ("a", 3), ("b", 1)]
    out = []
    for key in order:
        if key is None:
            out.append((refs["a"], str(folder / "missing.pgm")))
        elif key == "mismatch":
            out.append((refs["a"], dist[("b", 1)]))
        else:
            out.append((refs[key[0]], dist[key]))
    return out


def single_process(pairs):
    return mad.score_batch([r for r, _ in pairs], [d for _, d in pairs], backend="cpu",
                           errors="record")


def assert_same_rows(got, want):
    assert got.dtype == mad.BATCH_DTYPE and len(got) == len(want)
    for field in ("mad", "hi", "lo", "sig"):
        assert got[field].tobytes() == want[field].tobytes(), field  # bit for bit, NaNs too
    for field in ("width", "height", "ok", "error"):
        assert list(got[field]) == list(want[field]), field


def stats(client):
    return client.run(mad.dask._worker_stats)


def test_rows_equal_score_batch_and_failures_stay_alone(client, pairs):
    before = stats(client)
    got = mad.dask.score_pairs(pairs, client, backend="cpu", chunk_size=2)
    assert_same_rows(got, single_process(pairs))
    assert list(np.flatnonzero(~got["ok"])) == [5, 8]
    assert "missing.pgm" in got["error"][5] and got["error"][8]
    after = stats(client)
    built = [after[w]["scorers_built"] - before[w]["scorers_built"] for w in after]
    tasks = sum(after[w]["tasks"] - before[w]["tasks"] for w in after)
    # 3 references of 5, 4 and 3 pairs in tasks of at most 2, one shape each: 3 + 2 + 2.
    assert tasks == 7 and all(b <= 1 for b in built) and sum(b for b in built) <= 2
    # Dask's nanny sets MALLOC_TRIM_THRESHOLD_; keep_heap (default) undid it where work ran.
    assert all(after[w]["heap_kept"] for w in after if after[w]["tasks"])


def test_errors_raise_names_the_first_failed_pair(client, pairs):
    with pytest.raises(ValueError, match="pair 5: .*missing.pgm"):
        mad.dask.score_pairs(pairs, client, backend="cpu", errors="raise")


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def without_seconds(rows):
    return sorted(r[:10] + r[11:] for r in rows)  # column 10 is the pair's time


def test_the_command_line_resumes_a_file_score_pairs_wrote(client, pairs, cli, tmp_path):
    listing, out = tmp_path / "list.csv", tmp_path / "out.csv"
    listing.write_text("".join("%s,%s\n" % p for p in pairs))
    mad.dask.score_pairs(pairs, client, backend="cpu", out=out)
    written = read_rows(out)
    finished = sorted((r for r in written[1:] if not r[11]), key=lambda r: int(r[13]))
    assert len(written) == 13 and len(finished) == 10
    # The command line's own file of the list: the same fields but the timings, row for row.
    fresh = tmp_path / "cli.csv"
    subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(fresh), "--backend",
                    "cpu", "--quiet"], capture_output=True, check=False)
    assert without_seconds(read_rows(fresh)) == without_seconds(written)
    assert (tmp_path / "out.csv.settings").read_text().split("\n")[1:] == \
        (tmp_path / "cli.csv.settings").read_text().split("\n")[1:]
    run = subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out), "--resume",
                          "--backend", "cpu"], capture_output=True, text=True)
    assert run.returncode != 2, run.stderr
    assert "10 already done" in run.stderr and "0 pairs scored" in run.stderr, run.stderr
    assert sorted((r for r in read_rows(out)[1:] if not r[11]),
                  key=lambda r: int(r[13])) == finished


def test_score_pairs_resumes_a_file_the_command_line_wrote(client, pairs, cli, tmp_path):
    listing, out = tmp_path / "list.csv", tmp_path / "out.csv"
    listing.write_text("".join("%s,%s\n" % p for p in pairs))
    subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out), "--backend",
                    "cpu", "--quiet"], capture_output=True, check=False)
    lines = out.read_text().split("\n")
    # An interrupted run: the header, lines 1-6 of the list (line 6 failed), half of line 7.
    out.write_text("\n".join(lines[:7]) + "\n" + lines[7][:20])
    before = stats(client)
    got = mad.dask.score_pairs(pairs, client, backend="cpu", out=out, resume=True)
    assert_same_rows(got, single_process(pairs))
    after = stats(client)
    assert sum(after[w]["pairs"] - before[w]["pairs"] for w in after) == 12 - 5
    assert sorted(int(r[13]) for r in read_rows(out)[1:]) == list(range(1, 13))
    run = subprocess.run([cli, "score", "--pairs", str(listing), "--out", str(out), "--resume",
                          "--backend", "cpu"], capture_output=True, text=True)
    assert run.returncode != 2 and "10 already done" in run.stderr, run.stderr


def test_resume_refuses_other_settings_and_another_list(client, pairs, tmp_path):
    out = tmp_path / "out.csv"
    mad.dask.score_pairs(pairs[:4], client, backend="cpu", out=out)
    with pytest.raises(ValueError, match="exists: pass resume=True"):
        mad.dask.score_pairs(pairs[:4], client, backend="cpu", out=out)
    with pytest.raises(ValueError, match="made with mad_version=2011; this run uses 2010"):
        mad.dask.score_pairs(pairs[:4], client, backend="cpu", out=out, resume=True,
                             mad_version=2010)
    with pytest.raises(ValueError, match="the list changed"):
        mad.dask.score_pairs(pairs[1:5], client, backend="cpu", out=out, resume=True)
    rows = mad.dask.score_pairs(pairs[:4], client, backend="cpu", out=out, force=True)
    assert rows["ok"].all() and len(read_rows(out)) == 5


@pytest.mark.parametrize("keywords, error, message", [
    ({"errors": "ignore"}, ValueError, "errors must be"),
    ({"resume": True}, ValueError, "no out was given"),
    ({"out": "x.csv", "resume": True, "force": True}, ValueError, "not both"),
    ({"chunk_size": 0}, ValueError, "at least 1"),
    ({"chunk_size": 2.5}, TypeError, "must be an int"),
    ({"threads": 0}, ValueError, "threads must be"),
    ({"precision": "float", "backend": "cpu"}, ValueError, "float"),
    ({"backend": "gpu"}, ValueError, "gpu"),
    ({"mad_version": 2012}, ValueError, "2012"),
    ({"maps": True}, TypeError, "maps"),
    ({"keep_heap": "yes"}, TypeError, "keep_heap must be"),
])
def test_every_keyword_takes_effect_or_raises(client, pairs, keywords, error, message):
    with pytest.raises(error, match=message):
        mad.dask.score_pairs(pairs[:2], client, **keywords)


def test_pairs_must_be_pairs_of_paths(client, pairs):
    with pytest.raises(TypeError, match=r"pairs\[1\] is not a \(ref, dist\) pair"):
        mad.dask.score_pairs([pairs[0], pairs[0][0]], client)
    assert len(mad.dask.score_pairs([], client, backend="cpu")) == 0


def test_tasks_keep_a_reference_and_a_shape_together(pairs):
    tasks = mad.dask._chunks(pairs, range(len(pairs)), slots=2, chunk_size=3)
    assert sorted(i for t in tasks for i, _, _ in t) == list(range(12))
    for t in tasks:
        assert len(t) <= 3 and len({mad._mad._image_size(r) for _, r, _ in t}) == 1
    refs = [r for t in tasks for _, r, _ in t]
    assert all(r not in refs[refs.index(r) + refs.count(r):] for r in set(refs))  # contiguous


def test_gpu_workers_are_asked_for_through_resources():
    gpu, plain = {"resources": {"GPU": 1}}, {"resources": {}}
    assert mad.dask._task_resources([gpu, plain], "auto") == {"GPU": 1}
    assert mad.dask._task_resources([gpu], "cuda") == {"GPU": 1}
    assert mad.dask._task_resources([gpu], "cpu") is None
    assert mad.dask._task_resources([plain], "cuda") is None
