# Checks that the ```c block of DOC that starts with "/* NAME" (default
# example_stream.c) is byte for byte the file SRC (so the documented example
# is the tested one).
if(NOT DEFINED NAME)
  set(NAME example_stream.c)
endif()
file(READ ${DOC} doc)
file(READ ${SRC} src)
string(FIND "${doc}" "```c\n/* ${NAME}" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${DOC}: no ```c block starting with /* ${NAME}")
endif()
math(EXPR start "${start} + 5")
string(SUBSTRING "${doc}" ${start} -1 rest)
string(FIND "${rest}" "```" stop)
string(SUBSTRING "${rest}" 0 ${stop} block)
if(NOT block STREQUAL src)
  message(FATAL_ERROR "the example in ${DOC} differs from ${SRC}; copy the file into the doc")
endif()
