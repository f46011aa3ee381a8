/* SPDX-License-Identifier: GPL-2.0-only */
/* check_session.c - binding, the sampler (wrap, scaling, states) with a scripted source
 * and an injected clock, filters and their constraints, the simulated Tegra410's exact
 * values, and batch output. No test sleeps: time is whatever the test says it is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outputs/batch.h"
#include "base/diag.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "profile/metric_select.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "sources/sources.h"
#include "sim/simulator.h"
#include "testutil.h"
#include "base/util.h"

#define SEC 1000000000ull

/* ---- a scripted source: counters take whatever the test puts in script[] ---- */

struct script {
	uint64_t value[8], enabled[8], running[8];
	int width;
	bool fail_open;
	int fail_cpu; /* fail opens on this CPU + 1 (0: none) */
};
static struct script script;

static int script_open(struct source *src, struct instance *inst)
{
	(void)src;
	if (script.fail_open || (script.fail_cpu && inst->cpus.n && inst->cpus.cpu[0] == script.fail_cpu - 1)) {
		inst->open_error = xstrdup("scripted failure");
		return -13;
	}
	for (int c = 0; c < inst->ncounters; c++)
		inst->counters[c].width = script.width ? script.width : 64;
	return 0;
}

static int script_read(struct source *src, struct instance *inst, uint64_t now)
{
	(void)src; (void)now;
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		counter_read_count(ct, script.value[ct->event], script.enabled[ct->event], script.running[ct->event]);
	}
	return 0;
}

static void script_close(struct source *src, struct instance *inst) { (void)src; (void)inst; }
static void script_destroy(struct source *src) { free(src); }
static const struct source_ops script_ops = { "scripted", NULL, script_open, script_read, script_close, script_destroy, NULL, false };

static struct machine *fake_machine(void)
{
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/type", "42\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/cpumask", "3\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/hw_clk_freq", "100\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/mask", "config1:0-3\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/bdf", "config1:8-23\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/bdf_en", "config1:24\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/a", "event=0x1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/b", "event=0x2\n");
	return machine_discover(root);
}

static struct profile *fake_profile(void)
{
	char *dir = tmp_dir();
	put_file(dir, "f.ini",
		 "[profile]\nrequires = fake_pmu_*\n"
		 "[group g]\npmu = fake_pmu_{n}\ninstance = f{n}\nevents = a b\nattrs = hw_clk_freq\n"
		 "filter.mask = mask\nfilter.bdf = bdf enable=bdf_en\nexclusive = mask bdf\n"
		 "[metric g.rate]\nformula = a / elapsed_s\n"
		 "[metric g.ratio]\nformula = a / b\n"
		 "[metric g.clk]\nformula = hw_clk_freq * 2\n");
	char *path = xasprintf("%s/f.ini", dir);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "fake profile: %s", diag_count() ? diag_message(0, NULL) : "");
	free(path);
	return p;
}

struct fixture {
	struct machine *m;
	struct profile *p;
	struct profile **ps;
	struct session *s;
	struct source *src;
};

static void fixture_start(struct fixture *f)
{
	memset(&script, 0, sizeof(script));
	f->m = fake_machine();
	f->p = fake_profile();
	f->ps = xmalloc(sizeof(*f->ps));
	f->ps[0] = f->p;
	f->s = session_new(f->m, f->ps, 1);
	f->src = xcalloc(1, sizeof(*f->src));
	f->src->ops = &script_ops;
	session_add_source(f->s, f->src);
	session_start(f->s, 10 * SEC);
}

static void fixture_end(struct fixture *f)
{
	session_free(f->s); /* and its sources */
	profile_free(f->p);
	free(f->ps);
	machine_free(f->m);
}

START_TEST(sampler_rates_and_states)
{
	struct fixture f;
	fixture_start(&f);
	ck_assert_int_eq(f.s->ninstances, 1);
	ck_assert_str_eq(f.s->inst[0].name, "f7");
	ck_assert_int_eq(f.s->inst[0].counters[0].cpu, 3); /* counted on the cpumask CPU */
	/* interval 1: 2 s, a += 500, b += 250, always running */
	script.value[0] = 500, script.value[1] = 250;
	for (int e = 0; e < 2; e++)
		script.enabled[e] = script.running[e] = 2 * SEC;
	session_sample(f.s, 12 * SEC);
	const struct frame_value *v = value_of(f.s, "g.rate", "f7");
	ck_assert_int_eq(v->state, VS_OK);
	ck_assert_double_eq_tol(v->value, 250.0, 1e-9); /* per second, whatever the interval */
	ck_assert_double_eq_tol(value_of(f.s, "g.ratio", "f7")->value, 2.0, 1e-12);
	ck_assert_double_eq_tol(value_of(f.s, "g.clk", "f7")->value, 200.0, 1e-12);
	ck_assert(!v->multiplexed);
	/* interval 2: multiplexed, running half of enabled: a counted 100 -> 200 scaled */
	script.value[0] += 100;
	script.value[1] += 100;
	script.enabled[0] += SEC, script.running[0] += SEC / 2;
	script.enabled[1] += SEC, script.running[1] += SEC;
	session_sample(f.s, 13 * SEC);
	v = value_of(f.s, "g.rate", "f7");
	ck_assert_int_eq(v->state, VS_OK);
	ck_assert(v->multiplexed);
	ck_assert_double_eq_tol(v->coverage, 0.5, 1e-12);
	ck_assert_double_eq_tol(v->value, 200.0, 1e-9);
	/* interval 3: b did not move: a / b is "no value", never 0 or inf */
	script.value[0] += 10;
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 14 * SEC);
	ck_assert_int_eq(value_of(f.s, "g.ratio", "f7")->state, VS_NO_VALUE);
	ck_assert(isnan(value_of(f.s, "g.ratio", "f7")->value));
	/* interval 4: a never ran: not counted, not 0 */
	script.enabled[0] += SEC;
	script.enabled[1] += SEC, script.running[1] += SEC;
	session_sample(f.s, 15 * SEC);
	ck_assert_int_eq(value_of(f.s, "g.rate", "f7")->state, VS_NOT_COUNTED);
	/* interval 5: a 64-bit count went backwards: unreadable, never a negative rate */
	script.value[0] -= 5;
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 16 * SEC);
	ck_assert_int_eq(value_of(f.s, "g.rate", "f7")->state, VS_UNREADABLE);
	fixture_end(&f);
}
END_TEST

