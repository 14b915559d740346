// The layout tags of a TIFF written by a test or by the fuzz seed generator
// (tests/common/image_io_tiff_test.cpp, tests/fuzz/make_seeds.cpp). Needs libtiff.
#pragma once

#include <tiffio.h>

#include <cstdint>

namespace mad::test {

// Sets size, samples per pixel, bits per sample, photometric interpretation, compression and
// planar configuration on `t`; 2 and 4 samples per pixel get one unassociated-alpha extra
// sample. Strip or tile tags are left to the caller.
inline void set_tiff_layout(TIFF* t, int width, int height, int spp, int bps, int photometric,
                            int compression, bool planar) {
  TIFFSetField(t, TIFFTAG_IMAGEWIDTH, width);
  TIFFSetField(t, TIFFTAG_IMAGELENGTH, height);
  TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, spp);
  TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bps);
  TIFFSetField(t, TIFFTAG_PHOTOMETRIC, photometric);
  TIFFSetField(t, TIFFTAG_COMPRESSION, compression);
  TIFFSetField(t, TIFFTAG_PLANARCONFIG, planar ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
  if (spp == 2 || spp == 4) {
    const std::uint16_t extra = EXTRASAMPLE_UNASSALPHA;
    TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &extra);
  }
}

}  // namespace mad::test
