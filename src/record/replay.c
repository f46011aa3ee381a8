/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.c - a recording back into a session.
 *
 * The recorded machine snapshot and profile texts rebuild the session the recording was
 * made from; each counter slot of the session is matched to a recorded column by PMU,
 * CPU and encoding (so another profile can recompute a recording when its events were
 * recorded). The source sets each counter's recorded state, raw count and times; the
 * sampler's second step then computes what live computed, so batch output of a replay is
 * the live output byte for byte. Session events (filter changes) are applied before the
 * frame they preceded; jumping back resets the filters and applies them again. */
#include "record/replay.h"
#include "record/rec_tasks.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/timetext.h"
#include "base/util.h"
#include "profile/metric_select.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "machine/encode.h"
#include "machine/pmu.h"
#include "machine/snapshot.h"
#include "record/store.h"
#include "engine/source.h"

struct rec_counter {
	char *key; /* "pmu|cpu|config" */
	int slot;
	bool gauge, rotating;
	int width;
};

struct rec_instance {
	char *name, *group;
	bool opened;
	char *error;
};

struct rec_event {
	uint64_t seq;
	char *kind, *instance_name, *term, *value;
	int instance;
};

struct replay_clock {
	struct clock c; /* first: the replay is handed around as a struct clock */
	struct replay *r;
	bool fast;
};

struct replay {
	struct store *st;
	struct machine *m;
	struct session *s;
	int ncounters;
	int nrc;
	struct rec_counter *rc;
	int nri;
	struct rec_instance *ri;
	int nev;
	struct rec_event *ev;
	int *slot_of;          /* session counter slot -> recorded slot, -1 */
	const struct rec_counter **rc_of; /* recorded slot -> its description */
	uint64_t first, last;  /* seqs */
	uint64_t next;         /* the seq the pacer prepares next */
	uint64_t shown;        /* the seq of the sample loaded for the next frame (0: none) */
	uint64_t consumed, consumed_wall; /* the sample of the newest frame, and its time */
	uint64_t wall_first, wall_last;
	uint64_t applied;      /* events applied up to this seq */
	uint64_t begin_wall, end_wall;
	struct rec_sample cur;
	bool have_cur;
	uint64_t start_ns, wall0;
	struct replay_clock clk;
	double speed;
	bool paused;
	uint64_t base_t, base_mono; /* real time: the replay time base_t was current at base_mono */
	char *source_label;
	bool damaged;
	char *note; /* what the monitor says where the replay stops or skips ("samples after
		     * 10:47:54 are damaged: ..."), or NULL */
	struct rec_task_feed *tasks; /* the top tasks it kept, for the frames (rec_tasks.h) */
};

/* A recorded wall time as HH:MM:SS, local time (as --begin and --end take it). */
static void wall_text(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* The range a replay plays: what can be read, a damaged chunk at either end left out
 * and said (the header shows the true range, End goes to the last sample there is). */
static void readable_range(struct replay *r)
{
	uint64_t claimed_first, claimed_last;
	store_range(r->st, &claimed_first, &claimed_last);
	char *damage = NULL;
	store_readable_range(r->st, &r->first, &r->last, &damage);
	r->next = r->first;
	struct rec_sample tmp;
	rec_sample_alloc(&tmp, r->ncounters);
	if (r->first && store_sample_quiet(r->st, r->first, &tmp))
		r->wall_first = tmp.wall_ns;
	if (r->last && store_sample_quiet(r->st, r->last, &tmp))
		r->wall_last = tmp.wall_ns;
	rec_sample_free(&tmp);
	char at[16] = "?";
	if (damage && r->last && r->last < claimed_last) {
		wall_text(r->wall_last, at, sizeof(at));
		r->note = xasprintf("samples after %s (%llu to %llu) are damaged: %s", at, (unsigned long long)r->last + 1,
				    (unsigned long long)claimed_last, damage);
	} else if (damage && r->first > claimed_first) {
		wall_text(r->wall_first, at, sizeof(at));
		r->note = xasprintf("samples before %s (%llu to %llu) are damaged: %s", at, (unsigned long long)claimed_first,
				    (unsigned long long)r->first - 1, damage);
	} else if (damage) {
		r->note = xasprintf("no sample can be read: %s", damage);
	}
	if (r->note) { /* the replay ends non-zero, having shown what there is */
		diag_error("replay: %s", r->note);
		r->damaged = true;
	}
	free(damage);
}

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct rec_counter *)a)->key, ((const struct rec_counter *)b)->key);
}