START_TEST(sampler_narrow_counter_wraps)
{
	struct fixture f;
	memset(&script, 0, sizeof(script));
	fixture_start(&f);
	/* reopen with 32-bit counters near the top */
	script.width = 32;
	script.value[0] = 0xfffffff0u;
	script.value[1] = 1;
	script.enabled[0] = script.running[0] = script.enabled[1] = script.running[1] = 1;
	char *err;
	ck_assert_int_eq(session_set_filter(f.s, 0, "mask", "0x1", &err), 0);
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 11 * SEC); /* the first interval after a change shows no value */
	ck_assert_int_eq(value_of(f.s, "g.rate", "f7")->state, VS_NO_VALUE);
	script.value[0] = 0x10; /* wrapped: 0x20 events */
	script.value[1] = 2;
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 12 * SEC);
	ck_assert_int_eq(value_of(f.s, "g.rate", "f7")->state, VS_OK);
	ck_assert_double_eq_tol(value_of(f.s, "g.rate", "f7")->value, 32.0, 1e-9);
	/* a step back of more than half the range is a reset (the counter was cleared and
	 * counted a little), not a wrap worth 2^32 */
	script.value[0] = 0x80000000u;
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 13 * SEC);
	script.value[0] = 0x10;
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 14 * SEC);
	ck_assert_int_eq(value_of(f.s, "g.rate", "f7")->state, VS_UNREADABLE);
	script.value[0] = 0x30; /* and counts on from there */
	for (int e = 0; e < 2; e++)
		script.enabled[e] += SEC, script.running[e] += SEC;
	session_sample(f.s, 15 * SEC);
	ck_assert_double_eq_tol(value_of(f.s, "g.rate", "f7")->value, 32.0, 1e-9);
	fixture_end(&f);
}
END_TEST

START_TEST(filters_encode_and_refuse)
{
	struct fixture f;
	fixture_start(&f);
	struct instance *inst = &f.s->inst[0];
	char *err;
	ck_assert_int_eq(session_set_filter(f.s, 0, "bdf", "01:00.1", &err), 0);
	ck_assert_uint_eq(inst->counters[0].attr.config[1], 0x0101ull << 8 | 1ull << 24); /* bdf + bdf_en */
	char *fs = instance_filter_string(inst);
	ck_assert_str_eq(fs, "bdf=0x101"); /* the companion bdf_en=1 is in the encoding above */
	free(fs);
	ck_assert_int_eq(session_set_filter(f.s, 0, "mask", "0x3", &err), -1);
	ck_assert_msg(strstr(err, "mask and bdf are mutually exclusive"), "%s", err);
	free(err);
	ck_assert_int_eq(session_set_filter(f.s, 0, "bdf", "default", &err), 0);
	ck_assert_int_eq(session_set_filter(f.s, 0, "mask", "0x3", &err), 0);
	ck_assert_uint_eq(inst->counters[0].attr.config[1], 3);
	ck_assert_int_eq(session_set_filter(f.s, 0, "mask", "0x10", &err), -1);
	ck_assert_msg(strstr(err, "too wide") && strstr(err, "config1:0-3"), "%s", err);
	free(err);
	ck_assert_uint_eq(inst->counters[0].attr.config[1], 3); /* unchanged after a refusal */
	ck_assert_int_eq(session_set_filter(f.s, 0, "nope", "1", &err), -1);
	ck_assert_msg(strstr(err, "no filter 'nope' (filters: mask, bdf)"), "%s", err);
	free(err);
	ck_assert_int_eq(session_set_filter(f.s, 0, "bdf", "zz", &err), -1);
	ck_assert_msg(strstr(err, "bdf=zz"), "%s", err);
	free(err);
	fixture_end(&f);
}
END_TEST

/* A filter change on an aggregate reaches all its members or none: when the driver
 * refuses the new filters on one member, the others go back to the old ones. */
START_TEST(aggregate_filter_change_is_all_or_nothing)
{
	memset(&script, 0, sizeof(script));
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/type", "42\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/cpus", "0-1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/mask", "config1:0-3\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/a", "event=0x1\n");
	put_file(root, "sys/devices/system/cpu/online", "0-1\n");
	struct machine *m = machine_discover(root);
	char *dir = tmp_dir();
	put_file(dir, "p.ini", "[group g]\npmu = fake_pmu_{n}\nper = cpu\naggregate = all\nevents = a\n"
			       "filter.mask = mask\n[metric g.a]\nformula = a\n");
	char *path = xasprintf("%s/p.ini", dir);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	free(path);
	ck_assert_ptr_nonnull(p);
	struct profile *ps[1] = { p };
	struct session *s = session_new(m, ps, 1);
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &script_ops;
	session_add_source(s, src);
	session_start(s, SEC);
	int all = instance_index(s, "g", "all"), cpu0 = instance_index(s, "g", "cpu0"), cpu1 = instance_index(s, "g", "cpu1");
	ck_assert(s->inst[cpu0].opened && s->inst[cpu1].opened);
	script.fail_cpu = 1 + 1; /* CPU 1 refuses the next open */
	char *err = NULL;
	ck_assert_int_eq(session_set_filter(s, all, "mask", "0x3", &err), -1);
	ck_assert_msg(err && strstr(err, "cpu1") && strstr(err, "refused"), "%s", err ? err : "");
	free(err);
	uint64_t v;
	ck_assert(!session_filter(s, cpu0, 0, &v)); /* cpu0 is back to no mask */
	ck_assert_uint_eq(s->inst[cpu0].counters[0].attr.config[1], 0);
	ck_assert(s->inst[cpu0].opened);
	ck_assert(!session_filter(s, all, 0, &v));
	/* cpu1 could not reopen: the aggregate sums the member that counts, never a made-up
	 * zero for the other */
	script.enabled[0] = script.running[0] = SEC; /* cpu0 counted the second (online) */
	session_sample(s, 2 * SEC);
	ck_assert(!s->inst[cpu1].opened);
	ck_assert_int_ne(value_of(s, "g.a", "all")->state, VS_UNAVAILABLE);
	script.fail_cpu = 0;
	ck_assert_int_eq(session_set_filter(s, all, "mask", "0x3", &err), 0);
	ck_assert_uint_eq(s->inst[cpu0].counters[0].attr.config[1], 3);
	ck_assert_uint_eq(s->inst[cpu1].counters[0].attr.config[1], 3);
	session_free(s);
	/* when no member counts, the aggregate is n/a like them, not "-" and not 0 */
	s = session_new(m, ps, 1);
	src = xcalloc(1, sizeof(*src));
	src->ops = &script_ops;
	session_add_source(s, src);
	script.fail_open = true;
	session_start(s, SEC);
	session_sample(s, 2 * SEC);
	ck_assert_int_eq(value_of(s, "g.a", "all")->state, VS_UNAVAILABLE);
	ck_assert(!value_of(s, "g.a", "all")->multiplexed);
	script.fail_open = false;
	session_free(s);
	profile_free(p);
	machine_free(m);
}
END_TEST

