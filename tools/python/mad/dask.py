"""MAD of many image pairs on a Dask cluster (issue 27): `mad.dask.score_pairs`.

    from distributed import Client
    import mad.dask
    rows = mad.dask.score_pairs([("ref.png", "dist.png"), ...], client=Client("tcp://host:8786"))

Each worker process keeps one mad.Scorer per set of options (module-level, below), so FFT
plans, filter banks and device buffers are built once per process and shape, not per task.
Tasks are chunks of pairs grouped by reference and by the reference's shape (read from the
file headers), balanced by pixels as `mad score --shard` balances shards. docs/dask.md.
"""

import ctypes
import os
import threading

import numpy as np

from . import _scorer
from ._mad import InputError, _image_size, _pairs_row, _PairsResults, _run_settings
from ._scorer import BATCH_DTYPE

__all__ = ["score_pairs"]

# Per worker process: the warm scorers and what they did (read by tests through Client.run).
_warm = {}
_warm_lock = threading.Lock()
_stats = {"scorers_built": 0, "tasks": 0, "pairs": 0, "heap_kept": False}
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)


def _keep_heap():
    """Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536 (its config's
    distributed.nanny.pre-spawn-environ). Any such variable turns off glibc's adaptive mmap
    threshold, so every buffer over 128 KiB is mapped and unmapped again, and the CPU backend's
    per-pair buffers fault their pages in each time: 60 pairs of 256x256 took 10.3 s against
    3.5 s (one thread, this 2-core machine). Once per process, set the thresholds glibc's own
    adaptation reaches (mmap 32 MiB, trim 2 x that)."""
    if _stats["heap_kept"] or "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc: nothing to undo
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    mallopt(_M_TRIM_THRESHOLD, 64 << 20)
    _stats["heap_kept"] = True


def _worker_threads():
    try:
        from distributed import get_worker
        worker = get_worker()
        state = getattr(worker, "state", None)  # where newer versions keep it
        return state.nthreads if hasattr(state, "nthreads") else worker.nthreads
    except (ImportError, ValueError):  # not inside a Dask worker
        return None


def _scorer_for(options):
    """This process's scorer for `options`, made on first use. threads=None on the CPU becomes
    the worker's own thread count, so that worker processes sharing a host do not each start a
    thread per core."""
    key = tuple(sorted(options.items()))
    with _warm_lock:
        if key not in _warm:
            s = _scorer.Scorer(**options)
            if options["threads"] is None and s.backend == "cpu" and _worker_threads():
                s = _scorer.Scorer(**dict(options, threads=_worker_threads()))
            _warm[key] = s
            _stats["scorers_built"] += 1
        return _warm[key]


def _settings(options, keep_heap):
    """On a worker: the backend it resolves and the settings its rows are recorded with, as
    (key, value) rows of the results file's settings record (mad/results/results_settings.h)."""
    if keep_heap:
        _keep_heap()
    s = _scorer_for(options)
    return s.backend, _run_settings(s.backend, options["mad_version"], options["input_class"],
                                    options["precision"])


def _score_chunk(options, keep_heap, chunk):
    """On a worker: scores [(index, ref, dist)] -> (backend, BATCH_DTYPE rows, results-file
    lines). A pair MAD refuses becomes its row; anything else raises."""
    if keep_heap:
        _keep_heap()
    s = _scorer_for(options)
    refs = [ref for _, ref, _ in chunk]
    dists = [dist for _, _, dist in chunk]
    with s._lock:
        results, stopped = s._impl.score_many(_scorer._pairs(refs, dists, None))
        _stats["tasks"] += 1
        _stats["pairs"] += len(chunk)
    if stopped is not None:
        raise stopped
    lines = [_pairs_row(ref, dist, r, s.backend_reason, i + 1)
             for (i, ref, dist), r in zip(chunk, results)]
    return s.backend, _scorer._rows(results), lines


