/* SPDX-License-Identifier: GPL-2.0-only */
/* run.c - one run of pmutop, the composition root: the machine (discovered, a demo's, a
 * recording's), its profiles and filters, the sources that count it, the outputs (batch,
 * the monitor, a recording, the exporter) and the run loop. Commands call pmutop_run();
 * it calls no command back. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/sysfs.h"
#include "base/timetext.h"
#include "base/suggest.h"
#include "base/util.h"
#include "cli/options.h"
#include "cli/run_profiles.h"
#include "cli/run_target.h"
#include "cli/run_rows.h"
#include "cli/run_who.h"
#include "base/cpulist.h"
#include "profile/catalog.h"
#include "bind/counter_share.h"
#include "bind/event_groups.h"
#include "bind/metric_delegate.h"
#include "profile/metric_select.h"
#include "profile/profile.h"
#include "engine/runloop.h"
#include "engine/session.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "machine/procstat.h"
#include "outputs/batch.h"
#include "outputs/exporter.h"
#include "outputs/rules.h"
#include "record/recorder.h"
#include "record/replay.h"
#include "sources/hwmon_io.h"
#include "sim/simulator.h"
#include "sources/sources.h"
#include "ui/ui.h"

/* -f GROUP[@INSTANCE]:TERM=VALUE[,TERM=VALUE...] */
static int apply_filter_option(struct session *s, const char *spec)
{
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec || !colon[1]) {
		fprintf(stderr, "pmutop: -f %s: want GROUP[@INSTANCE]:TERM=VALUE[,TERM=VALUE...]\n", spec);
		return -1;
	}
	char *target = xstrndup(spec, (size_t)(colon - spec));
	char *at = strchr(target, '@');
	const char *instname = NULL;
	if (at) {
		*at = '\0';
		instname = at + 1;
		if (!*instname || !*target) {
			fprintf(stderr, "pmutop: -f %s: want GROUP@INSTANCE, a name on each side of '@' (see pmutop list metrics)\n",
				spec);
			free(target);
			return -1;
		}
	}
	int status = 0, matched = 0;
	char *assigns = xstrdup(colon + 1), *save = NULL;
	for (char *a = strtok_r(assigns, ",", &save); a && !status; a = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(a, '=');
		if (!eq || eq == a || !eq[1]) {
			fprintf(stderr, "pmutop: -f %s: '%s' is not TERM=VALUE\n", spec, a);
			status = -1;
			break;
		}
		*eq = '\0';
		for (int i = 0; i < s->ninstances && !status; i++) {
			const struct instance *inst = &s->inst[i];
			if (strcmp(inst->group->name, target) || (instname && strcmp(inst->name, instname)))
				continue;
			if (!instname && (inst->nmembers || inst->nparts || inst->parent >= 0))
				continue; /* members and parts get it directly; root ports follow their RC */
			if (inst->unavailable)
				continue;
			matched++;
			char *err;
			if (session_set_filter(s, i, a, eq + 1, &err) < 0) {
				fprintf(stderr, "pmutop: -f %s: %s\n", spec, err);
				free(err);
				status = -1;
			}
		}
	}
	if (!status && !matched) {
		struct suggest sg;
		suggest_init(&sg, target);
		for (int i = 0; i < s->ninstances; i++)
			suggest_offer(&sg, s->inst[i].group->name);
		fprintf(stderr, "pmutop: -f %s: no instance of group '%s'%s%s on this machine%s\n", spec, target,
			instname ? " named " : "", instname ? instname : "", suggest_text(&sg));
		suggest_free(&sg);
		status = -1;
	}
	free(assigns);
	free(target);
	return status;
}

/* The monitor alone chooses what is counted in setup: not batch, serve or record, a
 * replay, -M or -P, which fix it. */
static bool monitor_chooses(const struct options *o)
{
	return !o->batch && !o->serve_only && !o->record_only && !o->replay && !o->metrics && !o->nprofiles &&
	       !o->dry_run && !o->rules;
}