/* CPUs of a cpumask that are not online are left out, with a warning: perf could not open
 * on them, and a bogus "2-40000" must not become 40000 counters. */
/* A tree with one uncore PMU of events a and b behind cpumask, on online CPUs 0-3. */
static char *cpumask_tree(const char *cpumask)
{
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/type", "42\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/cpumask", cpumask);
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/a", "event=0x1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_7/events/b", "event=0x2\n");
	put_file(root, "sys/devices/system/cpu/online", "0-3\n");
	return root;
}

START_TEST(cpumask_keeps_online_cpus)
{
	char *root = cpumask_tree("2-8000\n");
	diag_clear();
	struct machine *m = machine_discover(root);
	const struct pmu *p = machine_find_pmu(m, "fake_pmu_7");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->cpus.n, 2);
	ck_assert_int_eq(p->cpus.cpu[0], 2);
	ck_assert_int_eq(p->cpus.cpu[1], 3);
	bool warned = false;
	for (int k = 0; k < diag_count(); k++)
		warned |= strstr(diag_message(k, NULL), "fake_pmu_7/cpumask: 7997 CPUs not online") != NULL;
	ck_assert(warned);
	machine_free(m);
}
END_TEST

/* A cpumask that is malformed, empty or names no online CPU leaves the PMU unavailable,
 * with a warning naming the file; it never counts on every CPU (an uncore figure times the
 * CPU count), nor on thousands of CPUs that do not exist. */
START_TEST(bad_cpumask_is_unavailable)
{
	const char *masks[] = { "abc\n", "\n", "0-\n", "7\n", "9-60000\n" };
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		char *root = cpumask_tree(masks[i]);
		diag_clear();
		struct machine *m = machine_discover(root);
		bool warned = false;
		for (int k = 0; k < diag_count(); k++)
			warned |= strstr(diag_message(k, NULL), "fake_pmu_7/cpumask") && strstr(diag_message(k, NULL), "unavailable");
		ck_assert_msg(warned, "mask '%s': no warning naming the file", masks[i]);
		struct profile *p = fake_profile();
		struct profile *ps[1] = { p };
		struct session *s = session_new(m, ps, 1);
		struct source *src = xcalloc(1, sizeof(*src));
		src->ops = &script_ops;
		session_add_source(s, src);
		session_start(s, SEC);
		session_sample(s, 2 * SEC);
		ck_assert_int_eq(s->inst[0].cpus.n, 0);
		ck_assert_msg(s->inst[0].unavailable && strstr(s->inst[0].unavailable, "cpumask"), "%s",
			      s->inst[0].unavailable ? s->inst[0].unavailable : "(available)");
		ck_assert_int_eq(value_of(s, "g.rate", "f7")->state, VS_UNAVAILABLE);
		session_free(s);
		profile_free(p);
		machine_free(m);
	}
}
END_TEST

/* alternative = GROUP: a group is not said missing where the group it names binds (the
 * TSC where arm64's generic timer is), and is where neither does. */
START_TEST(alternative_group_not_missing_where_its_partner_binds)
{
	char *dir = tmp_dir();
	put_file(dir, "a.ini",
		 "[group tsc]\npmu = fake_msr\nevents = a\nalternative = timer\n"
		 "[group timer]\npmu = fake_timer\nevents = a\nalternative = yes\n");
	char *path = xasprintf("%s/a.ini", dir);
	for (int with_timer = 0; with_timer < 2; with_timer++) {
		char *root = tmp_dir();
		put_file(root, "sys/bus/event_source/devices/other/type", "7\n");
		if (with_timer) {
			put_file(root, "sys/bus/event_source/devices/fake_timer/type", "42\n");
			put_file(root, "sys/bus/event_source/devices/fake_timer/format/event", "config:0-7\n");
			put_file(root, "sys/bus/event_source/devices/fake_timer/events/a", "event=0x1\n");
		}
		struct machine *m = machine_discover(root);
		int nerr;
		struct profile *p = profile_load(path, &nerr);
		ck_assert_ptr_nonnull(p);
		struct profile *ps[1] = { p };
		struct session *s = session_new(m, ps, 1);
		bool tsc_missing = false;
		for (int k = 0; k < s->nmissing; k++)
			tsc_missing |= !strcmp(s->missing[k]->name, "tsc");
		ck_assert_msg(tsc_missing == !with_timer, "with the timer %d: the TSC said missing %d", with_timer, tsc_missing);
		session_free(s);
		profile_free(p);
		machine_free(m);
	}
	free(path);
}
END_TEST