def _worker_stats():
    return dict(_stats)


def _pair_list(pairs):
    out = []
    for n, pair in enumerate(pairs):
        try:
            ref, dist = pair
            out.append((os.fspath(ref), os.fspath(dist)))
        except (TypeError, ValueError):
            raise TypeError("pairs[%d] is not a (ref, dist) pair of paths (got %r)"
                            % (n, pair)) from None
        if not all(isinstance(p, str) for p in out[-1]):
            raise TypeError("pairs[%d]: paths must be str or os.PathLike of str (got %r)"
                            % (n, pair))
    return out


def _task_resources(workers, backend):
    """{"GPU": 1} when the scorer may use a GPU and some worker declares GPUs (`dask worker
    --resources GPU=1`): each task then holds one GPU, and runs only where there is one."""
    if backend != "cpu" and any(w.get("resources", {}).get("GPU", 0) > 0 for w in workers):
        return {"GPU": 1}
    return None


def _chunks(pairs, todo, slots, chunk_size):
    """Tasks: lists of (index, ref, dist). Pairs sharing a reference are consecutive (its decode
    is shared) and a task holds one reference shape (one set of plans). Without chunk_size a
    task weighs about 1/4 of a worker thread's share of the pixels, and holds at most 256
    pairs; a reference whose header cannot be read weighs as the median of those that can."""
    groups = {}
    for i in todo:
        groups.setdefault(pairs[i][0], []).append(i)
    sizes = {ref: _image_size(ref) for ref in groups}
    known = sorted(w * h for w, h in filter(None, sizes.values()))
    fallback = known[len(known) // 2] if known else 1
    weight = {ref: (s[0] * s[1] if s else fallback) for ref, s in sizes.items()}
    total = sum(weight[pairs[i][0]] for i in todo)
    budget = total / (4 * max(slots, 1)) if chunk_size is None else float("inf")
    most = 256 if chunk_size is None else chunk_size
    order = sorted(groups, key=lambda ref: (sizes[ref] is None, sizes[ref] or (0, 0),
                                            groups[ref][0]))
    tasks, task, load, shape = [], [], 0.0, None
    for ref in order:
        for i in groups[ref]:
            if task and (sizes[ref] != shape or len(task) >= most or load + weight[ref] > budget):
                tasks.append(task)
                task, load = [], 0.0
            task.append((i,) + pairs[i])
            load += weight[ref]
            shape = sizes[ref]
    return tasks + ([task] if task else [])


def _open_out(out, pairs, settings, resume, force):
    """The results file `out` opened by the command line's rules (mad/results, bound as
    _PairsResults): a fresh one is refused over a non-empty file unless `force`; a resumed one
    keeps its finished rows (checked against `pairs` and `settings`) and scores failed rows
    again. -> ({list index: BATCH_DTYPE row} of the finished pairs, the open file)."""
    results = _PairsResults(out, settings, resume, force)
    done = {}
    for i, (ref, dist) in enumerate(pairs):
        row = results.take_finished(i + 1, ref, dist)  # `line` is the pair's 1-based place
        if row is not None:
            done[i] = np.array(row + (True, None), dtype=BATCH_DTYPE)
    results.open("the list of pairs")
    return done, results


def _client(client):
    import distributed
    if client is None:
        try:
            return distributed.get_client()
        except ValueError:
            raise ValueError("score_pairs needs a Dask cluster: pass client=distributed.Client("
                             "'tcp://scheduler:8786'), or make a Client first") from None
    if not isinstance(client, distributed.Client):
        raise TypeError("client must be a distributed.Client (got %r)" % (client,))
    return client


def score_pairs(pairs, client=None, *, backend="auto", mad_version=2011, input_class="auto",
                precision="double", threads=None, errors="record", out=None, resume=False,
                force=False, chunk_size=None, keep_heap=True):
    """Scores pairs [(ref, dist), ...] of image paths on the Dask cluster of `client` (default:
    the current client) -> numpy structured array of BATCH_DTYPE, one row per pair, in list
    order: the rows of mad.score_batch (the same bits), failed pairs as rows (ok=False).

    backend, mad_version, input_class, precision: as in mad.Scorer, resolved on the workers.
    threads: CPU threads per worker process (default: the worker's thread count).
    errors: "record" (default) keeps failed pairs as rows; "raise" raises ValueError naming
        the first failed pair once all are scored (and written to `out`).
    out: a results file in the format of `mad score --pairs LIST --out FILE` (CSV, with
        FILE.settings), rows written as their tasks finish; `line` is the pair's 1-based place
        in `pairs`. An existing non-empty file is refused unless resume=True (keep its finished
        rows, score the others: the command line's rule, either may resume the other's file)
        or force=True (replace it).
    chunk_size: at most this many pairs per task (default: balanced by pixels, at most 256).
    keep_heap: in worker processes started with MALLOC_TRIM_THRESHOLD_ (Dask's default), set
        glibc's mmap and trim thresholds to 32 and 64 MiB once, as glibc would adapt them
        without the variable (the CPU backend runs ~3x faster); False leaves malloc alone.
    """
    if errors not in ("record", "raise"):
        raise ValueError("errors must be 'record' or 'raise' (got %r)" % (errors,))
    if resume and force:
        raise ValueError("give resume=True (continue out) or force=True (replace it), not both")
    if (resume or force) and out is None:
        raise ValueError("resume and force apply to the results file of out=, and no out was "
                         "given")
    if chunk_size is not None:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
            raise TypeError("chunk_size must be an int (got %r)" % (chunk_size,))
        if chunk_size < 1:
            raise ValueError("chunk_size must be at least 1 (got %r)" % (chunk_size,))
    if not isinstance(keep_heap, bool):
        raise TypeError("keep_heap must be True or False (got %r)" % (keep_heap,))
    _scorer._threads(threads)  # refuses a bad count here, before any work
    out = os.fspath(out) if out is not None else None
    pairs = _pair_list(pairs)
    client = _client(client)
    options = {"backend": backend, "mad_version": mad_version, "input_class": input_class,
               "precision": precision, "maps": False, "threads": threads}
    workers = list(client.scheduler_info()["workers"].values())
    resources = _task_resources(workers, backend)
    # One probe resolves the options on a worker (bad values raise here) and warms its scorer.
    resolved, settings = client.submit(_settings, options, keep_heap, resources=resources,
                                       pure=False).result()

    rows = np.zeros(len(pairs), dtype=BATCH_DTYPE)
    done, writer = _open_out(out, pairs, settings, resume, force) if out is not None else ({}, None)
    for i, row in done.items():
        rows[i] = row
    slots = sum(w.get("nthreads", 1) for w in workers
                if resources is None or w.get("resources", {}).get("GPU", 0) > 0)
    todo = [i for i in range(len(pairs)) if i not in done]
    tasks = _chunks(pairs, todo, slots, chunk_size)
    futures = {client.submit(_score_chunk, options, keep_heap, t, resources=resources,
                             pure=False): t for t in tasks}
    try:
        from distributed import as_completed
        for future in as_completed(futures):
            backend_used, chunk_rows, lines = future.result()
            if backend_used != resolved:
                raise RuntimeError("the workers resolve backend=%r differently (%s and %s): "
                                   "name backend='cpu' or 'cuda'"
                                   % (backend, resolved, backend_used))
            rows[[i for i, _, _ in futures[future]]] = chunk_rows
            if writer:
                writer.write(lines)
    finally:
        client.cancel(list(futures))  # after an error or Ctrl-C; finished rows stay in `out`
        if writer:
            writer.close()
    if errors == "raise":
        for i in np.flatnonzero(~rows["ok"]):
            raise InputError("pair %d: %s" % (i, rows["error"][i]))
    return rows

