/* main.c - the command line: options, then a session with its sources, and the run loop
 * with its outputs (batch or the monitor). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "outputs/batch.h"
#include "engine/catalog.h"
#include "cli/commands.h"
#include "config.h"
#include "base/diag.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "machine/procstat.h"
#include "engine/profile.h"
#include "engine/session.h"
#include "cli/options.h"
#include "outputs/exporter.h"
#include "record/recorder.h"
#include "record/replay.h"
#include "sources/hwmon_io.h"
#include "sources/sources.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "base/clock.h"
#include "engine/runloop.h"
#include "ui/ui.h"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmutop [OPTIONS]\n"
		"       pmutop encode [--sysfs-root DIR | --demo[=NAME]] EVENT...\n"
		"       pmutop list [--sysfs-root DIR | --demo[=NAME]]\n"
		"                   [pmus|events|profiles|metrics|machines|pci]\n"
		"       pmutop record -o FILE [-d SECS] [--duration D] [--rotate D [--keep N]]\n"
		"                   [OPTIONS]\n"
		"       pmutop record --info FILE\n"
		"       pmutop serve [--listen ADDR:PORT] [--per-cpu] [OPTIONS]  (127.0.0.1:9741)\n"
		"       pmutop rules [--window 1m] [OPTIONS]  Prometheus recording rules\n"
		"\n"
		"Watch uncore and core PMU counters as metrics: memory-fabric bandwidth,\n"
		"latencies, PCIe root-complex traffic, TopDown.\n"
		"\n"
		"  -b, --batch               print metrics every interval, not the full screen\n"
		"                            (without -b, standard input and output must be a\n"
		"                            terminal)\n"
		"  -d, --delay SECONDS       refresh interval (default 1)\n"
		"  -n, --iterations N        stop after N intervals\n"
		"      --format FORMAT       batch output: text (default), csv or json\n"
		"      --raw                 with --format json, also every counter's raw delta\n"
		"  -o, --output FILE         batch output to FILE instead of standard output\n"
		"  -w, --write FILE          record the session to FILE (SQLite) while running\n"
		"      --force               replace an existing recording (nothing else)\n"
		"  -r, --read FILE           replay a recording, in the monitor or with -b\n"
		"      --begin/--end WHEN    replay from/until WHEN: HH:MM[:SS], +5m, @SECONDS\n"
		"      --listen ADDR:PORT    serve Prometheus /metrics too (serve: only that)\n"
		"      --per-cpu             the exporter's per-CPU series too\n"
		"      --http-limits C,A,S   the exporter's clients in all, from one address, and\n"
		"                            seconds to send a request (default 256,64,5)\n"
		"  -p, --profile NAME|FILE   use this profile (repeatable), not those PMUs pick\n"
		"  -f, --filter GROUP[@INSTANCE]:TERM=VALUE[,TERM=VALUE...]\n"
		"                            set a filter at start (VALUE 'default' clears it)\n"
		"      --sysfs-root DIR      read sysfs below DIR (/ or $PMUTOP_SYSFS_ROOT)\n"
		"      --proc-root DIR       read /proc below DIR (default /)\n"
		"      --sim                 count with the simulated machine on the sysfs root\n"
		"      --model FILE          traffic model for --sim\n"
		"      --demo[=NAME]         run on a bundled simulated machine (tegra410)\n"
		"      --seed N              seed of the simulated machine's noise (default 1)\n"
		"      --fake-clock          with --sim/--demo: advance time by the interval, not\n"
		"                            waiting (for tests and scripts)\n"
		"      --dry-run             print every event pmutop would open, as a perf event\n"
		"                            string and its encoding, and exit\n"
		"  -h, --help                this help\n"
		"  -V, --version             version\n"
		"\n"
		"Metric values: '-' no value (division by zero or first interval after a change),\n"
		"'not counted' (counter never ran), '?' unreadable, 'n/a' unavailable.\n"
		"See pmutop(1) and pmutop-profile(5).\n");
}

int parse_args(int argc, char **argv, struct options *o)
{
	enum { O_FORMAT = 256, O_RAW, O_SYSFS, O_PROC, O_SIM, O_MODEL, O_DEMO, O_SEED, O_FAKE, O_DRY, O_FORCE, O_BEGIN,
	       O_END, O_LISTEN, O_PERCPU, O_HTTP_LIMITS };
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "raw", no_argument, NULL, O_RAW },
		{ "profile", required_argument, NULL, 'p' },
		{ "filter", required_argument, NULL, 'f' },
		{ "sysfs-root", required_argument, NULL, O_SYSFS },
		{ "proc-root", required_argument, NULL, O_PROC },
		{ "sim", no_argument, NULL, O_SIM },
		{ "model", required_argument, NULL, O_MODEL },
		{ "demo", optional_argument, NULL, O_DEMO },
		{ "seed", required_argument, NULL, O_SEED },
		{ "fake-clock", no_argument, NULL, O_FAKE },
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "output", required_argument, NULL, 'o' },
		{ "write", required_argument, NULL, 'w' },
		{ "read", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "begin", required_argument, NULL, O_BEGIN },
		{ "end", required_argument, NULL, O_END },
		{ "listen", required_argument, NULL, O_LISTEN },
		{ "per-cpu", no_argument, NULL, O_PERCPU },
		{ "http-limits", required_argument, NULL, O_HTTP_LIMITS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	int c;
	char *end;
	opterr = 0; /* one line of our own, not 40 of help */
	while ((c = getopt_long(argc, argv, ":bd:n:o:p:f:w:r:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'b': o->batch = true; break;
		case 'd':
			o->delay = strtod_c(optarg, &end);
			if (*end || !(o->delay >= 0.01 && o->delay <= 86400)) {
				fprintf(stderr, "pmutop: -d %s: the interval must be 0.01 to 86400 seconds\n", optarg);
				return 2;
			}
			break;
		case 'n':
			o->iterations = strtol(optarg, &end, 10);
			if (*end || o->iterations < 1) {
				fprintf(stderr, "pmutop: -n %s: want a positive number of intervals\n", optarg);
				return 2;
			}
			break;
		case O_FORMAT:
			if (!batch_parse_format(optarg, &o->format)) {
				fprintf(stderr, "pmutop: --format %s: want text, csv or json\n", optarg);
				return 2;
			}
			break;
		case O_RAW: o->raw = true; break;
		case 'o': o->output = optarg; o->batch = true; break;
		case 'p':
			o->profiles = xrealloc(o->profiles, sizeof(char *) * (size_t)(o->nprofiles + 1));
			o->profiles[o->nprofiles++] = optarg;
			break;
		case 'f':
			o->filters = xrealloc(o->filters, sizeof(char *) * (size_t)(o->nfilters + 1));
			o->filters[o->nfilters++] = optarg;
			break;
		case O_SYSFS: o->sysfs_root = optarg; break;
		case O_PROC: o->proc_root = optarg; break;
		case O_SIM: o->sim = true; break;
		case O_MODEL: o->model = optarg; break;
		case O_DEMO:
			o->demo = optarg ? optarg : "tegra410";
			/* also accept "--demo NAME" */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				o->demo = argv[optind++];
			break;
		case O_SEED:
			if (!parse_u64(optarg, &o->seed)) {
				fprintf(stderr, "pmutop: --seed %s: want a number\n", optarg);
				return 2;
			}
			break;
		case O_FAKE: o->fake_clock = true; break;
		case O_DRY: o->dry_run = true; break;
		case 'w': o->record = optarg; break;
		case 'r': o->replay = optarg; break;
		case O_FORCE: o->force = true; break;
		case O_BEGIN: o->begin = optarg; break;
		case O_END: o->end = optarg; break;
		case O_LISTEN: o->listen = optarg; break;
		case O_PERCPU: o->per_cpu = true; break;
		case O_HTTP_LIMITS: o->http_limits = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("pmutop %s\n", PACKAGE_VERSION); exit(0);
		default: cmd_bad_option("pmutop", c, argv); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmutop: unexpected argument '%s' (see pmutop --help)\n", argv[optind]);
		return 2;
	}
	if ((o->begin || o->end) && !o->replay) {
		fprintf(stderr, "pmutop: --begin/--end select a time range of a replay (-r FILE)\n");
		return 2;
	}
	if (o->fake_clock && !o->sim && !o->demo && !o->replay) {
		fprintf(stderr, "pmutop: --fake-clock needs --sim or --demo (real counters count real time)\n");
		return 2;
	}
	if (o->model && !o->sim && !o->demo) {
		fprintf(stderr, "pmutop: --model needs --sim (a traffic model drives the simulated machine only)\n");
		return 2;
	}
	return 0;
}

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
			if (!instname && (inst->nmembers || inst->parent >= 0))
				continue; /* members get it directly; root ports follow their RC */
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
		fprintf(stderr, "pmutop: -f %s: no instance of group '%s'%s%s on this machine\n", spec, target,
			instname ? " named " : "", instname ? instname : "");
		status = -1;
	}
	free(assigns);
	free(target);
	return status;
}

