"""mad.torch.mad's range rules (mad._tensor_scale), tested without torch: uint8 is 0..255, a
float tensor is [0, 1] and refused above 1 unless data_range names white (issue 39)."""

import pytest

import mad
from mad._tensor_scale import factor_to_255


def _never():
    raise AssertionError("the maximum was read where the range is known")


def test_uint8_is_on_mads_scale_already():
    assert factor_to_255("uint8", _never, None, "dist") is None
    assert factor_to_255("uint8", _never, 255.0, "dist") is None
    assert factor_to_255("uint8", _never, 100.0, "dist") == 2.55


def test_floats_are_on_zero_one_and_refused_above_it():
    assert factor_to_255("float", lambda: 1.0, None, "dist") == 255.0
    with pytest.raises(mad.InvalidArgument, match="dist: a float tensor whose maximum is 254 "
                                                  "\\(above 1\\).*data_range=255"):
        factor_to_255("float", lambda: 254.0, None, "dist")
    assert factor_to_255("float", _never, 255.0, "dist") == 1.0
    assert factor_to_255("float", _never, 1.0, "dist") == 255.0


def test_other_integers_need_data_range():
    with pytest.raises(mad.InvalidArgument, match="ref: a torch.int16 tensor.*data_range"):
        factor_to_255("integer", _never, None, "ref", "torch.int16")
    assert factor_to_255("integer", _never, 65535.0, "ref", "torch.int32") == 255.0 / 65535.0
