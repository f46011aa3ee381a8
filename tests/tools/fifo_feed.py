"""fifo_feed.py FIFO TEXT... - serve each TEXT to one reader of FIFO in turn.

A reader reads until end of file, so each text must reach a reader of its own: after
writing one, wait (without sleeping) until that reader has closed its end - an open
for writing without blocking fails with ENXIO once no reader is left - before opening
for the next. Lets a test hand pmutop a /proc/stat that changes between two reads."""
import errno
import os
import sys

path = sys.argv[1]
for text in sys.argv[2:]:
    fd = os.open(path, os.O_WRONLY)  # blocks until the next reader opens
    os.write(fd, text.encode())
    os.close(fd)
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno == errno.ENXIO:
                break
            raise
        os.close(fd)