/* A metric in another unit on another family (perf's l3_read_miss_latency: core clocks on
 * Zen 4, ns on Zen 5) takes the unit of the form that binds; were forms in two units to
 * bind at once, the later one's values are left out, with a warning naming both. */
static int values_named(const struct session *s, const char *metric)
{
	int n = 0;
	for (int k = 0; k < s->nvalues; k++)
		n += !strcmp(s->vinfo[k].m->name, metric);
	return n;
}

START_TEST(metric_unit_follows_the_bound_form)
{
	char *dir = tmp_dir();
	put_file(dir, "u.ini",
		 "[group old]\npmu = fake_pmu_{n}\ninstance = f{n}\nalternative = yes\nevents = a\n"
		 "[group new]\npmu = next_pmu_{n}\ninstance = n{n}\nalternative = yes\nevents = a\n"
		 "[metric lat]\ngroup = old\nformula = a\nunit = cycles\nformula@new = a * 2\nunit@new = ns\n");
	char *path = xasprintf("%s/u.ini", dir);
	const char *pmus[3][2] = { { "fake_pmu_7", NULL }, { "next_pmu_3", NULL }, { "fake_pmu_7", "next_pmu_3" } };
	const char *want[3] = { "cycles", "ns", "cycles" };
	for (int c = 0; c < 3; c++) {
		char *root = tmp_dir();
		for (int k = 0; k < 2 && pmus[c][k]; k++) {
			char *d = xasprintf("sys/bus/event_source/devices/%s", pmus[c][k]);
			char *t = xasprintf("%s/type", d), *e = xasprintf("%s/format/event", d), *a = xasprintf("%s/events/a", d);
			put_file(root, t, "42\n");
			put_file(root, e, "config:0-7\n");
			put_file(root, a, "event=0x1\n");
			free(t); free(e); free(a); free(d);
		}
		struct machine *m = machine_discover(root);
		int nerr;
		struct profile *p = profile_load(path, &nerr);
		ck_assert_ptr_nonnull(p);
		struct profile *ps[1] = { p };
		diag_clear();
		struct session *s = session_new(m, ps, 1);
		ck_assert_str_eq(p->metrics[0].unit, want[c]);
		ck_assert_int_eq(values_named(s, "lat"), 1); /* with both, the old group's only */
		bool warned = false;
		for (int k = 0; k < diag_count(); k++)
			warned |= strstr(diag_message(k, NULL), "[metric lat]: group new gives it in 'ns'") &&
				  strstr(diag_message(k, NULL), "'cycles'");
		ck_assert_msg(warned == (c == 2), "case %d: warned %d", c, warned);
		session_free(s);
		profile_free(p);
		machine_free(m);
	}
	free(path);
}
END_TEST

START_TEST(open_failure_is_per_instance)
{
	memset(&script, 0, sizeof(script));
	struct machine *m = fake_machine();
	struct profile *p = fake_profile();
	struct profile *ps[1] = { p };
	struct session *s = session_new(m, ps, 1);
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &script_ops;
	script.fail_open = true;
	session_add_source(s, src);
	session_start(s, SEC);
	session_sample(s, 2 * SEC);
	ck_assert_int_eq(s->inst[0].open_errno, 13);
	ck_assert_str_eq(s->inst[0].open_error, "scripted failure");
	ck_assert_int_eq(value_of(s, "g.rate", "f7")->state, VS_UNAVAILABLE);
	session_free(s);
	profile_free(p);
	machine_free(m);
}
END_TEST

/* ---- the simulated Tegra410 ---- */

struct simrun {
	struct machine *m;
	struct profile *p;
	struct profile *ps[1];
	struct session *s;
	struct source *src;
};

static void sim_begin(struct simrun *r, const char *root, const char *model, uint64_t seed)
{
	r->m = machine_discover(root);
	char *path = src_path("profiles/tegra410.ini");
	int nerr;
	r->p = profile_load(path, &nerr);
	free(path);
	ck_assert_ptr_nonnull(r->p);
	r->ps[0] = r->p;
	r->s = session_new(r->m, r->ps, 1);
	struct sim_options so = { .model_path = model, .seed = seed };
	r->src = source_sim_new(r->m, &so);
	ck_assert_ptr_nonnull(r->src);
	session_add_source(r->s, r->src);
	session_start(r->s, 5 * SEC);
}

static void sim_end(struct simrun *r)
{
	session_free(r->s);
	profile_free(r->p);
	machine_free(r->m);
}

static double metric_after_filter(struct simrun *r, const char *group, const char *inst, const char *term,
				  const char *value, const char *metric, uint64_t *t)
{
	char *err = NULL;
	int in = instance_index(r->s, group, inst);
	if (term)
		ck_assert_msg(session_set_filter(r->s, in, term, value, &err) == 0, "%s", err);
	*t += SEC;
	session_sample(r->s, *t); /* partial interval after the change */
	if (term)
		ck_assert_int_eq(value_of(r->s, metric, inst)->state, VS_NO_VALUE);
	*t += SEC;
	session_sample(r->s, *t);
	const struct frame_value *v = value_of(r->s, metric, inst);
	ck_assert_int_eq(v->state, VS_OK);
	return v->value;
}

/* Metrics read other metrics by name (perf's MetricExpr do), defined above or below:
 * each is evaluated after what it reads, on the same instance, from its value before its
 * scale (perf's ScaleUnit applies to what is shown); a sum's too. */
