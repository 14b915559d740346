"""The binding's structure and its CUDA-input rules that a CPU build can check (issue 25):
it holds only the batch scorer, keeps every GPU array's producer, and refuses a pair split
over two devices."""

import pathlib
import re

import numpy as np
import pytest

import mad
from mad import _inputs

BINDING = pathlib.Path(__file__).resolve().parents[2] / "tools" / "python"


def test_the_binding_holds_only_the_batch_scorer():
    # mad::Scorer (a second scoring path) must not appear; BatchScorer and PyScorer may.
    for source in sorted(BINDING.glob("*.[ch]*")):
        text = source.read_text()
        assert not re.search(r"(?<![\w.])Scorer\b", text), source.name
        assert "mad/score.h" not in text or source.name == "result_binding.h", source.name
    assert "BatchScorer" in (BINDING / "scorer_binding.h").read_text()


class FakeCudaArray:
    """Just enough of __cuda_array_interface__ to be described (never scored here)."""

    def __init__(self, device_pointer=0x1000):
        self.__cuda_array_interface__ = {"data": (device_pointer, False), "typestr": "|u1",
                                         "shape": (40, 48), "strides": None, "version": 3}


def test_cuda_array_interface_producers_are_kept():
    keep = []
    array = FakeCudaArray()
    described = _inputs.to_input(array, keep, None, "reference")
    assert described["data"] == 0x1000 and any(k is array for k in keep)


def test_a_pair_on_two_devices_is_refused():
    def on(device):
        return {"data": 0x1000, "typestr": "|u1", "shape": (40, 48), "strides": None,
                "device": device, "stream": 0}

    scorer = mad._mad._Scorer({"backend": "cpu"}, False, 0)
    with pytest.raises(ValueError, match="reference is on GPU 0 and distorted on GPU 1"):
        scorer.score(on(0), on(1))
    results, stopped = scorer.score_many(iter([(on(0), on(1), []), "refused earlier"]))
    assert stopped is None and results[1] == "refused earlier"
    assert results[0].startswith("reference is on GPU 0 and distorted on GPU 1")


def test_host_and_gpu_in_one_pair_is_refused():
    scorer = mad._mad._Scorer({"backend": "cpu"}, False, 0)
    gpu = {"data": 0x1000, "typestr": "|u1", "shape": (40, 48), "strides": None, "device": 0,
           "stream": 0}
    with pytest.raises(ValueError, match="both be host images or both GPU arrays"):
        scorer.score(np.zeros((40, 48), np.uint8), gpu)
