# Fortran tests (names fortran_*). Each is an executable that exits non-zero
# on failure; ref_c.c supplies values computed through the C API directly,
# test_support.f90 the shared check()/finish().
function(tbrf_fortran_test name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE tbrf_fortran)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/c)
  target_compile_options(${name} PRIVATE ${TBRF_FORTRAN_FLAGS})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE Fortran
    Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mod-${name})
  add_test(NAME ${name} COMMAND ${name})
endfunction()

set(FT ${CMAKE_CURRENT_SOURCE_DIR}/tests)
# The C side of the layout test is generated from the current tbrf.h at
# build time; the Fortran side (layout_f.f90) is committed with tbrf_c.f90.
find_program(TBRF_AWK NAMES awk mawk gawk nawk REQUIRED)
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/layout_c.c
  COMMAND ${TBRF_AWK} -v mode=clayout -f ${CMAKE_CURRENT_SOURCE_DIR}/gen_tbrf_c.awk
          ${PROJECT_SOURCE_DIR}/c/tbrf.h > ${CMAKE_CURRENT_BINARY_DIR}/layout_c.c
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gen_tbrf_c.awk ${PROJECT_SOURCE_DIR}/c/tbrf.h
  VERBATIM)
tbrf_fortran_test(fortran_layout ${FT}/test_layout.f90 ${FT}/layout_f.f90 ${FT}/ref_c.c
                  ${CMAKE_CURRENT_BINARY_DIR}/layout_c.c)
tbrf_fortran_test(fortran_api ${FT}/test_api.f90 ${FT}/test_support.f90 ${FT}/ref_c.c)
tbrf_fortran_test(fortran_stream ${FT}/test_stream.f90 ${FT}/test_support.f90 ${FT}/ref_c.c)
tbrf_fortran_test(fortran_errors ${FT}/test_errors.f90 ${FT}/test_support.f90)
tbrf_fortran_test(fortran_rng ${FT}/test_rng.f90 ${FT}/test_support.f90)
tbrf_fortran_test(fortran_example ${CMAKE_CURRENT_SOURCE_DIR}/examples/example.f90)

# Without stat, a failing call reports on stderr and stops with a non-zero
# exit status.
add_executable(fortran_stop_style ${FT}/test_stop_style.f90)
target_link_libraries(fortran_stop_style PRIVATE tbrf_fortran)
target_compile_options(fortran_stop_style PRIVATE ${TBRF_FORTRAN_FLAGS})
set_target_properties(fortran_stop_style PROPERTIES
  Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mod-fortran_stop_style)
add_test(NAME fortran_stop_style
  COMMAND sh -c "if \"$1\" >/dev/null 2>\"$2\"; then echo 'exited 0'; exit 1; fi; cat \"$2\"; grep -q '^tbrf: tbrf_model_gaussian: .*length' \"$2\""
          sh $<TARGET_FILE:fortran_stop_style> ${CMAKE_CURRENT_BINARY_DIR}/stop_style.err)
add_test(NAME fortran_stop_copy
  COMMAND sh -c "if \"$1\" copy >/dev/null 2>\"$2\"; then echo 'exited 0'; exit 1; fi; cat \"$2\"; grep -q '^tbrf: a tbrf_plan cannot be copied' \"$2\""
          sh $<TARGET_FILE:fortran_stop_style> ${CMAKE_CURRENT_BINARY_DIR}/stop_copy.err)

# tbrf_c.f90 and tests/layout_f.f90 are generated from tbrf.h; the committed
# copies must be current.
add_test(NAME fortran_generated_in_step
  COMMAND sh -c "awk -f \"$1/gen_tbrf_c.awk\" \"$2\" | diff -u \"$1/tbrf_c.f90\" - && awk -v mode=flayout -f \"$1/gen_tbrf_c.awk\" \"$2\" | diff -u \"$1/tests/layout_f.f90\" - && echo 'tbrf_c.f90 and layout_f.f90 are current'"
          sh ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/c/tbrf.h)

# Every C function has an idiomatic wrapper in tbrf.f90 (or is listed as
# raw-only in check_wrapped.sh).
add_test(NAME fortran_wrapped
  COMMAND sh ${FT}/check_wrapped.sh ${PROJECT_SOURCE_DIR}/c/tbrf.h ${CMAKE_CURRENT_SOURCE_DIR}/tbrf.f90)

# An outside Fortran program built against the installed library through
# pkg-config and find_package; its values equal the tbrf command's.
find_program(TBRF_FORTRAN_H5DUMP h5dump)
if(TBRF_FORTRAN_H5DUMP)
  set(TBRF_FCONSUMER_FLAGS "")
  if(TBRF_SANITIZE)
    set(TBRF_FCONSUMER_FLAGS "-fsanitize=address,undefined")
  endif()
  add_test(NAME fortran_install_consumer
    COMMAND ${CMAKE_COMMAND} -E env "SANITIZE_FLAGS=${TBRF_FCONSUMER_FLAGS}"
            bash ${FT}/test_install_fortran.sh ${PROJECT_BINARY_DIR} ${FT}/consumer
            ${CMAKE_Fortran_COMPILER} ${TBRF_FORTRAN_H5DUMP})
else()
  message(WARNING "h5dump not found (hdf5-tools): fortran_install_consumer is not registered")
endif()

# doc/fortran.md carries fortran/examples/example.f90 verbatim.
add_test(NAME fortran_doc_example
  COMMAND sh -c "sed -n '/^<!-- BEGIN fortran\\/examples\\/example.f90 -->$/,/^<!-- END/p' \"$1\" | sed '1,2d;\$d' | sed '\$d' | diff -u \"$2\" - && echo 'doc/fortran.md carries the example verbatim'"
          sh ${PROJECT_SOURCE_DIR}/doc/fortran.md ${CMAKE_CURRENT_SOURCE_DIR}/examples/example.f90)