static void counter_row(void *ctx, int n, const char *const *v)
{
	struct replay *r = ctx;
	if (n < 9)
		return;
	r->rc = xrealloc(r->rc, sizeof(*r->rc) * (size_t)(r->nrc + 1));
	/* a group's and event's own: two groups may count one config on one CPU (a profile's
	 * IPC and perf's catalogue both read instructions, their groups both named core),
	 * each its own counter */
	r->rc[r->nrc++] = (struct rec_counter){ .key = xasprintf("%s|%s|%s|%s|%s", v[1] ? v[1] : "", v[2] ? v[2] : "",
								 v[3] ? v[3] : "", v[7] ? v[7] : "", v[8] ? v[8] : ""),
		.slot = atoi(v[0] ? v[0] : "-1"), .gauge = v[4] && !strcmp(v[4], "gauge"),
		.rotating = v[4] && !strcmp(v[4], "rotating"), .width = v[5] ? atoi(v[5]) : 64 };
}

static void instance_row(void *ctx, int n, const char *const *v)
{
	struct replay *r = ctx;
	if (n < 4)
		return;
	r->ri = xrealloc(r->ri, sizeof(*r->ri) * (size_t)(r->nri + 1));
	r->ri[r->nri++] = (struct rec_instance){ .name = xstrdup(v[0] ? v[0] : ""), .group = xstrdup(v[1] ? v[1] : ""),
		.opened = v[2] && !strcmp(v[2], "1"), .error = v[3] ? xstrdup(v[3]) : NULL };
}

static void event_row(void *ctx, int n, const char *const *v)
{
	struct replay *r = ctx;
	uint64_t seq;
	if (n < 6 || !v[0] || !parse_u64(v[0], &seq))
		return;
	r->ev = xrealloc(r->ev, sizeof(*r->ev) * (size_t)(r->nev + 1));
	r->ev[r->nev++] = (struct rec_event){ .seq = seq, .kind = xstrdup(v[1] ? v[1] : ""),
		.instance = v[2] ? atoi(v[2]) : -1, .instance_name = v[3] ? xstrdup(v[3]) : NULL,
		.term = v[4] ? xstrdup(v[4]) : NULL, .value = v[5] ? xstrdup(v[5]) : NULL };
}

char *replay_meta(struct replay *r, const char *key)
{
	return store_meta(r->st, key);
}

struct replay *replay_open(const char *path, char **err)
{
	struct store *st = store_open(path, err);
	if (!st)
		return NULL;
	struct replay *r = xcalloc(1, sizeof(*r));
	r->st = st;
	r->speed = 1.0;
	r->ncounters = store_ncounters(st);
	char *snap = store_meta(st, "machine"), *start = store_meta(st, "start_ns");
	char *serr = NULL;
	r->m = snap ? machine_from_snapshot(snap, &serr) : NULL;
	free(snap);
	uint64_t v;
	if (!r->m) {
		*err = xasprintf("%s: damaged recording (its machine description: %s)", path, serr ? serr : "missing or damaged");
	} else if (!start || !parse_u64(start, &v)) {
		*err = xasprintf("%s: damaged recording (no start time)", path);
	} else {
		r->start_ns = v;
		char *e2 = NULL;
		if (store_query(st, "SELECT slot, pmu, cpu, config, kind, width, instance, grp, event FROM counters ORDER BY slot", counter_row, r, &e2) < 0 ||
		    store_query(st, "SELECT name, grp, opened, error FROM instances ORDER BY idx", instance_row, r, &e2) < 0 ||
		    store_query(st, "SELECT seq, kind, instance, instance_name, term, value FROM events ORDER BY seq, id", event_row, r, &e2) < 0)
			*err = e2;
		else if (r->nrc != r->ncounters)
			*err = xasprintf("%s: damaged recording (%d counters described, %d recorded)", path, r->nrc, r->ncounters);
	}
	free(serr);
	free(start);
	if (*err) {
		replay_close(r);
		return NULL;
	}
	qsort(r->rc, (size_t)r->nrc, sizeof(*r->rc), cmp_counter);
	r->rc_of = xcalloc((size_t)(r->ncounters ? r->ncounters : 1), sizeof(*r->rc_of));
	for (int i = 0; i < r->nrc; i++)
		if (r->rc[i].slot >= 0 && r->rc[i].slot < r->ncounters)
			r->rc_of[r->rc[i].slot] = &r->rc[i];
	for (int k = 0; k < r->ncounters; k++)
		if (!r->rc_of[k]) {
			*err = xasprintf("%s: damaged recording (counter slot %d undescribed)", path, k);
			replay_close(r);
			return NULL;
		}
	readable_range(r);
	r->source_label = store_meta(st, "source");
	r->tasks = rec_task_feed_new(st);
	rec_sample_alloc(&r->cur, r->ncounters);
	return r;
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	free(r->note);
	rec_task_feed_free(r->tasks);
	store_close(r->st);
	machine_free(r->m);
	for (int i = 0; i < r->nrc; i++)
		free(r->rc[i].key);
	free(r->rc);
	for (int i = 0; i < r->nri; i++) {
		free(r->ri[i].name);
		free(r->ri[i].group);
		free(r->ri[i].error);
	}
	free(r->ri);
	for (int i = 0; i < r->nev; i++) {
		free(r->ev[i].kind);
		free(r->ev[i].instance_name);
		free(r->ev[i].term);
		free(r->ev[i].value);
	}
	free(r->ev);
	free(r->slot_of);
	free(r->rc_of);
	free(r->source_label);
	rec_sample_free(&r->cur);
	free(r);
}

