/* SPDX-License-Identifier: GPL-2.0-only */
/* sysfs.c - every file pmutop reads from /sys or /proc goes through one root. */
#include "base/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"

char *path_join(const char *root, const char *rel)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	while (*rel == '/')
		rel++;
	if (n == 1 && root[0] == '/')
		n = 0; /* "/" + rel */
	size_t r = strlen(rel); /* copied by hand: printf's machinery costs a thousand
				 * instructions a path, and discovery joins hundreds */
	char *out = xmalloc(n + r + 2);
	memcpy(out, root, n);
	out[n] = '/';
	memcpy(out + n + 1, rel, r + 1);
	return out;
}

static char *read_fd_text(int fd, size_t limit, bool once);

int open_regular_at(int dirfd, const char *path)
{
	/* O_NONBLOCK: a FIFO nobody writes must not block the open; then only a regular file
	 * (sysfs and proc files are) is read, never a FIFO, a device or a directory */
	int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return fd;
	close(fd);
	/* (a directory where a file was looked for is just absent; below a directory's
	 * descriptor the caller names the file: errno EINVAL, sysfs_read_error) */
	if (!S_ISDIR(st.st_mode) && dirfd == AT_FDCWD)
		diag_warn("%s: %s, not a regular file: not read", path,
			  S_ISFIFO(st.st_mode) ? "a pipe" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a file");
	errno = EINVAL;
	return -1;
}

const char *sysfs_read_error(int err)
{
	return err == EINVAL ? "not a regular file (a pipe or a device): not read" : strerror(err);
}

char *read_text_file(const char *path, size_t limit)
{
	int fd = open_regular_at(AT_FDCWD, path);
	return fd < 0 ? NULL : read_fd_text(fd, limit, false);
}

char *read_attr_file(const char *path, size_t limit)
{
	int fd = open_regular_at(AT_FDCWD, path);
	return fd < 0 ? NULL : read_fd_text(fd, limit, true);
}

/* Reads fd to its end (at most limit bytes) and closes it. With once, a read shorter than
 * asked is the end: so it is for a sysfs attribute (shown whole by one read) and a
 * regular file, which saves discovery a read() per file. */
static char *read_fd_text(int fd, size_t limit, bool once)
{
	size_t cap = 256, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap) {
			if (cap >= limit + 1) {
				break;
			}
			cap *= 2;
			if (cap > limit + 1)
				cap = limit + 1;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (once && len + 1 < cap)
			break;
	}
	close(fd);
	buf[len] = '\0';
	/* most attributes are a few bytes, and discovery keeps hundreds of them */
	return len + 1 + 64 < cap ? xrealloc(buf, len + 1) : buf;
}

char *sysfs_read_attr(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	char *s = read_attr_file(p, 65536);
	free(p);
	if (s)
		chomp(s);
	return s;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

FILE *open_user_file(const char *path, const char **why)
{
	/* O_NONBLOCK: opening a FIFO nobody writes must not hang before fstat says what it is */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*why = S_ISDIR(st.st_mode) ? "a directory, not a file"
	       : S_ISCHR(st.st_mode) ? "a character device, not a regular file"
	       : S_ISBLK(st.st_mode) ? "a block device, not a regular file"
	       : S_ISFIFO(st.st_mode) ? "a pipe, not a regular file"
	       : !S_ISREG(st.st_mode) ? "not a regular file"
	       : st.st_size > (off_t)USER_FILE_MAX ? "larger than pmutop reads (4 MiB)"
					       : NULL;
	FILE *f = *why ? NULL : fdopen(fd, "r");
	if (!f) {
		if (!*why)
			*why = strerror(errno);
		close(fd);
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return f;
}

bool is_regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

struct dir_entry {
	char *name;
	unsigned char type;
};

/* Numbers in names in numeric order (uncore_iio_2 before uncore_iio_10, cpu9 before
 * cpu10), as a person reads them: every output lists instances in this order. */
static int cmp_entries(const void *a, const void *b)
{
	return strverscmp(((const struct dir_entry *)a)->name, ((const struct dir_entry *)b)->name);
}

int dir_open(const char *path)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int list_dir_at(int dirfd, char ***names, enum dir_kind **kinds)
{
	*names = NULL;
	if (kinds)
		*kinds = NULL;
	if (dirfd < 0)
		return -1;
	/* getdents64 on the caller's descriptor: fdopendir would want a dup of it and
	 * fcntl checks, three system calls a directory that discovery does by the hundred */
	int n = 0, cap = 0;
	struct dir_entry *e = NULL;
	char buf[8192] __attribute__((aligned(8)));
	ssize_t got;
	while ((got = getdents64(dirfd, buf, sizeof(buf))) > 0) {
		for (ssize_t at = 0; at < got;) {
			const struct dirent64 *de = (const struct dirent64 *)(void *)(buf + at);
			at += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			grow_array(&e, &cap, n + 1, sizeof(*e));
			e[n++] = (struct dir_entry){ xstrdup(de->d_name), de->d_type };
		}
	}
	if (got < 0 && !n)
		return -1;
	if (!n)
		return 0; /* *names stays NULL, as callers expect of an empty directory */
	qsort(e, (size_t)n, sizeof(*e), cmp_entries);
	*names = xcalloc((size_t)n, sizeof(char *));
	if (kinds)
		*kinds = xcalloc((size_t)n, sizeof(enum dir_kind));
	for (int i = 0; i < n; i++) {
		(*names)[i] = e[i].name;
		if (kinds) /* a link (sysfs' devices/) or a file system that does not say: stat */
			(*kinds)[i] = e[i].type == DT_DIR ? DIR_KIND_DIR : e[i].type == DT_REG ? DIR_KIND_FILE : DIR_KIND_ASK;
	}
	free(e);
	return n;
}

int list_dir_kinds(const char *path, char ***names, enum dir_kind **kinds)
{
	int fd = dir_open(path);
	int n = list_dir_at(fd, names, kinds);
	if (fd >= 0)
		close(fd);
	return n;
}

int list_dir(const char *path, char ***names)
{
	return list_dir_kinds(path, names, NULL);
}

enum dir_kind dir_entry_kind_at(int dirfd, const char *name, enum dir_kind kind)
{
	struct stat st;
	if (kind != DIR_KIND_ASK)
		return kind;
	if (fstatat(dirfd, name, &st, 0) < 0)
		return DIR_KIND_OTHER;
	return S_ISDIR(st.st_mode) ? DIR_KIND_DIR : S_ISREG(st.st_mode) ? DIR_KIND_FILE : DIR_KIND_OTHER;
}

char *read_attr_at(int dirfd, const char *name, size_t limit)
{
	int fd = open_regular_at(dirfd, name);
	return fd < 0 ? NULL : read_fd_text(fd, limit, true);
}

void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
