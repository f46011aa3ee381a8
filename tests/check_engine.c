/* SPDX-License-Identifier: GPL-2.0-only */
/* check_engine.c - the engine's shape: one session counting through two sources at
 * once (the simulator and a gauge source written here), the run loop handing frames to
 * outputs on a fake clock, enum and per-event filters, and aggregates changing filters
 * all or nothing. No test sleeps. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/str_ids.h"
#include "base/util.h"
#include "bind/counter_share.h"
#include "engine/history.h"
#include "profile/profile.h"
#include "engine/runloop.h"
#include "engine/session.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "machine/procstat.h"
#include "outputs/batch.h"
#include "engine/output.h"
#include "sources/cgroupfs.h"
#include "sources/sources.h"
#include "sources/task_counters.h"
#include "sim/simulator.h"
#include "testutil.h"

#define SEC 1000000000ull

/* ---- a gauge source: the "temp" of fake_gauge_N PMUs reads whatever the test says ---- */

static double gauge_reading = 40.0;
static int gauge_opens;
static bool gauge_away; /* the device went away: opens and reads fail as a removed PMU's do */

static bool gauge_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && str_has_prefix(inst->pmu->name, "fake_gauge_");
}

static int gauge_open(struct source *src, struct instance *inst)
{
	(void)src;
	if (gauge_away)
		return -ENODEV;
	for (int c = 0; c < inst->ncounters; c++)
		inst->counters[c].kind = COUNTER_GAUGE;
	gauge_opens++;
	return 0;
}

static int gauge_read(struct source *src, struct instance *inst, uint64_t now)
{
	(void)src; (void)now;
	if (gauge_away)
		return -ENODEV;
	for (int c = 0; c < inst->ncounters; c++) {
		counter_read_level(&inst->counters[c], gauge_reading);
	}
	return 0;
}

static void gauge_close(struct source *src, struct instance *inst) { (void)src; (void)inst; }
static void gauge_destroy(struct source *src) { free(src); }
static const struct source_ops gauge_ops = { "gauge", gauge_claims, gauge_open, gauge_read, gauge_close, gauge_destroy, NULL, false };

static struct machine *two_kinds_machine(void)
{
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/type", "42\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/cpumask", "0\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/mode_a", "config1:0\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/mode_b", "config1:1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/port", "config1:4-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/a", "event=0x1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/b", "event=0x2\n");
	/* which modes each event accepts, as HNS3's filtermode/ says it (trailing blank) */
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/filtermode/a", "one two \n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/filtermode/b", "one \n");
	put_file(root, "sys/bus/event_source/devices/fake_gauge_0/type", "43\n");
	put_file(root, "sys/bus/event_source/devices/fake_gauge_0/cpumask", "0\n");
	put_file(root, "sys/bus/event_source/devices/fake_gauge_0/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_gauge_0/events/temp", "event=0x1\n");
	put_file(root, "sys/devices/system/cpu/online", "0\n");
	return machine_discover(root);
}

static const char *two_kinds_profile =
	"[group g]\npmu = fake_pmu_{n}\ninstance = f{n}\nevents = a b\n"
	"filter.mode = enum default=one accepts=filtermode/{event} title=Mode\n"
	"choice.mode.one = mode_a=1\nchoice.mode.two = mode_b=1\n"
	"filter.port = int events=a\n"
	"[group t]\npmu = fake_gauge_{n}\ninstance = g{n}\nevents = temp\n"
	"[metric g.a_rate]\nformula = a / elapsed_s\n"
	"[metric g.b_rate]\nformula = b / elapsed_s\n"
	"[metric t.temp]\nformula = temp\n";

struct two {
	struct machine *m;
	struct profile *p;
	struct profile *ps[1];
	struct session *s;
};

static void two_begin(struct two *w)
{
	w->m = two_kinds_machine();
	w->p = profile_from_text(two_kinds_profile);
	w->ps[0] = w->p;
	w->s = session_new(w->m, w->ps, 1);
	struct source *gauge = xcalloc(1, sizeof(*gauge));
	gauge->ops = &gauge_ops;
	session_add_source(w->s, gauge); /* asked first: it claims only its own devices */
	struct sim_options so = { .model_path = NULL, .seed = 1 };
	session_add_source(w->s, source_sim_new(w->m, &so));
	session_start(w->s, SEC);
}

static void two_end(struct two *w)
{
	session_free(w->s);
	profile_free(w->p);
	machine_free(w->m);
}

