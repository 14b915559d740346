"""Every keyword takes effect or raises, in Python's words (issue 28 §1)."""

import pathlib
import threading

import numpy as np
import pytest

import mad
from conftest import gpu_available, textured

H, W = 40, 48


@pytest.fixture(scope="module")
def pair():
    return textured(H, W, 21), textured(H, W, 22)


def test_float_precision_on_the_cpu_is_refused(pair):
    with pytest.raises(ValueError, match='precision="float" needs the CUDA backend; this scorer '
                                         'uses the CPU because backend="cpu" was given'):
        mad.score(*pair, backend="cpu", precision="float")
    with pytest.raises(mad.InvalidArgument, match='precision="float"'):
        mad.Scorer(backend="cpu", precision="float")


def test_float_precision_where_auto_means_cpu_is_refused(pair):
    if gpu_available():
        pytest.skip("a GPU is present: auto resolves to CUDA")
    with pytest.raises(ValueError, match="this scorer uses the CPU because (no CUDA device was "
                                         "found|this build has no CUDA backend)"):
        mad.score_batch([pair[0]], [pair[1]], precision="float")


def test_threads_sets_its_own_scorers_workers_only(pair):
    """threads= is the scorer's: its work runs on that many threads (seen as the process's
    threads while it scores), and another thread, as another Scorer would, keeps its own count
    meanwhile (a process-wide setting made two Scorers race for it)."""
    from mad import _mad
    default = _mad._thread_count()
    threads = 3 if default != 3 else 4  # not the default, and fewer than a pair's 20 subbands
    tasks = pathlib.Path("/proc/self/task")
    seen, most, done = set(), [0], threading.Event()

    def watch():  # scoring releases the GIL, so this thread samples meanwhile
        while not done.is_set():
            seen.add(_mad._thread_count())
            if tasks.is_dir():
                most[0] = max(most[0], len(list(tasks.iterdir())))

    before = len(list(tasks.iterdir())) if tasks.is_dir() else 0
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        big = textured(256, 256, 23), textured(256, 256, 24)
        rows = mad.score_batch([big[0]] * 3, [big[1]] * 3, backend="cpu", threads=threads)
    finally:
        done.set()
        watcher.join()
    assert rows["ok"].all()
    assert seen == {default}, seen  # the watcher's count never became the scorer's
    if tasks.is_dir():  # the caller, the watcher and the scorer's threads - 1 workers
        assert most[0] >= before + threads, (before, most[0], threads)
    assert _mad._thread_count() == default  # restored afterwards
    assert mad.score(*pair, backend="cpu", threads=1).mad == mad.score(*pair, backend="cpu").mad


@pytest.mark.parametrize("bad", [0, -2, 65537, 1.5, "2"])
def test_bad_threads_are_refused(pair, bad):
    with pytest.raises((ValueError, TypeError)):
        mad.score(*pair, backend="cpu", threads=bad)


def test_threads_on_cuda_is_refused(pair):
    if not gpu_available():
        pytest.skip("no CUDA device")
    with pytest.raises(ValueError, match='threads=2 sets the CPU backend.*backend="cpu"'):
        mad.Scorer(backend="cuda", threads=2)


def test_gpu_errors_speak_python(pair):
    if gpu_available():
        pytest.skip("a GPU is present")
    with pytest.raises(mad.GpuError) as e:
        mad.score(*pair, backend="cuda")
    assert str(e.value).startswith('backend="cuda": ') and "--" not in str(e.value)


def test_library_messages_name_keywords(pair):
    with pytest.raises(ValueError, match=r'input_class="uint8" needs 8-bit images \(got 32 and 8'):
        mad.score(pair[0].astype(np.float32), pair[1], backend="cpu", input_class="uint8")
    rows = mad.score_batch([pair[0].astype(np.float32)], [pair[1]], backend="cpu",
                           input_class="uint8", errors="record")
    assert rows["error"][0].startswith('input_class="uint8" needs') and not rows["ok"][0]


def test_backend_is_resolved_once_with_its_reason():
    s = mad.Scorer(backend="cpu")
    assert (s.backend, s.backend_reason) == ("cpu", "requested")
    auto = mad.Scorer()
    assert auto.backend_reason.startswith("auto: ")


def test_scoring_keywords_come_from_the_option_table(pair):
    # An option the table gives no Python spelling, or none at all: TypeError naming those it has.
    with pytest.raises(TypeError, match="unexpected keyword 'a5'.*backend, mad_version"):
        mad.Scorer(backend="cpu", a5="a5-direct")
    with pytest.raises(TypeError, match="mad_version takes a str or an int"):
        mad.Scorer(backend="cpu", mad_version=2010.0)
    # Each keyword the table has takes effect.
    assert mad.score(*pair, backend="cpu", mad_version="2010").mad == \
        mad.score(*pair, backend="cpu", mad_version=2010).mad != mad.score(*pair, backend="cpu").mad
