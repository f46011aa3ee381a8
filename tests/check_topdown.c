/* SPDX-License-Identifier: GPL-2.0-only */
/* check_topdown.c - the TopDown profile on fixture CPUs with known slot splits: level 1
 * sums to 100 %, level 2 children sum to their parents, sockets are weighted by their
 * slots (not a mean of CPU percentages), 'slots' leads the perf group, and each family
 * (perf metrics, generic events, E-cores, Arm) binds only where its events exist. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "bind/event_groups.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "sources/sources.h"
#include "sim/simulator.h"
#include "testutil.h"
#include "base/util.h"
#include "profile/metric_tree.h"

#define SEC 1000000000ull

struct run {
	struct machine *m;
	struct profile *p;
	struct profile *ps[1];
	struct session *s;
	struct source *src;
};

static void begin(struct run *r, const char *kind, int sockets, int per)
{
	char *root = tmp_dir();
	char *gen = src_path("tests/fixtures/gen-cpu.sh");
	char *cmd = xasprintf("sh %s %s %s %d %d", gen, kind, root, sockets, per);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(gen);
	r->m = machine_discover(root);
	char *path = src_path("profiles/topdown.ini");
	int nerr;
	r->p = profile_load(path, &nerr);
	free(path);
	ck_assert_ptr_nonnull(r->p);
	r->ps[0] = r->p;
	r->s = session_new(r->m, r->ps, 1);
	char *model = test_path("fixtures/topdown-const.ini");
	struct sim_options so = { .model_path = model, .seed = 1 };
	r->src = source_sim_new(r->m, &so);
	free(model);
	ck_assert_ptr_nonnull(r->src);
	session_add_source(r->s, r->src);
	session_start(r->s, SEC);
	session_sample(r->s, 3 * SEC);
}

static void end(struct run *r)
{
	session_free(r->s);
	profile_free(r->p);
	machine_free(r->m);
}

static double val(const struct run *r, const char *metric, const char *inst)
{
	const struct frame *f = session_frame(r->s);
	for (int k = 0; k < f->nvalues; k++) {
		const struct frame_value *v = &f->values[k];
		if (!strcmp(f->vinfo[k].m->name, metric) && !strcmp(f->iinfo[f->vinfo[k].instance].name, inst)) {
			ck_assert_msg(v->state == VS_OK, "%s %s: %s", metric, inst, value_state_name(v->state));
			return v->value;
		}
	}
	ck_abort_msg("no %s for %s", metric, inst);
	return NAN;
}

static bool has(const struct run *r, const char *metric, const char *inst)
{
	const struct frame *f = session_frame(r->s);
	for (int k = 0; k < f->nvalues; k++)
		if (!strcmp(f->vinfo[k].m->name, metric) && !strcmp(f->iinfo[f->vinfo[k].instance].name, inst))
			return true;
	return false;
}

static const char *const l1[] = { "topdown.retiring", "topdown.bad_speculation", "topdown.frontend_bound",
				  "topdown.backend_bound" };

static void l1_sums_to_100(const struct run *r, const char *inst)
{
	double sum = 0;
	for (int i = 0; i < 4; i++)
		sum += val(r, l1[i], inst);
	ck_assert_msg(fabs(sum - 100) <= 0.5, "%s: level 1 sums to %f", inst, sum);
}

START_TEST(sapphire_rapids)
{
	struct run r;
	begin(&r, "spr", 2, 4);
	const char *insts[] = { "cpu0", "cpu1", "cpu5", "socket0", "socket1", "all" };
	for (size_t i = 0; i < sizeof(insts) / sizeof(insts[0]); i++) {
		l1_sums_to_100(&r, insts[i]);
		const char *in = insts[i];
		ck_assert_double_eq_tol(val(&r, "topdown.light_ops", in) + val(&r, "topdown.heavy_ops", in),
					val(&r, "topdown.retiring", in), 1e-9);
		ck_assert_double_eq_tol(val(&r, "topdown.br_mispredict", in) + val(&r, "topdown.machine_clears", in),
					val(&r, "topdown.bad_speculation", in), 1e-9);
		ck_assert_double_eq_tol(val(&r, "topdown.fetch_latency", in) + val(&r, "topdown.fetch_bandwidth", in),
					val(&r, "topdown.frontend_bound", in), 1e-9);
		ck_assert_double_eq_tol(val(&r, "topdown.memory_bound", in) + val(&r, "topdown.core_bound", in),
					val(&r, "topdown.backend_bound", in), 1e-9);
	}
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "cpu0"), 50.0, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "cpu1"), 20.0, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.heavy_ops", "cpu0"), 20.0, 1e-6);
	/* a socket sums slots: (2e9 x 50 % + 0.5e9 x 20 %) / 2.5e9 = 44 %, not (50 + 20) / 2 */
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "socket1"), 44.0, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "all"), 44.0, 1e-6);
	/* slots leads the group: the perf source opens in this order */
	const struct instance *cpu0 = NULL;
	for (int i = 0; i < r.s->ninstances; i++)
		if (!strcmp(r.s->inst[i].name, "cpu0"))
			cpu0 = &r.s->inst[i];
	ck_assert_ptr_nonnull(cpu0);
	ck_assert_str_eq(cpu0->group->name, "perfmetrics");
	ck_assert(cpu0->group->perf_group);
	int order[16], set[16];
	int n = instance_open_order(cpu0, order, set);
	ck_assert_int_eq(n, 10); /* slots, 8 topdown events and INT_MISC.UOP_DROPPING */
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(set[i], 0); /* one perf group */
	ck_assert_str_eq(cpu0->group->events[order[0]].name, "slots");
	for (int c = 0; c < cpu0->ncounters; c++) {
		const struct counter *ct = &cpu0->counters[c];
		ck_assert_int_eq(ct->attr.type, 4);
		ck_assert_uint_eq(ct->attr.config[1], 0); /* topdown events allow no config1/2 */
		ck_assert_uint_eq(ct->attr.config[2], 0);
		if (ct->event == order[0])
			ck_assert_uint_eq(ct->attr.config[0], 0x400);
		else if (!strcmp(cpu0->group->events[ct->event].name, "uop_dropping"))
			ck_assert_uint_eq(ct->attr.config[0], 0x10ad); /* perf's encoding: 0xad, umask 0x10 */
		else
			ck_assert_uint_eq(ct->attr.config[0] & ~0x700ull, 0x8000);
	}
	end(&r);
}
END_TEST