/* INSTANCE GROUP EVENT-STRING ENCODING cpus=LIST ROLE, one line per instance and event in
 * the order they are opened; ROLE is leader, member (of the leader's perf group: the
 * lines since the leader's), single, or reads:INSTANCE (an event alone that another
 * group counts with the same encoding on the same CPUs: it reads that counter).
 * Unavailable instances say why: in place of the encoding, "!" and the reason; where
 * the PMU lacks the events, one such line for each event it lacks, named as perf would
 * be asked for it (perf cannot open it either). */
static void print_dry_run(const struct session *s)
{
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		if (inst->nmembers || inst->nparts)
			continue;
		if (inst->unavailable && inst->absent) {
			for (int e = 0; e < inst->group->nevents; e++)
				if (!inst->present[e])
					printf("%s\t%s\t%s/%s/\t!\t%s\n", inst->name, inst->group->name, inst->pmu->name,
					       inst->group->events[e].terms, inst->unavailable);
			continue;
		}
		if (inst->unavailable) {
			printf("%s\t%s\t!\t%s\n", inst->name, inst->group->name, inst->unavailable);
			continue;
		}
		int order[inst->group->nevents + 1], set[inst->group->nevents + 1];
		int n = instance_open_order(inst, order, set);
		for (int k = 0; k < n; k++) {
			int e = order[k];
			for (int c = 0; c < inst->ncounters; c++) {
				if (inst->counters[c].event != e)
					continue;
				char enc[160], cpus[256];
				encode_format_attr(&inst->counters[c].attr, enc, sizeof(enc));
				cpulist_format(&inst->cpus, cpus, sizeof(cpus));
				const char *role = set[k] < 0 ? "single" : k == 0 || set[k - 1] != set[k] ? "leader" : "member";
				int partner = counters_planned_partner(s, inst, e);
				printf("%s\t%s\t%s\t%s\tcpus=%s\t%s%s\n", inst->name, inst->group->name, inst->event_str[e], enc,
				       cpus, partner >= 0 ? "reads:" : role, partner >= 0 ? s->inst[partner].name : "");
				break;
			}
		}
	}
}

/* Live counting opens the tree's type numbers on this kernel: only right when the tree
 * is this kernel's sysfs (/, or a bind mount of it). */
static bool same_pmus_as_kernel(const struct machine *m)
{
	if (!strcmp(m->root, "/"))
		return true;
	for (int i = 0; i < m->npmus; i++) {
		if (pmu_is_pseudo(&m->pmus[i])) /* files, sensors, the timer: any tree's can be counted */
			continue;
		char *path = xasprintf("/sys/bus/event_source/devices/%s/type", m->pmus[i].name);
		char *t = read_text_file(path, 64);
		free(path);
		bool same = t && atoi(t) == m->pmus[i].type;
		free(t);
		if (!same)
			return false;
	}
	return true;
}

/* perf's habit: when no event at all could be opened, say why and fail, rather than
 * show a screen of n/a. */
static bool counts_anything(const struct session *s)
{
	const char *why = NULL;
	int failed = 0;
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *in = &s->inst[i];
		if (in->nmembers || in->nparts)
			continue;
		if (in->opened)
			return true;
		failed++;
		if (!why)
			why = in->unavailable ? in->unavailable : in->open_error;
	}
	bool other_model = false;
	for (int i = 0; s->pmu_note && i < s->machine->npmus; i++)
		other_model |= s->pmu_note[i] != NULL;
	if (!failed && other_model)
		fprintf(stderr, "pmutop: nothing to count: the profiles' groups for this machine's PMUs are for other CPU "
				"models (see the warning above, and pmutop list pmus)\n");
	else if (!failed)
		fprintf(stderr, "pmutop: nothing to count: no PMU the profiles use is on this machine (see pmutop list pmus)\n");
	else
		fprintf(stderr, "pmutop: nothing could be counted (%d counter group%s failed); the first: %s\n", failed,
			failed == 1 ? "" : "s", why ? why : "?");
	return false;
}

/* Whether an output of the run shows the host's meters: the monitor's header, batch text,
 * a recording (its replay shows them). Batch CSV/JSON and the exporter alone do not, and
 * then no refresh reads /proc/stat (on a many-CPU machine its interrupt sums cost more
 * than the counters of a small profile) or the temperature sensors. */
static bool host_meters_shown(const struct options *o)
{
	bool monitor = !o->batch && !o->serve_only && !o->record_only;
	return monitor || o->record || o->record_only || (o->batch && batch_shows_host_meters(o->format));
}

