# Third-party libraries. Required ones stop the configure with a clear message; optional ones
# are detected and reported (the GPU machine, for instance, has no libtiff headers).
find_package(Threads REQUIRED)
find_package(PNG REQUIRED)
find_package(JPEG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
find_package(Eigen3 CONFIG REQUIRED)

# FFTW3 (double): the CPU FFT. Located by hand because not every distribution ships its CMake
# config, and pkg-config is not always installed.
find_path(FFTW3_INCLUDE_DIR fftw3.h REQUIRED)
find_library(FFTW3_LIBRARY NAMES fftw3 REQUIRED)
add_library(mad_fftw3 INTERFACE)
target_include_directories(mad_fftw3 INTERFACE ${FFTW3_INCLUDE_DIR})
target_link_libraries(mad_fftw3 INTERFACE ${FFTW3_LIBRARY})

# mad_optional_library(<found-var> <target> <header> <library> [PATH_SUFFIXES ...]): finds a
# library located by hand (no CMake config in Debian's package) and, when both its header and
# its library are found, defines the INTERFACE target <target> and sets <found-var> ON. The
# header's folder is left in <target>_INCLUDE_DIR.
function(mad_optional_library found target header library)
  cmake_parse_arguments(ARG "" "" "PATH_SUFFIXES" ${ARGN})
  find_path(${target}_INCLUDE_DIR ${header} PATH_SUFFIXES ${ARG_PATH_SUFFIXES})
  find_library(${target}_LIBRARY NAMES ${library})
  if(${target}_INCLUDE_DIR AND ${target}_LIBRARY)
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${${target}_INCLUDE_DIR})
    target_link_libraries(${target} INTERFACE ${${target}_LIBRARY})
    set(${found} ON PARENT_SCOPE)
  else()
    set(${found} OFF PARENT_SCOPE)
  endif()
endfunction()

# libdeflate: the inflate of the direct PNG reader (common/png_direct_read.cpp), about twice
# zlib's speed on whole buffers. Optional: without it every PNG goes through libpng. Where the
# package is missing, an unpacked Debian package can be named through CMAKE_PREFIX_PATH.
mad_optional_library(MAD_HAVE_LIBDEFLATE mad_libdeflate libdeflate.h deflate)

find_package(TIFF QUIET)
set(MAD_HAVE_TIFF ${TIFF_FOUND})

# stb_image (Debian's libstb) decodes BMP and PGM/PPM.
mad_optional_library(MAD_HAVE_STB mad_stb stb_image.h stb PATH_SUFFIXES stb)

if(MAD_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
set(MAD_HAVE_BENCHMARK OFF)
if(MAD_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    set(MAD_HAVE_BENCHMARK ON)
  endif()
endif()