START_TEST(ice_lake_has_level_1_only)
{
	struct run r;
	begin(&r, "icl", 1, 4);
	l1_sums_to_100(&r, "socket0");
	ck_assert(!has(&r, "topdown.heavy_ops", "socket0")); /* 4 topdown events: no level 2 */
	for (int i = 0; i < r.s->ninstances; i++) /* Ice Lake's own definition, not Sapphire Rapids' */
		ck_assert_str_eq(r.s->inst[i].group->name, "perfmetrics_icl");
	end(&r);
}
END_TEST

START_TEST(pre_ice_lake_generic_events)
{
	struct run r;
	begin(&r, "skl", 1, 4);
	/* the classic formulae sum to 100 whatever the counts: check each value. Slots are
	 * topdown-total-slots x its .scale (4), recovery bubbles likewise: without the
	 * scale, every share would be four times too large (and bad speculation wrong) */
	const char *insts[] = { "cpu2", "cpu1", "socket0", "all" };
	for (int i = 0; i < 4; i++) {
		ck_assert_double_eq_tol(val(&r, "topdown.retiring", insts[i]), 35.0, 1e-6);
		ck_assert_double_eq_tol(val(&r, "topdown.bad_speculation", insts[i]), 0.45 * 100 - 35 + 0.05 * 100, 1e-6);
		ck_assert_double_eq_tol(val(&r, "topdown.frontend_bound", insts[i]), 20.0, 1e-6);
		ck_assert_double_eq_tol(val(&r, "topdown.backend_bound", insts[i]), 100 - 20 - 45 - 5, 1e-6);
	}
	const struct instance *in = NULL;
	for (int i = 0; i < r.s->ninstances; i++)
		if (!strcmp(r.s->inst[i].name, "cpu2"))
			in = &r.s->inst[i];
	ck_assert_str_eq(in->group->name, "classic_skl"); /* caps/pmu_name skylake: perf's own events */
	int slots_e = -1;
	for (int e = 0; e < in->group->nevents; e++)
		if (!strcmp(in->group->events[e].name, "topdown_total_slots"))
			slots_e = e;
	ck_assert_double_eq_tol(in->scale[slots_e], 4.0, 1e-12); /* topdown-total-slots.scale */
	end(&r);
}
END_TEST

