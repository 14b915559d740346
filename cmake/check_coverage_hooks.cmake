# Checks which static libraries of a fuzzing build carry libFuzzer's coverage hooks
# (tests/CMakeLists.txt runs it in builds with MAD_BUILD_FUZZERS and the tests):
#   cmake -DNM=nm -DWITH="a.a;b.a" -DWITHOUT="c.a;d.a" -P check_coverage_hooks.cmake
# Every library in WITH must reference __sanitizer_cov_* (the parsers the harnesses fuzz: the
# check can see the hooks), none in WITHOUT may (the scoring stages, whose hot loops the hooks
# slow 2-3x under the sanitizer suite that shares the build, and the tests' own code).
cmake_minimum_required(VERSION 3.25)
set(failures "")
foreach(kind WITH WITHOUT)
  foreach(archive IN LISTS ${kind})
    execute_process(COMMAND ${NM} ${archive} OUTPUT_VARIABLE symbols ERROR_VARIABLE errors
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${NM} ${archive} failed: ${errors}")
    endif()
    string(FIND "${symbols}" "__sanitizer_cov_" at)
    get_filename_component(name ${archive} NAME)
    if(kind STREQUAL "WITH" AND at EQUAL -1)
      list(APPEND failures "${name}: no coverage hooks, so libFuzzer cannot steer through it")
    elseif(kind STREQUAL "WITHOUT" AND NOT at EQUAL -1)
      list(APPEND failures "${name}: coverage hooks in code no harness reaches")
    endif()
  endforeach()
endforeach()
if(failures)
  list(JOIN failures "\n" text)
  message(FATAL_ERROR "${text}")
endif()
message(STATUS "coverage hooks where the harnesses fuzz, none in the scoring stages")