struct machine *replay_machine(struct replay *r)
{
	return r->m;
}

int replay_profiles(struct replay *r, struct profile ***out, char **err)
{
	char *n = store_meta(r->st, "profiles");
	uint64_t np;
	*out = NULL;
	if (!n || !parse_u64(n, &np) || np > 64) {
		free(n);
		*err = xstrdup("damaged recording (no profiles)");
		return -1;
	}
	free(n);
	*out = xcalloc(np ? (size_t)np : 1, sizeof(struct profile *));
	for (uint64_t i = 0; i < np; i++) {
		char key[64];
		snprintf(key, sizeof(key), "profile.%llu.path", (unsigned long long)i);
		char *path = store_meta(r->st, key);
		snprintf(key, sizeof(key), "profile.%llu.text", (unsigned long long)i);
		char *text = store_meta(r->st, key);
		int nerr = 0;
		char *label = xasprintf("%s (as recorded)", path ? path : "profile");
		(*out)[i] = text ? profile_load_text(label, text, &nerr) : NULL;
		free(label);
		free(path);
		free(text);
		snprintf(key, sizeof(key), "profile.%llu.chosen", (unsigned long long)i);
		char *chosen = (*out)[i] ? store_meta(r->st, key) : NULL;
		if (chosen) /* recorded under -M (or a demo's catalogue metrics): those, and only
			     * their counters, are in the file */
			metrics_choose_exactly((*out)[i], chosen);
		free(chosen);
		snprintf(key, sizeof(key), "profile.%llu.perf", (unsigned long long)i);
		char *perf = (*out)[i] ? store_meta(r->st, key) : NULL;
		if (perf) /* this CPU's of perf's catalogue: the hand metrics that are its (perf =) */
			(*out)[i]->perf = true;
		free(perf);
		if (!(*out)[i]) {
			for (uint64_t k = 0; k < i; k++)
				profile_free((*out)[k]);
			free(*out);
			*out = NULL;
			*err = xasprintf("damaged recording (profile %llu does not load)", (unsigned long long)i);
			return -1;
		}
	}
	return (int)np;
}

/* ---- the source ---- */

static const struct rec_counter *find_counter(struct replay *r, const char *key)
{
	struct rec_counter k = { .key = (char *)key };
	return bsearch(&k, r->rc, (size_t)r->nrc, sizeof(*r->rc), cmp_counter);
}

static const struct rec_instance *find_instance(struct replay *r, const struct instance *inst)
{
	for (int i = 0; i < r->nri; i++)
		if (!strcmp(r->ri[i].name, inst->name) && !strcmp(r->ri[i].group, inst->group->name))
			return &r->ri[i];
	return NULL;
}

static bool rp_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu != NULL;
}

