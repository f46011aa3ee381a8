/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_sysfs.c - libFuzzer target for what pmutop parses out of sysfs attribute files:
 * the input, cut at NUL bytes, fills a format/ field, a cpumask, an HNS3 filtermode/
 * list, bdf_min/bdf_max, a C2C peer, a bfperf block's event_list and an event alias, of
 * a tree written to a scratch directory; discovery reads it and the shipped profiles bind
 * to it, with a BDF filter set against the published range. Then /proc/self/mounts, a
 * cgroup's cgroup.procs and cpu.stat: the perf_event hierarchy is found, a cgroup named
 * and the tree summed (sources/cgroupfs.h). Refused or counted, never a crash or a leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "sources/cgroupfs.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { F_FORMAT, F_CPUMASK, F_FILTERMODE, F_BDF_MIN, F_BDF_MAX, F_PEER, F_EVENT_LIST, F_ALIAS, F_MOUNTS, F_PROCS, F_CPUSTAT,
       NFIELDS };

static char root[64];
static struct profile *profiles[3];

static void put(const char *rel, const char *text, size_t len)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) { /* mkdir -p */
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

static void put_s(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

static void remove_root(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return;
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/pmutop-fuzz-sysfs-%d", (int)getpid());
	mkdir(root, 0755);
	atexit(remove_root);
	diag_set_quiet(true);
	const char *names[3] = { "hip09-hns3.ini", "tegra410.ini", "bluefield2.ini" };
	for (int i = 0; i < 3; i++) {
		char path[512];
		int nerr;
		snprintf(path, sizeof(path), "%s/profiles/%s", PMUTOP_SRCDIR, names[i]);
		profiles[i] = profile_load(path, &nerr);
	}
	put_s("sys/devices/system/cpu/online", "0-3\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/type", "50\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/format/event", "config:0-15\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/format/bdf", "config1:0-15\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/format/global", "config1:32\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/format/func", "config1:33\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/format/port", "config1:16-19\n");
	put_s("sys/bus/event_source/devices/hns3_pmu_sicl_0/hw_clk_freq", "100000000\n");
	put_s("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/type", "51\n");
	put_s("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/format/event", "config:0-3\n");
	put_s("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/events/cycles", "event=0x0\n");
	put_s("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/events/in_rd_req", "event=0x2\n");
	put_s("sys/class/hwmon/hwmon0/name", "bfperf\n");
	put_s("sys/class/hwmon/hwmon0/tile0/event0", "0x0\n");
	put_s("sys/class/hwmon/hwmon0/tile0/counter0", "0\n");
}

/* The perf_event cgroup hierarchy from the fuzzed mounts, a cgroup's files fuzzed too */
static void cgroups(const char *const *field, const size_t *flen)
{
	put("proc/self/mounts", field[F_MOUNTS], flen[F_MOUNTS]);
	put("sys/fs/cgroup/x/cgroup.procs", field[F_PROCS], flen[F_PROCS]);
	put("sys/fs/cgroup/x/cpu.stat", field[F_CPUSTAT], flen[F_CPUSTAT]);
	struct cgroupfs fs;
	char *why = NULL;
	if (cgroupfs_find(root, &fs, &why) < 0) {
		free(why);
		return;
	}
	char *rel = cgroupfs_resolve(&fs, "x", &why);
	free(rel ? NULL : why);
	struct task_sample procs[2] = { { .pid = 1, .cpu_ns = 5 }, { .pid = 7, .cpu_ns = UINT64_MAX } };
	struct cgroup_node *nodes = NULL;
	int n = cgroupfs_tree(&fs, rel ? rel : "", procs, 2, &nodes);
	cgroupfs_nodes_free(nodes, n);
	free(rel);
	cgroupfs_done(&fs);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (!root[0])
		setup();
	const char *field[NFIELDS] = { 0 };
	size_t flen[NFIELDS] = { 0 };
	size_t at = 0;
	for (int i = 0; i < NFIELDS; i++) {
		size_t end = at;
		while (end < size && data[end])
			end++;
		field[i] = (const char *)data + (at < size ? at : size);
		flen[i] = end > at ? end - at : 0;
		at = end + 1;
	}
	const char *hns = "sys/bus/event_source/devices/hns3_pmu_sicl_0/";
	char rel[256];
	snprintf(rel, sizeof(rel), "%sformat/queue", hns);
	put(rel, field[F_FORMAT], flen[F_FORMAT]);
	snprintf(rel, sizeof(rel), "%scpumask", hns);
	put(rel, field[F_CPUMASK], flen[F_CPUMASK]);
	put_s("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/cpumask", "0\n");
	snprintf(rel, sizeof(rel), "%sfiltermode/bw_ssu_rpu_byte_num", hns);
	put(rel, field[F_FILTERMODE], flen[F_FILTERMODE]);
	snprintf(rel, sizeof(rel), "%sbdf_min", hns);
	put(rel, field[F_BDF_MIN], flen[F_BDF_MIN]);
	snprintf(rel, sizeof(rel), "%sbdf_max", hns);
	put(rel, field[F_BDF_MAX], flen[F_BDF_MAX]);
	snprintf(rel, sizeof(rel), "%sevents/bw_ssu_rpu_byte_num", hns);
	put(rel, field[F_ALIAS], flen[F_ALIAS]);
	put("sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/peer", field[F_PEER], flen[F_PEER]);
	put("sys/class/hwmon/hwmon0/tile0/event_list", field[F_EVENT_LIST], flen[F_EVENT_LIST]);

	struct machine *m = machine_discover(root);
	if (m) {
		struct profile *ps[3];
		int n = 0;
		for (int i = 0; i < 3; i++)
			if (profiles[i])
				ps[n++] = profiles[i];
		struct session *s = session_new(m, ps, n);
		for (int i = 0; i < s->ninstances; i++) {
			char *err = NULL;
			session_set_filter(s, i, "bdf", "0x3501", &err); /* against bdf_min..bdf_max */
			free(err);
			err = NULL;
			session_set_filter(s, i, "mode", "func", &err); /* against filtermode/ */
			free(err);
		}
		session_free(s);
		machine_free(m);
	}
	cgroups(field, flen);
	diag_clear();
	return 0;
}
