/* cmd_encode.c - `pmutop encode EVENT...`: the perf_event_attr fields an event becomes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "base/util.h"
#include "engine/catalog.h"
#include "base/diag.h"
#include "machine/encode.h"
#include "machine/discover.h"
#include "machine/pmu.h"

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
				fprintf(stderr, "%s: no demo machine '%s' (see pmutop list machines)\n", cmd, demo);
				free(*root);
				*root = NULL;
				*status = 1;
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

int cmd_encode(int argc, char **argv)
{
	char *root;
	int status;
	int first = cmd_options(argc, argv, "encode",
				"usage: pmutop encode [--sysfs-root DIR | --demo[=NAME]] EVENT...\n"
				"Print the perf_event_attr type and config words each EVENT encodes to:\n"
				"EVENT<TAB>type=N<TAB>config=0x..<TAB>config1=0x..<TAB>config2=0x..\n",
				&root, &status);
	if (first < 0)
		return status;
	if (first >= argc) {
		fprintf(stderr, "pmutop encode: no event given (usage: pmutop encode [--sysfs-root DIR | --demo] EVENT...)\n");
		free(root);
		return 2;
	}
	struct machine *m = machine_discover(root);
	free(root);
	status = 0;
	for (int i = first; i < argc; i++) {
		struct encoded_event enc;
		char *err;
		if (encode_event(m, argv[i], &enc, &err) < 0) {
			fprintf(stderr, "pmutop encode: %s\n", err);
			free(err);
			status = 1;
			continue;
		}
		char buf[256];
		encode_format_attr(&enc.attr, buf, sizeof(buf));
		printf("%s\t%s\n", argv[i], buf);
	}
	machine_free(m);
	return status;
}
