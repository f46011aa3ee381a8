/* SPDX-License-Identifier: GPL-2.0-only */
/* args.c - the command line: pmutop's options and its sub-commands' common ones, usage,
 * and the small parsers the commands share (durations). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timetext.h"
#include "outputs/exporter.h"
#include "base/suggest.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "config.h"
#include "engine/target.h"
#include "profile/catalog.h"
#include "outputs/batch.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmutop [OPTIONS] [-- COMMAND [ARGS...]]\n"
		"       pmutop encode [--sysfs-root DIR | --demo[=NAME]] EVENT...\n"
		"       pmutop list [--sysfs-root DIR | --demo[=NAME]]\n"
		"                   [pmus|events|profiles|machines|pci |\n"
		"                    metrics [--all] [-v] [-P PROFILE]... |\n"
		"                    metricgroups [-P PROFILE]...]\n"
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
		"  -A, --no-aggr             text and CSV: every CPU's and every box's row too\n"
		"                            (default: no member of a sum, as perf stat -a)\n"
		"      --per-socket          text and CSV: the sockets', not the machine's sums\n"
		"      --per-core, --per-node  text and CSV: each core's (node's) sum of the\n"
		"                            per-CPU groups, as perf stat's\n"
		"      --tasks N             batch: the top N tasks by CPU time each interval,\n"
		"                            with IPC, cache and branch misses and, with perf\n"
		"                            metrics, TopDown level 1 (the monitor's T view\n"
		"                            shows N, default 20)\n"
		"      --per-thread          with --tasks: a row a thread, as perf stat's (the\n"
		"                            monitor's Tasks view: H)\n"
		"  -G, --cgroup LIST         batch, serve: these cgroups' rows beside the root's\n"
		"                            (/), their core events counted on every CPU, as\n"
		"                            perf stat -a -G (the monitor opens its G view)\n"
		"      --cgroups[=N]         batch, serve, -r: the top N cgroups by CPU (default\n"
		"                            20; the monitor's G view shows N)\n"
		"  -C, --cpu LIST            count core and software events on these CPUs only\n"
		"                            (0-3,8; uncore PMUs count on their cpumask)\n"
		"  -o, --output FILE         batch output to FILE instead of standard output\n"
		"  -w, --write FILE          record the session to FILE (SQLite) while running\n"
		"      --force               replace an existing recording (nothing else)\n"
		"  -r, --read FILE           replay a recording, in the monitor or with -b\n"
		"      --begin/--end WHEN    replay from/until WHEN: HH:MM[:SS], +1h30m, @SECONDS\n"
		"      --listen ADDR:PORT    serve Prometheus /metrics too (serve: only that)\n"
		"      --per-cpu             a row for every CPU: the exporter's per-CPU series\n"
		"                            too, the monitor's from the start (past 64 CPUs it\n"
		"                            counts in socket rows until c)\n"
		"      --http-limits C,A,S   the exporter's clients in all, from one address, and\n"
		"                            seconds to send a request (default 256,64,5)\n"
		"  -P, --profile NAME|FILE   use this profile (repeatable), not those PMUs pick\n"
		"  -M, --metrics LIST        count only these metrics or perf metric groups\n"
		"                            (comma-separated, as perf stat -M) and their inputs\n"
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
		"                            string, its encoding and perf group role, and exit\n"
		"  -p, --pid PID[,PID...]    core and software events of these processes (their\n"
		"                            threads, and the tasks they start), as perf stat -p\n"
		"  -t, --tid TID[,TID...]    ... of these threads\n"
		"  COMMAND [ARGS...]         start COMMAND and count its core events (uncore:\n"
		"                            the machine's); its end ends batch output with a\n"
		"                            summary of the whole run, and pmutop exits with\n"
		"                            its status, as perf stat -- COMMAND\n"
		"  -h, --help                this help\n"
		"  -V, --version             version\n"
		"\n"
		"Metric values: '-' no value (division by zero or first interval after a change),\n"
		"'not counted' (counter never ran), '?' unreadable, 'n/a' unavailable.\n"
		"See pmutop(1) and pmutop-profile(5).\n");
}

static bool parse_delay(const char *text, double *delay)
{
	char *end;
	*delay = strtod_c(text, &end);
	if (*end || !(*delay >= 0.01 && *delay <= 86400)) {
		fprintf(stderr, "pmutop: -d %s: the interval must be 0.01 to 86400 seconds\n", text);
		return false;
	}
	return true;
}

static bool parse_iterations(const char *text, long *n)
{
	char *end;
	*n = strtol(text, &end, 10);
	if (*end || *n < 1) {
		fprintf(stderr, "pmutop: -n %s: want a positive number of intervals\n", text);
		return false;
	}
	return true;
}

/* What the options say together: combinations that mean nothing are refused. */
/* --listen and --http-limits are usage errors when malformed, and the limits mean
 * nothing without an exporter. */
