/* SPDX-License-Identifier: GPL-2.0-only */
/* hwmon_files.c - a bfperf block's real files, opened safely.
 *
 * Every open starts from the device directory (resolved once at discovery) and goes
 * one component at a time with O_NOFOLLOW: a block or file that is a symbolic link is
 * refused (ELOOP), so nothing outside the device is ever reached. Writes go only to
 * event<N>, counter<N> and enable, never create a file, and truncate (sysfs ignores
 * O_TRUNC; a plain copy then holds exactly what was written). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/bfperf.h"
#include "machine/pmu.h"
#include "sources/hwmon_io.h"

int hwmon_writable_name(const char *file)
{
	const char *digits = NULL;
	if (!strcmp(file, "enable"))
		return 1;
	if (str_has_prefix(file, "event"))
		digits = file + 5;
	else if (str_has_prefix(file, "counter"))
		digits = file + 7;
	if (!digits || !*digits || strlen(digits) > 4)
		return 0;
	for (const char *d = digits; *d; d++)
		if (*d < '0' || *d > '9')
			return 0;
	return 1;
}

/* Open block/file below the device without following links; -errno on failure. */
static int open_in_block(const struct pmu *block, const char *file, int flags)
{
	if (!block->hw || !bfperf_valid_name(block->hw->block) || !bfperf_valid_name(file))
		return -EINVAL;
	int dev = open(block->hw->device, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	int dir = openat(dev, block->hw->block, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err = errno;
	close(dev);
	if (dir < 0)
		return -(err == ENOTDIR ? ELOOP : err);
	int fd = openat(dir, file, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	err = errno;
	close(dir);
	if (fd < 0)
		return -err;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { /* sysfs attributes are regular files */
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static int files_read(struct hwmon_io *io, const struct pmu *block, const char *file, char *buf, size_t len)
{
	(void)io;
	int fd = open_in_block(block, file, O_RDONLY);
	if (fd < 0)
		return fd;
	ssize_t n = read(fd, buf, len - 1);
	int err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return (int)n;
}

static int files_write(struct hwmon_io *io, const struct pmu *block, const char *file, const char *text)
{
	(void)io;
	if (!hwmon_writable_name(file))
		return -EPERM;
	int fd = open_in_block(block, file, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	size_t len = strlen(text);
	ssize_t n = write(fd, text, len);
	int err = n < 0 ? errno : (size_t)n < len ? EIO : 0;
	if (close(fd) != 0 && !err)
		err = errno;
	return -err;
}

static void files_destroy(struct hwmon_io *io)
{
	free(io);
}

static const struct hwmon_io_ops files_ops = {
	.read = files_read,
	.write = files_write,
	.destroy = files_destroy,
};

struct hwmon_io *hwmon_io_files_new(void)
{
	struct hwmon_io *io = xcalloc(1, sizeof(*io));
	io->ops = &files_ops;
	return io;
}
