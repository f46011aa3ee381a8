/* SPDX-License-Identifier: GPL-2.0-only */
/* check_hwmon.c - BlueField's counter source on plain copies of the demo trees: which
 * files it writes and in which order, that the original programming comes back at close,
 * turns of event sets on too few counters, 32-bit wrap versus reset, refused links and
 * names, a rejected write, and event_list cut mid-line. The files stand in for the
 * driver: the test writes counter<N> between refreshes. No test sleeps. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "machine/bfperf.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "outputs/exporter.h"
#include "engine/output.h"
#include "sources/hwmon_io.h"
#include "sources/sources.h"
#include "testutil.h"

#define SEC 1000000000ull

/* ---- the real files, with every write logged as "block/file=text" ---- */
struct log_io {
	struct hwmon_io io;
	struct hwmon_io *files;
	char log[16384];
	size_t len;
};

static int log_read(struct hwmon_io *io, const struct pmu *b, const char *file, char *buf, size_t len)
{
	struct log_io *l = (struct log_io *)io;
	return l->files->ops->read(l->files, b, file, buf, len);
}

static int log_write(struct hwmon_io *io, const struct pmu *b, const char *file, const char *text)
{
	struct log_io *l = (struct log_io *)io;
	l->len += (size_t)snprintf(l->log + l->len, sizeof(l->log) - l->len, "%s/%s=%s\n", b->hw->block, file, text);
	return l->files->ops->write(l->files, b, file, text);
}

static void log_destroy(struct hwmon_io *io)
{
	struct log_io *l = (struct log_io *)io;
	hwmon_io_destroy(l->files);
}

static const struct hwmon_io_ops log_ops = { log_read, log_write, NULL, log_destroy };

/* The log's lines about one block, in order. */
static char *lines_of(const struct log_io *l, const char *block, size_t from)
{
	char *out = xcalloc(1, sizeof(l->log));
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "%s/", block);
	for (const char *p = l->log + from; *p;) {
		const char *nl = strchr(p, '\n');
		if (!strncmp(p, prefix, strlen(prefix)))
			strncat(out, p, (size_t)(nl - p + 1));
		p = nl + 1;
	}
	return out;
}

struct bf {
	char *root, *dev;
	struct machine *m;
	struct profile *p;
	struct profile *ps[1];
	struct session *s;
	struct log_io io;
};

/* A plain copy of a demo machine's tree (links inside it kept as links). */
static char *copy_demo(const char *name)
{
	char *root = tmp_dir();
	char *src = src_path("profiles/machines");
	char *cmd = xasprintf("cp -R '%s/%s/sys' '%s/'", src, name, root);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(src);
	return root;
}

/* between(dev): what changes after discovery and before counting starts, or NULL */
static void bf_begin_with(struct bf *w, const char *root, const char *dev, const char *profile,
			  void (*between)(const char *dev))
{
	memset(w, 0, sizeof(*w));
	w->root = (char *)root;
	w->dev = xasprintf("%s/%s", root, dev);
	w->m = machine_discover(root);
	w->p = profile_from_text(profile);
	w->ps[0] = w->p;
	w->s = session_new(w->m, w->ps, 1);
	if (between)
		between(w->dev);
	w->io.io.ops = &log_ops;
	w->io.files = hwmon_io_files_new();
	session_add_source(w->s, source_hwmon_new(w->m, &w->io.io));
	session_start(w->s, SEC);
}

static void bf_begin(struct bf *w, const char *root, const char *dev, const char *profile)
{
	bf_begin_with(w, root, dev, profile, NULL);
}

static void bf_end(struct bf *w)
{
	session_free(w->s);
	profile_free(w->p);
	machine_free(w->m);
	free(w->dev);
}

static char *file_text(const struct bf *w, const char *rel)
{
	char *path = xasprintf("%s/%s", w->dev, rel);
	char *t = read_text_file(path, 4096);
	free(path);
	return t ? t : xstrdup("(unreadable)");
}

static void put_counter(const struct bf *w, const char *block, int n, unsigned long long v)
{
	char rel[64], text[32];
	snprintf(rel, sizeof(rel), "%s/counter%d", block, n);
	snprintf(text, sizeof(text), "0x%llx\n", v);
	put_file(w->dev, rel, text);
}

