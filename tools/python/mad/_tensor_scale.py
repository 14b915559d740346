"""How mad.torch.mad puts a tensor's values on MAD's 0..255 scale. Apart from torch, so that
the rules are tested where torch is not installed (tests/python/test_tensor_scale.py).

uint8 tensors (what torchvision.io.read_image returns) are on 0..255 already; float tensors are
taken to be on [0, 1] (what ToTensor() gives), and one whose maximum is above 1 is refused
rather than clipped to white: multiplying 0..255 values by 255 scored the sample pair 198.17
instead of 75.39 (issue 39). data_range, as mad.score takes it, names the value of white."""

from ._mad import InvalidArgument

_ABOVE_ONE = ("%s: a float tensor whose maximum is %g (above 1): mad.torch.mad reads float "
              "tensors on [0, 1], as ToTensor() gives, and would clip this one to white. Pass "
              "data_range=255 if the values are on 0..255, data_range= the value of white for "
              "another range, or clamp(0, 1) values that only overshoot [0, 1] (resampling)")
_OTHER_INTEGERS = ("%s: a %s tensor: mad.torch.mad knows the range of uint8 (0..255) and of "
                   "floats ([0, 1]) only; pass data_range= the value of white (65535 for 16 "
                   "bits), or convert it to uint8 or float first")


def factor_to_255(kind, maximum, data_range, what, dtype=""):
    """The factor that puts a tensor on MAD's 0..255 scale, or None where it is already.

    kind: "uint8", "float" or "integer" (any other integer dtype, named by ``dtype``);
    maximum(): the tensor's largest value, called only for a float tensor without data_range;
    data_range: None or a value checked by mad._inputs.check_data_range. Raises
    InvalidArgument (a ValueError) with the advice where the range is unknown."""
    if kind == "uint8":
        return None if data_range is None or data_range == 255 else 255.0 / data_range
    if data_range is not None:
        return 255.0 / data_range
    if kind == "integer":
        raise InvalidArgument(_OTHER_INTEGERS % (what, dtype))
    top = maximum()
    if top > 1:
        raise InvalidArgument(_ABOVE_ONE % (what, top))
    return 255.0