static int check_exporter_args(const struct options *o)
{
	char *err;
	if (exporter_check_options(o->listen, o->http_limits, &err) < 0) {
		fprintf(stderr, "pmutop: %s\n", err);
		free(err);
		return 2;
	}
	if (o->http_limits && !o->listen && !o->serve_only) {
		fprintf(stderr, "pmutop: --http-limits bounds the exporter's clients: it needs --listen (or pmutop serve)\n");
		return 2;
	}
	return 0;
}

/* Who is counted: the machine, a command, or tasks; not two of them, and not where
 * nothing counts tasks (a simulated machine, a recording). */
static int check_target_args(int argc, char **argv, struct options *o)
{
	if (optind < argc)
		o->workload = argv + optind;
	const char *who = o->workload ? "a command" : o->pids ? "-p" : o->tids ? "-t" : NULL;
	if (!who)
		return 0;
	if ((o->workload != NULL) + (o->pids != NULL) + (o->tids != NULL) > 1) {
		fprintf(stderr, "pmutop: count a command, -p PIDs or -t TIDs, one of them\n");
		return 2;
	}
	if (o->cpus) {
		fprintf(stderr, "pmutop: -C counts CPUs, whatever runs on them; %s counts tasks wherever they run: one of "
				"them\n", who);
		return 2;
	}
	if (o->sim || o->demo || o->replay || o->dry_run || o->rules || o->serve_only) {
		fprintf(stderr, "pmutop: %s counts tasks of this machine: %s\n", who,
			o->replay ? "a replay has the recording's counts" :
			o->dry_run || o->rules ? "--dry-run and rules count nothing" :
			o->serve_only ? "serve exports the machine (run pmutop -p PID --listen ADDR:PORT)" :
			"the simulated machine has no tasks to count");
		return 2;
	}
	return 0;
}

/* -G and --cgroups count cgroups on every CPU (perf stat -G needs -a), beside the
 * machine: not tasks, not a recording's */
static int check_cgroup_args(const struct options *o)
{
	const char *opt = o->cgroup_names ? "-G" : o->cgroups ? "--cgroups" : NULL;
	if (!opt)
		return 0;
	if (o->workload || o->pids || o->tids) {
		fprintf(stderr, "pmutop: %s counts cgroups on every CPU beside the machine, as perf stat -a -G; %s counts "
				"tasks: one of them\n", opt, o->workload ? "a command" : o->pids ? "-p" : "-t");
		return 2;
	}
	if ((o->replay && o->cgroup_names) || o->dry_run) {
		fprintf(stderr, "pmutop: %s counts a machine's cgroups: %s\n", opt,
			o->dry_run ? "--dry-run counts nothing" : "a replay shows the cgroups as recorded (-r FILE --cgroups[=N])");
		return 2;
	}
	return 0;
}

