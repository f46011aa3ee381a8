/* SPDX-License-Identifier: GPL-2.0-only */
/* heap.c - the heap's growth populated a step at a time (see heap.h). */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/heap.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* the thread that starts up: the recorder's thread allocates from an arena of its own */
static _Thread_local bool on;
static _Thread_local uintptr_t populated; /* the break as far as it was populated */

static uintptr_t page_mask; /* ~(page size - 1), found once: sysconf is no cheap call */

static uintptr_t page_down(uintptr_t a)
{
	return a & page_mask;
}

void heap_take_steps(void)
{
	if (on)
		return;
	/* no mallopt(M_TOP_PAD): glibc grows the break by 128 KiB beyond each request
	 * already, and setting any threshold turns off its dynamic mmap threshold for good */
	page_mask = ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	populated = page_down((uintptr_t)sbrk(0));
	on = true;
}

void heap_stop_steps(void)
{
	on = false;
}

void heap_note_growth(void)
{
	if (!on)
		return;
	uintptr_t brk = page_down((uintptr_t)sbrk(0)); /* glibc's cached break: no system call */
	if (brk < populated) /* trimmed: what grows again from here is unpopulated */
		populated = brk;
	if (brk == populated)
		return;
	if (madvise((void *)populated, brk - populated, MADV_POPULATE_WRITE) != 0)
		on = false; /* an older kernel: the pages come by faults, as without this */
	populated = brk;
}

void heap_populate(void *p, size_t len)
{
	if (len < HEAP_POPULATE_MIN)
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);
	if (end > a)
		madvise((void *)a, end - a, MADV_POPULATE_WRITE); /* an older kernel: faults, as before */
}