START_TEST(one_session_two_sources)
{
	struct two w;
	gauge_reading = 40.0;
	gauge_opens = 0;
	two_begin(&w);
	ck_assert_int_eq(gauge_opens, 1);
	const struct frame *f = session_sample(w.s, 2 * SEC);
	ck_assert_str_eq(f->source, "gauge+sim");
	ck_assert_int_eq(value_of(w.s, "g.a_rate", "f7")->state, VS_OK);
	ck_assert(value_of(w.s, "g.a_rate", "f7")->value > 0); /* the simulator counted it */
	ck_assert_int_eq(value_of(w.s, "t.temp", "g0")->state, VS_OK);
	ck_assert_double_eq_tol(value_of(w.s, "t.temp", "g0")->value, 40.0, 1e-12);
	/* a gauge is its reading, never a delta: 40 then 42 reads 42, not 2 */
	gauge_reading = 42.0;
	f = session_sample(w.s, 3 * SEC);
	ck_assert_double_eq_tol(value_of(w.s, "t.temp", "g0")->value, 42.0, 1e-12);
	/* the frame says which counter is which kind, and from which instance */
	int gi = instance_index(w.s, "t", "g0");
	const struct counter_info *ci = &f->cinfo[f->iinfo[gi].first_counter];
	ck_assert_int_eq(ci->kind, COUNTER_GAUGE);
	ck_assert_int_eq(ci->instance, gi);
	int si = instance_index(w.s, "g", "f7");
	ck_assert_int_eq(f->cinfo[f->iinfo[si].first_counter].kind, COUNTER_CUMULATIVE);
	ck_assert_str_eq(frame_label(f, si, "n"), "7");
	two_end(&w);
}
END_TEST

/* A device that goes away mid-run: its values are unavailable and it says "gone", the
 * other source's instance goes on counting, and it counts again once it is back. */
START_TEST(device_gone_and_back)
{
	struct two w;
	gauge_reading = 40.0;
	gauge_opens = 0;
	gauge_away = false;
	two_begin(&w);
	session_sample(w.s, 2 * SEC);
	int gi = instance_index(w.s, "t", "g0");
	gauge_away = true;
	const struct frame *f = session_sample(w.s, 3 * SEC);
	ck_assert_int_eq(value_of(w.s, "t.temp", "g0")->state, VS_UNAVAILABLE);
	ck_assert_ptr_nonnull(f->inst[gi].error);
	ck_assert_msg(str_has_prefix(f->inst[gi].error, "gone: fake_gauge_0 stopped answering"), "%s",
		      f->inst[gi].error);
	ck_assert(!f->inst[gi].counting);
	ck_assert_int_eq(value_of(w.s, "g.a_rate", "f7")->state, VS_OK); /* the rest goes on */
	/* still away at the next try: still gone, nothing opened */
	f = session_sample(w.s, 6 * SEC);
	ck_assert_int_eq(value_of(w.s, "t.temp", "g0")->state, VS_UNAVAILABLE);
	ck_assert_int_eq(gauge_opens, 1);
	/* back: opened again at the next try, the interval it comes back in is partial */
	gauge_away = false;
	gauge_reading = 45.0;
	f = session_sample(w.s, 7 * SEC);
	ck_assert_int_eq(gauge_opens, 1); /* tried every 2 s, not on every refresh */
	f = session_sample(w.s, 9 * SEC);
	ck_assert_int_eq(gauge_opens, 2);
	ck_assert_ptr_null(f->inst[gi].error);
	f = session_sample(w.s, 10 * SEC);
	ck_assert_int_eq(value_of(w.s, "t.temp", "g0")->state, VS_OK);
	ck_assert_double_eq_tol(value_of(w.s, "t.temp", "g0")->value, 45.0, 1e-12);
	two_end(&w);
}
END_TEST

/* ---- per-CPU counters whose CPU goes offline: perf stops their enabled time ---- */

static bool cpu_online[2] = { true, true };
static uint64_t core_value[2], core_enabled[2];

static bool core_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && !strcmp(inst->pmu->name, "fake_core");
}
static int core_open(struct source *src, struct instance *inst) { (void)src; (void)inst; return 0; }
static int core_read(struct source *src, struct instance *inst, uint64_t now)
{
	(void)src; (void)now;
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		counter_read_count(ct, core_value[ct->cpu], core_enabled[ct->cpu], core_enabled[ct->cpu]);
	}
	return 0;
}
static void core_close(struct source *src, struct instance *inst) { (void)src; (void)inst; }
static void core_destroy(struct source *src) { free(src); }
static const struct source_ops core_ops = { "core", core_claims, core_open, core_read, core_close, core_destroy, NULL, false };

static void core_second(void) /* one second of 1000 instructions on each online CPU */
{
	for (int c = 0; c < 2; c++)
		if (cpu_online[c]) {
			core_value[c] += 1000;
			core_enabled[c] += SEC;
		}
}

/* A tree of one PMU: its type, its CPUs in file which (cpus or cpumask), an 8-bit event
 * field and one event "NAME=TERMS". */
