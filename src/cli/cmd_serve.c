/* cmd_serve.c - `pmutop serve`: Prometheus /metrics with no screen (the monitor takes
 * --listen to serve beside it), and `pmutop rules` (outputs/rules.c writes them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "config.h"
#include "cli/commands.h"
#include "cli/options.h"

int cmd_serve(int argc, char **argv)
{
	bool rules = !strcmp(argv[0], "rules");
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