/* The monitor's control tables over the replay and the recorder (ui/ui.h): the ui
 * drives them without knowing record/. */
static void play_seek(void *ctx, uint64_t seq) { replay_seek(ctx, seq); }
static void play_set_paused(void *ctx, bool paused) { replay_set_paused(ctx, paused); }
static double play_speed(void *ctx) { return replay_speed(ctx); }
static void play_set_speed(void *ctx, double speed) { replay_set_speed(ctx, speed); }
static uint64_t play_seq_at_wall(void *ctx, uint64_t wall) { return replay_seq_at_wall(ctx, wall); }
static void play_position(void *ctx, struct ui_position *p)
{
	struct replay_position rp;
	replay_position(ctx, &rp);
	*p = (struct ui_position){ rp.seq, rp.first, rp.last, rp.wall, rp.wall_first, rp.wall_last, rp.note };
}
static bool rec_active(void *ctx) { return recorder_active(ctx); }
static void rec_status(void *ctx, char *buf, size_t len) { recorder_status(ctx, buf, len); }
static int rec_start(void *ctx, const char *path, char **err) { return recorder_start(ctx, path, false, err); }
static void rec_stop(void *ctx) { recorder_stop(ctx); }

/* Whether every metric p counts is counted only as a hand metric's definition. */
static bool profile_only_quiet(const struct profile *p)
{
	bool any = false;
	for (int mi = 0; p->selecting && mi < p->nmetrics; mi++) {
		if (p->metrics[mi].selected && !p->metrics[mi].quiet)
			return false;
		any |= p->metrics[mi].selected;
	}
	return any;
}

static void count_per_cpu(void *run);

/* The outputs of a run: batch or the monitor (unless pmutop record), and a recorder
 * (recording now with -w, or idle for the monitor's 'w' key). */
static int add_outputs(struct options *o, struct session *s, struct runloop *loop, struct replay *rp, char *title,
		       size_t tlen, FILE **outfile, FILE **batch_out, const struct ui_catalogue *cat, void *run)
{
	struct output *rec = NULL;
	if (!rp && (o->record || (!o->batch && !o->serve_only))) {
		struct recorder_options ro = { .path = o->record, .force = o->force, .rotate_ns = o->rotate_ns,
					       .keep = o->keep, .command = o->command,
					       .essential = o->record_only && !o->listen, .paced = o->fake_clock };
		char *err = NULL;
		rec = recorder_output_new(s, &ro, &err);
		if (!rec) {
			fprintf(stderr, "pmutop: %s\n", err);
			free(err);
			return -1;
		}
		runloop_add_output(loop, rec);
	}
	if (o->listen || o->serve_only) {
		struct exporter_options eo = { .listen = o->listen, .per_cpu = o->per_cpu, .limits = o->http_limits,
					       .cgroups = o->cgroups || o->cgroup_names };
		char *err = NULL;
		struct output *ex = exporter_output_new(&eo, &err);
		if (!ex) {
			fprintf(stderr, "pmutop: %s\n", err);
			free(err);
			return -1;
		}
		bool every;
		const char *url = exporter_url(ex, &every);
		fprintf(stderr, "pmutop: serving %s (port %d)%s\n", url, exporter_port(ex),
			every ? " on every address of this machine: /metrics has no authentication, so anyone who "
				"reaches the port can read it (restrict it with a firewall, or use --listen 127.0.0.1:PORT)"
			      : "");
		runloop_add_output(loop, ex);
	}
	if (o->record_only || o->serve_only)
		return 0;
	if (o->batch) {
		/* a command's own output is on standard output: pmutop's goes beside it on
		 * standard error, as perf stat's does */
		FILE *f = o->workload ? stderr : stdout;
		if (o->output && !(f = fopen(o->output, "w"))) {
			fprintf(stderr, "pmutop: -o %s: %s\n", o->output, strerror(errno));
			return -1;
		}
		struct batch_style st = { o->format, o->raw, o->rows };
		runloop_add_output(loop, batch_output_new(f, &st));
		*outfile = f != stdout && f != stderr ? f : NULL;
		*batch_out = f;
		loop->final_on_signal = !rp; /* Ctrl-C prints the partial interval, as perf stat -I */
		return 0;
	}
	size_t n = 0;
	for (int i = 0; i < s->nprofiles && n < tlen - 1; i++)
		if (!profile_only_quiet(s->profiles[i])) /* perf's catalogue giving the core pane's figures alone */
			n += (size_t)snprintf(title + n, tlen - n, "%s%s", n ? " + " : "", s->profiles[i]->name);
	static char host[256]; /* the monitor keeps the pointer until the loop ends */
	char *h = rp ? replay_meta(rp, "host") : NULL;
	str_copy(host, sizeof(host), h ? h : "");
	free(h);
	if (!rp && !o->demo && o->sim && o->sysfs_root) { /* the simulated tree's, not this host's name */
		const char *base = strrchr(o->sysfs_root, '/');
		snprintf(host, sizeof(host), "sim %s", base && base[1] ? base + 1 : o->sysfs_root);
	}
	static struct ui_options uo;
	static struct ui_player player;
	static struct ui_recording recording;
	player = (struct ui_player){ rp, play_seek, play_set_paused, play_position, play_speed, play_set_speed,
				     play_seq_at_wall };
	recording = (struct ui_recording){ recorder_of(rec), rec_active, rec_status, rec_start, rec_stop,
					   recorder_default_name };
	uo = (struct ui_options){ .interval_s = o->delay, .title = title, .machine = rp || *host ? host : o->demo,
				  .recording = rec ? &recording : NULL, .replay = rp ? &player : NULL, .catalogue = cat,
				  .cgroups = o->cgroup_names != NULL, .count_per_cpu = rp ? NULL : count_per_cpu,
				  .count_ctx = run };
	struct output *ui = ui_output_new(s, &uo);
	if (!ui)
		return -1;
	runloop_add_output(loop, ui);
	return 0;
}

