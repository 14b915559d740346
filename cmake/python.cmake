# The Python module (tools/python, issue 13): built when a Python 3 with its headers and
# pybind11 are found. pybind11 comes from its CMake config: Debian's pybind11-dev, or a pip
# install found through `python3 -m pybind11 --cmakedir`.
#
# Which Python: -DPython3_EXECUTABLE=... when given; else the first of `python3` on PATH and
# /usr/bin/python3 that can import numpy and pytest (a pyenv shim first on PATH often cannot;
# Debian's packages are visible only to /usr/bin/python3), else one that has numpy.
option(MAD_PYTHON "Build the Python module `mad` when Python 3 and pybind11 are found" ON)
set(MAD_HAVE_PYTHON OFF)
set(MAD_PYTHON_TESTS OFF)
set(MAD_PYTHON_REPORT "off (MAD_PYTHON=OFF)")

function(mad_python_imports python modules result)
  execute_process(COMMAND ${python} -c "import ${modules}" RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(${result} ON PARENT_SCOPE)
  else()
    set(${result} OFF PARENT_SCOPE)
  endif()
endfunction()

if(MAD_PYTHON AND (MAD_SANITIZE OR MAD_BUILD_FUZZERS))
  # An extension compiled with ASan cannot be loaded into the uninstrumented interpreter (the
  # ASan runtime must come first), so sanitizer and fuzzing builds leave the module out.
  set(MAD_PYTHON_REPORT "OFF (sanitizer/fuzzing build: an instrumented extension cannot load into python3)")
elseif(MAD_PYTHON)
  if(NOT Python3_EXECUTABLE)
    find_program(mad_path_python3 NAMES python3 NO_CACHE)
    set(with_numpy "")
    foreach(candidate ${mad_path_python3} /usr/bin/python3)
      if(EXISTS "${candidate}" AND NOT Python3_EXECUTABLE)
        mad_python_imports(${candidate} "numpy, pytest" complete)
        mad_python_imports(${candidate} "numpy" numpy_only)
        if(complete)
          set(Python3_EXECUTABLE ${candidate} CACHE FILEPATH "Python for the mad module")
        elseif(numpy_only AND NOT with_numpy)
          set(with_numpy ${candidate})
        endif()
      endif()
    endforeach()
    if(NOT Python3_EXECUTABLE AND with_numpy)
      set(Python3_EXECUTABLE ${with_numpy} CACHE FILEPATH "Python for the mad module")
    endif()
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(NOT Python3_FOUND)
    set(MAD_PYTHON_REPORT "OFF (no Python 3 with development headers: apt-get install python3-dev)")
  else()
    if(NOT pybind11_DIR)
      execute_process(COMMAND ${Python3_EXECUTABLE} -m pybind11 --cmakedir
                      OUTPUT_VARIABLE pybind11_cmakedir RESULT_VARIABLE rc
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(rc EQUAL 0 AND EXISTS "${pybind11_cmakedir}")
        set(pybind11_DIR ${pybind11_cmakedir} CACHE PATH "pybind11's CMake config")
      endif()
    endif()
    find_package(pybind11 CONFIG QUIET)
    if(NOT pybind11_FOUND)
      set(MAD_PYTHON_REPORT "OFF (pybind11 not found: apt-get install pybind11-dev python3-pybind11)")
    else()
      set(MAD_HAVE_PYTHON ON)
      mad_python_imports(${Python3_EXECUTABLE} "numpy, pytest" MAD_PYTHON_TESTS)
      set(MAD_PYTHON_REPORT
          "ON (${Python3_EXECUTABLE} ${Python3_VERSION}, pybind11 ${pybind11_VERSION}, tests: ${MAD_PYTHON_TESTS})")
      if(NOT MAD_PYTHON_TESTS)
        string(APPEND MAD_PYTHON_REPORT " - this Python lacks numpy or pytest")
      endif()
    endif()
  endif()
endif()
