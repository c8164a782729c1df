# tbrf_soname(VAR NAME [HINTS dir...]): the soname of the shared library
# libNAME (e.g. libnetcdf.so.19), which the code loads with dlopen when
# first needed (io/dynload.h, doc/design.md "Start-up"). Read from the
# library's dynamic section with objdump; the resolved file name when there
# is none. Stops the configuration when libNAME is not found.
function(tbrf_soname var name)
  cmake_parse_arguments(A "" "" "HINTS" ${ARGN})
  find_library(TBRF_LIB_${name} NAMES ${name} HINTS ${A_HINTS})
  if(NOT TBRF_LIB_${name})
    message(FATAL_ERROR "lib${name} not found (its soname is loaded at run time)")
  endif()
  set(so "")
  if(CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${TBRF_LIB_${name}} OUTPUT_VARIABLE dump
                    ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND dump MATCHES "SONAME +([^\n ]+)")
      set(so ${CMAKE_MATCH_1})
    endif()
  endif()
  if(NOT so)
    get_filename_component(real ${TBRF_LIB_${name}} REALPATH)
    get_filename_component(so ${real} NAME)
  endif()
  set(${var} ${so} PARENT_SCOPE)
endfunction()