static int load_profiles(const struct options *o, const struct machine *m, struct profile ***out)
{
	if (o->nprofiles) {
		*out = xcalloc((size_t)o->nprofiles, sizeof(struct profile *));
		for (int i = 0; i < o->nprofiles; i++) {
			char *path = catalog_find_profile(o->profiles[i]);
			int nerr = 0;
			(*out)[i] = path ? profile_load(path, &nerr) : NULL;
			free(path);
			if ((*out)[i])
				continue;
			if (nerr)
				fprintf(stderr, "pmutop: %d error%s in profile %s\n", nerr, nerr == 1 ? "" : "s", o->profiles[i]);
			else
				fprintf(stderr, "pmutop: no profile '%s' (see pmutop list profiles)\n", o->profiles[i]);
			for (int k = 0; k < i; k++) /* the ones loaded before it */
				profile_free((*out)[k]);
			free(*out);
			*out = NULL;
			return -1;
		}
		return o->nprofiles;
	}
	struct profile **all;
	int n = catalog_load_all(&all);
	int k = catalog_select(all, n, m, out);
	if (!k) {
		fprintf(stderr, "pmutop: no profile matches this machine's PMUs and none is a fallback "
				"(see pmutop list profiles; choose one with -p)\n");
		return -1;
	}
	return k;
}

