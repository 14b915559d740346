"""PIL images as MAD reads the same picture from its file (common/image_io.h), not by their raw
array: a palette ("P") image's array holds palette indices, and scoring them gave 82.85 instead
of 60.95 for the same picture (issue 39).

  * "L", "LA", "RGB", "RGBA": their samples as they are (alpha ignored), the 8-bit file rules.
  * "1": 0 and 255, as a 1-bit file's gray is expanded.
  * "P", "PA": the palette's colours (RGB, RGBA), as a palette file is expanded, then rgb2gray.
  * "I;16", "I;16L", "I;16B", "I;16N": 16-bit gray, the 16-bit file rule.
  * "I" opened from a PNG or PNM file with values in 0..65535: Pillow's form of a 16-bit gray
    file, so the 16-bit file rule. An "I" image made in memory carries no bit depth (8-bit
    values would read as nearly black on 16 bits) and is refused with the advice.
  * "F" (32-bit floats) is refused, as the file readers refuse floating-point samples: the
    caller knows the range, and passes the array with data_range.
  * Every other mode (CMYK, YCbCr, LAB, HSV, ...) is refused with the conversion to use."""

import numpy as np

from ._mad import InvalidArgument

_AS_IS = ("L", "LA", "RGB", "RGBA")
_EXPANDED = {"1": "L", "P": "RGB", "PA": "RGBA"}
_SIXTEEN_BITS = ("I;16", "I;16L", "I;16B", "I;16N")
_SIXTEEN_BIT_FILES = ("PNG", "PPM")


def is_pil_image(obj):
    """A PIL.Image.Image, recognised without importing PIL (which mad does not need)."""
    return type(obj).__module__.split(".")[0] == "PIL" and hasattr(obj, "mode") and \
        hasattr(obj, "convert")


def pil_array(image, what):
    """The numpy array MAD scores for PIL image ``image`` (see the module's rules)."""
    mode = image.mode
    if mode in _AS_IS:
        return np.asarray(image)
    if mode in _EXPANDED:
        return np.asarray(image.convert(_EXPANDED[mode]))
    if mode in _SIXTEEN_BITS:
        return np.asarray(image).astype(np.uint16)  # native byte order
    if mode == "I":
        array = np.asarray(image)
        from_file = getattr(image, "format", None) in _SIXTEEN_BIT_FILES
        if from_file and array.size and array.min() >= 0 and array.max() <= 65535:
            return array.astype(np.uint16)
        raise InvalidArgument(
            "%s: a PIL image of mode 'I' (32-bit integers) that is not a 16-bit PNG or PNM "
            "file as opened: it carries no bit depth. Pass the file's path, or "
            "np.asarray(image).astype(np.uint16) for 16-bit values, or image.convert('L') "
            "for 8-bit ones" % what)
    if mode == "F":
        raise InvalidArgument(
            "%s: a PIL image of mode 'F' (32-bit floats), whose range MAD cannot know (its "
            "file readers refuse floating-point samples): pass np.asarray(image) with "
            "data_range= the value of white (255 for 0..255, 1 for [0, 1])" % what)
    raise InvalidArgument(
        "%s: a PIL image of mode %r, which MAD's file readers do not read: convert it first, "
        "image.convert('RGB') (colour) or image.convert('L') (gray)" % (what, mode))