static int rp_open(struct source *src, struct instance *inst)
{
	struct replay *r = src->priv;
	const struct rec_instance *ri = find_instance(r, inst);
	if (ri && !ri->opened) { /* it failed live: the same reason now */
		inst->open_error = xstrdup(ri->error ? ri->error : "it did not count when recorded");
		return -EIO;
	}
	/* another profile (-P) may read events the recording lacks: those are n/a, said on
	 * the values that read them, and what the recorded counters allow is recomputed */
	int counted = 0, lacking = -1;
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		int k = r->slot_of ? r->slot_of[ct->slot] : -1;
		if (!instance_counts_event(inst, ct->event))
			continue;
		if (k < 0) {
			if (lacking < 0)
				lacking = c;
			inst->event_na[ct->event] = xasprintf("not in the recording (%s/%s was not recorded)",
							      inst->pmu->name, inst->group->events[ct->event].terms);
			if (!inst->event_absent)
				inst->event_absent = xcalloc((size_t)inst->group->nevents, sizeof(bool));
			inst->event_absent[ct->event] = true;
			continue;
		}
		counted++;
		ct->kind = r->rc_of[k]->gauge ? COUNTER_GAUGE : COUNTER_CUMULATIVE;
		ct->width = r->rc_of[k]->width;
		ct->takes_turns = r->rc_of[k]->rotating;
	}
	if (lacking >= 0 && !counted) { /* none of its events: not in this recording, as an
					   * instance of a PMU that lacks them is not on a machine
					   * (attach.c: absent, not a failure) */
		const struct counter *ct = &inst->counters[lacking];
		inst->absent = true;
		inst->open_error = xasprintf("the recording has none of its events (%s/%s, ...): another profile's",
					     inst->pmu->name, inst->group->events[ct->event].terms);
		return -ENOENT;
	}
	return 0;
}

static int rp_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	struct replay *r = src->priv;
	(void)now_ns;
	if (r->have_cur) { /* the frame being made is this sample's */
		r->consumed = r->shown;
		r->consumed_wall = r->cur.wall_ns;
	}
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		int k = r->slot_of ? r->slot_of[ct->slot] : -1;
		if (k < 0 || !r->have_cur) /* the priming read: nothing recorded before it */
			counter_read_interval(ct, VS_NO_VALUE, 0, 0, 0);
		else
			counter_read_interval(ct, (enum value_state)r->cur.state[k], r->cur.raw[k], r->cur.enabled[k],
					      r->cur.running[k]);
	}
	return 0;
}

static void rp_close(struct source *src, struct instance *inst)
{
	(void)src;
	(void)inst;
}

static void rp_destroy(struct source *src)
{
	free(src); /* the replay itself belongs to its opener */
}

static const struct source_ops replay_ops = {
	.kind = "replay",
	.claims = rp_claims,
	.open = rp_open,
	.read = rp_read,
	.close = rp_close,
	.destroy = rp_destroy,
};

static void meters(void *ctx, struct frame *f)
{
	struct replay *r = ctx;
	f->cpu_util = r->have_cur ? r->cur.cpu_util : NAN;
	f->have_temp = r->have_cur && r->cur.have_temp;
	f->cpu_temp_c = r->have_cur ? r->cur.temp_c : NAN;
	f->temp_chip = NULL;
}

/* The top tasks or the cgroups as recorded with the sample the frame shows. */
static void task_rows(void *ctx, struct frame *f, bool cgroups)
{
	struct replay *r = ctx;
	rec_task_feed_frame(r->tasks, r->have_cur ? r->cur.seq : 0, cgroups ? REC_CGROUPS : REC_TASKS, f);
}

void replay_limit_tasks(struct replay *r, bool cgroups, int max)
{
	rec_task_feed_limit(r->tasks, cgroups ? REC_CGROUPS : REC_TASKS, max);
}

bool replay_has_tasks(struct replay *r, bool cgroups)
{
	return rec_task_feed_any(r->tasks, cgroups ? REC_CGROUPS : REC_TASKS);
}

/* ---- events ---- */

static int instance_named(struct session *s, const struct rec_event *e)
{
	if (e->instance >= 0 && e->instance < s->ninstances && e->instance_name && !strcmp(s->inst[e->instance].name, e->instance_name))
		return e->instance;
	for (int i = 0; e->instance_name && i < s->ninstances; i++)
		if (!strcmp(s->inst[i].name, e->instance_name))
			return i;
	return -1;
}