/* INSTANCE GROUP EVENT-STRING ENCODING ROLE, one line per instance and event in the
 * order they are opened; ROLE is leader, member (of the leader's perf group) or single.
 * Unavailable instances say why. */
static void print_dry_run(const struct session *s)
{
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		if (inst->nmembers)
			continue;
		if (inst->unavailable) {
			printf("%s\t%s\t!\t%s\n", inst->name, inst->group->name, inst->unavailable);
			continue;
		}
		int order[inst->group->nevents + 1];
		int n = instance_open_order(inst, order);
		for (int k = 0; k < n; k++) {
			int e = order[k];
			for (int c = 0; c < inst->ncounters; c++) {
				if (inst->counters[c].event != e)
					continue;
				char enc[160];
				encode_format_attr(&inst->counters[c].attr, enc, sizeof(enc));
				const char *role = !inst->group->perf_group || n == 1 ? "single" : k == 0 ? "leader" : "member";
				printf("%s\t%s\t%s\t%s\t%s\n", inst->name, inst->group->name, inst->event_str[e], enc, role);
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
		if (m->pmus[i].hw || m->pmus[i].sensor) /* files: any tree's can be counted */
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
		if (in->nmembers)
			continue;
		if (in->opened)
			return true;
		failed++;
		if (!why)
			why = in->unavailable ? in->unavailable : in->open_error;
	}
	if (!failed)
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

/* The outputs of a run: batch or the monitor (unless pmutop record), and a recorder
 * (recording now with -w, or idle for the monitor's 'w' key). */
static int add_outputs(struct options *o, struct session *s, struct runloop *loop, struct replay *rp, char *title,
		       size_t tlen, FILE **outfile)
{
	struct output *rec = NULL;
	if (!rp && (o->record || (!o->batch && !o->serve_only))) {
		struct recorder_options ro = { .path = o->record, .force = o->force, .rotate_ns = o->rotate_ns,
					       .keep = o->keep, .command = o->command,
					       .essential = o->record_only && !o->listen };
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
		struct exporter_options eo = { .listen = o->listen, .per_cpu = o->per_cpu, .limits = o->http_limits };
		char *err = NULL;
		struct output *ex = exporter_output_new(s, &eo, &err);
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
		FILE *f = stdout;
		if (o->output && !(f = fopen(o->output, "w"))) {
			fprintf(stderr, "pmutop: -o %s: %s\n", o->output, strerror(errno));
			return -1;
		}
		runloop_add_output(loop, batch_output_new(f, o->format, o->raw));
		*outfile = f != stdout ? f : NULL;
		loop->final_on_signal = !rp; /* Ctrl-C prints the partial interval, as perf stat -I */
		return 0;
	}
	size_t n = 0;
	for (int i = 0; i < s->nprofiles && n < tlen - 1; i++)
		n += (size_t)snprintf(title + n, tlen - n, "%s%s", i ? " + " : "", s->profiles[i]->name);
	static char host[256]; /* the monitor keeps the pointer until the loop ends */
	char *h = rp ? replay_meta(rp, "host") : NULL;
	snprintf(host, sizeof(host), "%s", h ? h : "");
	free(h);
	static struct ui_options uo;
	uo = (struct ui_options){ .interval_s = o->delay, .title = title, .machine = rp ? host : o->demo,
				  .recorder = recorder_of(rec), .replay = rp };
	struct output *ui = ui_output_new(s, &uo);
	if (!ui)
		return -1;
	runloop_add_output(loop, ui);
	return 0;
}

/* --begin/--end: HH:MM[:SS] on the recording's first day, +DURATION from its start,
 * YYYY-mm-ddTHH:MM:SS, or @EPOCH_SECONDS; 0 and a message when it is none of them. */
static uint64_t parse_when(const char *what, const char *text, struct replay *rp)
{
	struct replay_position pos;
	replay_position(rp, &pos);
	uint64_t ns;
	struct tm tm;
	time_t first = (time_t)(pos.wall_first / 1000000000ull);
	char *end;
	if (text[0] == '+' && parse_duration(text + 1, &ns))
		return pos.wall_first + ns;
	if (text[0] == '@') {
		double sec = strtod_c(text + 1, &end);
		if (!*end && sec > 0)
			return (uint64_t)(sec * 1e9);
	}
	localtime_r(&first, &tm);
	memset(&tm.tm_sec, 0, sizeof(int) * 3);
	if ((end = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm)) && !*end) {
		tm.tm_isdst = -1;
		return (uint64_t)mktime(&tm) * 1000000000ull;
	}
	localtime_r(&first, &tm);
	tm.tm_sec = 0;
	if (((end = strptime(text, "%H:%M:%S", &tm)) && !*end) || ((end = strptime(text, "%H:%M", &tm)) && !*end)) {
		tm.tm_isdst = -1;
		return (uint64_t)mktime(&tm) * 1000000000ull;
	}
	fprintf(stderr, "pmutop: %s %s: want HH:MM[:SS], +DURATION (+5m), YYYY-mm-ddTHH:MM:SS or @SECONDS\n", what, text);
	return 0;
}

int pmutop_run(struct options *o)
{
	char *demo_dir = NULL, *demo_model = NULL, *default_model = NULL;
	const char *root = o->sysfs_root ? o->sysfs_root : getenv("PMUTOP_SYSFS_ROOT");
	if (!root || !*root)
		root = "/";
	struct replay *rp = NULL;
	if (o->replay) {
		char *err = NULL;
		if (o->nfilters || o->sim || o->demo || o->record) {
			fprintf(stderr, "pmutop: -r replays what was recorded: %s cannot apply to it\n",
				o->nfilters ? "-f (the hardware counted what it counted)" : o->record ? "-w" : "--sim/--demo");
			return 2;
		}
		rp = replay_open(o->replay, &err);
		if (!rp) {
			fprintf(stderr, "pmutop: -r %s\n", err);
			free(err);
			return 1;
		}
	}
	if (o->demo) {
		demo_dir = catalog_find_machine(o->demo);
		if (!demo_dir) {
			fprintf(stderr, "pmutop: no demo machine '%s' (see pmutop list machines)\n", o->demo);
			return 1;
		}
		root = demo_dir;
		demo_model = path_join(demo_dir, "model.ini");
		if (!o->model && is_regular_file(demo_model))
			o->model = demo_model;
		o->sim = true;
	}
	if (o->sim && !o->model) { /* coherent rates for every family the profiles know */
		default_model = catalog_default_model();
		o->model = default_model;
	}
	int status = 1;
	if (!rp && !is_dir(root)) {
		fprintf(stderr, "pmutop: --sysfs-root %s: %s\n", root, strerror(errno ? errno : ENOTDIR));
		free(demo_dir);
		free(demo_model);
		free(default_model);
		return 1;
	}
	struct machine *m = rp ? replay_machine(rp) : machine_discover(root);
	struct profile **profiles = NULL;
	int nprofiles;
	if (rp && !o->nprofiles) {
		char *err = NULL;
		nprofiles = replay_profiles(rp, &profiles, &err);
		if (nprofiles < 0) {
			fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
			free(err);
		}
	} else {
		nprofiles = load_profiles(o, m, &profiles);
	}
	struct session *s = NULL;
	struct runloop loop = { 0 };
	FILE *outfile = NULL;
	struct clock clk, *clock = &clk;
	if (nprofiles < 0)
		goto out;
	s = session_new(m, profiles, nprofiles);
	for (int i = 0; i < o->nfilters; i++)
		if (apply_filter_option(s, o->filters[i]) < 0)
			goto out;
	if (o->dry_run) {
		print_dry_run(s);
		status = 0;
		goto out;
	}
	if (o->rules) {
		status = print_rules(s, o->window ? o->window : "1m", o->per_cpu);
		goto out;
	}
	if (rp) {
		char *err = NULL;
		uint64_t b = o->begin ? parse_when("--begin", o->begin, rp) : 0, e = o->end ? parse_when("--end", o->end, rp) : 0;
		if ((o->begin && !b) || (o->end && !e)) {
			status = 2;
			goto out;
		}
		if (replay_check_range(rp, b, e, &err) < 0) {
			fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
			free(err);
			status = 2;
			goto out;
		}
		replay_set_range(rp, b, e);
		if (replay_attach(rp, s, &err) < 0) {
			fprintf(stderr, "pmutop: -r %s: %s\n", o->replay, err);
			free(err);
			goto out;
		}
		clock = replay_clock(rp, o->batch || o->fake_clock || o->record_only);
	} else {
		if (!o->sim && !same_pmus_as_kernel(m)) {
			fprintf(stderr, "pmutop: %s is not this kernel's sysfs: counting live needs the real /sys (its PMU type "
					"numbers are the kernel's). Add --sim to count this tree with the simulated machine; "
					"--dry-run, encode and list read it as it is.\n", root);
			goto out;
		}
		if (o->sim) {
			struct sim_options so = { .model_path = o->model, .seed = o->seed };
			struct source *src = source_sim_new(m, &so);
			if (!src)
				goto out;
			session_add_source(s, src);
		} else {
			session_add_source(s, source_perf_new(m));
		}
		/* BlueField's counter files: the same source over the simulated driver or the files */
		struct hwmon_io *io = o->sim ? hwmon_io_sim_new(m, o->model, o->seed) : hwmon_io_files_new();
		if (!io)
			goto out;
		session_add_source(s, source_hwmon_new(m, io));
		struct source *sensors = source_sensors_new(m, o->model, o->sim);
		if (!sensors)
			goto out;
		session_add_source(s, sensors);
		if (o->fake_clock)
			clock_init_fake(&clk, 1000000000ull);
		else
			clock_init_monotonic(&clk);
		/* the demo machine's /proc is its own (absent), not this host's; libsensors reads the
		 * real /sys, so only a live machine's sensors are its own */
		if (host_meters_shown(o))
			session_use_host_meters(s, procstat_new(o->proc_root ? o->proc_root : o->demo ? demo_dir : "/"),
						!o->sim);
	}
	session_use_clock(s, clock);
	/* before anything is programmed: a TERM from now on ends the loop's first poll and
	 * the cleanup restores what counting changed (BlueField's event files) */
	runloop_install_signals();
	session_start(s, rp ? replay_start_ns(rp) : clock_now(clock));
	if (rp) {
		char *label = replay_meta(rp, "source");
		session_set_source_label(s, label ? label : "replay");
		free(label);
	}
	if (!counts_anything(s))
		goto out;
	runloop_init(&loop, s, clock, o->delay, o->iterations);
	if (rp)
		runloop_set_pacer(&loop, replay_pacer, rp, o->batch);
	char title[256] = ""; /* the monitor keeps pointers to these until the loop ends */
	if (add_outputs(o, s, &loop, rp, title, sizeof(title), &outfile) < 0)
		goto out;
	status = runloop_run(&loop);
	if (rp && replay_damaged(rp))
		status = 1;
out:
	runloop_done(&loop);
	if (outfile && fclose(outfile) != 0 && status == 0) {
		fprintf(stderr, "pmutop: -o %s: %s\n", o->output, strerror(errno));
		status = 1;
	}
	session_free(s);
	for (int i = 0; i < nprofiles; i++)
		profile_free(profiles[i]);
	free(profiles);
	if (rp)
		replay_close(rp); /* and its machine */
	else
		machine_free(m);
	free(demo_dir);
	free(demo_model);
	free(default_model);
	return status;
}

char *command_line(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *c = xcalloc(1, len);
	for (int i = 0; i < argc; i++) {
		strcat(c, i ? " " : "");
		strcat(c, argv[i]);
	}
	return c;
}

bool parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod_c(s, &end);
	double unit = !*end || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600
		    : !strcmp(end, "d") ? 86400 : 0;
	if (end == s || !unit || !(v > 0) || v * unit > 1e8)
		return false;
	*ns = (uint64_t)(v * unit * 1e9 + 0.5);
	return true;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "encode"))
		return cmd_encode(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (argc > 1 && (!strcmp(argv[1], "serve") || !strcmp(argv[1], "rules")))
		return cmd_serve(argc - 1, argv + 1);
	struct options o = { .delay = 1.0, .iterations = -1, .seed = 1 };
	o.command = command_line(argc, argv);
	int r = parse_args(argc, argv, &o);
	if (!r && !o.batch && !o.dry_run && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		if (o.fake_clock || o.record) { /* scripted runs */
			o.batch = true;
		} else {
			fprintf(stderr, "pmutop: not a terminal: use -b for batch output (see pmutop --help)\n");
			r = 2;
		}
	}
	if (!r)
		r = pmutop_run(&o);
	free(o.profiles);
	free(o.filters);
	free(o.command);
	return r;
}
