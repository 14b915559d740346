# Checks the layering of docs/architecture.md: a folder's sources include headers only from the
# folders it may use, and the front doors reach mad/ only through its public headers. Run as a
# test (tests/CMakeLists.txt):
#   cmake -DSOURCE_DIR=<tree> -P cmake/check_layering.cmake
# Fails, naming each offending file and include, when a folder reaches above its layer (for
# example kernels/ including mad/), or past mad/'s public face (for example tools/ including
# mad/backends/pair_backend.h), so the rules hold for code as well as in the document.
#
# The link graph of the CMake targets states the layering too (each folder's target links only
# the targets below it); this check also catches a header-only use that no link would reveal,
# and the rooms inside mad/, which share one target.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layering: set -DSOURCE_DIR=<tree root>")
endif()

# A layer is a top-level folder, or one of mad/'s rooms (mad/backends, mad/engine,
# mad/results), which are layers of their own. layer -> the layers its sources may include
# from (itself included).
set(allowed_common common)
set(allowed_kernels kernels common)
set(allowed_detection detection common)
set(allowed_appearance appearance common)
# mad/ itself: the public face (score.h, batch_scorer.h, options.h, result.h, ...). Its .cpp
# files may use the seam (batch_scorer.cpp owns a backend); its headers may not (below).
set(allowed_mad mad mad/backends detection appearance kernels common)
set(allowed_mad/backends mad/backends mad detection appearance kernels common)
set(allowed_mad/engine mad/engine mad/backends mad common)
set(allowed_mad/results mad/results mad common)
# mad/video: the video model; it scores frames and slices through the public face (BatchScorer).
set(allowed_mad/video mad/video mad/results mad common)
set(allowed_datasets datasets mad mad/engine mad/results mad/video common)
set(allowed_tools tools datasets mad mad/engine mad/results mad/video detection appearance kernels common)
set(layered_folders common kernels detection appearance mad datasets tools)
# tools/bench (the measuring library) and tests/ may use every folder; they are not scanned.
set(unscanned_regex "^(tools/bench|tools/probes)/")

# What a front door (datasets/, tools/ and the Python binding) may include from mad/: the
# public face, the engine's entry point, the results room and the video model (mad/video/).
# Everything else in mad/'s rooms is theirs alone.
set(public_mad_regex "^mad/([a-z_]+\\.h|engine/pair_engine\\.h|results/[a-z_]+\\.h|video/[a-z_]+\\.h)$")

# The layer of a path relative to the tree ("mad/engine/pair_engine.cpp" -> "mad/engine").
function(layer_of path out)
  if(path MATCHES "^mad/(backends|engine|results|video)/")
    set(${out} "mad/${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    string(REGEX REPLACE "^([a-z_]+)/.*$" "\\1" top "${path}")
    set(${out} "${top}" PARENT_SCOPE)
  endif()
endfunction()

set(violations "")
foreach(folder IN LISTS layered_folders)
  file(GLOB_RECURSE sources
       "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cuh"
       "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.cu")
  foreach(source IN LISTS sources)
    file(RELATIVE_PATH rel "${SOURCE_DIR}" "${source}")
    if(rel MATCHES "${unscanned_regex}")
      continue()
    endif()
    layer_of("${rel}" layer)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" header "${line}")
      layer_of("${header}" used)
      list(FIND allowed_${layer} "${used}" found)
      if(found EQUAL -1)
        string(APPEND violations "  ${rel}: ${line} (${layer}/ may use: ${allowed_${layer}})\n")
      elseif(header MATCHES "^mad/" AND (layer STREQUAL "datasets" OR layer STREQUAL "tools")
             AND NOT header MATCHES "${public_mad_regex}")
        string(APPEND violations
               "  ${rel}: ${line} (a front door includes only mad/'s public headers)\n")
      elseif(layer STREQUAL "mad" AND rel MATCHES "\\.h$" AND NOT used STREQUAL "mad"
             AND used MATCHES "^mad/")
        string(APPEND violations
               "  ${rel}: ${line} (a public header of mad/ does not expose its rooms)\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violations (see docs/architecture.md):\n${violations}")
endif()
message(STATUS "layering: every include respects docs/architecture.md")
