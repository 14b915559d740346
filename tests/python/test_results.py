"""Results tell what the command line tells: Result.to_dict() is `mad score --json`'s object;
dir(mad) is the API; exceptions in a batch keep the rows already scored (issue 28 §1)."""

import json
import subprocess
import sys

import numpy as np
import pytest

import mad
from conftest import REFERENCE, textured


def test_to_dict_has_the_cli_json_fields_and_types(cli):
    ref = sorted(REFERENCE.glob("*_512.png"))[0]
    dist = sorted(REFERENCE.glob(ref.stem + "__*.png"))[0]
    out = subprocess.run([cli, "score", str(ref), str(dist), "--json", "--backend", "cpu"],
                         capture_output=True, text=True, check=True).stdout
    want = json.loads(out)
    del want["ref"], want["dist"]  # the inputs' paths: a Result does not know them
    got = mad.score(ref, dist, backend="cpu").to_dict()
    assert json.loads(json.dumps(got)) == got
    assert set(got) == set(want)
    for key in want:
        if key == "mad_version":  # an int in Python (issue 28); int(...) equal either way
            assert type(got[key]) is int and got[key] == int(want[key])
        else:
            assert type(got[key]) is type(want[key]), key
    for key in ("mad", "hi", "lo", "sig", "d_detect_unscaled", "width", "height", "backend",
                "backend_reason", "precision", "input_class"):
        assert got[key] == want[key], key


def test_dir_shows_only_the_api():
    code = "import mad; print(' '.join(n for n in dir(mad) if not n.startswith('_')))"
    names = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()
    assert sorted(names) == sorted(mad.__all__)
    assert not {"np", "os", "threading"} & set(names)


def test_an_exception_in_a_batch_keeps_the_rows_scored():
    refs = [textured(40, 48, s) for s in range(4)]
    dists = [textured(40, 48, s + 10) for s in range(4)]

    def dists_then_fail():
        yield from dists[:3]
        raise OSError("camera unplugged")

    with pytest.raises(OSError, match="camera unplugged") as e:
        mad.score_batch(refs, dists_then_fail(), backend="cpu")
    want = mad.score_batch(refs[:3], dists[:3], backend="cpu")
    assert len(e.value.rows) == 3 and (e.value.rows["mad"] == want["mad"]).all()


def test_generators_are_scored_one_pair_at_a_time():
    taken = []

    def refs():
        for s in range(3):
            taken.append(s)
            yield textured(40, 48, s)

    rows = mad.score_batch(refs(), (textured(40, 48, s + 5) for s in range(3)), backend="cpu")
    assert taken == [0, 1, 2] and rows["ok"].all()
    with pytest.raises(ValueError, match="dists ran out after 2 pairs") as e:
        mad.score_batch(refs(), iter([textured(40, 48, 1)] * 2), backend="cpu")
    assert len(e.value.rows) == 2


def test_score_is_a_batch_of_depth_one():
    ref, dist = textured(40, 48, 31), textured(40, 48, 32)
    one = mad.score(ref, dist, backend="cpu", maps=True)
    row = mad.score_batch([ref], [dist], backend="cpu")[0]
    assert (one.mad, one.hi, one.lo, one.sig) == (row["mad"], row["hi"], row["lo"], row["sig"])
    assert one.hi_map.shape == (40, 48) and one.backend_reason == "requested"
