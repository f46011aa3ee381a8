/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_serve.c - `pmutop serve`: Prometheus /metrics with no screen (the monitor takes
 * --listen to serve beside it), and `pmutop rules` (outputs/rules.c writes them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "config.h"
#include "cli/commands.h"
#include "cli/options.h"

static const char serve_usage[] =
	"usage: pmutop serve [--listen ADDR:PORT] [--per-cpu] [--http-limits C,A,S]\n"
	"                    [--cgroups[=N] | -G CGROUP[,CGROUP...]] [OPTIONS]\n"
	"\n"
	"Prometheus /metrics (text 0.0.4, or OpenMetrics when asked) from the frames the\n"
	"monitor would draw, with no screen; 503 until the first frame.\n"
	"\n"
	"  --listen ADDR:PORT    where to listen (default 127.0.0.1:9741; :PORT is every\n"
	"                        address, port 0 any free one: both said on stderr)\n"
	"  --per-cpu             per-CPU series too (else per-socket sums)\n"
	"  --cgroups[=N], -G CGROUP[,CGROUP...]\n"
	"                        each cgroup's CPU seconds, cycles, instructions and\n"
	"                        misses (label cgroup): the top N by CPU, or these\n"
	"  --http-limits C,A,S   clients in all, from one address, and seconds a request\n"
	"                        may take to arrive (default 256,64,5)\n"
	"  -d, -n, -P, -f, --sysfs-root, --sim, --demo\n"
	"                        as for pmutop (see pmutop --help)\n";

static const char rules_usage[] =
	"usage: pmutop rules [--window DURATION] [--cgroups] [OPTIONS]\n"
	"\n"
	"Prometheus recording rules computing each metric of the profiles from the\n"
	"counters pmutop serve exports, in the base units of its gauge:\n"
	"pmutop:METRIC_UNIT:rateWINDOW. Check them with promtool check rules.\n"
	"\n"
	"  --window DURATION     the rate window, a PromQL duration (default 1m: 30s, 5m)\n"
	"  --cgroups             the rules of serve --cgroups' series too\n"
	"  -P PROFILE, --sysfs-root DIR, --sim, --demo[=NAME]\n"
	"                        which profiles and machine (as for pmutop)\n";

int cmd_serve(int argc, char **argv)
{
	bool rules = !strcmp(argv[0], "rules");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(rules ? rules_usage : serve_usage, stdout);
			return 0;
		}
	char **rest = xcalloc((size_t)argc + 2, sizeof(char *));
	int nrest = 0;
	rest[nrest++] = (char *)"pmutop";
	const char *window = NULL;
	for (int i = 1; i < argc; i++) {
		if (rules && !strcmp(argv[i], "--window") && i + 1 < argc) {
			window = argv[++i];
			uint64_t ns;
			if (!parse_duration(window, &ns) || strspn(window, "0123456789") == strlen(window)) {
				fprintf(stderr, "pmutop rules: --window %s: want a PromQL duration (30s, 1m, 5m)\n", window);
				free(rest);
				return 2;
			}
		} else if (!rules && !strcmp(argv[i], "--window")) {
			fprintf(stderr, "pmutop serve: --window is for pmutop rules\n");
			free(rest);
			return 2;
		} else if (rules && (!strcmp(argv[i], "--listen") || !strcmp(argv[i], "--http-limits"))) {
			fprintf(stderr, "pmutop rules: %s is for pmutop serve\n", argv[i]);
			free(rest);
			return 2;
		} else if (!strcmp(argv[i], "-b") || !strcmp(argv[i], "-w") || !strcmp(argv[i], "-r")) {
			fprintf(stderr, "pmutop %s: %s is not for %s (see pmutop --help)\n", argv[0], argv[i], argv[0]);
			free(rest);
			return 2;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	struct options o = { .delay = 1.0, .iterations = -1, .seed = 1, .batch = true };
	o.command = command_line(argc, argv);
	o.serve_only = !rules; /* before the checks: --http-limits needs no --listen here */
	int r = parse_args(nrest, rest, &o);
	free(rest);
	if (r == 0) {
		o.serve_only = !rules;
		o.rules = rules;
		o.window = window;
		r = pmutop_run(&o);
	}
	free(o.profiles);
	free(o.filters);
	free(o.command);
	return r;
}