#define BF2_DEV "sys/class/hwmon/hwmon0"
#define BF3_DEV "sys/class/hwmon/hwmon1"

START_TEST(programs_in_order_and_restores)
{
	char *root = copy_demo("bluefield2");
	/* what another user left programmed: restored exactly, or stopped if unknown */
	put_file(root, BF2_DEV "/tile0/event0", "0x61: DIR_HIT\n");
	put_file(root, BF2_DEV "/tile0/event1", "No event being monitored\n");
	put_file(root, BF2_DEV "/l3cachehalf0/enable", "1\n");
	struct bf w;
	bf_begin(&w, root, BF2_DEV,
		 "[group tile]\npmu = bfperf_tile{n}\nneeds = HNF_REQUESTS\ninstance = tile{n}\n"
		 "events = HNF_REQUESTS MEMORY_READS\n"
		 "[group l3]\npmu = bfperf_l3cachehalf{n}\ninstance = l3cachehalf{n}\nevents = HITS_BANK0 MISSES_BANK0\n"
		 "[metric tile.req]\nformula = HNF_REQUESTS / elapsed_s\n"
		 "[metric l3.hits]\nformula = HITS_BANK0 / elapsed_s\n");
	char *t = lines_of(&w.io, "tile0", 0);
	ck_assert_str_eq(t, "tile0/event0=0x45\ntile0/counter0=0\ntile0/event1=0x4c\ntile0/counter1=0\n");
	free(t);
	/* an enable block: program every counter, then enable (which clears and starts) */
	t = lines_of(&w.io, "l3cachehalf0", 0);
	ck_assert_str_eq(t, "l3cachehalf0/event0=0x17\nl3cachehalf0/event1=0x19\nl3cachehalf0/enable=1\n");
	free(t);
	/* counts: the driver's counter files, read each refresh */
	put_counter(&w, "tile0", 0, 5000);
	put_counter(&w, "l3cachehalf0", 0, 700);
	session_sample(w.s, 3 * SEC);
	ck_assert_double_eq_tol(value_of(w.s, "tile.req", "tile0")->value, 2500, 1e-9);
	ck_assert_double_eq_tol(value_of(w.s, "l3.hits", "l3cachehalf0")->value, 350, 1e-9);
	/* nothing but event/counter/enable files was written */
	for (const char *p = w.io.log; *p; p = strchr(p, '\n') + 1) {
		const char *slash = strchr(p, '/'), *eq = strchr(p, '=');
		char file[32];
		snprintf(file, sizeof(file), "%.*s", (int)(eq - slash - 1), slash + 1);
		ck_assert_msg(hwmon_writable_name(file), "wrote %s", file);
	}
	size_t before_close = w.io.len;
	session_free(w.s);
	w.s = NULL;
	t = lines_of(&w.io, "tile0", before_close);
	ck_assert_str_eq(t, "tile0/event0=0x61\ntile0/event1=0xff\n");
	free(t);
	t = lines_of(&w.io, "l3cachehalf0", before_close);
	ck_assert_str_eq(t, "l3cachehalf0/event0=0x0\nl3cachehalf0/event1=0x0\nl3cachehalf0/enable=1\n");
	free(t);
	char *e0 = file_text(&w, "tile0/event0");
	ck_assert_str_eq(e0, "0x61"); /* a copy holds what was written last */
	free(e0);
	profile_free(w.p);
	machine_free(w.m);
	free(w.dev);
}
END_TEST

