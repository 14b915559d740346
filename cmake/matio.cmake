# libmatio (optional): lets `mad eval` read LIVE Release 2's MATLAB score files (dmos.mat,
# dmos_realigned.mat, refnames_all.mat). Without it the LIVE reader says so and suggests a CSV
# manifest; everything else works.
#
# Include it after mad_datasets exists (e.g. last line of datasets/CMakeLists.txt):
#   include(${PROJECT_SOURCE_DIR}/cmake/matio.cmake)
# It defines MAD_HAVE_MATIO, an INTERFACE target mad_matio (include dir, library and the
# MAD_HAVE_MATIO=1 definition) and links mad_datasets to it when found.
find_path(MATIO_INCLUDE_DIR matio.h)
find_library(MATIO_LIBRARY NAMES matio)
if(MATIO_INCLUDE_DIR AND MATIO_LIBRARY)
  set(MAD_HAVE_MATIO ON)
  if(NOT TARGET mad_matio)
    add_library(mad_matio INTERFACE)
    target_include_directories(mad_matio INTERFACE ${MATIO_INCLUDE_DIR})
    target_link_libraries(mad_matio INTERFACE ${MATIO_LIBRARY})
    target_compile_definitions(mad_matio INTERFACE MAD_HAVE_MATIO=1)
  endif()
  if(TARGET mad_datasets)
    target_link_libraries(mad_datasets PUBLIC mad_matio)
  endif()
else()
  set(MAD_HAVE_MATIO OFF)
endif()
message(STATUS "mad: libmatio (LIVE .mat) . ${MAD_HAVE_MATIO}")
