/* SPDX-License-Identifier: GPL-2.0-only */
/* hwmon_io.h - how the hwmon counter source touches a bfperf block's files: the real
 * files (any root: the live /sys or a plain copy), or the simulated driver. The source's
 * code is the same over both, so the demos and tests run what a DPU runs. */
#ifndef PMUTOP_HWMON_IO_H
#define PMUTOP_HWMON_IO_H

#include <stddef.h>
#include <stdint.h>

struct machine;
struct pmu;
struct hwmon_io;

struct hwmon_io_ops {
	/* Read a file of the block into buf (NUL-terminated); its length, or -errno. */
	int (*read)(struct hwmon_io *io, const struct pmu *block, const char *file, char *buf, size_t len);
	/* Write text to a file of the block (event<N>, counter<N>, enable only); 0 or -errno. */
	int (*write)(struct hwmon_io *io, const struct pmu *block, const char *file, const char *text);
	/* Bring the counts up to now (the simulated driver; NULL for real files). */
	void (*advance)(struct hwmon_io *io, uint64_t now_ns);
	void (*destroy)(struct hwmon_io *io);
};

struct hwmon_io {
	const struct hwmon_io_ops *ops;
};

/* The files under the discovered bfperf device: nothing else is ever opened for writing,
 * no file is created, and no symbolic link is followed. */
struct hwmon_io *hwmon_io_files_new(void);
/* The simulated driver is sim/simulator.h's hwmon_io_sim_new(). */

/* Is file one pmutop may write in a block: event<N>, counter<N> or enable? */
int hwmon_writable_name(const char *file);

static inline void hwmon_io_destroy(struct hwmon_io *io)
{
	if (io)
		io->ops->destroy(io);
}

#endif