static char *one_event_tree(const char *pmu, const char *type, const char *which, const char *cpus, const char *event)
{
	char *root = tmp_dir();
	char *dir = xasprintf("sys/bus/event_source/devices/%s", pmu), *eq = strchr(event, '=');
	char *p = xasprintf("%s/type", dir), *v = xasprintf("%s\n", type);
	put_file(root, p, v);
	free(p), free(v);
	p = xasprintf("%s/%s", dir, which), v = xasprintf("%s\n", cpus);
	put_file(root, p, v);
	free(p), free(v);
	p = xasprintf("%s/format/event", dir);
	put_file(root, p, "config:0-7\n");
	free(p);
	p = xasprintf("%s/events/%.*s", dir, (int)(eq - event), event), v = xasprintf("%s\n", eq + 1);
	put_file(root, p, v);
	free(p), free(v), free(dir);
	return root;
}

/* The fake core counting for s, both CPUs online, its first second sampled. */
static void core_first_second(struct session *s)
{
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &core_ops;
	session_add_source(s, src);
	memset(core_value, 0, sizeof(core_value));
	memset(core_enabled, 0, sizeof(core_enabled));
	cpu_online[0] = cpu_online[1] = true;
	session_start(s, SEC);
	core_second();
	session_sample(s, 2 * SEC);
}

START_TEST(cpu_offline_leaves_the_aggregate)
{
	char *root = one_event_tree("fake_core", "44", "cpus", "0-1", "ins=event=0x8");
	put_file(root, "sys/devices/system/cpu/online", "0-1\n");
	struct machine *m = machine_discover(root);
	struct profile *p = profile_from_text("[group c]\npmu = fake_core\nper = cpu\naggregate = all\nevents = ins\n"
					      "[metric c.ips]\nformula = ins / elapsed_s\n");
	struct profile *ps[1] = { p };
	struct session *s = session_new(m, ps, 1);
	core_first_second(s);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 2000.0, 1e-9);
	/* CPU 1 goes offline: its row is not counted, "all" is CPU 0's alone, not halved */
	cpu_online[1] = false;
	core_second();
	session_sample(s, 3 * SEC);
	ck_assert_int_eq(value_of(s, "c.ips", "cpu1")->state, VS_NOT_COUNTED);
	ck_assert_int_eq(value_of(s, "c.ips", "cpu0")->state, VS_OK);
	ck_assert_int_eq(value_of(s, "c.ips", "all")->state, VS_OK);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 1000.0, 1e-9);
	/* back online: both again */
	cpu_online[1] = true;
	core_second();
	session_sample(s, 4 * SEC);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 2000.0, 1e-9);
	/* no output reads the CPUs' rows: they are not evaluated, their sum still is */
	session_want_details(s, false);
	core_second();
	session_sample(s, 5 * SEC);
	ck_assert_int_eq(value_of(s, "c.ips", "cpu0")->state, VS_NO_VALUE);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 2000.0, 1e-9);
	session_want_details(s, true);
	core_second();
	session_sample(s, 6 * SEC);
	ck_assert_int_eq(value_of(s, "c.ips", "cpu0")->state, VS_OK);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "cpu0")->value, 1000.0, 1e-9);
	session_free(s);
	profile_free(p);
	machine_free(m); /* (root belongs to tmp_dir(), which removes it at the end) */
}
END_TEST

/* The same where no CPU's row is bound (bind_cpu_sums.c): "all" counts both CPUs' counters
 * itself and sums them as the CPUs' rows are summed above: an offline CPU is left out of
 * the states, ncpus and a per-thread event's mean, not summed as a zero. */