START_TEST(more_events_than_counters_take_turns)
{
	char *root = copy_demo("bluefield2");
	struct bf w;
	/* six events, five counters: two sets, one whole interval each */
	bf_begin(&w, root, BF2_DEV,
		 "[group l3]\npmu = bfperf_l3cachehalf{n}\ninstance = l3cachehalf{n}\n"
		 "events = HITS_BANK0 HITS_BANK1 MISSES_BANK0 MISSES_BANK1 EVICTIONS_BANK0 EVICTIONS_BANK1\n"
		 "[metric l3.hits0]\nformula = HITS_BANK0 / elapsed_s\n"
		 "[metric l3.evict1]\nformula = EVICTIONS_BANK1 / elapsed_s\n");
	char *t = lines_of(&w.io, "l3cachehalf0", 0);
	ck_assert_str_eq(t, "l3cachehalf0/event0=0x17\nl3cachehalf0/event1=0x18\nl3cachehalf0/event2=0x19\n"
			    "l3cachehalf0/event3=0x1a\nl3cachehalf0/event4=0x1d\nl3cachehalf0/enable=1\n");
	free(t);
	size_t mark = w.io.len;
	for (int c = 0; c < 5; c++)
		put_counter(&w, "l3cachehalf0", c, 1000);
	session_sample(w.s, 2 * SEC);
	t = lines_of(&w.io, "l3cachehalf0", mark); /* the second set takes over */
	ck_assert_str_eq(t, "l3cachehalf0/event0=0x1e\nl3cachehalf0/enable=1\n");
	free(t);
	ck_assert_double_eq_tol(value_of(w.s, "l3.hits0", "l3cachehalf0")->value, 1000, 1e-9);
	ck_assert_int_eq(value_of(w.s, "l3.evict1", "l3cachehalf0")->state, VS_NOT_COUNTED); /* not yet its turn */
	/* enabling cleared the counters: the second set counts from zero */
	put_counter(&w, "l3cachehalf0", 0, 300);
	for (int c = 1; c < 5; c++)
		put_counter(&w, "l3cachehalf0", c, 0);
	session_sample(w.s, 3 * SEC);
	const struct frame_value *ev = value_of(w.s, "l3.evict1", "l3cachehalf0");
	ck_assert_int_eq(ev->state, VS_OK);
	ck_assert_double_eq_tol(ev->value, 300, 1e-9); /* its own turn only: not mixed with set 1's counts */
	ck_assert(ev->multiplexed);
	ck_assert_double_eq_tol(ev->coverage, 0.5, 1e-6);
	/* the first set's rate stands until its next turn, marked as estimated */
	const struct frame_value *hv = value_of(w.s, "l3.hits0", "l3cachehalf0");
	ck_assert_double_eq_tol(hv->value, 1000, 1e-9);
	ck_assert(hv->multiplexed);
	bf_end(&w);
}
END_TEST

START_TEST(crspace_wrap_is_counted_reset_is_not)
{
	char *root = copy_demo("bluefield3");
	struct bf w;
	bf_begin(&w, root, BF3_DEV,
		 "[group llt]\npmu = bfperf_llt{n}\nneeds = HNF0_CYCLES\ninstance = llt{n}\nevents = HNF0_CYCLES\n"
		 "[metric llt.cycles]\nformula = HNF0_CYCLES / elapsed_s\n");
	char *t = lines_of(&w.io, "llt0", 0);
	ck_assert_str_eq(t, "llt0/event0=0x0\nllt0/enable=1\n"); /* CRSPACE: enable clears, no counter write */
	free(t);
	put_counter(&w, "llt0", 0, 0xfffffff0ull);
	session_sample(w.s, 2 * SEC);
	put_counter(&w, "llt0", 0, 0x10);
	session_sample(w.s, 3 * SEC);
	const struct frame_value *v = value_of(w.s, "llt.cycles", "llt0");
	ck_assert_int_eq(v->state, VS_OK);
	ck_assert_double_eq_tol(v->value, 0x20, 1e-9); /* past 2^32 and on: a wrap */
	put_counter(&w, "llt0", 0, 0x80000000ull);
	session_sample(w.s, 4 * SEC);
	put_counter(&w, "llt0", 0, 0x5);
	session_sample(w.s, 5 * SEC);
	ck_assert_int_eq(value_of(w.s, "llt.cycles", "llt0")->state, VS_UNREADABLE); /* cleared: not traffic */
	put_counter(&w, "llt0", 0, 0x105);
	session_sample(w.s, 6 * SEC);
	ck_assert_double_eq_tol(value_of(w.s, "llt.cycles", "llt0")->value, 0x100, 1e-9);
	bf_end(&w);
}
END_TEST

