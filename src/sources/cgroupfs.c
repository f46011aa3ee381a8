/* SPDX-License-Identifier: GPL-2.0-only */
/* cgroupfs.c - the perf_event cgroup hierarchy: its mount, its cgroups, what they hold. */
#include "sources/cgroupfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"

/* A mount point as proc/self/mounts writes it: space, tab, newline and backslash as
 * octal escapes (\040) */
static void unescape_octal(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* "perf_event" among a mount's comma-separated options */
static bool has_option(const char *opts, const char *want)
{
	size_t n = strlen(want);
	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, want, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* A mount point as the kernel writes one: absolute, no ".." (a fake tree's text must not
 * lead the walk out of its root) */
static bool below_root(const char *mnt)
{
	return mnt[0] == '/' && !strstr(mnt, "/../") && !str_has_suffix(mnt, "/..");
}

int cgroupfs_find(const char *root, struct cgroupfs *fs, char **why)
{
	*fs = (struct cgroupfs){ 0 };
	char *path = path_join(root, "proc/self/mounts");
	char *text = read_attr_file(path, 1u << 20);
	if (!text) {
		*why = xasprintf("cannot read %s: %s", path, sysfs_read_error(errno));
		free(path);
		return -1;
	}
	free(path);
	char *v1 = NULL, *v2 = NULL, *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[64], mnt[4096], type[32], opts[1024];
		if (sscanf(line, "%63s %4095s %31s %1023s", dev, mnt, type, opts) != 4)
			continue;
		unescape_octal(mnt);
		if (!below_root(mnt))
			continue;
		if (!v1 && !strcmp(type, "cgroup") && has_option(opts, "perf_event"))
			v1 = xstrdup(mnt);
		else if (!v2 && !strcmp(type, "cgroup2"))
			v2 = xstrdup(mnt);
	}
	free(text);
	if (!v1 && !v2) {
		*why = xstrdup("no cgroup hierarchy with the perf_event controller is mounted (cgroup2, or cgroup -o perf_event)");
		return -1;
	}
	free(v1 ? v2 : v1); /* perf's choice: the v1 hierarchy that names perf_event first */
	fs->shown = v1 ? v1 : v2;
	fs->v2 = !v1;
	fs->mount = path_join(root, fs->shown);
	return 0;
}

void cgroupfs_done(struct cgroupfs *fs)
{
	free(fs->mount);
	free(fs->shown);
	*fs = (struct cgroupfs){ 0 };
}

char *cgroupfs_resolve(const struct cgroupfs *fs, const char *name, char **why)
{
	size_t m = strlen(fs->shown);
	const char *rel = name;
	if (m > 1 && !strncmp(name, fs->shown, m) && (name[m] == '/' || name[m] == '\0'))
		rel = name + m; /* /sys/fs/cgroup/system.slice: the mount before it */
	while (*rel == '/')
		rel++;
	char *clean = xstrdup(rel);
	for (size_t n = strlen(clean); n && clean[n - 1] == '/'; n--)
		clean[n - 1] = '\0';
	if (!strcmp(clean, "..") || str_has_prefix(clean, "../") || strstr(clean, "/../") || str_has_suffix(clean, "/..")) {
		*why = xasprintf("cgroup '%s': a path within %s, without '..'", name, fs->shown);
		free(clean);
		return NULL;
	}
	char *dir = path_join(fs->mount, clean);
	bool ok = is_dir(dir);
	free(dir);
	if (!ok) {
		*why = xasprintf("cgroup '%s': no such cgroup in %s (the %s hierarchy perf counts by)", name, fs->shown,
				 fs->v2 ? "cgroup2" : "perf_event");
		free(clean);
		return NULL;
	}
	return clean;
}

static int by_pid(const void *a, const void *b)
{
	const struct task_sample *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The node's own processes (cgroup.procs) and their CPU time now */
static void own_procs(const char *dir, const struct task_sample *procs, int nprocs, struct cgroup_node *node,
		      uint64_t *cpu_ns)
{
	char *path = path_join(dir, "cgroup.procs");
	char *text = read_attr_file(path, 4u << 20);
	free(path);
	for (char *p = text, *end; p && *p; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		node->nprocs++;
		struct task_sample key = { .pid = (int)pid };
		const struct task_sample *t = nprocs ? bsearch(&key, procs, (size_t)nprocs, sizeof(key), by_pid) : NULL;
		*cpu_ns += t ? t->cpu_ns : 0;
	}
	free(text);
}

/* cgroup v2's cpu.stat usage_usec (the kernel's sum, which keeps what ended processes
 * used), or false where there is none */
static bool kernel_usage(const char *dir, uint64_t *ns)
{
	char *path = path_join(dir, "cpu.stat");
	char *text = read_attr_file(path, 1u << 16);
	free(path);
	const char *at = text ? strstr(text, "usage_usec ") : NULL;
	bool ok = at && (at == text || at[-1] == '\n');
	if (ok)
		*ns = strtoull(at + 11, NULL, 10) * 1000;
	free(text);
	return ok;
}

struct walk {
	const struct cgroupfs *fs;
	const struct task_sample *procs;
	int nprocs;
	struct cgroup_node *nodes;
	uint64_t *members_ns; /* per node: its own processes' time, then its subtree's */
	int n, cap, capns;
};

static void walk(struct walk *w, const char *rel, int parent, int depth)
{
	if (w->n >= CGROUP_MAX_NODES)
		return;
	grow_array(&w->nodes, &w->cap, w->n + 1, sizeof(*w->nodes));
	grow_array(&w->members_ns, &w->capns, w->n + 1, sizeof(*w->members_ns));
	int me = w->n++;
	w->nodes[me] = (struct cgroup_node){ .rel = xstrdup(rel), .parent = parent };
	w->members_ns[me] = 0;
	char *dir = path_join(w->fs->mount, rel);
	own_procs(dir, w->procs, w->nprocs, &w->nodes[me], &w->members_ns[me]);
	char **names = NULL;
	enum dir_kind *kinds = NULL;
	int n = depth < CGROUP_MAX_DEPTH ? list_dir_kinds(dir, &names, &kinds) : 0;
	for (int i = 0; i < n; i++) {
		char *child = path_join(dir, names[i]);
		bool sub = kinds[i] == DIR_KIND_DIR || (kinds[i] == DIR_KIND_ASK && is_dir(child));
		free(child);
		if (sub) {
			char *crel = *rel ? xasprintf("%s/%s", rel, names[i]) : xstrdup(names[i]);
			walk(w, crel, me, depth + 1);
			free(crel);
		}
	}
	free_names(names, n > 0 ? n : 0);
	free(kinds);
	free(dir);
}

int cgroupfs_tree(const struct cgroupfs *fs, const char *rel, const struct task_sample *procs, int nprocs,
		  struct cgroup_node **out)
{
	struct walk w = { .fs = fs, .procs = procs, .nprocs = nprocs };
	walk(&w, rel, -1, 0);
	for (int i = w.n - 1; i > 0; i--) { /* children after parents: sums flow up */
		int p = w.nodes[i].parent;
		w.nodes[p].nprocs += w.nodes[i].nprocs;
		w.members_ns[p] += w.members_ns[i];
	}
	for (int i = 0; i < w.n; i++) {
		char *dir = path_join(fs->mount, w.nodes[i].rel);
		if (!kernel_usage(dir, &w.nodes[i].cpu_ns))
			w.nodes[i].cpu_ns = w.members_ns[i];
		free(dir);
	}
	free(w.members_ns);
	*out = w.nodes;
	return w.n;
}

void cgroupfs_nodes_free(struct cgroup_node *nodes, int n)
{
	for (int i = 0; i < n; i++)
		free(nodes[i].rel);
	free(nodes);
}