/* The simulator on root with dir's profile r.ini and model m.ini, started at 5 s. */
static void profile_sim_begin(struct simrun *r, const char *dir, const char *root)
{
	char *path = xasprintf("%s/r.ini", dir), *model = xasprintf("%s/m.ini", dir);
	int nerr;
	r->m = machine_discover(root);
	r->p = profile_load(path, &nerr);
	ck_assert_ptr_nonnull(r->p);
	r->ps[0] = r->p;
	r->s = session_new(r->m, r->ps, 1);
	struct sim_options so = { .model_path = model, .seed = 1 };
	r->src = source_sim_new(r->m, &so);
	ck_assert_ptr_nonnull(r->src);
	session_add_source(r->s, r->src);
	session_start(r->s, 5 * SEC);
	free(path);
	free(model);
}

START_TEST(metrics_read_metrics_by_name)
{
	char *dir = tmp_dir(), *root = tmp_dir();
	put_file(dir, "r.ini",
		 "[group g]\npmu = fake_pmu_{n}\ninstance = f{n}\naggregate = all\nevents = a b\n"
		 "[metric g.ratio]\nformula = g.share * 2\n"
		 "[metric g.share]\nformula = a / (a + b)\nscale = 100\nunit = %\n"
		 "[metric g.both]\nformula = g.ratio + g.share - 1\n");
	put_file(dir, "m.ini", "[model]\njitter = 0\n[pmu fake_pmu_*]\nrate.a = 3e6 * (index + 1)\nrate.b = 1e6\n");
	for (int n = 0; n < 2; n++) {
		char *d = xasprintf("sys/bus/event_source/devices/fake_pmu_%d", n);
		char *t = xasprintf("%s/type", d), *e = xasprintf("%s/format/event", d);
		char *a = xasprintf("%s/events/a", d), *b = xasprintf("%s/events/b", d), *c = xasprintf("%s/cpumask", d);
		put_file(root, t, n ? "43\n" : "42\n");
		put_file(root, e, "config:0-7\n");
		put_file(root, a, "event=0x1\n");
		put_file(root, b, "event=0x2\n");
		put_file(root, c, "0\n");
		free(t); free(e); free(a); free(b); free(c); free(d);
	}
	struct simrun r;
	profile_sim_begin(&r, dir, root);
	session_sample(r.s, 6 * SEC);
	/* f0: a 3, b 1; f1: a 6, b 1; all: a 9, b 2 (a sum's share is of its sums) */
	/* shown scaled (perf's ScaleUnit 100%), read by the others as its formula gives it */
	ck_assert_double_eq_tol(value_of(r.s, "g.share", "f0")->value, 75, 1e-12);
	ck_assert_double_eq_tol(value_of(r.s, "g.ratio", "f1")->value, 2 * 6.0 / 7, 1e-12);
	ck_assert_double_eq_tol(value_of(r.s, "g.ratio", "all")->value, 2 * 9.0 / 11, 1e-12);
	ck_assert_double_eq_tol(value_of(r.s, "g.both", "f0")->value, 1.5 + 0.75 - 1, 1e-12);
	/* what is read comes first: share, then ratio, then both */
	int first[3] = { -1, -1, -1 };
	const char *order[3] = { "g.share", "g.ratio", "g.both" };
	for (int k = 0; k < r.s->nvalues; k++)
		for (int o = 0; o < 3; o++)
			if (first[o] < 0 && !strcmp(r.s->vinfo[k].m->name, order[o]))
				first[o] = k;
	ck_assert(first[0] < first[1] && first[1] < first[2]);
	sim_end(&r);
}
END_TEST

/* Counters only for what is shown, event by event: one instance hosts a shown metric's
 * events and a hidden one's; only the shown one's are opened, the other gives no value
 * (not n/a), and showing it opens its event again. */
START_TEST(closing_by_event)
{
	char *dir = tmp_dir(), *root = tmp_dir();
	put_file(dir, "r.ini",
		 "[group g]\npmu = fake_pmu_{n}\ninstance = f{n}\nevents = a b c\n"
		 "[metric g.ab]\nformula = a / b\n[metric g.c]\nformula = c / elapsed_s\n");
	put_file(dir, "m.ini", "[model]\njitter = 0\n[pmu fake_pmu_*]\nrate.a = 3e6\nrate.b = 1e6\nrate.c = 5e6\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/type", "42\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/events/a", "event=0x1\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/events/b", "event=0x2\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/events/c", "event=0x3\n");
	put_file(root, "sys/bus/event_source/devices/fake_pmu_0/cpumask", "0\n");
	struct simrun r;
	profile_sim_begin(&r, dir, root);
	bool *shown = xcalloc((size_t)r.s->nvalues, sizeof(bool));
	for (int k = 0; k < r.s->nvalues; k++)
		shown[k] = !strcmp(r.s->vinfo[k].m->name, "g.ab");
	session_need_values(r.s, shown);
	const struct instance *f0 = &r.s->inst[0];
	ck_assert(f0->opened);
	ck_assert_ptr_nonnull(f0->closed);
	ck_assert(!f0->closed[0] && !f0->closed[1] && f0->closed[2]);
	session_sample(r.s, 6 * SEC);
	session_sample(r.s, 7 * SEC);
	ck_assert_double_eq_tol(value_of(r.s, "g.ab", "f0")->value, 3, 1e-9);
	ck_assert_int_eq(value_of(r.s, "g.c", "f0")->state, VS_NO_VALUE);
	session_need_values(r.s, NULL); /* every value shown: c opened again */
	ck_assert_ptr_null(f0->closed);
	session_sample(r.s, 8 * SEC);
	session_sample(r.s, 9 * SEC);
	ck_assert_double_eq_tol(value_of(r.s, "g.c", "f0")->value, 5e6, 1e-3);
	free(shown);
	sim_end(&r);
}
END_TEST

/* perf's catalogue keeps only what its chosen metrics read: a group of five events of
 * which -M's metric reads three binds with those three, renumbered (its formula, a
 * builtin past the events, a metric read by name past the imports, perf's group), and
 * counts them right; the metric not chosen has no value. */