START_TEST(cpu_offline_leaves_the_counting_row)
{
	char *root = one_event_tree("fake_core", "44", "cpus", "0-1", "ins=event=0x8");
	put_file(root, "sys/devices/system/cpu/online", "0-1\n");
	struct machine *m = machine_discover(root);
	struct profile *p = profile_from_text("[group c]\npmu = fake_core\nper = cpu\naggregate = all\nevents = ins\n"
					      "event.tsc = event=0x9\nper_thread = tsc\n"
					      "[metric c.ips]\nformula = ins / elapsed_s\n"
					      "[metric c.ips_per_cpu]\nformula = ins / elapsed_s / ncpus\n"
					      "[metric c.tsc_rate]\nformula = tsc / elapsed_s\n");
	struct profile *ps[1] = { p };
	struct session *s = session_new_scoped(m, ps, 1, &(struct session_scope){ .cpu_sums = true });
	ck_assert_int_eq(s->ninstances, 1); /* no CPU's row: "all" alone, counting both */
	ck_assert_str_eq(s->inst[0].name, "all");
	ck_assert_int_eq(s->inst[0].ncounters, 4);
	core_first_second(s);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 2000.0, 1e-9);
	ck_assert_double_eq_tol(value_of(s, "c.ips_per_cpu", "all")->value, 1000.0, 1e-9);
	ck_assert_double_eq_tol(value_of(s, "c.tsc_rate", "all")->value, 1000.0, 1e-9); /* a thread's, not 2 */
	cpu_online[1] = false;
	core_second();
	session_sample(s, 3 * SEC);
	ck_assert_int_eq(value_of(s, "c.ips", "all")->state, VS_OK); /* not CPU 1's "not counted" */
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 1000.0, 1e-9);
	ck_assert_double_eq_tol(value_of(s, "c.ips_per_cpu", "all")->value, 1000.0, 1e-9); /* ncpus 1 */
	ck_assert_double_eq_tol(value_of(s, "c.tsc_rate", "all")->value, 1000.0, 1e-9);
	cpu_online[0] = false; /* none counts: no value, as a sum of offline rows */
	core_second();
	session_sample(s, 4 * SEC);
	ck_assert_int_eq(value_of(s, "c.ips", "all")->state, VS_UNAVAILABLE);
	cpu_online[0] = cpu_online[1] = true;
	core_second();
	session_sample(s, 5 * SEC);
	ck_assert_double_eq_tol(value_of(s, "c.ips", "all")->value, 2000.0, 1e-9);
	session_free(s);
	profile_free(p);
	/* CPUs of no known socket (no topology files) are in no socket's sum: a group with
	 * socket sums keeps its CPUs' rows, or they would be lost from "all" */
	p = profile_from_text("[group c]\npmu = fake_core\nper = cpu\naggregate = socket all\nevents = ins\n"
			      "[metric c.ips]\nformula = ins / elapsed_s\n");
	ps[0] = p;
	s = session_new_scoped(m, ps, 1, &(struct session_scope){ .cpu_sums = true });
	ck_assert_int_eq(s->ninstances, 3);
	ck_assert_str_eq(s->inst[0].name, "cpu0");
	session_free(s);
	profile_free(p);
	machine_free(m);
}
END_TEST

/* The window maximum kept as values arrive is the one a scan of the window finds, through
 * new peaks, peaks that age out, no-values and negative values. */
START_TEST(history_window_max_matches_a_scan)
{
	struct history *h = history_new(2);
	struct frame_value vals[2];
	struct frame f = { 0 };
	f.nvalues = 2;
	f.values = vals;
	uint64_t x = 12345;
	for (int i = 0; i < 1000; i++) {
		for (int k = 0; k < 2; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			int r = (int)(x >> 33) % 1000;
			vals[k].state = r < 50 ? VS_NO_VALUE : VS_OK;
			/* slot 0 wanders, with spikes; slot 1 mostly falls, sometimes below zero */
			vals[k].value = k == 0 ? (r > 990 ? 5000.0 : r) : 500.0 - (i % 300) * 2 + (r % 7);
		}
		history_push(h, &f);
		for (int k = 0; k < 2; k++) {
			float m = 0;
			for (int j = 0; j < HISTORY_MAX_WINDOW; j++) {
				float v = history_get(h, k, j);
				if (!isnan(v) && v > m)
					m = v;
			}
			ck_assert_msg(history_max(h, k, HISTORY_MAX_WINDOW) == m, "push %d slot %d: kept %g, scan %g", i, k,
				      history_max(h, k, HISTORY_MAX_WINDOW), m);
		}
	}
	history_free(h);
}
END_TEST

/* A value comes back within 2^-8 of itself (three significant digits, finer than a
 * sparkline's eight levels), no value as NAN, and a slot that never had a number holds no
 * row (the per-CPU values the monitor does not show cost it no memory). */
START_TEST(history_keeps_three_digits_and_rows_only_where_numbers_came)
{
	struct history *h = history_new(3);
	struct frame_value vals[3];
	struct frame f = { .nvalues = 3, .values = vals };
	const double xs[] = { 0, 1, 3.14159, 123456.7, 1e-9, -42.5, 9.99e12 };
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		vals[0] = (struct frame_value){ .state = VS_OK, .value = xs[i] };
		vals[1] = (struct frame_value){ .state = i == 2 ? VS_OK : VS_NO_VALUE, .value = 7 };
		vals[2] = (struct frame_value){ .state = VS_NO_VALUE, .value = NAN };
		history_push(h, &f);
		float got = history_get(h, 0, 0);
		ck_assert_msg(fabs(got - xs[i]) <= fabs(xs[i]) / 256, "%g came back as %g", xs[i], got);
	}
	ck_assert(isnan(history_get(h, 1, 0)));          /* no value after a number */
	ck_assert_float_eq(history_get(h, 1, 4), 7.0f); /* the number, where it came */
	ck_assert(isnan(history_get(h, 1, 6)));          /* before it: none */
	ck_assert_ptr_null(h->rows[2]);
	ck_assert(isnan(history_get(h, 2, 0)));
	history_free(h);
}
END_TEST