/* --begin/--end (base/timetext.h's moments): HH:MM[:SS] on the recording's first day,
 * +DURATION from its start; 0 and a message when it is none of them. */
static uint64_t parse_when(const char *what, const char *text, struct replay *rp)
{
	struct replay_position pos;
	replay_position(rp, &pos);
	struct moment_ref ref = { .day_ns = pos.wall_first, .plus_ns = pos.wall_first };
	uint64_t wall;
	char why[256];
	if (!moment_parse(text, &ref, &wall, why, sizeof(why))) {
		fprintf(stderr, "pmutop: %s %s\n", what, why);
		return 0;
	}
	return wall ? wall : 1; /* @0: before any recording, not "no bound" */
}

/* One run's parts, set up in order and undone by run_done(), whatever got made. */
struct run {
	struct options *o;
	const char *root;
	char *demo_dir, *demo_model, *default_model;
	struct sim_model *model; /* --sim: the traffic model, read once (its sources hold it) */
	struct replay *rp;
	struct machine *m;
	struct profile **profiles;
	int nprofiles;
	struct session *s;
	struct runloop loop;
	FILE *outfile;
	FILE *batch_out; /* where batch output goes (-o's file, or a standard stream) */
	struct clock clk, *clock;
	bool restart; /* the monitor's setup changed what is counted: count again */
	char *model_metrics; /* a demo model's catalogue metrics, counted whatever setup says */
	struct profile *catalogue; /* this CPU's, for setup and find: loaded when first asked */
	bool catalogue_loaded;
};

/* One definition per metric: the hand metrics that are perf's (perf =) take this CPU's
 * catalogue's definitions, the catalogue loaded beside, counting only those, where no
 * option loaded it. */
static void delegate_to_perf(struct run *r)
{
	char **names = metrics_perf_names(r->profiles, r->nprofiles, r->m);
	if (!names)
		return;
	bool have = false;
	for (int i = 0; i < r->nprofiles; i++)
		have |= r->profiles[i]->perf;
	struct profile *cat = have ? NULL : catalog_perf_profile_naming(r->m, names);
	free(names);
	if (!have && !cat)
		return; /* no catalogue built, or none for this CPU: the hand formulae */
	if (cat) {
		metrics_choose_exactly(cat, ""); /* what the hand metrics take of it, no more */
		r->profiles = xrealloc(r->profiles, sizeof(*r->profiles) * (size_t)(r->nprofiles + 1));
		r->profiles[r->nprofiles++] = cat;
	}
	if (!metrics_delegate(r->profiles, r->nprofiles, r->m, true) && cat) {
		profile_free(cat);
		r->nprofiles--;
	}
}