static int check_args(int argc, char **argv, struct options *o)
{
	int bad = check_target_args(argc, argv, o);
	if (!bad)
		bad = check_cgroup_args(o);
	if (bad)
		return bad;
	if (o->per_thread && o->replay) {
		fprintf(stderr, "pmutop: -r replays the tasks' rows as recorded (threads where they were): --per-thread "
				"cannot change them\n");
		return 2;
	}
	if (o->per_thread && !(o->batch && o->tasks)) {
		fprintf(stderr, "pmutop: --per-thread makes --tasks' rows threads: it needs -b --tasks N (the monitor's "
				"Tasks view: H)\n");
		return 2;
	}
	if (o->raw && (!o->batch || o->format != BATCH_JSON)) {
		fprintf(stderr, "pmutop: --raw adds counters to JSON lines: it needs -b --format json\n");
		return 2;
	}
	if (o->replay && o->delay_given) {
		fprintf(stderr, "pmutop: -d: a replay keeps the recorded intervals (in the monitor, [ and ] "
				"change its speed)\n");
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
	return check_exporter_args(o);
}

/* --tasks N, --cgroups=N: 1 to 200 rows (each costs counters: an event's per thread of a
 * task, per CPU of a cgroup) */
static bool parse_row_count(const char *opt, const char *text, int *n)
{
	char *end;
	long v = strtol(text, &end, 10);
	if (*end || end == text || v < 1 || v > 200) {
		bool tasks = opt[2] == 't';
		fprintf(stderr, "pmutop: %s %s: want 1 to 200 %s (each costs a counter per event and %s)\n", opt, text,
			tasks ? "tasks" : "cgroups", tasks ? "thread" : "CPU");
		return false;
	}
	*n = (int)v;
	return true;
}

/* -G's cgroups, comma-separated as perf's: none empty */
static const char *cgroup_list(const char *arg)
{
	bool ok = *arg && arg[0] != ',' && arg[strlen(arg) - 1] != ',' && !strstr(arg, ",,");
	if (!ok)
		fprintf(stderr, "pmutop: -G '%s': want cgroup names, comma-separated, as perf stat -G (paths in the "
				"cgroup hierarchy: system.slice/foo.service)\n", arg);
	return ok ? arg : NULL;
}

/* -p's or -t's IDs: said where they are not (-p was the profile's before -P took it). */
static bool task_ids(int opt, const char *arg, const char **ids)
{
	pid_t *list;
	int n;
	char *why;
	if (target_parse_ids(arg, &list, &n, &why)) {
		free(list);
		*ids = arg;
		return true;
	}
	fprintf(stderr, "pmutop: -%c %s: %s; -%c takes IDs as perf's and htop's do%s\n", opt, arg, why, opt,
		opt == 'p' ? " (a profile is -P/--profile)" : "");
	free(why);
	return false;
}

/* A repeatable option's next value (-P, -f). */
static void push_arg(const char ***list, int *n, const char *arg)
{
	*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 1));
	(*list)[(*n)++] = arg;
}

/* -M's list, or NULL (said) where it names nothing: not "nothing to count" later. */
static const char *metrics_list(const char *arg)
{
	if (arg[strspn(arg, ", \t")])
		return arg;
	fprintf(stderr, "pmutop: -M '%s': want metric or metric group names, comma-separated (pmutop list metrics)\n", arg);
	return NULL;
}

/* pmutop's long options (the short ones in parse_args' string) */
enum { O_FORMAT = 256, O_RAW, O_SYSFS, O_PROC, O_SIM, O_MODEL, O_DEMO, O_SEED, O_FAKE, O_DRY, O_FORCE, O_BEGIN,
       O_END, O_LISTEN, O_PERCPU, O_HTTP_LIMITS, O_PER_SOCKET, O_PER_CORE, O_PER_NODE, O_TASKS, O_PER_THREAD, O_CGROUPS };
static const struct option main_options[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "raw", no_argument, NULL, O_RAW },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "per-socket", no_argument, NULL, O_PER_SOCKET },
	{ "per-core", no_argument, NULL, O_PER_CORE },
	{ "per-node", no_argument, NULL, O_PER_NODE },
	{ "cpu", required_argument, NULL, 'C' },
	{ "tasks", required_argument, NULL, O_TASKS },
	{ "per-thread", no_argument, NULL, O_PER_THREAD },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "cgroups", optional_argument, NULL, O_CGROUPS },
	{ "profile", required_argument, NULL, 'P' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "metrics", required_argument, NULL, 'M' },
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

