/* SPDX-License-Identifier: GPL-2.0-only */
/* proctasks.c - the processes of /proc: PID, command, user, threads, CPU time. */
#include "machine/proctasks.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "base/util.h"

/* One small /proc file whole into buf (a regular file only: a fake tree's FIFO is
 * refused, not waited on); its length, or -1. */
static int read_small(int dirfd, const char *name, char *buf, int len)
{
	int fd = open_regular_at(dirfd, name);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, (size_t)len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* "PID (COMM) S PPID ... utime stime ... num_threads": the command may hold any byte,
 * ')' too, so fields are counted from the last ')'. */
static bool parse_stat(const char *buf, struct task_sample *t, long ticks_per_s)
{
	const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return false;
	size_t n = (size_t)(close - open - 1);
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, n);
	t->comm[n] = '\0';
	/* after ") ": state (3), ppid (4) ... utime (14), stime (15) ... num_threads (20) */
	uint64_t f[18] = { 0 };
	const char *p = close + 2;
	for (int i = 3; i <= 20 && *p; i++) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (i - 3 < 18)
			f[i - 3] = end == p ? 0 : v;
		p = end;
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	uint64_t ticks = f[14 - 3] + f[15 - 3];
	t->cpu_ns = ticks * (1000000000ull / (uint64_t)(ticks_per_s > 0 ? ticks_per_s : 100));
	t->threads = (int)f[20 - 3];
	return true;
}

static unsigned uid_of(int dirfd)
{
	char buf[2048];
	if (read_small(dirfd, "status", buf, sizeof(buf)) < 0)
		return 0;
	const char *u = strstr(buf, "\nUid:");
	return u ? (unsigned)strtoul(u + 5, NULL, 10) : 0;
}

/* The threads of the process whose /proc directory is pd, appended to out[n..]; n after. */
static int add_threads(int pd, const struct task_sample *proc, long ticks_per_s, struct task_sample **out, int n,
		       int *cap)
{
	int td = openat(pd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = td >= 0 ? fdopendir(td) : NULL;
	if (!d) {
		if (td >= 0)
			close(td);
		return n;
	}
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		int th = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		char buf[1024];
		struct task_sample t = { .pid = atoi(de->d_name), .tgid = proc->pid, .uid = proc->uid };
		if (th >= 0 && read_small(th, "stat", buf, sizeof(buf)) > 0 && parse_stat(buf, &t, ticks_per_s)) {
			t.threads = proc->threads;
			grow_array(out, cap, n + 1, sizeof(**out));
			(*out)[n++] = t;
		}
		if (th >= 0)
			close(th);
	}
	closedir(d);
	return n;
}

/* Every process (or, threads, every thread) below root's /proc. */
static int read_tasks(const char *root, bool threads, struct task_sample **out)
{
	*out = NULL;
	char *dir = path_join(root && *root ? root : "/", "proc");
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return 0;
	long ticks_per_s = sysconf(_SC_CLK_TCK);
	int n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		int pd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pd < 0)
			continue;
		char buf[1024];
		struct task_sample t = { .pid = atoi(de->d_name) };
		t.tgid = t.pid;
		if (read_small(pd, "stat", buf, sizeof(buf)) > 0 && parse_stat(buf, &t, ticks_per_s)) {
			t.uid = uid_of(pd);
			if (threads) {
				n = add_threads(pd, &t, ticks_per_s, out, n, &cap);
			} else {
				grow_array(out, &cap, n + 1, sizeof(**out));
				(*out)[n++] = t;
			}
		}
		close(pd);
	}
	closedir(d);
	return n;
}

int proc_tasks_read(const char *root, struct task_sample **out)
{
	return read_tasks(root, false, out);
}

int proc_threads_read(const char *root, struct task_sample **out)
{
	return read_tasks(root, true, out);
}

void proc_user_name(const char *root, unsigned uid, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%u", uid);
	char *path = path_join(root && *root ? root : "/", "etc/passwd");
	char *text = read_text_file(path, 1 << 20);
	free(path);
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *name = line, *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2 && (unsigned)strtoul(c2 + 1, NULL, 10) == uid && c2[1] >= '0' && c2[1] <= '9') {
			*c1 = '\0';
			snprintf(buf, (size_t)len, "%s", name);
			break;
		}
	}
	free(text);
}

/* "perf_event" among a /proc/PID/cgroup line's controllers ("4:cpu,perf_event:/x") */
static bool names_perf_event(const char *line, const char *colon)
{
	for (const char *p = line; p < colon;) {
		const char *comma = memchr(p, ',', (size_t)(colon - p));
		const char *end = comma ? comma : colon;
		if (end - p == 10 && !strncmp(p, "perf_event", 10))
			return true;
		p = end + 1;
	}
	return false;
}

void proc_task_cgroup(const char *root, int pid, char *buf, int len)
{
	char rel[48];
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	char *path = path_join(root && *root ? root : "/", rel);
	char *text = read_attr_file(path, 1u << 16);
	free(path);
	buf[0] = '\0';
	const char *v2 = NULL, *v1 = NULL;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *first = strchr(line, ':'), *second = first ? strchr(first + 1, ':') : NULL;
		if (!second)
			continue;
		if (first == line + 1 && line[0] == '0' && second == first + 1)
			v2 = second + 1;
		else if (names_perf_event(first + 1, second))
			v1 = second + 1;
	}
	const char *cg = v1 ? v1 : v2; /* perf's choice: the v1 hierarchy with perf_event first */
	if (cg) {
		char *esc = str_escape_controls(cg);
		snprintf(buf, (size_t)len, "%s", esc);
		free(esc);
	}
	free(text);
}