/* after discovery: tile2's event1 turns into something no write can go to */
static void break_tile2(const char *dev)
{
	char *cmd = xasprintf("rm '%s/tile2/event1' && mkdir '%s/tile2/event1'", dev, dev);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

START_TEST(links_names_and_rejected_writes)
{
	char *root = copy_demo("bluefield2");
	char *outside = tmp_dir();
	put_file(outside, "victim", "untouched\n");
	put_file(outside, "blk/event_list", "0x45: HNF_REQUESTS\n");
	put_file(outside, "blk/event0", "0x0: DISABLE\n");
	put_file(outside, "blk/counter0", "0x0\n");
	char *dev = xasprintf("%s/" BF2_DEV, root);
	char *cmd = xasprintf("rm -rf '%s/tile1' && ln -s '%s/blk' '%s/tile1' && rm '%s/tile0/event1' && "
			      "ln -s '%s/victim' '%s/tile0/event1' ",
			      dev, outside, dev, dev, outside, dev);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	struct bf w;
	bf_begin_with(&w, root, BF2_DEV,
		      "[group tile]\npmu = bfperf_tile{n}\ninstance = tile{n}\nevents = HNF_REQUESTS MEMORY_READS\n"
		      "[metric tile.req]\nformula = HNF_REQUESTS / elapsed_s\n", break_tile2);
	/* a block that is a link out of the device is not a block */
	ck_assert_ptr_null(machine_find_pmu(w.m, "bfperf_tile1"));
	ck_assert_ptr_nonnull(machine_find_pmu(w.m, "bfperf_tile3"));
	/* a file that is a link is refused; what was already written is put back */
	int t0 = instance_index(w.s, "tile", "tile0");
	ck_assert(!w.s->inst[t0].opened);
	ck_assert_msg(strstr(w.s->inst[t0].open_error, "tile0/event1") &&
			      strstr(w.s->inst[t0].open_error, strerror(ELOOP)), "%s", w.s->inst[t0].open_error);
	char *victim_path = xasprintf("%s/victim", outside);
	char *victim = read_text_file(victim_path, 64);
	ck_assert_str_eq(victim, "untouched\n");
	free(victim);
	free(victim_path);
	char *e0 = file_text(&w, "tile0/event0");
	ck_assert_str_eq(e0, "0x0");
	free(e0);
	/* a write the driver (here the tree) rejects: the file and the errno */
	int t2 = instance_index(w.s, "tile", "tile2");
	ck_assert(!w.s->inst[t2].opened);
	ck_assert_msg(strstr(w.s->inst[t2].open_error, "tile2/event1: writing '0x4c' failed: Is a directory"), "%s",
		      w.s->inst[t2].open_error);
	ck_assert(w.s->inst[instance_index(w.s, "tile", "tile3")].opened);
	e0 = file_text(&w, "tile2/event0"); /* put back after the refusal */
	ck_assert_str_eq(e0, "0x0");
	free(e0);
	/* names: only event<N>, counter<N>, enable are ever written, in the block */
	ck_assert(!bfperf_valid_name(".."));
	ck_assert(!bfperf_valid_name("a/b"));
	ck_assert(!bfperf_valid_name(""));
	ck_assert(bfperf_valid_name("IN_P_PKT_CNT"));
	ck_assert(hwmon_writable_name("event3") && hwmon_writable_name("counter12") && hwmon_writable_name("enable"));
	ck_assert(!hwmon_writable_name("event_list") && !hwmon_writable_name("name") && !hwmon_writable_name("event"));
	const struct pmu *tile3 = machine_find_pmu(w.m, "bfperf_tile3");
	ck_assert_int_eq(w.io.files->ops->write(w.io.files, tile3, "event_list", "x"), -EPERM);
	ck_assert_int_eq(w.io.files->ops->write(w.io.files, tile3, "../tile0/event0", "x"), -EPERM);
	bf_end(&w);
	free(dev);
}
END_TEST

START_TEST(event_list_cut_and_trailing_blanks)
{
	char *root = tmp_dir();
	/* as the kernel lays it out: /sys/class/hwmon/hwmonN links to the platform device */
#define LINKED_DEV "sys/devices/platform/MLNXBFD2:00/hwmon/hwmon2"
	const char *dev = LINKED_DEV;
	put_file(root, LINKED_DEV "/name", "bfperf\n");
	/* a name with the trailing blank older kernels print, and an entry cut mid-line */
	put_file(root, LINKED_DEV "/llt_miss0/event_list",
		 "0x0: GDC_MISS_MACHINE_RD_REQ\n0x18: GDC_MISS_MACHINE_G_FIFO_FF_EXEC0_1 \n0x19: GDC_MISS_MA");
	put_file(root, LINKED_DEV "/llt_miss0/event0", "0x0: GDC_MISS_MACHINE_RD_REQ\n");
	put_file(root, LINKED_DEV "/llt_miss0/counter0", "0x0\n");
	put_file(root, LINKED_DEV "/llt_miss0/enable", "0\n");
	put_file(root, LINKED_DEV "/llt_miss0/count_clock", "0\n");
	put_file(root, "sys/class/hwmon/.keep", "");
	char *cmd = xasprintf("ln -s ../../devices/platform/MLNXBFD2:00/hwmon/hwmon2 '%s/sys/class/hwmon/hwmon2'", root);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	struct machine *m = machine_discover(root);
	const struct pmu *p = machine_find_pmu(m, "bfperf_llt_miss0");
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(str_has_suffix(p->hw->device, dev), "the link resolved: %s", p->hw->device); /* writes go there */
	ck_assert_int_eq(p->naliases, 2);
	ck_assert_ptr_nonnull(pmu_find_alias(p, "GDC_MISS_MACHINE_G_FIFO_FF_EXEC0_1"));
	ck_assert_str_eq(pmu_event_name(p, 0x18), "GDC_MISS_MACHINE_G_FIFO_FF_EXEC0_1");
	ck_assert(p->hw->truncated);
	ck_assert_int_eq(p->hw->type, HW_CRSPACE);
	ck_assert_int_eq(p->hw->width, 32);
	ck_assert(bfperf_event_known(p, 0x19)); /* beyond the cut: the driver's table goes on */
	ck_assert(!bfperf_event_known(p, 0x5)); /* inside the list and not in it */
	machine_free(m);
}
END_TEST

START_TEST(editor_choice_programs_the_counter)
{
	char *root = copy_demo("bluefield2");
	struct bf w;
	bf_begin(&w, root, BF2_DEV,
		 "[group tile]\npmu = bfperf_tile{n}\nneeds = HNF_REQUESTS\ninstance = tile{n}\nevents = HNF_REQUESTS\n"
		 "event.watch = DISABLE\nfilter.watch = event events=watch title=Chosen\n"
		 "[metric tile.watch]\nformula = watch / elapsed_s\n");
	int t0 = instance_index(w.s, "tile", "tile0");
	char *err = NULL;
	size_t mark = w.io.len;
	ck_assert_msg(session_set_filter(w.s, t0, "watch", "memory_writes", &err) == 0, "%s", err);
	char *t = lines_of(&w.io, "tile0", mark);
	ck_assert_str_eq(t, "tile0/event0=0x0\ntile0/event1=0x0\n" /* restored, then reprogrammed */
			    "tile0/event0=0x45\ntile0/counter0=0\ntile0/event1=0x4d\ntile0/counter1=0\n");
	free(t);
	char *fs = session_instance_filters(w.s, t0);
	ck_assert_str_eq(fs, "watch=MEMORY_WRITES");
	free(fs);
	ck_assert_int_lt(session_set_filter(w.s, t0, "watch", "0x3", &err), 0); /* not in event_list */
	ck_assert_msg(strstr(err, "not in tile0's event_list"), "%s", err);
	free(err);
	ck_assert_int_lt(session_set_filter(w.s, t0, "watch", "NO_SUCH_EVENT", &err), 0);
	free(err);
	uint64_t next;
	ck_assert(session_event_step(w.s, t0, 0x4d, 1, &next));
	ck_assert_uint_eq(next, 0x4e);
	ck_assert(session_event_step(w.s, t0, 0x85, 1, &next)); /* wraps to the start */
	ck_assert_uint_eq(next, 0x0);
	bf_end(&w);
}
END_TEST

/* The value of the exposition line starting with prefix, or -1 (and the test fails). */
static double exposed(const char *text, const char *prefix)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix)))
			return strtod(strchr(p + strlen(prefix), ' '), NULL);
	ck_abort_msg("no series %s in:\n%s", prefix, text);
	return -1;
}