START_TEST(catalogue_keeps_read_events)
{
	char *dir = tmp_dir(), *root = tmp_dir();
	put_file(dir, "r.ini",
		 "[group g]\npmu = fake_pmu_{n}\ninstance = f{n}\naggregate = all\nevents = a b c d e\n"
		 "[metric g.ab]\nformula = a / b\n"
		 "[metric g.ce]\nformula = (c + e) / d\n"
		 "[metric g.twice]\nformula = g.ce * 2 + e / elapsed_s\n");
	put_file(dir, "m.ini", "[model]\njitter = 0\n[pmu fake_pmu_*]\nrate.a = 1e6\nrate.b = 2e6\nrate.c = 3e6\n"
			       "rate.d = 4e6 * (index + 1)\nrate.e = 5e6\n");
	for (int n = 0; n < 2; n++) {
		char *d = xasprintf("sys/bus/event_source/devices/fake_pmu_%d", n), *t = xasprintf("%s/type", d),
		     *f = xasprintf("%s/format/event", d), *c = xasprintf("%s/cpumask", d);
		put_file(root, t, n ? "43\n" : "42\n");
		put_file(root, f, "config:0-7\n");
		put_file(root, c, "0\n");
		for (int e = 0; e < 5; e++) {
			char *a = xasprintf("%s/events/%c", d, 'a' + e), *v = xasprintf("event=0x%d\n", e + 1);
			put_file(root, a, v);
			free(a);
			free(v);
		}
		free(t); free(f); free(c); free(d);
	}
	int nerr;
	char *path = xasprintf("%s/r.ini", dir), *model = xasprintf("%s/m.ini", dir), *err = NULL;
	struct simrun r;
	r.m = machine_discover(root);
	r.p = profile_load(path, &nerr);
	ck_assert_ptr_nonnull(r.p);
	r.p->perf = true; /* as catalog_perf_profile marks perf's catalogue */
	r.ps[0] = r.p;
	ck_assert_int_eq(metrics_select(r.ps, 1, "g.twice", &err), 1); /* one profile chose */
	r.s = session_new(r.m, r.ps, 1);
	const struct prof_group *g = &r.p->groups[0];
	ck_assert_int_eq(g->nevents, 3);
	ck_assert_str_eq(g->events[0].name, "c");
	ck_assert_str_eq(g->events[2].name, "e");
	for (int e = 0; e < g->nevents; e++) /* g.twice's weak group: the three together */
		ck_assert_int_eq(group_event_set(g, e), 0);
	struct sim_options so = { .model_path = model, .seed = 1 };
	r.src = source_sim_new(r.m, &so);
	session_add_source(r.s, r.src);
	session_start(r.s, 5 * SEC);
	session_sample(r.s, 6 * SEC);
	ck_assert_double_eq_tol(value_of(r.s, "g.ce", "f0")->value, 8.0 / 4, 1e-9);
	ck_assert_double_eq_tol(value_of(r.s, "g.twice", "f1")->value, 2 * 8.0 / 8 + 5e6, 1e-3);
	ck_assert_double_eq_tol(value_of(r.s, "g.twice", "all")->value, 2 * 16.0 / 12 + 10e6, 1e-3);
	for (int k = 0; k < r.s->nvalues; k++)
		ck_assert_str_ne(r.s->vinfo[k].m->name, "g.ab");
	free(path);
	free(model);
	sim_end(&r);
}
END_TEST

START_TEST(sim_exact_values)
{
	char *model = test_path("fixtures/tegra410-const.ini");
	struct simrun r;
	sim_begin(&r, demo_tegra410(), model, 1);
	session_sample(r.s, 6 * SEC);
	ck_assert_double_eq_tol(value_of(r.s, "ucf.mem_read_bw", "socket0")->value, 100.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "ucf.slc_write_bw", "socket1")->value, 120.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "ucf.mem_read_rate", "socket0")->value, 100e9 / 64 / 2e9, 1e-9);
	/* latency = cum_outs / req / (cycles / elapsed ns) = 300 cycles at 1.5 GHz */
	ck_assert_double_eq_tol(value_of(r.s, "pcie.read_latency", "socket1/rc3")->value, 200.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "pcie.read_bw", "socket1/rc3")->value, 11.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "cmem.read_latency", "socket0")->value, 150.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "cmem.read_bw", "socket0")->value, 64.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "cmem.freq", "socket0")->value, 1.0, 1e-9);
	ck_assert_double_eq_tol(value_of(r.s, "c2c.in_rd_latency", "socket0")->value, 500.0, 1e-6);
	ck_assert_double_eq_tol(value_of(r.s, "c2c.out_wr_latency", "socket1")->value, 200.0, 1e-6);
	/* twelve PCIe RCs and PCIe-TGT RCs, named by socket and RC; and each RC's root ports
	 * counted on their own, their bandwidths summing to the RC's (one mask bit each) */
	int npcie = 0, nrp = 0;
	double rc1_read = 0;
	for (int i = 0; i < r.s->ninstances; i++) {
		npcie += !strcmp(r.s->inst[i].group->name, "pcie") && r.s->inst[i].parent < 0;
		nrp += r.s->inst[i].parent >= 0;
		if (r.s->inst[i].parent == instance_index(r.s, "pcie", "socket0/rc1"))
			rc1_read += value_of(r.s, "pcie.read_bw", r.s->inst[i].name)->value;
	}
	ck_assert_int_eq(npcie, 12);
	ck_assert_int_gt(nrp, 12);
	ck_assert_int_eq(r.s->inst[instance_index(r.s, "pcie", "socket0/rc1/rp1")].locked_filter >= 0, 1);
	ck_assert(rc1_read > 0 && rc1_read <= value_of(r.s, "pcie.read_bw", "socket0/rc1")->value * (1 + 1e-9));
	char *err = NULL;
	ck_assert_int_eq(session_set_filter(r.s, instance_index(r.s, "pcie", "socket0/rc1/rp1"), "src_rp_mask", "0x3", &err), -1);
	ck_assert_msg(strstr(err, "counts one root port"), "%s", err);
	free(err);
	sim_end(&r);
	free(model);
}
END_TEST

