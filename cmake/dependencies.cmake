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

find_package(TIFF QUIET)
set(MAD_HAVE_TIFF ${TIFF_FOUND})

# stb_image (Debian's libstb) decodes BMP and PGM/PPM.
find_path(STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb)
find_library(STB_LIBRARY NAMES stb)
if(STB_INCLUDE_DIR AND STB_LIBRARY)
  set(MAD_HAVE_STB ON)
  add_library(mad_stb INTERFACE)
  target_include_directories(mad_stb INTERFACE ${STB_INCLUDE_DIR})
  target_link_libraries(mad_stb INTERFACE ${STB_LIBRARY})
else()
  set(MAD_HAVE_STB OFF)
endif()

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
