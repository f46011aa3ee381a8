/* SPDX-License-Identifier: GPL-2.0-only */
/* bench_refresh.c - the cost of one refresh (read + metrics; with "draw" the redraw too)
 * on the simulated two-socket Tegra410 with every PMU in use (uncore and its 144 Neoverse
 * cores' TopDown), and on the host profile with real perf counters; the cost of start-up
 * (discovery, profiles, binding) and resident memory.
 *
 * usage: bench_refresh sim|host|draw|record REFRESHES (record: the recorder's frame())
 * environment: BENCH_UNCORE_ONLY=1 (the Tegra410 profile alone, no TopDown),
 *              BENCH_SIZE=COLSxLINES for draw (default 120x40)
 * Prints "bench: NAME VALUE UNIT" lines. run.sh also runs it under callgrind with 0 and
 * with N refreshes, so the instruction count of one refresh is their difference / N. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "outputs/exporter.h"
#include "engine/output.h"
#include "record/recorder.h"
#include "pmutop-paths.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "sources/sources.h"
#include "sim/simulator.h"
#include "base/util.h"
#include "ui/ui.h"

static uint64_t next_second(void *ctx)
{
	uint64_t *now = ctx;
	return *now += 1000000000ull;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_refresh sim|host REFRESHES\n");
		return 2;
	}
	bool draw = !strcmp(argv[1], "draw");
	bool record = !strcmp(argv[1], "record"); /* the recorder's cost on the refresh path */
	bool export = !strcmp(argv[1], "export"); /* rendering /metrics with per-CPU series */
	bool sim = draw || record || export || !strcmp(argv[1], "sim");
	long n = atol(argv[2]);
	diag_set_quiet(true);
	/* draw as a user's terminal does: in a UTF-8 locale ncurses decodes every byte it
	 * writes, which ASCII hides (BENCH_LOCALE=C.UTF-8 or C) */
	const char *loc = getenv("BENCH_LOCALE");
	if (loc && *loc && !setlocale(LC_ALL, loc))
		fprintf(stderr, "bench_refresh: locale %s unavailable\n", loc);
	uint64_t t0 = clock_monotonic_ns();
	/* BENCH_SYSFS_ROOT: another Tegra410-like tree (the scale bench's 16 sockets) */
	const char *tree = getenv("BENCH_SYSFS_ROOT");
	const char *root = sim ? (tree && *tree ? tree : PMUTOP_ABS_SRCDIR "/profiles/machines/tegra410") : "/";
	struct machine *m = machine_discover(root);
	int nerr;
	struct profile *ps[2];
	int np = 0;
	ps[np++] = profile_load(sim ? PMUTOP_ABS_SRCDIR "/profiles/tegra410.ini" : PMUTOP_ABS_SRCDIR "/profiles/host.ini", &nerr);
	const char *uncore_only = getenv("BENCH_UNCORE_ONLY");
	bool with_topdown = sim && !(uncore_only && *uncore_only == '1');
	if (with_topdown)
		ps[np++] = profile_load(PMUTOP_ABS_SRCDIR "/profiles/topdown.ini", &nerr);
	for (int i = 0; i < np; i++)
		if (!ps[i])
			return 1;
	struct session *s = session_new(m, ps, np);
	struct source *src;
	if (sim) {
		struct sim_options so = { .model_path = PMUTOP_ABS_SRCDIR "/profiles/machines/tegra410/model.ini", .seed = 1 };
		src = source_sim_new(m, &so);
	} else {
		src = source_perf_new(m, NULL);
	}
	uint64_t now = sim ? 1000000000ull : clock_monotonic_ns();
	session_add_source(s, src);
	session_start(s, now);
	/* as the monitor's default view: no pane shows a sum's members (per-CPU rows) */
	if (getenv("BENCH_NO_DETAILS"))
		session_want_details(s, false);
	uint64_t t1 = clock_monotonic_ns();
	int counters = 0, leaders = 0;
	for (int i = 0; i < s->ninstances; i++) {
		counters += s->inst[i].opened ? s->inst[i].ncounters : 0;
		leaders += s->inst[i].opened ? s->inst[i].cpus.n : 0;
	}
	uint64_t reads0 = sim ? 0 : source_perf_reads(src);
	uint64_t w0 = clock_monotonic_ns();
	long bytes = 0;
	if (draw) {
		FILE *null = fopen("/dev/null", "w");
		bytes = ui_bench_frames(s, (int)n, null, next_second, &now);
		fclose(null);
	} else if (export) {
		struct exporter_options eo = { .listen = "127.0.0.1:0", .per_cpu = true };
		char *err = NULL;
		struct output *ex = exporter_output_new(&eo, &err);
		uint64_t in_frame = 0, render = 0;
		size_t len = 0;
		int series = 0;
		for (long i = 1; ex && i <= n; i++) {
			now += 1000000000ull;
			const struct frame *f = session_sample(s, now);
			uint64_t a = clock_monotonic_ns();
			ex->ops->frame(ex, f);
			uint64_t b = clock_monotonic_ns();
			char *text = exporter_render(ex, false, &len);
			render += clock_monotonic_ns() - b;
			if (i > 1) /* the first frame lays the series out, once */
				in_frame += b - a;
			series = 0;
			for (char *p = text; (p = strchr(p, '\n')); p++)
				series += p[1] && p[1] != '#';
			free(text);
		}
		if (ex)
			output_destroy(ex);
		free(err);
		printf("bench: exporter_series %d count\n", series);
		printf("bench: exporter_render %.2f ms\n", (double)render / 1e6 / (double)(n ? n : 1));
		printf("bench: exporter_render_10k_series %.2f ms\n",
		       series ? (double)render / 1e6 / (double)(n ? n : 1) * 10000.0 / series : 0.0);
		printf("bench: exporter_cost_per_refresh %.1f us\n", (double)in_frame / 1e3 / (double)(n > 1 ? n - 1 : 1));
		return 0;
	} else if (record) { /* only the output's frame(): the disk work is its thread's */
		char path[] = "/tmp/pmutop-bench-rec-XXXXXX";
		int fd = mkstemp(path);
		close(fd);
		unlink(path);
		struct recorder_options ro = { .path = path };
		char *err = NULL;
		struct output *rec = recorder_output_new(s, &ro, &err);
		uint64_t in_frame = 0;
		for (long i = 1; rec && i <= n; i++) {
			now += 1000000000ull;
			const struct frame *f = session_sample(s, now);
			uint64_t a = clock_monotonic_ns();
			rec->ops->frame(rec, f);
			in_frame += clock_monotonic_ns() - a;
		}
		if (rec) {
			rec->ops->finish(rec);
			output_destroy(rec);
		}
		unlink(path);
		printf("bench: record_cost_per_refresh %.1f us\n", (double)in_frame / 1e3 / (double)(n ? n : 1));
		free(err);
		return 0;
	} else {
		for (long i = 1; i <= n; i++) {
			now += 1000000000ull;
			session_sample(s, sim ? now : clock_monotonic_ns());
		}
	}
	uint64_t w1 = clock_monotonic_ns();
	char tag[96];
	const char *size = getenv("BENCH_SIZE");
	snprintf(tag, sizeof(tag), "%s%s%s%s", sim ? "sim_tegra410" : "host", sim && !with_topdown ? "_uncore" : "",
		 draw ? "_with_redraw_" : "", draw ? (size && *size ? size : "120x40") : "");
	if (draw && bytes < 0)
		fprintf(stderr, "bench_refresh: no terminal description for xterm-256color\n");
	printf("bench: %s_counters %d count\n", tag, counters);
	printf("bench: %s_metric_values %d count\n", tag, s->nvalues);
	if (!sim) {
		printf("bench: %s_group_leaders %d count\n", tag, leaders);
		printf("bench: %s_counters_opened %d count\n", tag, counters);
		if (n)
			printf("bench: %s_reads_per_refresh %.1f count\n", tag,
			       (double)(source_perf_reads(src) - reads0) / (double)n);
	}
	printf("bench: %s_startup %.2f ms\n", tag, (double)(t1 - t0) / 1e6);
	if (n)
		printf("bench: %s_refresh %.1f us\n", tag, (double)(w1 - w0) / 1e3 / (double)n);
	printf("bench: %s_rss %ld KiB\n", tag, rss_kb());
	session_free(s);
	for (int i = 0; i < np; i++)
		profile_free(ps[i]);
	machine_free(m);
	return 0;
}
