# Tests of the `tbrf` command (cli/) and its HDF5 files (io/).
# cli_mkpoints writes good and bad points files without h5py.
add_executable(cli_mkpoints cli_mkpoints.c)
target_link_libraries(cli_mkpoints PRIVATE tbrf_io)

# h5dump/h5ls (Debian: hdf5-tools) check the files independently of our
# own reader.
find_program(TBRF_H5DUMP h5dump)
find_program(TBRF_H5LS h5ls)
if(TBRF_H5DUMP AND TBRF_H5LS)
  foreach(case help grid3d grid2d float_compress table points report determinism info
               bad_args bad_files bad_points interrupt write_error)
    add_test(NAME cli_${case}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_cli.sh $<TARGET_FILE:tbrf_cli>
                     $<TARGET_FILE:cli_mkpoints> ${TBRF_H5DUMP} ${TBRF_H5LS} ${case})
  endforeach()
  set_tests_properties(cli_bad_args cli_bad_files cli_bad_points PROPERTIES TIMEOUT 300)
else()
  message(WARNING "h5dump/h5ls not found (hdf5-tools): the cli_* tests are not registered")
endif()

# The HDF5 layer itself: pieces written anywhere, streamed grids equal to
# execute, no file left by failures, points round trip.
tbrf_add_test(cli_io test_cli_io.c)
target_link_libraries(cli_io PRIVATE tbrf_io)
