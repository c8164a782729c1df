/* writeback.c — starting the kernel's writeback of a file being written.
 * A file of its own: sync_file_range is a GNU extension, and the rest of
 * io builds against plain POSIX. */
#define _GNU_SOURCE
#include <fcntl.h>

#include "io/io_internal.h"

void io_start_writeback(int fd)
{
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    /* Asynchronous: queues the dirty pages for the disk and returns, so
     * the commit's fsync waits only for what was written last. Failure
     * costs nothing: the fsync before the rename still makes the file
     * durable. */
    (void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
#endif
}
