/* SPDX-License-Identifier: GPL-2.0-only */
/* heap.h - start-up's heap taken from the kernel a step at a time, not a page at a time.
 *
 * pmutop makes nearly all of its working set while it starts (the machine, the bound
 * counters, two frames, the sources' state, the outputs' buffers: about 2 MB for the
 * Tegra410 demo). The kernel gives a process its heap one page fault at a time, and in a
 * virtual machine each fault may leave to the hypervisor: 12 us here, 450 of them, a
 * quarter of the first frame. glibc's malloc grows the break in steps (128 KiB beyond
 * the request); while heap_take_steps() is on, each step is populated with one
 * madvise(MADV_POPULATE_WRITE) as soon as an allocation sees the break move: the pages
 * malloc has just taken for the allocations to come, so nothing is taken that malloc
 * has not asked for, bar the last step's rest. Nothing happens under a malloc that does
 * not use the program break (ASan, valgrind) or a kernel before 5.14. */
#ifndef PMUTOP_HEAP_H
#define PMUTOP_HEAP_H

#include <stdbool.h>
#include <stddef.h>

/* On (for the calling thread only) until heap_stop_steps(). */
void heap_take_steps(void);
void heap_stop_steps(void);
/* After an allocation: populate what the break has grown by since the last call. */
void heap_note_growth(void);

/* A large block about to be written whole (a recording's decoded chunk): its pages in
 * one call, not a fault each. Below HEAP_POPULATE_MIN it does nothing. */
#define HEAP_POPULATE_MIN (64 * 1024)
void heap_populate(void *p, size_t len);

#endif