/* A counter whose event a filter chooses is exported under its role with the event as a
 * label: choosing another event starts another series from 0 (a rate never spans two
 * events), the metric's gauge follows, and pmutop_filter_info says the filters. */
START_TEST(exported_series_follow_the_chosen_event)
{
	char *root = copy_demo("bluefield2");
	struct bf w;
	bf_begin(&w, root, BF2_DEV,
		 "[group tile]\npmu = bfperf_tile{n}\nneeds = HNF_REQUESTS\ninstance = tile{n}\nevents = HNF_REQUESTS\n"
		 "event.watch = DISABLE\nfilter.watch = event events=watch title=Chosen\n"
		 "[metric tile.watch]\nformula = watch / elapsed_s\nunit = /s\n");
	struct exporter_options opt = { .listen = "127.0.0.1:0" };
	char *err = NULL;
	struct output *o = exporter_output_new(&opt, &err);
	ck_assert_msg(o, "%s", err ? err : "");
	ck_assert(!exporter_has_frame(o));
	int t0 = instance_index(w.s, "tile", "tile0");
	put_counter(&w, "tile0", 1, 0);
	o->ops->frame(o, session_sample(w.s, 2 * SEC));
	put_counter(&w, "tile0", 1, 500);
	o->ops->frame(o, session_sample(w.s, 3 * SEC));
	size_t len;
	char *text = exporter_render(o, false, &len);
	const char *before = "pmutop_tile_watch_total{pmu=\"bfperf_tile0\",n=\"0\",socket=\"0\",name=\"tile0\",event=\"DISABLE\"}";
	ck_assert_double_eq(exposed(text, before), 500);
	ck_assert_msg(!strstr(text, "pmutop_filter_info{pmu=\"bfperf_tile0\""), "no filter set, no info:\n%s", text);
	ck_assert_msg(!strstr(text, "\npmutop_tile_DISABLE") && !strstr(text, "\npmutop_tile_HNF_REQUESTS"), "names are lower case roles:\n%s", text);
	free(text);
	ck_assert_msg(session_set_filter(w.s, t0, "watch", "memory_writes", &err) == 0, "%s", err);
	put_counter(&w, "tile0", 1, 30);
	o->ops->frame(o, session_sample(w.s, 4 * SEC));
	put_counter(&w, "tile0", 1, 70);
	o->ops->frame(o, session_sample(w.s, 5 * SEC));
	text = exporter_render(o, false, &len);
	const char *after = "pmutop_tile_watch_total{pmu=\"bfperf_tile0\",n=\"0\",socket=\"0\",name=\"tile0\",event=\"MEMORY_WRITES\"}";
	ck_assert_double_eq(exposed(text, after), 70);
	ck_assert_msg(!strstr(text, before), "the old event's series is gone:\n%s", text);
	ck_assert_double_eq(exposed(text, "pmutop_tile_watch_per_second{pmu=\"bfperf_tile0\",n=\"0\",socket=\"0\",name=\"tile0\",event=\"MEMORY_WRITES\"}"), 40);
	ck_assert_double_eq(exposed(text, "pmutop_filter_info{pmu=\"bfperf_tile0\",n=\"0\",socket=\"0\",name=\"tile0\",group=\"tile\",filters=\"watch=MEMORY_WRITES\"}"), 1);
	free(text);
	o->ops->destroy(o);
	bf_end(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hwmon");
	TCase *t = tcase_create("hwmon");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, programs_in_order_and_restores);
	tcase_add_test(t, more_events_than_counters_take_turns);
	tcase_add_test(t, crspace_wrap_is_counted_reset_is_not);
	tcase_add_test(t, links_names_and_rejected_writes);
	tcase_add_test(t, event_list_cut_and_trailing_blanks);
	tcase_add_test(t, editor_choice_programs_the_counter);
	tcase_add_test(t, exported_series_follow_the_chosen_event);
	suite_add_tcase(s, t);
	return run_suite(s);
}