static void apply(struct replay *r, const struct rec_event *e)
{
	struct session *s = r->s;
	int i = instance_named(s, e);
	char *err = NULL;
	if (i < 0)
		return; /* another profile without this instance */
	if (!strcmp(e->kind, "filter")) {
		if (session_set_filter(s, i, e->term, e->value, &err) < 0)
			diag_warn("replay: the recorded filter change %s %s=%s: %s", e->instance_name, e->term,
				  e->value ? e->value : "default", err);
	} else if (!strcmp(e->kind, "state") && e->value) { /* the filters in force when a rotated file began */
		char *copy = xstrdup(e->value), *save = NULL;
		for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq)
				continue;
			*eq = '\0';
			if (session_set_filter(s, i, kv, eq + 1, &err) < 0) {
				free(err);
				err = NULL;
			}
		}
		free(copy);
	}
	free(err);
}

/* Events of seqs (from, to]; from 0 includes those before counting started. */
static void apply_range(struct replay *r, uint64_t from, uint64_t to, bool include_zero)
{
	for (int k = 0; k < r->nev; k++) {
		uint64_t q = r->ev[k].seq;
		if ((q > from && q <= to) || (include_zero && q == 0))
			apply(r, &r->ev[k]);
	}
}

int replay_attach(struct replay *r, struct session *s, char **err)
{
	*err = NULL;
	r->s = s;
	free(r->slot_of);
	r->slot_of = xmalloc(sizeof(int) * (size_t)(s->ncounters ? s->ncounters : 1));
	/* The encodings recorded are those of the first sample, after the events that
	 * precede it: the filters given before counting started (-f, seq 0) and a change made
	 * before the first frame (seq == first; the monitor's filter editor can be that
	 * quick). Matching before those were applied lost the changed counters for the whole
	 * replay. */
	apply_range(r, 0, r->first, true);
	r->applied = r->first;
	int missing = 0;
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		for (int c = 0; c < inst->ncounters; c++) {
			const struct counter *ct = &inst->counters[c];
			char key[512];
			snprintf(key, sizeof(key), "%s|%d|0x%llx,0x%llx,0x%llx%s%s|%s|%s", inst->pmu ? inst->pmu->name : "",
				 ct->cpu, (unsigned long long)ct->attr.config[0], (unsigned long long)ct->attr.config[1],
				 (unsigned long long)ct->attr.config[2], ct->attr.exclude ? ":" : "",
				 encode_modifier_text(ct->attr.exclude), inst->group->name, s->cinfo[ct->slot].event_name);
			const struct rec_counter *rc = find_counter(r, key);
			r->slot_of[ct->slot] = rc ? rc->slot : -1;
			if (!rc || rc->slot < 0 || rc->slot >= r->ncounters) {
				r->slot_of[ct->slot] = -1;
				missing += instance_counts_event(inst, ct->event) && !inst->unavailable;
			}
		}
	}
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &replay_ops;
	src->machine = s->machine;
	src->priv = r;
	session_add_source(s, src);
	session_use_meters(s, meters, r);
	session_use_task_rows(s, task_rows, r, rec_task_feed_any(r->tasks, REC_CGROUPS));
	if (missing) /* another profile: what it needs and the recording lacks is n/a, said per instance */
		diag_warn("replay: %d counter%s of these profiles %s not in the recording", missing, missing == 1 ? "" : "s",
			  missing == 1 ? "is" : "are");
	return 0;
}

int replay_check_range(struct replay *r, uint64_t begin_wall, uint64_t end_wall, char **err)
{
	char b[40], e[40], first[40], last[40]; /* with dates: a bound may be days away */
	moment_text(begin_wall, b, sizeof(b));
	moment_text(end_wall, e, sizeof(e));
	moment_text(r->wall_first, first, sizeof(first));
	moment_text(r->wall_last, last, sizeof(last));
	*err = NULL;
	if (begin_wall && end_wall && end_wall < begin_wall)
		*err = xasprintf("--end %s is before --begin %s: nothing to replay", e, b);
	else if (begin_wall && begin_wall > r->wall_last)
		*err = xasprintf("--begin %s is after the recording ends (%s to %s): nothing to replay", b, first, last);
	else if (end_wall && end_wall < r->wall_first)
		*err = xasprintf("--end %s is before the recording begins (%s to %s): nothing to replay", e, first, last);
	return *err ? -1 : 0;
}

