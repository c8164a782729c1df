# Streaming contract and out-of-core tests (issue 3).
find_package(Threads REQUIRED)

# The complete example of doc/streaming.md: moving cells through pull/push
# callbacks, bitwise equal to one-shot for several chunk sizes and threads.
tbrf_add_test(stream_example example_stream.c)
target_link_libraries(stream_example PRIVATE Threads::Threads)
set_tests_properties(stream_example PROPERTIES TIMEOUT 300)

# The example printed in doc/streaming.md is this very file.
add_test(NAME stream_doc_in_sync
         COMMAND ${CMAKE_COMMAND} -DDOC=${PROJECT_SOURCE_DIR}/doc/streaming.md
                 -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/example_stream.c
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/io_doc_sync.cmake)

# Runs a command and checks its peak resident memory (wait4's ru_maxrss).
add_executable(io_peakrss io_peakrss.c)

# Out-of-core bound, scaled down for CI: a 256 MiB float grid (256x256x1024)
# streamed into HDF5 must stay under 64 MiB resident (the library's chunk,
# HDF5's chunk cache and the libraries themselves). ASan's shadow memory and
# quarantine add their own share, hence the larger limit there.
set(TBRF_OOC_LIMIT 64)
if(TBRF_SANITIZE)
  set(TBRF_OOC_LIMIT 200)
endif()
add_test(NAME io_out_of_core
         COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=quarantine_size_mb=16:detect_leaks=1
                 sh -c "\"$1\" ${TBRF_OOC_LIMIT} \"$2\" generate --model powerlaw --index -3 --kmin 0.05 --kmax 3 --grid 256x256x1024 --precision float --lines 16 --quiet --out \"$3\" && rm -f \"$3\""
                 sh $<TARGET_FILE:io_peakrss> $<TARGET_FILE:tbrf_cli> ${CMAKE_CURRENT_BINARY_DIR}/io_ooc.h5)
set_tests_properties(io_out_of_core PROPERTIES TIMEOUT 300)

# The files of `tbrf` read back independently (HDF5, netCDF, libpng), and
# the commands of issue 3; cases in test_cli.sh.
add_executable(io_check io_check.c)
target_link_libraries(io_check PRIVATE tbrf_io PNG::PNG)
find_program(TBRF_XMLLINT xmllint)
find_program(TBRF_NCDUMP ncdump)
if(TBRF_H5DUMP AND TBRF_H5LS AND TBRF_XMLLINT AND TBRF_NCDUMP)
  foreach(case netcdf_grid netcdf_points xdmf points_input regenerate preview spectrum progress
               interrupt_netcdf)
    add_test(NAME io_${case}
             COMMAND ${CMAKE_COMMAND} -E env IO_CHECK=$<TARGET_FILE:io_check>
                     XMLLINT=${TBRF_XMLLINT} NCDUMP=${TBRF_NCDUMP}
                     bash ${CMAKE_CURRENT_SOURCE_DIR}/test_cli.sh $<TARGET_FILE:tbrf_cli>
                     $<TARGET_FILE:cli_mkpoints> ${TBRF_H5DUMP} ${TBRF_H5LS} ${case})
  endforeach()
  set_tests_properties(io_regenerate io_spectrum PROPERTIES TIMEOUT 300)
else()
  message(WARNING "xmllint (libxml2-utils) or ncdump (netcdf-bin) not found: the io_* file tests are not registered")
endif()