START_TEST(sim_filters_select_cells)
{
	char *model = test_path("fixtures/tegra410-const.ini");
	struct simrun r;
	sim_begin(&r, demo_tegra410(), model, 1);
	uint64_t t = 5 * SEC;
	double all = metric_after_filter(&r, "ucf", "socket0", NULL, NULL, "ucf.mem_read_bw", &t);
	static const char *const src[] = { "src_loc_cpu", "src_loc_noncpu", "src_rem" };
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		sum += metric_after_filter(&r, "ucf", "socket0", src[i], "1", "ucf.mem_read_bw", &t);
		char *err;
		ck_assert_int_eq(session_set_filter(r.s, instance_index(r.s, "ucf", "socket0"), src[i], "default", &err), 0);
	}
	ck_assert_msg(fabs(sum - all) <= 0.01 * all, "single sources sum %f, unfiltered %f", sum, all);
	double p1 = metric_after_filter(&r, "pcie", "socket0/rc2", "src_rp_mask", "0x1", "pcie.read_bw", &t);
	double p2 = metric_after_filter(&r, "pcie", "socket0/rc2", "src_rp_mask", "0x2", "pcie.read_bw", &t);
	double p3 = metric_after_filter(&r, "pcie", "socket0/rc2", "src_rp_mask", "0x3", "pcie.read_bw", &t);
	ck_assert_double_eq_tol(p1, 10.0 * 0.4, 1e-6);
	ck_assert_double_eq_tol(p3, p1 + p2, 1e-6);
	/* the BDF filter is refused while a root-port mask is set, with the driver's reason */
	char *err;
	ck_assert_int_eq(session_set_filter(r.s, instance_index(r.s, "pcie", "socket0/rc2"), "src_bdf", "27:01.1", &err), -1);
	ck_assert_msg(strstr(err, "mutually exclusive"), "%s", err);
	free(err);
	sim_end(&r);
	free(model);
}
END_TEST

START_TEST(sim_seed_is_deterministic)
{
	char *model = src_path("profiles/machines/tegra410/model.ini");
	double v[3];
	for (int i = 0; i < 3; i++) {
		struct simrun r;
		sim_begin(&r, demo_tegra410(), model, i < 2 ? 7 : 8);
		session_sample(r.s, 6 * SEC);
		session_sample(r.s, 7 * SEC);
		v[i] = value_of(r.s, "ucf.mem_read_bw", "socket1")->value;
		sim_end(&r);
	}
	ck_assert(v[0] == v[1]);
	ck_assert(v[0] != v[2]);
	free(model);
}
END_TEST

START_TEST(c2c_write_metrics_only_for_gpu_peers)
{
	char *root = tmp_dir();
	char *gen = src_path("tests/fixtures/gen-tegra410.sh");
	char *cmd = xasprintf("sh %s %s 2 4 1", gen, root);
	ck_assert_int_eq(system(cmd), 0);
	/* socket 1's C2C peer becomes a CPU: the driver then has no write events, no gpu_mask */
	char *d = xasprintf("%s/sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_1", root);
	char *rm = xasprintf("rm %s/events/in_wr_req %s/events/in_wr_cum_outs %s/events/out_wr_req "
			     "%s/events/out_wr_cum_outs %s/format/gpu_mask && echo nr_cpu=1 > %s/peer", d, d, d, d, d, d);
	ck_assert_int_eq(system(rm), 0);
	struct simrun r;
	sim_begin(&r, root, NULL, 1);
	const struct frame *fr = session_sample(r.s, 6 * SEC);
	bool w0 = false, w1 = false, r1 = false;
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const char *mn = fr->vinfo[k].m->name, *in = fr->iinfo[fr->vinfo[k].instance].name;
		w0 |= !strcmp(mn, "c2c.in_wr_latency") && !strcmp(in, "socket0");
		w1 |= !strcmp(mn, "c2c.in_wr_latency") && !strcmp(in, "socket1");
		r1 |= !strcmp(mn, "c2c.in_rd_latency") && !strcmp(in, "socket1") && v->state == VS_OK;
	}
	ck_assert(w0 && !w1 && r1);
	char *err;
	ck_assert_int_eq(session_set_filter(r.s, instance_index(r.s, "c2c", "socket1"), "gpu_mask", "1", &err), -1);
	ck_assert_msg(strstr(err, "no 'gpu_mask' filter"), "%s", err);
	free(err);
	sim_end(&r);
	free(cmd);
	free(rm);
	free(d);
	free(gen);
}
END_TEST

/* Root complexes reach the screen as the engine describes them (display name, segment
 * label, root ports and devices under them), from the profile's label and pci_rc keys and
 * the DVSEC in PCI config space: the monitor knows nothing of PCI. */
START_TEST(root_complexes_described_by_the_engine)
{
	struct simrun r;
	sim_begin(&r, demo_tegra410(), NULL, 1);
	const struct frame *f = session_sample(r.s, 6 * SEC);
	int rc3 = instance_index(r.s, "pcie", "socket0/rc3");
	ck_assert_str_eq(f->iinfo[rc3].display, "S0 RC3 (0004:00)");
	ck_assert_str_eq(frame_label(f, rc3, "segment"), "0004:00");
	ck_assert_str_eq(frame_label(f, rc3, "rc"), "3");
	ck_assert_int_ge(f->iinfo[rc3].ndetails, 1);
	ck_assert_msg(str_has_prefix(f->iinfo[rc3].details[0], "RP"), "%s", f->iinfo[rc3].details[0]);
	int c2c = instance_index(r.s, "c2c", "socket0");
	ck_assert_str_eq(f->iinfo[c2c].display, "socket0"); /* no label: the instance name */
	ck_assert_int_eq(f->iinfo[c2c].ndetails, 0);
	sim_end(&r);
	/* without readable PCI config space: numbers only, and the detail says why */
	char *root = tmp_dir();
	char *cmd = xasprintf("cp -R %s/sys %s/ && rm -rf %s/sys/bus/pci", demo_tegra410(), root, root);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	sim_begin(&r, root, NULL, 1);
	f = session_frame(r.s);
	rc3 = instance_index(r.s, "pcie", "socket0/rc3");
	ck_assert_str_eq(f->iinfo[rc3].display, "S0 RC3");
	ck_assert_int_eq(f->iinfo[rc3].ndetails, 1);
	ck_assert_msg(strstr(f->iinfo[rc3].details[0], "root ports unknown"), "%s", f->iinfo[rc3].details[0]);
	sim_end(&r);
}
END_TEST