START_TEST(enum_filter_and_per_event_acceptance)
{
	struct two w;
	two_begin(&w);
	int si = instance_index(w.s, "g", "f7");
	struct instance *in = &w.s->inst[si];
	/* mode one: both events accept it, and set mode_a; port applies to event a only */
	char *err = NULL;
	ck_assert_msg(session_set_filter(w.s, si, "port", "5", &err) == 0, "%s", err);
	ck_assert_str_eq(in->event_str[0], "fake_pmu_7/a,mode_a=1,port=0x5/");
	ck_assert_str_eq(in->event_str[1], "fake_pmu_7/b,mode_a=1/");
	session_sample(w.s, 2 * SEC);
	session_sample(w.s, 3 * SEC);
	ck_assert_int_eq(value_of(w.s, "g.b_rate", "f7")->state, VS_OK);
	/* mode two: b does not list it in filtermode/b: n/a with the reason, a still counts */
	ck_assert_msg(session_set_filter(w.s, si, "mode", "two", &err) == 0, "%s", err);
	ck_assert_str_eq(in->event_str[0], "fake_pmu_7/a,mode_b=1,port=0x5/");
	ck_assert_ptr_nonnull(in->event_na[1]);
	ck_assert_msg(strstr(in->event_na[1], "mode two not supported by this event"), "%s", in->event_na[1]);
	session_sample(w.s, 4 * SEC);
	const struct frame *f = session_sample(w.s, 5 * SEC);
	ck_assert_int_eq(value_of(w.s, "g.a_rate", "f7")->state, VS_OK);
	ck_assert_int_eq(value_of(w.s, "g.b_rate", "f7")->state, VS_UNAVAILABLE);
	ck_assert_str_eq(f->inst[si].filters, "mode=two,port=0x5");
	/* an unknown choice names the valid ones and changes nothing */
	ck_assert_int_eq(session_set_filter(w.s, si, "mode", "three", &err), -1);
	ck_assert_msg(strstr(err, "'three' is not one of one, two"), "%s", err);
	free(err);
	ck_assert_str_eq(in->event_str[0], "fake_pmu_7/a,mode_b=1,port=0x5/");
	two_end(&w);
}
END_TEST

/* The host's CPU utilisation reaches frames, and batch text prints it: /proc/stat read at
 * the start and again at the first refresh (+300 busy, +100 idle: 75 %). */
START_TEST(host_meters_in_frames)
{
	struct two w;
	w.m = two_kinds_machine();
	w.p = profile_from_text(two_kinds_profile);
	w.ps[0] = w.p;
	w.s = session_new(w.m, w.ps, 1);
	struct sim_options so = { .model_path = NULL, .seed = 1 };
	session_add_source(w.s, source_sim_new(w.m, &so));
	char *proc = tmp_dir();
	put_file(proc, "proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\n");
	session_use_host_meters(w.s, procstat_new(proc), false);
	session_start(w.s, SEC);
	ck_assert(isnan(session_frame(w.s)->cpu_util)); /* one reading is no interval */
	put_file(proc, "proc/stat", "cpu  250 0 200 850 50 50 0 0 0 0\n");
	const struct frame *f = session_sample(w.s, 2 * SEC);
	ck_assert_double_eq_tol(f->cpu_util, 75.0, 1e-9);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert(batch_write_frame(out, &(struct batch_style){ BATCH_TEXT, false, ROWS_EVERY }, true, f));
	fclose(out);
	ck_assert_msg(strstr(buf, "  cpu 75.0%"), "%.200s", buf);
	free(buf);
	two_end(&w);
}
END_TEST

/* Batch output keeps full precision and the same state in every format: text, CSV and
 * JSON all say 0.0013027 and 1e-300, and an infinite value is "ok" everywhere (JSON's
 * 1e999 reads back as infinity). Raw deltas keep their fraction. */
START_TEST(batch_precision_and_states_agree)
{
	struct two w;
	w.m = two_kinds_machine();
	w.p = profile_from_text("[group t]\npmu = fake_gauge_{n}\ninstance = g{n}\nevents = temp\n"
			"[metric t.small]\nformula = temp * 0.0013027 / 40\n"
			"[metric t.tiny]\nformula = temp * 1e-300 / 40\n"
			"[metric t.huge]\nformula = temp * 1e308 * 10\n"
			"[metric t.half]\nformula = temp / 80\n");
	w.ps[0] = w.p;
	w.s = session_new(w.m, w.ps, 1);
	struct source *gauge = xcalloc(1, sizeof(*gauge));
	gauge->ops = &gauge_ops;
	session_add_source(w.s, gauge);
	gauge_reading = 40.0;
	session_start(w.s, SEC);
	const struct frame *f = session_sample(w.s, 2 * SEC);
	const enum batch_format formats[] = { BATCH_TEXT, BATCH_CSV, BATCH_JSON };
	char *out[3];
	for (int i = 0; i < 3; i++) {
		size_t len = 0;
		FILE *m = open_memstream(&out[i], &len);
		ck_assert(batch_write_frame(m, &(struct batch_style){ formats[i], true, ROWS_EVERY }, true, f));
		fclose(m);
		ck_assert_msg(strstr(out[i], "0.0013027"), "%d: %s", i, out[i]);
		ck_assert_msg(strstr(out[i], "1e-300"), "%d: %s", i, out[i]);
		ck_assert_msg(!strstr(out[i], "null"), "%d: a value lost its number: %s", i, out[i]);
	}
	ck_assert_msg(strstr(out[0], " inf "), "%s", out[0]);
	/* a text row is laid out in columns: metric 28, instance 16, value 12 right-aligned */
	char row[128];
	snprintf(row, sizeof(row), "\n  %-28s %-16s %12s %-6s\n", "t.small", "g0", "0.0013027", "");
	ck_assert_msg(strstr(out[0], row), "no row '%s' in:\n%s", row, out[0]);
	ck_assert_msg(strstr(out[1], ",inf,,ok"), "%s", out[1]);
	ck_assert_msg(strstr(out[2], "\"metric\":\"t.huge\",\"instance\":\"g0\",\"value\":1e999,\"unit\":\"\"}"), "%s", out[2]);
	ck_assert_msg(strstr(out[2], "\"delta\":40,"), "%s", out[2]); /* the gauge's reading */
	for (int i = 0; i < 3; i++)
		free(out[i]);
	two_end(&w);
}
END_TEST