/* The machine and its profiles: a recording's, a demo's, or a sysfs tree's. Returns 0,
 * or the exit status. */
static int run_machine(struct run *r)
{
	struct options *o = r->o;
	r->root = o->sysfs_root ? o->sysfs_root : getenv("PMUTOP_SYSFS_ROOT");
	if (!r->root || !*r->root)
		r->root = "/";
	if (o->replay) {
		char *err = NULL;
		if (o->nfilters || o->sim || o->demo || o->record) {
			fprintf(stderr, "pmutop: -r replays what was recorded: %s cannot apply to it\n",
				o->nfilters ? "-f (the hardware counted what it counted)" : o->record ? "-w" : "--sim/--demo");
			return 2;
		}
		if (!(r->rp = replay_open(o->replay, &err))) {
			fprintf(stderr, "pmutop: -r %s\n", err);
			free(err);
			return 1;
		}
	}
	if (o->demo) {
		if (!(r->demo_dir = catalog_find_machine(o->demo))) {
			struct suggest sg;
			suggest_init(&sg, o->demo);
			fprintf(stderr, "pmutop: no demo machine '%s'%s (see pmutop list machines)\n", o->demo,
				catalog_suggest_machine(&sg));
			suggest_free(&sg);
			return 2;
		}
		r->root = r->demo_dir;
		r->demo_model = path_join(r->demo_dir, "model.ini");
		if (!o->model && is_regular_file(r->demo_model))
			o->model = r->demo_model;
		o->sim = true;
	}
	if (o->sim && !o->model) /* coherent rates for every family the profiles know */
		o->model = r->default_model = catalog_default_model();
	if (!r->rp && !is_dir(r->root)) {
		fprintf(stderr, "pmutop: --sysfs-root %s: %s\n", r->root, strerror(errno ? errno : ENOTDIR));
		return 1;
	}
	r->m = r->rp ? replay_machine(r->rp) : machine_discover(r->root);
	if (r->rp && !o->nprofiles) {
		char *err = NULL;
		r->nprofiles = replay_profiles(r->rp, &r->profiles, &err);
		if (r->nprofiles < 0) {
			fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
			free(err);
		}

	} else {
		r->nprofiles = run_load_profiles(o, r->m, &r->profiles);
	}
	if (r->nprofiles < 0)
		return r->nprofiles == -2 ? 2 : 1;
	if (o->sim && !r->rp && !(r->model = o->model ? sim_model_load(o->model) : sim_model_default()))
		return 1;
	const char *model_spec = !o->metrics && !o->nprofiles && r->model ? sim_model_metrics(r->model) : NULL;
	r->model_metrics = model_spec ? xstrdup(model_spec) : NULL;
	char *counted = monitor_chooses(o) ? ui_counted_groups() : NULL;
	if (model_spec || counted)
		r->nprofiles = run_catalogue_beside(r->m, model_spec, counted, &r->profiles, r->nprofiles);
	free(counted);
	int status = o->metrics ? run_select_metrics(o, r->m, r->profiles, &r->nprofiles) : 0;
	/* count what the panes show: by default without a screen, as setup keeps it in the
	 * monitor (a pane hidden by default and shown there counts from its next start) */
	char *shown = monitor_chooses(o) ? ui_shown_panes() : NULL;
	for (int i = 0; !o->metrics && !r->rp && !o->nprofiles && i < r->nprofiles; i++) {
		metrics_leave_hidden(r->profiles[i], shown);
		panes_mark_off_machine(r->profiles[i], r->m);
	}
	free(shown);
	if (!status && r->rp)
		metrics_delegate(r->profiles, r->nprofiles, r->m, false); /* as recorded */
	else if (!status)
		delegate_to_perf(r);
	return status;
}

