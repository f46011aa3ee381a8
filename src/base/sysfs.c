/* sysfs.c - every file pmutop reads from /sys or /proc goes through one root. */
#include "base/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

char *path_join(const char *root, const char *rel)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	while (*rel == '/')
		rel++;
	if (n == 1 && root[0] == '/')
		return xasprintf("/%s", rel);
	return xasprintf("%.*s/%s", (int)n, root, rel);
}

char *read_text_file(const char *path, size_t limit)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
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
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

char *sysfs_read_attr(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	char *s = read_text_file(p, 65536);
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

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int list_dir(const char *path, char ***names)
{
	*names = NULL;
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		grow_array(names, &cap, n + 1, sizeof(char *));
		(*names)[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(*names, (size_t)n, sizeof(char *), cmp_names);
	return n;
}

void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
