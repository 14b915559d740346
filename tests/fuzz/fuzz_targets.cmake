# libFuzzer targets, one per input parser. Included by cmake/fuzzing.cmake (deferred to the end
# of the top-level CMakeLists.txt, once the libraries exist) when MAD_BUILD_FUZZERS is on; being
# included rather than added as a subdirectory, it names its sources by absolute path.
# Each fuzz_<name>.cpp is one executable fuzz_<name> (in BUILD/fuzz/, all built by the target
# mad_fuzzers); its seeds are corpus/<name>/ and tools/fuzz-smoke.sh runs them all.
# make_seeds.cpp regenerates the image seeds with the codecs' own encoders.
set(fuzz_dir ${PROJECT_SOURCE_DIR}/tests/fuzz)
set(MAD_FUZZ_TARGETS png jpeg tiff stb pairs_list dataset_scores results_file cli y4m)
set(fuzz_libs_png mad_common)
set(fuzz_libs_jpeg mad_common)
set(fuzz_libs_tiff mad_common)
set(fuzz_libs_stb mad_common)
set(fuzz_libs_pairs_list mad_core)
set(fuzz_libs_dataset_scores mad_datasets)
set(fuzz_libs_results_file mad_core)
set(fuzz_libs_cli mad_cli)
set(fuzz_libs_y4m mad_common)

# What no harness reaches keeps the sanitizers but loses the coverage counters and comparison
# hooks. The scoring stages (the harnesses fuzz parsers): in a hot loop the hooks cost 2-3x
# under ASan (a 7x7 convolution probe, clang 14 -O1: 0.6 s plain, 1.9 s instrumented), and the
# CI sanitizer suite runs the scoring code on the same build (tools/sanitize-check.sh
# WITH_FUZZERS=1). The test executables of that build: their compile is 9% shorter without
# (tests/tools/cli_score_test.cpp, 21.8 against 23.9 CPU-s).
set(mad_fuzz_unreached mad_kernels mad_detection mad_appearance)
if(MAD_BUILD_TESTS)
  get_property(test_targets DIRECTORY ${PROJECT_SOURCE_DIR}/tests PROPERTY BUILDSYSTEM_TARGETS)
  list(APPEND mad_fuzz_unreached ${test_targets})
endif()
foreach(target ${mad_fuzz_unreached})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize=fuzzer-no-link>)
endforeach()

add_custom_target(mad_fuzzers)
foreach(name ${MAD_FUZZ_TARGETS})
  set(target fuzz_${name})
  add_executable(${target} ${fuzz_dir}/fuzz_${name}.cpp)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE ${fuzz_libs_${name}})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
  add_dependencies(mad_fuzzers ${target})
endforeach()

# stb_image is a header library: compiling its implementation into the BMP/PNM target (rather
# than calling Debian's uninstrumented libstb) lets libFuzzer see its branches. The
# executable's definitions take precedence over the shared library's.
if(MAD_HAVE_STB)
  target_sources(fuzz_stb PRIVATE ${fuzz_dir}/stb_image_instrumented.cpp)
  target_include_directories(fuzz_stb PRIVATE ${mad_stb_INCLUDE_DIR})
endif()

# The seed generator is an ordinary program (no libFuzzer main).
add_executable(fuzz_make_seeds ${fuzz_dir}/make_seeds.cpp)
target_include_directories(fuzz_make_seeds PRIVATE ${PROJECT_SOURCE_DIR})
# mad_common links the codecs it was built with (libpng, libjpeg, libtiff, stb) PUBLIC, so the
# encoders the generator calls come with it.
target_link_libraries(fuzz_make_seeds PRIVATE mad_common)
set_target_properties(fuzz_make_seeds PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
