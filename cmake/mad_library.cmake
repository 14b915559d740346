# mad_add_library(<target> [EXCLUDE_REGEX regex] [ROOMS dir...] [DEPS ...])
# One library per top-level folder. Every *.cpp in the folder (and in each of its ROOMS, the
# subfolders that belong to the same library: mad/backends, mad/engine) is compiled; *.cu files
# only when the CUDA backend is on. New stage files need no CMake edit. EXCLUDE_REGEX leaves out
# the files it matches (a folder's standalone programs).
function(mad_add_library target)
  cmake_parse_arguments(ARG "" "EXCLUDE_REGEX" "DEPS;ROOMS" ${ARGN})
  set(sources "")
  foreach(dir . ${ARG_ROOMS})
    file(GLOB cpp_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cpp)
    list(APPEND sources ${cpp_sources})
    if(MAD_HAVE_CUDA)
      file(GLOB cu_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cu)
      list(APPEND sources ${cu_sources})
    endif()
  endforeach()
  if(ARG_EXCLUDE_REGEX)
    list(FILTER sources EXCLUDE REGEX "${ARG_EXCLUDE_REGEX}")
  endif()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${ARG_DEPS})
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo --expt-relaxed-constexpr>)
  if(MAD_HAVE_CUDA)
    target_compile_definitions(${target} PUBLIC MAD_HAVE_CUDA=1)
    target_link_libraries(${target} PUBLIC CUDA::cudart CUDA::cufft)
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endif()
  if(MAD_CUDA_DEBUG_SYNC)
    target_compile_definitions(${target} PUBLIC MAD_CUDA_DEBUG_SYNC=1)
  endif()
endfunction()