/* A replay's range, its source and clock. Returns 0, or the exit status. */
static int run_replay(struct run *r)
{
	struct options *o = r->o;
	char *err = NULL;
	uint64_t b = o->begin ? parse_when("--begin", o->begin, r->rp) : 0, e = o->end ? parse_when("--end", o->end, r->rp) : 0;
	if ((o->begin && !b) || (o->end && !e))
		return 2;
	if (replay_check_range(r->rp, b, e, &err) < 0) {
		fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
		free(err);
		return 2;
	}
	replay_set_range(r->rp, b, e);
	if (o->tasks && !replay_has_tasks(r->rp, false)) {
		fprintf(stderr, "pmutop: -r %s --tasks: this recording kept no tasks (record with --tasks N, or with the "
				"monitor's Tasks view open)\n", o->replay);
		return 2;
	}
	if (o->cgroups && !replay_has_tasks(r->rp, true)) {
		fprintf(stderr, "pmutop: -r %s --cgroups: this recording kept no cgroups (record with -G or --cgroups, or "
				"with the monitor's Cgroups view open)\n", o->replay);
		return 2;
	}
	if (replay_attach(r->rp, r->s, &err) < 0) {
		fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
		free(err);
		return 1;
	}
	session_want_tasks(r->s, o->batch && o->tasks); /* the rows as recorded, the top N of them */
	replay_limit_tasks(r->rp, false, o->tasks);
	session_want_cgroups(r->s, o->batch && o->cgroups);
	replay_limit_tasks(r->rp, true, o->cgroups);
	r->clock = replay_clock(r->rp, o->batch || o->fake_clock || o->record_only);
	return 0;
}

/* The sources that count a machine (perf, or the simulated one; BlueField's files or the
 * simulated driver; sensors), its clock and host meters. Returns 0, or the exit status. */
static int run_sources(struct run *r)
{
	struct options *o = r->o;
	const struct machine *m = r->m;
	if (!o->sim && !same_pmus_as_kernel(m)) {
		fprintf(stderr, "pmutop: %s is not this kernel's sysfs: counting live needs the real /sys (its PMU type "
				"numbers are the kernel's). Add --sim to count this tree with the simulated machine; "
				"--dry-run, encode and list read it as it is.\n", r->root);
		return 1;
	}
	/* the simulated machine's traffic model: read once, shared by its three sources */
	struct sim_model *model = r->model;
	r->model = NULL;
	if (o->sim) {
		struct sim_options so = { .model = model, .seed = o->seed };
		session_add_source(r->s, source_sim_new(m, &so));
	} else {
		session_add_source(r->s, source_perf_new(m, o->target));
		session_add_source(r->s, source_timer_new(m)); /* arm64's generic timer */
	}
	/* BlueField's counter files: the same source over the simulated driver or the files */
	struct hwmon_io *io = o->sim ? hwmon_io_sim_new(m, model, o->seed) : hwmon_io_files_new();
	session_add_source(r->s, source_hwmon_new(m, io));
	session_add_source(r->s, source_sensors_new(m, model ? sim_sensor_feed_new(model) : NULL));
	/* who is busy: the Tasks and Cgroups views, --tasks, -G (a simulated machine's are its
	 * model's) */
	int status = run_who(r->s, o, m, model, r->root);
	sim_model_free(model); /* the sources and tables hold it now */
	if (status)
		return status;
	if (o->fake_clock)
		clock_init_fake(&r->clk, 1000000000ull);
	else
		clock_init_monotonic(&r->clk);
	/* a simulated machine's /proc is its tree's (a demo's: absent), not this host's;
	 * libsensors reads the real /sys, so only a live machine's sensors are its own */
	if (o->proc_root) { /* asked for: say when it cannot be had, rather than drop the meter */
		char *stat = path_join(o->proc_root, "proc/stat");
		if (access(stat, R_OK) != 0)
			diag_warn("--proc-root %s: cannot read %s (%s): no CPU meter", o->proc_root, stat, strerror(errno));
		free(stat);
	}
	if (host_meters_shown(o))
		session_use_host_meters(r->s, procstat_new(o->proc_root ? o->proc_root : o->sim ? r->root : "/"), !o->sim);
	return 0;
}

/* The monitor's setup asks for perf's metric groups for this CPU, and to count again.
 * A demo model's own (the SPR demo's TopdownL1-3) are counted whatever setup says: not
 * offered, where an empty box would say they are not. */
static const struct profile *cat_profile(void *ctx)
{
	struct run *r = ctx;
	if (!r->catalogue_loaded)
		r->catalogue = catalog_perf_profile(r->m);
	r->catalogue_loaded = true;
	return r->catalogue;
}