/* ---- the run loop and an output, on a fake clock ---- */

struct seen {
	int frames, finished;
	uint64_t seq[8], time[8], wall[8];
	int fail_at;
};

static int seen_frame(struct output *o, const struct frame *f)
{
	struct seen *s = o->priv;
	if (s->frames < 8) {
		s->seq[s->frames] = f->seq;
		s->time[s->frames] = f->time_ns;
		s->wall[s->frames] = f->wall_ns;
	}
	s->frames++;
	return s->fail_at && s->frames == s->fail_at ? -1 : 0;
}

static int seen_finish(struct output *o)
{
	((struct seen *)o->priv)->finished++;
	return 0;
}

static void seen_destroy(struct output *o) { free(o); }
static const struct output_ops seen_ops = { .name = "seen", .frame = seen_frame, .finish = seen_finish,
					    .destroy = seen_destroy };

static int run_loop(struct seen *seen, long iterations)
{
	struct two w;
	two_begin(&w);
	struct clock clk;
	clock_init_fake(&clk, 10 * SEC);
	session_use_clock(w.s, &clk);
	struct runloop loop;
	runloop_init(&loop, w.s, &clk, 0.5, iterations);
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &seen_ops;
	o->priv = seen;
	runloop_add_output(&loop, o);
	int status = runloop_run(&loop);
	runloop_done(&loop);
	two_end(&w);
	return status;
}

/* A profile of n groups each reading one event per CPU on its own (grouped = no). */
static struct profile *many_groups(int n, const char *pmu, const char *event)
{
	char *text = xstrdup("[profile]\nname = many\n");
	for (int g = 0; g < n; g++) {
		char *more = xasprintf("%s[group g%d]\npmu = %s\nper = cpu\ngrouped = no\nevents = %s\n"
				       "[metric m%d]\ngroup = g%d\nformula = %s\n", text, g, pmu, event, g, g, event);
		free(text);
		text = more;
	}
	struct profile *p = profile_from_text(text);
	free(text);
	return p;
}

/* Twenty groups reading cpu_cycles on each of the Tegra410's 144 CPUs: each later group
 * reads the first's counter (one counter per encoding and CPU), and what is stored for it
 * grows with the groups, not with their square (ten thousand groups once took 24 GB). */
START_TEST(counter_sharing_is_linear)
{
	enum { N = 20 };
	struct machine *m = machine_discover(demo_tegra410());
	struct profile *p = many_groups(N, "armv8_pmuv3*", "cpu_cycles"), *ps[1] = { p };
	struct session *s = session_new(m, ps, 1);
	char *model = xasprintf("%s/model.ini", demo_tegra410());
	struct sim_options so = { .model_path = model, .seed = 1 };
	session_add_source(s, source_sim_new(m, &so));
	session_start(s, 5 * SEC);
	session_sample(s, 6 * SEC);
	int shares = 0, first_groups = 0;
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		shares += inst->nshares;
		if (!strcmp(inst->group->name, "g0")) {
			first_groups++;
			ck_assert_int_eq(instance_event_partner(inst, 0), -1);
			continue;
		}
		int partner = instance_event_partner(inst, 0);
		ck_assert_msg(partner >= 0 && !strcmp(s->inst[partner].group->name, "g0") &&
				      s->inst[partner].cpus.cpu[0] == inst->cpus.cpu[0],
			      "%s %s reads %d", inst->group->name, inst->name, partner);
		char metric[16];
		snprintf(metric, sizeof(metric), "m%s", inst->group->name + 1);
		ck_assert_double_eq(value_of(s, metric, inst->name)->value, value_of(s, "m0", inst->name)->value);
	}
	ck_assert_int_eq(first_groups, 144);
	ck_assert_int_eq(shares, (N - 1) * 144); /* N(N-1)/2 a CPU when each kept every partner */
	ck_assert_int_le(s->nshare_refs, N * 144);
	session_free(s);
	profile_free(p);
	machine_free(m);
	free(model);
}
END_TEST

