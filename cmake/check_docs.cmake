# Checks that the docs stay true where a script can tell (issue 38, item 5):
# - docs/performance.md has at most MAX_PERFORMANCE_LINES lines (450): current figures only, the
#   dated records go to docs/lab/;
# - every relative Markdown link of a .md file names a file or folder that exists, and its
#   #anchor a heading of that file (GitHub's anchors);
# - every docs/... path named in a source or doc file exists;
# - every section cited by name, as in  docs/cli.md, "Exit codes"  or  docs/cli.md ("Exit codes"),
#   is the start of a heading of that file.
# Run as: cmake -DSOURCE_DIR=<tree> -P cmake/check_docs.cmake (ctest: docs.*). Exits non-zero,
# naming each broken reference by file, when one fails.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_docs: pass -DSOURCE_DIR=<the tree to check>")
endif()
if(NOT DEFINED MAX_PERFORMANCE_LINES)
  set(MAX_PERFORMANCE_LINES 450)
endif()

set(problems "")

# Markdown text with the characters that CMake lists treat specially ([ ] ;) replaced, so that
# regex matches survive being list elements. Links "[text](target)" become "<text>(target)".
function(list_safe out text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "<" text "${text}")
  string(REPLACE "]" ">" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The headings of a Markdown file (text after the #s), outside fenced code blocks.
function(headings_of out path)
  file(STRINGS "${path}" lines ENCODING UTF-8)
  set(result "")
  set(fenced FALSE)
  foreach(line IN LISTS lines)
    list_safe(line "${line}")
    if(line MATCHES "^```")
      if(fenced)
        set(fenced FALSE)
      else()
        set(fenced TRUE)
      endif()
    elseif(NOT fenced AND line MATCHES "^#+ +(.*)$")
      list(APPEND result "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# GitHub's anchor of a heading: lower case, punctuation other than - and _ dropped, each space a
# hyphen; a repeated anchor gets -1, -2, ...
function(anchors_of out path)
  headings_of(heads "${path}")
  set(result "")
  foreach(head IN LISTS heads)
    string(TOLOWER "${head}" slug)
    string(REGEX REPLACE "[^a-z0-9 _-]" "" slug "${slug}")
    string(REPLACE " " "-" slug "${slug}")
    set(candidate "${slug}")
    set(n 0)
    while(candidate IN_LIST result)
      math(EXPR n "${n} + 1")
      set(candidate "${slug}-${n}")
    endwhile()
    list(APPEND result "${candidate}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# 1. The length of docs/performance.md.
set(performance "${SOURCE_DIR}/docs/performance.md")
if(EXISTS "${performance}")
  file(READ "${performance}" performance_text)
  string(REGEX REPLACE "[^\n]" "" newlines "${performance_text}")
  string(LENGTH "${newlines}" count)  # lines as `wc -l` counts them
  if(count GREATER MAX_PERFORMANCE_LINES)
    set(limit "more than ${MAX_PERFORMANCE_LINES} (move dated records to docs/lab/)")
    string(APPEND problems "  docs/performance.md: ${count} lines, ${limit}\n")
  endif()
endif()

# The files that may cite the docs: the tree's own folders (build trees, hidden folders and the
# test fixtures, which are broken on purpose, left out) and its top-level files.
file(GLOB entries RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
set(files "")
foreach(entry IN LISTS entries)
  if(entry MATCHES "^(\\.|build|out$|shared$)" OR entry MATCHES "\\.egg-info$")
    continue()
  endif()
  if(IS_DIRECTORY "${SOURCE_DIR}/${entry}")
    file(GLOB_RECURSE found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${entry}/*")
    list(APPEND files ${found})
  else()
    list(APPEND files "${entry}")
  endif()
endforeach()
list(FILTER files EXCLUDE REGEX "^tests/data/")
list(FILTER files INCLUDE REGEX
     "(\\.(md|h|hpp|cpp|cu|cuh|py|sh|cmake|toml|txt|yml|yaml)|CMakeLists\\.txt)$")

foreach(file IN LISTS files)
  file(READ "${SOURCE_DIR}/${file}" text)
  list_safe(text "${text}")
  get_filename_component(dir "${file}" DIRECTORY)

  # 2. Relative Markdown links: the target exists, and its anchor is one of its headings'.
  if(file MATCHES "\\.md$")
    string(REGEX MATCHALL ">\\(([^)<> \n]+)\\)" links "${text}")
    foreach(link IN LISTS links)
      string(REGEX REPLACE "^>\\((.*)\\)$" "\\1" target "${link}")
      if(target MATCHES "^[a-z]+:")
        continue()  # http:, https:, mailto:
      endif()
      set(anchor "")
      if(target MATCHES "^([^#]*)#(.*)$")
        set(target "${CMAKE_MATCH_1}")
        set(anchor "${CMAKE_MATCH_2}")
      endif()
      if(target STREQUAL "")
        set(path "${SOURCE_DIR}/${file}")
      elseif(dir STREQUAL "")
        set(path "${SOURCE_DIR}/${target}")
      else()
        set(path "${SOURCE_DIR}/${dir}/${target}")
      endif()
      if(NOT EXISTS "${path}")
        string(APPEND problems "  ${file}: link to ${target}, which does not exist\n")
      elseif(NOT anchor STREQUAL "" AND path MATCHES "\\.md$")
        anchors_of(anchors "${path}")
        if(NOT anchor IN_LIST anchors)
          string(APPEND problems "  ${file}: link to ${target}#${anchor}: no heading has that anchor\n")
        endif()
      endif()
    endforeach()
  endif()

  # 3. docs/... paths named anywhere exist (relative to the tree's root).
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_./-])docs/[A-Za-z0-9_./-]*[A-Za-z0-9_/]" mentions "${text}")
  foreach(mention IN LISTS mentions)
    string(REGEX REPLACE "^.*(docs/.*)$" "\\1" mentioned "${mention}")
    if(NOT EXISTS "${SOURCE_DIR}/${mentioned}")
      string(APPEND problems "  ${file}: names ${mentioned}, which does not exist\n")
    endif()
  endforeach()

  # 4. Sections cited by name: docs/<page>.md, "Heading"  or  docs/<page>.md ("Heading").
  string(REGEX MATCHALL "docs/[A-Za-z0-9_./-]+\\.md,? \\(?\"[^\"\n]+\"" citations "${text}")
  foreach(citation IN LISTS citations)
    string(REGEX MATCH "^(docs/[A-Za-z0-9_./-]+\\.md),? \\(?\"([^\"\n]+)\"$" parsed "${citation}")
    set(cited "${CMAKE_MATCH_1}")
    set(section "${CMAKE_MATCH_2}")
    if(NOT EXISTS "${SOURCE_DIR}/${cited}")
      continue()  # reported by 3.
    endif()
    headings_of(heads "${SOURCE_DIR}/${cited}")
    set(found FALSE)
    foreach(head IN LISTS heads)
      string(FIND "${head}" "${section}" at)
      if(at EQUAL 0)
        set(found TRUE)
        break()
      endif()
    endforeach()
    if(NOT found)
      string(APPEND problems "  ${file}: cites ${cited}, \"${section}\": no heading of it starts so\n")
    endif()
  endforeach()
endforeach()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "docs that no longer hold:\n${problems}")
endif()
list(LENGTH files checked)
message(STATUS "docs: ${checked} files checked; every docs link, path and cited section exists")