void replay_set_range(struct replay *r, uint64_t begin_wall, uint64_t end_wall)
{
	r->begin_wall = begin_wall;
	r->end_wall = end_wall;
	if (begin_wall)
		r->next = replay_seq_at_wall(r, begin_wall);
}

uint64_t replay_start_ns(struct replay *r)
{
	return r->start_ns;
}

/* Samples from seq are not in the file (a chunk deleted or lost): say which, and from
 * when to when, and go on from the next recorded one; the replay ends non-zero. Returns
 * that seq, 0 if nothing follows. */
static uint64_t past_gap(struct replay *r, uint64_t seq)
{
	uint64_t next = store_next_seq(r->st, seq);
	uint64_t upto = next ? next - 1 : r->last;
	char from[16] = "?", to[16] = "?", *err = NULL;
	if (r->have_cur)
		wall_text(r->cur.wall_ns, from, sizeof(from));
	struct rec_sample tmp;
	rec_sample_alloc(&tmp, r->ncounters);
	if (next && store_sample(r->st, next, &tmp, &err) == 0)
		wall_text(tmp.wall_ns, to, sizeof(to));
	free(err);
	rec_sample_free(&tmp);
	diag_error("replay: samples %llu to %llu (%llu of them, between %s and %s) are missing from the recording; "
		   "replaying the rest", (unsigned long long)seq, (unsigned long long)upto,
		   (unsigned long long)(upto - seq + 1), from, to);
	r->damaged = true;
	return next;
}

/* Load seq into cur, skipping past a gap; false at the end or on damage (said once). */
static bool load(struct replay *r, uint64_t *seq)
{
	char *err = NULL;
	int rc = store_sample(r->st, *seq, &r->cur, &err);
	if (rc > 0 && *seq <= r->last && (*seq = past_gap(r, *seq)) != 0) {
		r->next = *seq + 1;
		rc = store_sample(r->st, *seq, &r->cur, &err);
	}
	if (rc < 0 && *seq < r->last) { /* a damaged chunk within: over it to the rest */
		uint64_t a, b;
		store_chunk_bounds(r->st, *seq, &a, &b);
		uint64_t next = store_next_seq(r->st, b > *seq ? b : *seq);
		char from[16] = "?";
		if (r->have_cur)
			wall_text(r->cur.wall_ns, from, sizeof(from));
		free(r->note);
		r->note = xasprintf("samples after %s (%llu to %llu) are damaged: %s; replaying the rest", from,
				    (unsigned long long)*seq, (unsigned long long)(next ? next - 1 : r->last), err);
		diag_error("replay: %s", r->note);
		free(err);
		err = NULL;
		r->damaged = true;
		if (next && next <= r->last && next > *seq) {
			*seq = next;
			r->next = next + 1;
			return load(r, seq);
		}
		rc = -1;
	}
	if (rc < 0) {
		if (err) {
			diag_error("replay stopped: %s", err);
			free(r->note);
			r->note = xasprintf("the replay stops here: %s", err);
		}
		free(err);
		r->damaged = true;
	}
	r->have_cur = rc == 0;
	return r->have_cur;
}

uint64_t replay_pacer(void *ctx)
{
	struct replay *r = ctx;
	for (;;) {
		if (!r->first || r->next > r->last)
			return UINT64_MAX;
		uint64_t seq = r->next++;
		if (!load(r, &seq))
			return UINT64_MAX;
		if (r->end_wall && r->cur.wall_ns > r->end_wall)
			return UINT64_MAX;
		if (r->begin_wall && r->cur.wall_ns < r->begin_wall)
			continue;
		if (seq > r->applied || r->applied == 0) {
			apply_range(r, r->applied, seq, false);
			r->applied = seq;
		}
		r->shown = seq;
		/* its recorded interval, also after a seek back (the clock would show none) */
		if (r->cur.interval_ns && r->cur.interval_ns <= r->cur.time_ns)
			session_set_interval_start(r->s, r->cur.time_ns - r->cur.interval_ns);
		return r->cur.time_ns;
	}
}