/* More counters on one CPU than pmutop opens (1024): the session is refused, saying the
 * limit and the CPU, before the rest is bound; at the limit it binds. */
START_TEST(counters_per_cpu_are_bounded)
{
	char *root = one_event_tree("fake_pmu_0", "42", "cpumask", "3", "a=event=0x1");
	struct machine *m = machine_discover(root);
	for (int n = 1024; n <= 1025; n++) {
		struct profile *p = many_groups(n, "fake_pmu_*", "a"), *ps[1] = { p };
		struct session *s = session_new(m, ps, 1);
		if (n == 1024) {
			ck_assert_ptr_null(session_refusal(s));
			ck_assert_int_eq(s->ninstances, 1024);
		} else {
			ck_assert_ptr_nonnull(session_refusal(s));
			ck_assert_msg(strstr(session_refusal(s), "more than 1024 counters on CPU 3"), "%s", session_refusal(s));
			ck_assert_int_le(s->ninstances, 1025);
		}
		session_free(s);
		profile_free(p);
	}
	machine_free(m);
}
END_TEST

START_TEST(run_loop_feeds_outputs_frames)
{
	struct seen seen = { 0 };
	ck_assert_int_eq(run_loop(&seen, 3), 0);
	ck_assert_int_eq(seen.frames, 3);
	ck_assert_int_eq(seen.finished, 1);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(seen.seq[i], (uint64_t)i + 1);
		ck_assert_uint_eq(seen.time[i], 10 * SEC + (uint64_t)(i + 1) * SEC / 2); /* no waiting */
	}
	ck_assert_uint_eq(seen.wall[2] - seen.wall[0], SEC); /* time stamps follow the clock */
	/* an output that cannot go on stops the loop with a failure */
	struct seen failing = { .fail_at = 2 };
	ck_assert_int_eq(run_loop(&failing, 10), 1);
	ck_assert_int_eq(failing.frames, 2);
	ck_assert_int_eq(failing.finished, 1);
}
END_TEST

/* The perf_event cgroup hierarchy as perf finds it: a v1 mount naming perf_event before
 * cgroup2, its path's octal escapes read; -G's names resolved with or without the mount
 * or a leading /, '..' and strangers refused; a cgroup's processes and CPU time its
 * descendants' too (the kernel's rule), cpu.stat's usage where it is kept. */
START_TEST(cgroup_hierarchy_found_listed_and_summed)
{
	char *root = tmp_dir();
	put_file(root, "proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n"
					   "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu,cpuacct 0 0\n"
					   "cgroup /sys/fs/cgroup/perf\\040event cgroup rw,nosuid,perf_event 0 0\n");
	put_file(root, "sys/fs/cgroup/perf event/cgroup.procs", "1\n2\n");
	put_file(root, "sys/fs/cgroup/perf event/a/cgroup.procs", "10\n");
	put_file(root, "sys/fs/cgroup/perf event/a/b/cgroup.procs", "11\n12\n");
	put_file(root, "sys/fs/cgroup/perf event/c/cgroup.procs", "");
	put_file(root, "sys/fs/cgroup/perf event/c/cpu.stat", "usage_usec 1500\nuser_usec 1000\n");
	struct cgroupfs fs;
	char *why = NULL;
	ck_assert_int_eq(cgroupfs_find(root, &fs, &why), 0);
	ck_assert_str_eq(fs.shown, "/sys/fs/cgroup/perf event");
	ck_assert(!fs.v2);
	const char *names[][2] = { { "/sys/fs/cgroup/perf event/a/b", "a/b" }, { "/a/", "a" }, { "/", "" }, { "c", "c" } };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *rel = cgroupfs_resolve(&fs, names[i][0], &why);
		ck_assert_msg(rel && !strcmp(rel, names[i][1]), "%s: %s", names[i][0], rel ? rel : why);
		free(rel);
	}
	const char *refused[] = { "a/../..", "..", "zz", "a/b/c" };
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		why = NULL;
		ck_assert_ptr_null(cgroupfs_resolve(&fs, refused[i], &why));
		ck_assert_ptr_nonnull(why);
		free(why);
	}
	struct task_sample procs[] = { { .pid = 1, .cpu_ns = 100 }, { .pid = 2, .cpu_ns = 200 }, { .pid = 10, .cpu_ns = 1000 },
				       { .pid = 11, .cpu_ns = 20000 }, { .pid = 12, .cpu_ns = 300000 } };
	struct cgroup_node *nodes;
	int n = cgroupfs_tree(&fs, "", procs, 5, &nodes);
	ck_assert_int_eq(n, 4);
	const char *rel[] = { "", "a", "a/b", "c" };
	const int nprocs[] = { 5, 3, 2, 0 };
	const uint64_t cpu[] = { 321300, 321000, 320000, 1500000 };
	for (int i = 0; i < n; i++) {
		ck_assert_str_eq(nodes[i].rel, rel[i]);
		ck_assert_int_eq(nodes[i].nprocs, nprocs[i]);
		ck_assert_uint_eq(nodes[i].cpu_ns, cpu[i]);
	}
	ck_assert_int_eq(nodes[2].parent, 1);
	cgroupfs_nodes_free(nodes, n);
	cgroupfs_done(&fs);
	/* no v1 hierarchy with perf_event: cgroup2's */
	put_file(root, "proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n");
	ck_assert_int_eq(cgroupfs_find(root, &fs, &why), 0);
	ck_assert(fs.v2);
	cgroupfs_done(&fs);
	/* a mount point no kernel writes (a fake tree's ".." out of its root): not taken */
	put_file(root, "proc/self/mounts", "cgroup2 /sys/fs/cgroup/\\056\\056/\\056\\056 cgroup2 rw 0 0\n"
					   "proc /proc proc rw 0 0\n");
	why = NULL;
	ck_assert_int_eq(cgroupfs_find(root, &fs, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "perf_event"));
	free(why);
	/* a row's number stays its path's */
	struct str_ids ids = { 0 };
	char name[16];
	for (int i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		ck_assert_int_eq(str_ids_get(&ids, name), i);
	}
	ck_assert_int_eq(str_ids_get(&ids, "g7"), 7);
	ck_assert_str_eq(str_ids_name(&ids, 499), "g499");
	ck_assert_ptr_null(str_ids_name(&ids, 500));
	str_ids_free(&ids);
}
END_TEST