/* JSON strings: quotes and backslashes escaped, a control character as \\u00XX, the rest
 * written as it is (in runs), whatever a profile or a driver named things. */
START_TEST(batch_json_escapes)
{
	struct machine *m = fake_machine();
	char *dir = tmp_dir();
	put_file(dir, "j.ini", "[group g]\npmu = fake_pmu_{n}\ninstance = a\"b\\c\x01" "d{n}\nevents = a\n"
			       "[metric g.v]\nformula = a\n");
	char *path = xasprintf("%s/j.ini", dir);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "%s", diag_count() ? diag_message(0, NULL) : "");
	struct profile *ps[1] = { p };
	memset(&script, 0, sizeof(script));
	struct session *s = session_new(m, ps, 1);
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &script_ops;
	session_add_source(s, src);
	session_start(s, SEC);
	struct frame fr = *session_sample(s, 2 * SEC);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert(batch_write_frame(out, &(struct batch_style){ BATCH_JSON, true, ROWS_EVERY }, true, &fr));
	fclose(out);
	ck_assert_msg(strstr(buf, "\"instance\":\"a\\\"b\\\\c\\u0001d7\""), "%.400s", buf);
	free(buf);
	session_free(s);
	profile_free(p);
	machine_free(m);
	free(path);
}
END_TEST

START_TEST(batch_json_shape)
{
	char *model = test_path("fixtures/tegra410-const.ini");
	struct simrun r;
	sim_begin(&r, demo_tegra410(), model, 1);
	char *err;
	ck_assert_int_eq(session_set_filter(r.s, instance_index(r.s, "ucf", "socket1"), "src_loc_cpu", "1", &err), 0);
	struct frame fr = *session_sample(r.s, 6 * SEC);
	fr.wall_ns = 1700000000ull * SEC;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert(batch_write_frame(out, &(struct batch_style){ BATCH_JSON, true, ROWS_EVERY }, true, &fr));
	fclose(out);
	ck_assert_msg(str_has_prefix(buf, "{\"time\":\"2023-11-14T22:13:20.000Z\",\"interval_ns\":1000000000,"
					  "\"source\":\"sim\",\"metrics\":[{\"profile\":\"tegra410\",\"metric\":"),
		      "%.300s", buf);
	/* the first metric is whatever the frame's first slot is; its value what the model says */
	char *first = xasprintf("\"metrics\":[{\"profile\":\"tegra410\",\"metric\":\"%s\",\"instance\":\"%s\",",
				fr.vinfo[0].m->name, fr.iinfo[fr.vinfo[0].instance].name);
	ck_assert_msg(strstr(buf, first), "%s", first);
	free(first);
	ck_assert_msg(strstr(buf, "{\"profile\":\"tegra410\",\"metric\":\"ucf.slc_read_bw\",\"instance\":\"socket0\","
				  "\"value\":300,\"unit\":\"GB/s\"}"),
		      "SLC read bandwidth");
	ck_assert_msg(strstr(buf, "{\"pmu\":\"nvidia_ucf_pmu_0\",\"event\":\"mem_bytes_rd\",\"instance\":\"socket0\","
				  "\"config\":\"0x123\",\"config1\":\"0x0\",\"config2\":\"0x0\",\"cpu\":0,"
				  "\"delta\":100000000000,\"enabled_ns\":1000000000,\"running_ns\":1000000000}"),
		      "raw counter missing");
	/* each instance's active filters, from the frame */
	ck_assert_msg(strstr(buf, "{\"group\":\"ucf\",\"instance\":\"socket1\",\"filters\":{\"src_loc_cpu\":\"0x1\"}}"),
		      "filters missing");
	ck_assert_msg(strstr(buf, "{\"group\":\"ucf\",\"instance\":\"socket0\",\"filters\":{}}"), "socket0 filters");
	ck_assert(str_has_suffix(buf, "]}\n"));
	ck_assert_ptr_null(strchr(buf, '\n') == buf + len - 1 ? NULL : buf); /* one line per interval */
	free(buf);
	sim_end(&r);
	free(model);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("session");
	TCase *t = tcase_create("session");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, sampler_rates_and_states);
	tcase_add_test(t, sampler_narrow_counter_wraps);
	tcase_add_test(t, filters_encode_and_refuse);
	tcase_add_test(t, open_failure_is_per_instance);
	tcase_add_test(t, metric_unit_follows_the_bound_form);
	tcase_add_test(t, alternative_group_not_missing_where_its_partner_binds);
	tcase_add_test(t, metrics_read_metrics_by_name);
	tcase_add_test(t, closing_by_event);
	tcase_add_test(t, catalogue_keeps_read_events);
	tcase_add_test(t, bad_cpumask_is_unavailable);
	tcase_add_test(t, cpumask_keeps_online_cpus);
	tcase_add_test(t, aggregate_filter_change_is_all_or_nothing);
	tcase_add_test(t, sim_exact_values);
	tcase_add_test(t, sim_filters_select_cells);
	tcase_add_test(t, sim_seed_is_deterministic);
	tcase_add_test(t, c2c_write_metrics_only_for_gpu_peers);
	tcase_add_test(t, batch_json_shape);
	tcase_add_test(t, batch_json_escapes);
	tcase_add_test(t, root_complexes_described_by_the_engine);
	suite_add_tcase(s, t);
	return run_suite(s);
}
