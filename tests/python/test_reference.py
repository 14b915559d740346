"""The module against the C++ API (through the `mad` executable) and the original's scores."""

import csv
import json
import os
import subprocess

import numpy as np
import pytest

import mad
from conftest import DATA, REFERENCE


def rows():
    with open(DATA / "reference" / "scores.csv") as f:
        return list(csv.DictReader(f))


def test_import_is_the_built_package():
    # Never the repository's C++ folder mad/.
    assert mad.__file__.startswith(os.environ.get("MAD_PACKAGE_DIR", os.path.dirname(mad.__file__)))
    assert hasattr(mad, "_mad")


def cli_score(cli, ref, dist, *extra):
    out = subprocess.run([cli, "score", str(ref), str(dist), "--json", "--backend", "cpu", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("row", [r for r in rows() if r["width"] != "512"][:3] + rows()[:1],
                         ids=lambda r: r["dist"])
def test_bit_identical_to_the_cli(cli, row):
    ref, dist = REFERENCE / row["ref"], REFERENCE / row["dist"]
    want = cli_score(cli, ref, dist)
    for source in ("path", "array"):
        if source == "path":
            got = mad.score(ref, dist, backend="cpu")
        else:
            arrays = [mad.load_gray(p) for p in (ref, dist)]
            assert arrays[0].dtype == np.uint8
            got = mad.score(*arrays, backend="cpu")
        for key in ("mad", "hi", "lo", "sig"):
            assert getattr(got, key) == want[key], (source, key)
        assert got.d_detect == want["d_detect_unscaled"]
        assert (got.width, got.height, got.input_class) == (want["width"], want["height"], "uint8")


def test_scores_csv_through_the_batch_engine():
    """All reference pairs in one score_batch call (April-2010 scaling, like the CSV)."""
    table = rows()
    got = mad.score_batch([REFERENCE / r["ref"] for r in table],
                          [REFERENCE / r["dist"] for r in table], backend="cpu", mad_version=2010)
    assert got.dtype == mad.BATCH_DTYPE and got["ok"].all()
    for r, g in zip(table, got):
        if r["distortion"] == "identical":
            assert g["mad"] == 0.0
            continue
        # The C++ golden test's tolerance (tests/mad/golden_scores_test.cpp).
        assert abs(g["mad"] - float(r["mad"])) <= 1e-9 * abs(float(r["mad"]))
        assert abs(g["lo"] - float(r["appearance_lo"])) <= 1e-9 * abs(float(r["appearance_lo"]))
    single = mad.score(REFERENCE / table[0]["ref"], REFERENCE / table[0]["dist"], backend="cpu",
                       mad_version=2010)
    assert single.mad == got["mad"][0]