/* The frame's delta of event EVENT (the group's name for it) summed over the CPUs of group GROUP. */
static double group_delta(const struct run *r, const char *group, const char *event)
{
	const struct frame *f = session_frame(r->s);
	double sum = 0;
	for (int k = 0; k < f->ncounters; k++) {
		const struct instance_info *ii = &f->iinfo[f->cinfo[k].instance];
		if (!strcmp(ii->group->name, group) && !strcmp(ii->group->events[f->cinfo[k].event].name, event))
			sum += f->counters[k].delta;
	}
	return sum;
}

START_TEST(alder_lake_hybrid)
{
	struct run r;
	begin(&r, "adl", 1, 8);
	l1_sums_to_100(&r, "all-pcores"); /* P-cores, perf metrics */
	l1_sums_to_100(&r, "all-ecores"); /* E-cores, their own events */
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "all-ecores"), 30.0, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "all-pcores"), 40.0, 1e-6);
	/* "all" is every CPU: the slots each kind retired over the slots of both, from the
	 * counts (P-cores: slots x their retiring share; E-cores: 5 slots a cycle) */
	l1_sums_to_100(&r, "all");
	l1_sums_to_100(&r, "socket0");
	double p_slots = group_delta(&r, "perfmetrics", "slots");
	double p_four = group_delta(&r, "perfmetrics", "topdown_retiring") + group_delta(&r, "perfmetrics", "topdown_bad_spec") +
			group_delta(&r, "perfmetrics", "topdown_fe_bound") + group_delta(&r, "perfmetrics", "topdown_be_bound");
	double p_retired = p_slots * group_delta(&r, "perfmetrics", "topdown_retiring") / p_four;
	double e_slots = 5 * group_delta(&r, "atom", "core_clks");
	double e_retired = group_delta(&r, "atom", "topdown_retiring");
	ck_assert(p_slots > 0 && e_slots > 0);
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "all"), 100 * (p_retired + e_retired) / (p_slots + e_slots), 1e-9);
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "socket0"), val(&r, "topdown.retiring", "all"), 1e-9);
	ck_assert(!has(&r, "topdown.heavy_ops", "all")); /* level 2 is the P-cores' only */
	ck_assert(has(&r, "topdown.heavy_ops", "all-pcores"));
	ck_assert(has(&r, "topdown.heavy_ops", "cpu0"));
	ck_assert(!has(&r, "topdown.heavy_ops", "cpu5")); /* E-cores: level 1 only */
	ck_assert(!has(&r, "topdown.retiring", "cpu8"));  /* no such CPU */
	end(&r);
}
END_TEST

START_TEST(neoverse_v2)
{
	struct run r;
	begin(&r, "neoverse-v2", 2, 4);
	/* retiring = 0.8 x (1 - 0.5) = 40 %, bad = 0.2 x 0.5 = 10 %, fe 20 %, be 30 %; on a
	 * Neoverse V2 (its MIDR) perf moves mispredicted branches' slots, 1 % of cycles:
	 * 1 from frontend, 3 from backend, 4 to bad speculation */
	ck_assert_double_eq_tol(val(&r, "topdown.retiring", "socket1"), 40.0, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.bad_speculation", "cpu3"), 10.0 + 4, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.frontend_bound", "all"), 20.0 - 1, 1e-6);
	ck_assert_double_eq_tol(val(&r, "topdown.backend_bound", "cpu6"), 30.0 - 3, 1e-6);
	l1_sums_to_100(&r, "all");
	end(&r);
}
END_TEST

