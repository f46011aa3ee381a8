/* SPDX-License-Identifier: GPL-2.0-only */
/* main.c - pmutop's entry: a sub-command from the table, else the monitor or batch
 * output as the options say (cli/args.c reads them, cli/run.c runs them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"

/* Sub-commands, as tmux keeps its commands: a table, not a chain of ifs. */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "encode", cmd_encode }, { "list", cmd_list }, { "record", cmd_record },
	{ "serve", cmd_serve },	  { "rules", cmd_serve },
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
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