int parse_args(int argc, char **argv, struct options *o)
{
	int c;
	opterr = 0; /* one line of our own, not 40 of help */
	/* '+': the first word that is no option begins the command, whose options are its own */
	while ((c = getopt_long(argc, argv, "+:bd:n:o:P:p:t:C:G:AM:f:w:r:hV", main_options, NULL)) != -1) {
		switch (c) {
		case 'b': o->batch = true; break;
		case 'd':
			if (!parse_delay(optarg, &o->delay))
				return 2;
			o->delay_given = true;
			break;
		case 'n':
			if (!parse_iterations(optarg, &o->iterations))
				return 2;
			break;
		case O_FORMAT:
			if (!batch_parse_format(optarg, &o->format)) {
				fprintf(stderr, "pmutop: --format %s: want text, csv or json\n", optarg);
				return 2;
			}
			break;
		case O_RAW: o->raw = true; break;
		case 'A': o->rows = ROWS_EVERY; break;
		case O_PER_SOCKET: o->rows = ROWS_PER_SOCKET; break;
		case O_PER_CORE: o->rows = ROWS_PER_CORE; break;
		case O_PER_NODE: o->rows = ROWS_PER_NODE; break;
		case 'C': o->cpus = optarg; break;
		case O_TASKS:
			if (!parse_row_count("--tasks", optarg, &o->tasks))
				return 2;
			break;
		case O_PER_THREAD: o->per_thread = true; break;
		case 'G':
			if (!(o->cgroup_names = cgroup_list(optarg)))
				return 2;
			break;
		case O_CGROUPS:
			if (!parse_row_count("--cgroups", optarg ? optarg : "20", &o->cgroups))
				return 2;
			break;
		case 'o': o->output = optarg; o->batch = true; break;
		case 'M':
			if (!(o->metrics = metrics_list(optarg)))
				return 2;
			break;
		case 'P': push_arg(&o->profiles, &o->nprofiles, optarg); break;
		case 'p':
		case 't':
			if (!task_ids(c, optarg, c == 'p' ? &o->pids : &o->tids))
				return 2;
			break;
		case 'f': push_arg(&o->filters, &o->nfilters, optarg); break;
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
	return check_args(argc, argv, o);
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
	char why[256];
	return duration_parse(s, ns, why, sizeof(why)) && *ns > 0;
}

void cmd_bad_option(const char *cmd, int c, char **argv)
{
	const char *opt = argv[optind - 1];
	if (c == ':')
		fprintf(stderr, "%s: option '%s' needs a value (see %s --help)\n", cmd, opt, cmd);
	else
		fprintf(stderr, "%s: unknown option '%s' (see %s --help)\n", cmd, opt, cmd);
}

int cmd_options(int argc, char **argv, const char *name, const char *usage, char **root, int *status)
{
	static const struct option opts[] = {
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "demo", optional_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "pmutop %s", name);
	const char *env = getenv("PMUTOP_SYSFS_ROOT");
	*root = xstrdup(env && *env ? env : "/");
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			free(*root);
			*root = xstrdup(optarg);
			break;
		case 'd': {
			const char *demo = optarg ? optarg : "tegra410";
			char *next = !optarg && optind < argc ? catalog_find_machine(argv[optind]) : NULL;
			if (next) { /* "--demo NAME", as the main command takes it */
				demo = argv[optind++];
				free(next);
			}
			char *dir = catalog_find_machine(demo);
			if (!dir) {
				struct suggest sg;
				suggest_init(&sg, demo);
				fprintf(stderr, "%s: no demo machine '%s'%s (see pmutop list machines)\n", cmd, demo,
					catalog_suggest_machine(&sg));
				suggest_free(&sg);
				free(*root);
				*root = NULL;
				*status = 2;
				return -1;
			}
			free(*root);
			*root = dir;
			break;
		}
		case 'h':
			fputs(usage, stdout);
			*status = 0;
			free(*root);
			*root = NULL;
			return -1;
		default:
			cmd_bad_option(cmd, c, argv);
			free(*root);
			*root = NULL;
			*status = 2;
			return -1;
		}
	}
	return optind;
}