/* On Tegra410 (Neoverse cores, no Intel PMU) only the Arm variant binds, and the Intel
 * variants are not reported as missing PMUs. */
START_TEST(families_bind_only_where_their_events_exist)
{
	struct machine *m = machine_discover(demo_tegra410());
	char *path = src_path("profiles/topdown.ini");
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	free(path);
	struct profile *ps[1] = { p };
	struct session *s = session_new(m, ps, 1);
	int arm = 0, intel = 0;
	for (int i = 0; i < s->ninstances; i++) { /* its Neoverse V2 cores, by their MIDR */
		arm += !strcmp(s->inst[i].group->name, "arm_v2");
		intel += strncmp(s->inst[i].group->name, "arm", 3) != 0;
	}
	ck_assert_int_eq(intel, 0);
	ck_assert_int_eq(arm, 144 + 2 + 1); /* CPUs, sockets, all */
	ck_assert_int_eq(s->nmissing, 0);
	session_free(s);
	profile_free(p);
	machine_free(m);
	/* and on a machine with no core PMU at all, nothing binds: the pane says so */
	m = machine_discover("/nonexistent");
	path = src_path("profiles/topdown.ini");
	p = profile_load(path, &nerr);
	free(path);
	ps[0] = p;
	s = session_new(m, ps, 1);
	ck_assert_int_eq(s->ninstances, 0);
	ck_assert_str_eq(p->panes[0].missing, "TopDown unavailable: no core PMU whose TopDown pmutop knows (Intel, Arm Neoverse)");
	session_free(s);
	profile_free(p);
	machine_free(m);
}
END_TEST

/* toplev's find_bn, as its documentation says it: from level 1 down the largest share
 * past its threshold, stopping where no child is past or two are within 5 % of the slots */
START_TEST(bottleneck_as_toplev_names_it)
{
	/*            0 FE   1 BE   2 mem  3 core 4 dram 5 l3   6 bw   7 lat */
	int parents[] = { -1, -1, 1, 1, 2, 2, 4, 4 };
	double share[] = { 0.20, 0.55, 0.40, 0.15, 0.30, 0.08, 0.20, 0.10 };
	ck_assert_int_eq(metric_tree_bottleneck(8, parents, share), 6); /* BE > mem > dram > bandwidth */
	share[7] = 0.17; /* bandwidth and latency within 5 %: dram is as far as one can say */
	ck_assert_int_eq(metric_tree_bottleneck(8, parents, share), 4);
	share[4] = share[5] = share[6] = share[7] = NAN; /* no child of memory bound past: it */
	ck_assert_int_eq(metric_tree_bottleneck(8, parents, share), 2);
	share[0] = 0.52; /* level 1 within 5 %: the larger still (toplev compares siblings below it) */
	ck_assert_int_eq(metric_tree_bottleneck(8, parents, share), 2);
	for (int i = 0; i < 8; i++)
		share[i] = NAN; /* nothing past its threshold: no bottleneck */
	ck_assert_int_eq(metric_tree_bottleneck(8, parents, share), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topdown");
	TCase *t = tcase_create("topdown");
	tcase_set_timeout(t, 30);
	tcase_add_test(t, sapphire_rapids);
	tcase_add_test(t, bottleneck_as_toplev_names_it);
	tcase_add_test(t, ice_lake_has_level_1_only);
	tcase_add_test(t, pre_ice_lake_generic_events);
	tcase_add_test(t, alder_lake_hybrid);
	tcase_add_test(t, neoverse_v2);
	tcase_add_test(t, families_bind_only_where_their_events_exist);
	suite_add_tcase(s, t);
	return run_suite(s);
}