static int cat_groups(void *ctx, char ***names)
{
	struct run *r = ctx;
	struct profile *p = (struct profile *)cat_profile(r);
	*names = NULL;
	if (!p)
		return 0;
	int n = metrics_groups(&p, 1, names, NULL), kept = 0;
	char *spec = xstrdup(r->model_metrics ? r->model_metrics : "");
	for (char *c = spec; *c; c++)
		*c = *c == ',' ? ' ' : *c;
	char **fixed = str_split(spec, NULL);
	for (int i = 0; i < n; i++) {
		bool own = false;
		for (char **f = fixed; *f && !own; f++)
			own = !strcasecmp(*f, (*names)[i]);
		if (own)
			free((*names)[i]);
		else
			(*names)[kept++] = (*names)[i];
	}
	str_split_free(fixed);
	free(spec);
	return kept;
}
static void cat_recount(void *ctx) { ((struct run *)ctx)->restart = true; }

/* The monitor's c where per-CPU groups count in their socket rows: count again, a row a CPU. */
static void count_per_cpu(void *run)
{
	struct run *r = run;
	r->restart = true;
	r->o->per_cpu = true;
}


/* Count: the first frame primed, the outputs added, the loop run. The exit status. */
static int run_loop(struct run *r, char *title, size_t tlen)
{
	struct options *o = r->o;
	session_use_clock(r->s, r->clock);
	/* before anything is programmed: a TERM from now on ends the loop's first poll and
	 * the cleanup restores what counting changed (BlueField's event files) */
	runloop_install_signals();
	session_start(r->s, r->rp ? replay_start_ns(r->rp) : clock_now(r->clock));
	if (r->rp) {
		char *label = replay_meta(r->rp, "source");
		session_set_source_label(r->s, label ? label : "replay");
		free(label);
		char *who = replay_meta(r->rp, "who"), *end = replay_meta(r->rp, "who_end");
		if (who) /* a command's or tasks' recording: whose counts, and how it ended */
			session_set_who(r->s, who, end);
		free(who);
		free(end);
	}
	if (!counts_anything(r->s))
		return 1;
	int gone = run_target_go(o, r->s); /* counting: the command may start */
	if (gone)
		return gone;
	runloop_init(&r->loop, r->s, r->clock, o->delay, o->iterations);
	r->loop.target = o->target;
	r->loop.ends_with_target = o->batch || o->record_only || o->serve_only;
	if (r->rp)
		runloop_set_pacer(&r->loop, replay_pacer, r->rp, o->batch);
	/* a recording or the exporter beside the monitor counts what a run without a screen
	 * would, not what only a hidden pane lists (Arm's core events would take TopDown's
	 * counters in turn), and what the monitor shows */
	if (monitor_chooses(o))
		runloop_set_default_shown(&r->loop, session_default_values(r->s));
	static struct ui_catalogue cat;
	cat = (struct ui_catalogue){ r, cat_groups, cat_profile, cat_recount };
	if (add_outputs(o, r->s, &r->loop, r->rp, title, tlen, &r->outfile, &r->batch_out, monitor_chooses(o) ? &cat : NULL,
			r) < 0)
		return 1;
	/* start-up (discovery, every profile's parse, the encodings) freed more than the run
	 * keeps, in holes below the heap's top that free() cannot give back: give their pages
	 * back once, so a monitor left running holds only what it uses */
	malloc_trim(0);
	int status = runloop_run(&r->loop);
	if (!status && r->batch_out) /* as perf stat ends, Ctrl-C or not */
		status = run_target_summary(o, r->s, r->batch_out, clock_now(r->clock));
	return r->rp && replay_damaged(r->rp) ? 1 : status;
}

/* Everything a run made, undone in reverse; the exit status after closing -o's file. */
static int run_done(struct run *r, int status)
{
	runloop_done(&r->loop);
	if (r->outfile && fclose(r->outfile) != 0 && status == 0) {
		fprintf(stderr, "pmutop: -o %s: %s\n", r->o->output, strerror(errno));
		status = 1;
	}
	session_free(r->s);
	for (int i = 0; i < r->nprofiles; i++)
		profile_free(r->profiles[i]);
	free(r->profiles);
	if (r->rp)
		replay_close(r->rp); /* and its machine */
	else
		machine_free(r->m);
	sim_model_free(r->model); /* not yet given to the sources */
	free(r->demo_dir);
	free(r->demo_model);
	free(r->default_model);
	free(r->model_metrics);
	if (r->catalogue)
		profile_free(r->catalogue);
	return status;
}

