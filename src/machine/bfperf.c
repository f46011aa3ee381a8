/* SPDX-License-Identifier: GPL-2.0-only */
/* bfperf.c - discovery of BlueField's mlxbf-pmc blocks (hwmon device "bfperf").
 *
 * The driver's own facts, in one place: a block with event_list programs event<N> and
 * reads counter<N>; one with 'enable' starts and stops all its counters together
 * (l3cache, and BlueField-3's CRSPACE blocks, which also have count_clock and 32-bit
 * counters); a block without event_list is a set of registers, one file per event.
 * event_list is "0x%x: NAME\n" per event, cut by the kernel before the entry that would
 * fill a page, and some kernels print names with a trailing blank. */
#include "machine/bfperf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/pmu.h"

#define EVENT_LIST_LIMIT 65536
/* the smallest page the kernel may cut event_list at, less the longest line it prints */
#define CUT_SUSPECT (4096 - 80)

bool bfperf_valid_name(const char *name)
{
	if (!name || !*name || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > 128)
		return false;
	for (const char *c = name; *c; c++)
		if (*c == '/' || (unsigned char)*c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

bool bfperf_event_known(const struct pmu *p, uint64_t n)
{
	if (pmu_event_name(p, n))
		return true;
	return p->hw && p->hw->truncated && n > p->hw->max_listed && n <= UINT32_MAX;
}

static void add_alias(struct pmu *p, int *cap, const char *name, uint64_t number)
{
	grow_array(&p->aliases, cap, p->naliases + 1, sizeof(*p->aliases));
	p->aliases[p->naliases++] = (struct pmu_alias){ .name = xstrdup(name),
		.terms = xasprintf("event=0x%llx", (unsigned long long)number), .scale = 1.0 };
}

/* "0x45: HNF_REQUESTS\n" lines; a last line without its newline was cut mid-line. */
static void parse_event_list(struct pmu *p, const char *path, char *text)
{
	int cap = 0;
	size_t total = strlen(text);
	char *line = text;
	for (char *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			p->hw->truncated = true; /* cut inside an entry */
			break;
		}
		*nl = '\0';
		char *colon = strchr(line, ':');
		uint64_t v;
		if (colon) {
			*colon = '\0';
			char *name = trim(colon + 1); /* some kernels end names with a blank */
			if (parse_u64(trim(line), &v) && v <= UINT32_MAX && bfperf_valid_name(name) &&
			    !strchr(name, ' ')) {
				add_alias(p, &cap, name, v);
				if (v > p->hw->max_listed)
					p->hw->max_listed = v;
				continue;
			}
		}
		diag_warn("%s: line '%s' is not 'NUMBER: NAME'; ignored", path, line);
	}
	if (total >= CUT_SUSPECT)
		p->hw->truncated = true;
}

static int count_counters(const char *dir)
{
	int n = 0;
	for (;; n++) {
		char ev[32], ct[32];
		snprintf(ev, sizeof(ev), "event%d", n);
		snprintf(ct, sizeof(ct), "counter%d", n);
		char *e = path_join(dir, ev), *c = path_join(dir, ct);
		bool both = is_regular_file(e) && is_regular_file(c);
		free(e);
		free(c);
		if (!both)
			return n;
	}
}

/* A REGISTER block: every regular file is one event, named as the file. */
static void read_registers(struct pmu *p)
{
	char **names;
	int n = list_dir(p->dir, &names), cap = 0;
	for (int i = 0; i < n; i++) {
		char *path = path_join(p->dir, names[i]);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && bfperf_valid_name(names[i]))
			add_alias(p, &cap, names[i], (uint64_t)p->naliases);
		free(path);
	}
	free_names(names, n);
}

static bool add_block(struct machine *m, int *cap, const char *device, const char *block)
{
	char *dir = path_join(device, block);
	struct stat st;
	/* a block is a real directory inside the device: never follow a link out of it */
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !bfperf_valid_name(block)) {
		free(dir);
		return false;
	}
	struct pmu p = { .name = xasprintf(BFPERF_PREFIX "%s", block), .dir = dir, .type = -1 };
	p.hw = xcalloc(1, sizeof(*p.hw));
	p.hw->block = xstrdup(block);
	p.hw->device = xstrdup(device);
	p.hw->width = 64;
	char *list_path = path_join(dir, "event_list");
	char *list = is_regular_file(list_path) ? read_text_file(list_path, EVENT_LIST_LIMIT) : NULL;
	if (list) {
		p.hw->ncounters = count_counters(dir);
		char *en = path_join(dir, "enable"), *cc = path_join(dir, "count_clock");
		p.hw->has_enable = is_regular_file(en);
		if (is_regular_file(cc)) {
			p.hw->type = HW_CRSPACE;
			p.hw->width = 32;
		}
		free(en);
		free(cc);
		parse_event_list(&p, list_path, list);
		free(list);
	} else {
		p.hw->type = HW_REGISTER;
		p.hw->gauge = str_has_prefix(block, "clock_measure"); /* frequency monitor readings */
		read_registers(&p);
	}
	free(list_path);
	if (!p.naliases) {
		pmu_free(&p);
		return false;
	}
	p.formats = xcalloc(1, sizeof(*p.formats));
	format_parse("config:0-31", &p.formats[0]);
	p.formats[0].name = xstrdup("event");
	p.formats[0].spec = xstrdup("config:0-31");
	p.nformats = 1;
	/* the DPU's Arm cores read the files: count "on" the first online CPU */
	cpulist_add(&p.cpus, m->online.n ? m->online.cpu[0] : 0);
	cpulist_copy(&p.associated, &p.cpus);
	grow_array(&m->pmus, cap, m->npmus + 1, sizeof(*m->pmus));
	m->pmus[m->npmus++] = p;
	return true;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strverscmp(((const struct pmu *)a)->name, ((const struct pmu *)b)->name);
}

void bfperf_discover(struct machine *m)
{
	const char *dev = NULL;
	for (int i = 0; i < m->nhwmon; i++) {
		if (strcmp(m->hwmon[i].name, "bfperf"))
			continue;
		if (dev) {
			diag_warn("%s: a second hwmon device named bfperf; counting only %s", m->hwmon[i].dir, dev);
			continue;
		}
		dev = m->hwmon[i].dir;
	}
	if (!dev)
		return;
	char device[PATH_MAX];
	if (!realpath(dev, device)) { /* /sys/class/hwmon/hwmonN is a link to the device */
		diag_warn("%s: cannot resolve: %s", dev, strerror(errno));
		return;
	}
	char **names;
	int n = list_dir(device, &names);
	int cap = m->npmus;
	for (int i = 0; i < n; i++) {
		static const char *const not_blocks[] = { "device", "subsystem", "power", "driver", "of_node",
							  "firmware_node" };
		bool skip = false;
		for (size_t k = 0; k < ARRAY_SIZE(not_blocks); k++)
			skip |= !strcmp(names[i], not_blocks[k]);
		if (!skip)
			add_block(m, &cap, device, names[i]);
	}
	free_names(names, n);
	qsort(m->pmus, (size_t)m->npmus, sizeof(*m->pmus), cmp_pmu);
}
