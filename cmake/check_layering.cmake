# Checks the layering of docs/architecture.md: a folder's sources include headers only from the
# folders it may use. Run as a test (tests/CMakeLists.txt):
#   cmake -DSOURCE_DIR=<tree> -P cmake/check_layering.cmake
# Fails, naming each offending file and include, when a folder reaches above its layer (for
# example kernels/ including mad/), so the rule holds for code as well as in the document.
#
# The link graph of the CMake targets states the same rule (each folder's target links only
# the targets below it); this check also catches a header-only use that no link would reveal.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layering: set -DSOURCE_DIR=<tree root>")
endif()

# folder -> the folders its sources may include from (itself included).
set(allowed_common common)
set(allowed_kernels kernels common)
set(allowed_detection detection common)
set(allowed_appearance appearance common)
set(allowed_mad mad detection appearance kernels common)
set(allowed_datasets datasets mad common)
set(layered_folders common kernels detection appearance mad datasets)
# tools/ (the executable, scripts and the measuring library) and tests/ may use every folder.

set(violations "")
foreach(folder IN LISTS layered_folders)
  file(GLOB_RECURSE sources
       "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cuh"
       "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.cu")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/.*$" "\\1" used "${line}")
      list(FIND allowed_${folder} "${used}" found)
      if(found EQUAL -1)
        file(RELATIVE_PATH rel "${SOURCE_DIR}" "${source}")
        string(APPEND violations "  ${rel}: ${line} (${folder}/ may use: ${allowed_${folder}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violations (see docs/architecture.md):\n${violations}")
endif()
message(STATUS "layering: every include respects docs/architecture.md")