/* -C's CPUs: a list, each of them online (as perf stat -C refuses others); from says
 * whose list it is. */
static bool cpus_of_option(const char *text, const struct machine *m, struct cpulist *out, const char *from)
{
	char why[160];
	if (!cpulist_parse(text, out) || !out->n) {
		cpulist_explain(text, why, sizeof(why));
		fprintf(stderr, "pmutop: %s %s: %s\n", from, text, why);
		cpulist_free(out);
		return false;
	}
	for (int i = 0; i < out->n; i++)
		if (!cpulist_contains(&m->online, out->cpu[i])) {
			char online[256];
			cpulist_format(&m->online, online, sizeof(online));
			fprintf(stderr, "pmutop: %s %s: CPU %d is not online here (online: %s)\n", from, text, out->cpu[i],
				online);
			cpulist_free(out);
			return false;
		}
	return true;
}

static int run_once(struct options *o, bool *restart)
{
	struct run r = { .o = o };
	r.clock = &r.clk;
	char title[256] = ""; /* the monitor keeps pointers to these until the loop ends */
	heap_take_steps(); /* until the first frame is shown */
	int status = run_machine(&r);
	if (status)
		return run_done(&r, status);
	struct cpulist only = { 0 };
	char *rec_who = r.rp ? replay_meta(r.rp, "who") : NULL, *rec_cpus = r.rp ? replay_meta(r.rp, "cpus") : NULL;
	const char *cpus = rec_cpus ? rec_cpus : o->cpus; /* a replay binds as its run did */
	/* (a recording's own: its meta "cpus", said as such where it is bad) */
	bool cpus_ok = !cpus || cpus_of_option(cpus, r.m, &only, rec_cpus ? "the recording's CPUs (-C)" : "-C");
	struct session_scope scope = { o->target != NULL || rec_who, cpus ? &only : NULL,
				       o->rows == ROWS_PER_CORE ? 'c' : o->rows == ROWS_PER_NODE ? 'n' : 0, false, 0 };
	run_choose_cpu_rows(o, r.rp, &scope);
	free(rec_who);
	free(rec_cpus);
	if (!cpus_ok)
		return run_done(&r, 2);
	r.s = session_new_scoped(r.m, r.profiles, r.nprofiles, &scope);
	cpulist_free(&only);
	if (session_refusal(r.s)) {
		diag_error("%s", session_refusal(r.s));
		return run_done(&r, 1);
	}
	for (int i = 0; i < o->nfilters; i++)
		if (apply_filter_option(r.s, o->filters[i]) < 0)
			return run_done(&r, 2); /* a command-line error, as an unknown option */
	if (o->dry_run) { /* a replay's: with the filters it recorded at its first sample */
		status = r.rp ? run_replay(&r) : 0;
		if (!status) {
			counters_plan_shares(r.s);
			print_dry_run(r.s);
		}
		return run_done(&r, status);
	}
	if (o->rules)
		return run_done(&r, print_rules(session_frame(r.s), r.m, o->window ? o->window : "1m",
						     o->cgroups || o->cgroup_names));
	status = r.rp ? run_replay(&r) : run_sources(&r);
	if (!status)
		status = run_loop(&r, title, sizeof(title));
	*restart = r.restart;
	return run_done(&r, status);
}

int pmutop_run(struct options *o)
{
	int bad = run_target_start(o); /* a command waits at its gate for the counters */
	if (bad)
		return run_target_end(o, bad);
	const struct options given = *o; /* a run fills in some (a demo's model): start afresh */
	for (;;) {
		bool restart = false;
		int status = run_once(o, &restart);
		if (!restart || status)
			return run_target_end(o, status);
		bool per_cpu = o->per_cpu; /* the monitor's c asked for CPUs' rows */
		*o = given;
		o->per_cpu = per_cpu;
	}
}