void replay_seek(struct replay *r, uint64_t seq)
{
	if (seq < r->first)
		seq = r->first;
	if (seq > r->last)
		seq = r->last;
	bool back_over_event = false;
	for (int k = 0; k < r->nev; k++)
		back_over_event |= r->ev[k].seq >= seq && r->ev[k].seq <= r->applied && r->ev[k].seq > 0;
	if (back_over_event) { /* the filters as they were at seq: from the start again */
		session_reset_filters(r->s);
		apply_range(r, 0, seq - 1, true);
		r->applied = seq - 1;
	}
	r->next = seq;
	char *err = NULL;
	struct rec_sample tmp;
	rec_sample_alloc(&tmp, r->ncounters);
	if (store_sample(r->st, seq, &tmp, &err) == 0) { /* the clock stands at the frame */
		r->base_t = tmp.time_ns;
		r->base_mono = clock_monotonic_ns();
		r->clk.c.t = tmp.time_ns;
	}
	free(err);
	rec_sample_free(&tmp);
}

uint64_t replay_seq_at_wall(struct replay *r, uint64_t wall_ns)
{
	/* wall and recorded time move together within a recording: find by time */
	char *err = NULL;
	struct rec_sample tmp;
	rec_sample_alloc(&tmp, r->ncounters);
	uint64_t seq = r->first;
	if (r->first && store_sample(r->st, r->first, &tmp, &err) == 0) {
		int64_t off = (int64_t)(wall_ns - tmp.wall_ns);
		uint64_t t = off < 0 && (uint64_t)-off > tmp.time_ns ? 0 : tmp.time_ns + (uint64_t)off;
		seq = store_seq_at(r->st, t);
	}
	free(err);
	rec_sample_free(&tmp);
	return seq;
}

void replay_position(struct replay *r, struct replay_position *p)
{
	p->seq = r->consumed;
	p->first = r->first;
	p->last = r->last;
	p->wall = r->consumed_wall;
	p->wall_first = r->wall_first;
	p->wall_last = r->wall_last;
	p->note = r->note;
}

/* ---- the clock ---- */

static uint64_t rc_now(struct clock *c)
{
	struct replay *r = ((struct replay_clock *)c)->r;
	if (((struct replay_clock *)c)->fast)
		return c->t;
	if (r->paused)
		return r->base_t;
	return r->base_t + (uint64_t)((double)(clock_monotonic_ns() - r->base_mono) * r->speed);
}

static int rc_wait_ms(struct clock *c, uint64_t deadline)
{
	struct replay *r = ((struct replay_clock *)c)->r;
	if (((struct replay_clock *)c)->fast) {
		if (deadline > c->t && deadline != UINT64_MAX)
			c->t = deadline;
		return 0;
	}
	uint64_t now = rc_now(c);
	if (deadline <= now)
		return 0;
	double ms = (double)(deadline - now) / 1e6 / r->speed;
	return ms > 1000 ? 1000 : (int)ms + 1; /* wake at least each second: the speed may change */
}

static uint64_t rc_wall(struct clock *c, uint64_t t)
{
	struct replay *r = ((struct replay_clock *)c)->r;
	if (r->have_cur && r->cur.time_ns == t)
		return r->cur.wall_ns; /* the recorded stamp of the frame */
	return r->have_cur ? r->cur.wall_ns + (t - r->cur.time_ns) : t;
}

static const struct clock_ops replay_clock_ops = { "replay", rc_now, rc_wait_ms, rc_wall };

struct clock *replay_clock(struct replay *r, bool fast)
{
	r->clk.c.ops = &replay_clock_ops;
	r->clk.r = r;
	r->clk.fast = fast;
	r->clk.c.t = r->start_ns;
	r->base_t = r->start_ns;
	r->base_mono = clock_monotonic_ns();
	return &r->clk.c;
}

void replay_set_speed(struct replay *r, double speed)
{
	uint64_t now = rc_now(&r->clk.c); /* the time line goes on from here at the new speed */
	r->base_t = now;
	r->base_mono = clock_monotonic_ns();
	r->speed = speed;
}

bool replay_damaged(const struct replay *r)
{
	return r->damaged;
}

double replay_speed(const struct replay *r)
{
	return r->speed;
}

void replay_set_paused(struct replay *r, bool paused)
{
	if (paused == r->paused)
		return;
	uint64_t now = rc_now(&r->clk.c);
	r->base_t = now;
	r->base_mono = clock_monotonic_ns();
	r->paused = paused;
}