/* An alias file's "event=0x..,umask=0x.." as Intel's core format places them (event
 * config:0-7, umask config:8-15: the tree's format files say so, read here by hand) */
static uint64_t intel_alias_config(const char *tree, const char *alias)
{
	char *path = xasprintf("%s/sys/bus/event_source/devices/cpu/events/%s", tree, alias);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	char text[128] = "";
	ck_assert(fgets(text, sizeof(text), f) != NULL);
	fclose(f);
	free(path);
	const char *ev = strstr(text, "event="), *um = strstr(text, "umask=");
	uint64_t c = ev ? strtoull(ev + 6, NULL, 0) : 0;
	return c | (um ? strtoull(um + 6, NULL, 0) << 8 : 0);
}

/* A task's TopDown events where the tree's cpu PMU has perf metrics (the SPR demo's): its
 * type, each alias's config as sysfs gives it, slots first; none on the Tegra410's cores */
START_TEST(task_topdown_events_from_sysfs)
{
	char *spr = xasprintf("%s/profiles/machines/spr", TOP_SRCDIR);
	struct machine *m = machine_discover(spr);
	struct task_events te;
	task_events_of(m, &te);
	static const char *const alias[] = { "slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
					     "topdown-be-bound" };
	const struct pmu *cpu = machine_find_pmu(m, "cpu");
	ck_assert(cpu != NULL);
	for (int k = 0; k < 5; k++) {
		ck_assert_msg(te.here[TASK_SLOTS + k], "%s", alias[k]);
		ck_assert_int_eq(te.type[TASK_SLOTS + k], (uint32_t)cpu->type);
		ck_assert_uint_eq(te.config[TASK_SLOTS + k], intel_alias_config(spr, alias[k]));
	}
	ck_assert(te.here[TASK_CYCLES] && te.type[TASK_CYCLES] == 0); /* PERF_TYPE_HARDWARE */
	machine_free(m);
	free(spr);
	m = machine_discover(demo_tegra410());
	task_events_of(m, &te);
	for (int e = TASK_SLOTS; e < TASK_EVENTS; e++)
		ck_assert(!te.here[e]);
	machine_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("engine");
	TCase *t = tcase_create("engine");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, one_session_two_sources);
	tcase_add_test(t, device_gone_and_back);
	tcase_add_test(t, cpu_offline_leaves_the_aggregate);
	tcase_add_test(t, cpu_offline_leaves_the_counting_row);
	tcase_add_test(t, history_window_max_matches_a_scan);
	tcase_add_test(t, history_keeps_three_digits_and_rows_only_where_numbers_came);
	tcase_add_test(t, enum_filter_and_per_event_acceptance);
	tcase_add_test(t, run_loop_feeds_outputs_frames);
	tcase_add_test(t, host_meters_in_frames);
	tcase_add_test(t, batch_precision_and_states_agree);
	tcase_add_test(t, counter_sharing_is_linear);
	tcase_add_test(t, counters_per_cpu_are_bounded);
	tcase_add_test(t, cgroup_hierarchy_found_listed_and_summed);
	tcase_add_test(t, task_topdown_events_from_sysfs);
	suite_add_tcase(s, t);
	return run_suite(s);
}
