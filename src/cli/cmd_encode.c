/* cmd_encode.c - `pmutop encode EVENT...`: the perf_event_attr fields an event becomes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "base/diag.h"
#include "machine/encode.h"
#include "machine/pmu.h"

int cmd_options(int argc, char **argv, const char *usage, const char **root, int *status)
{
	static const struct option opts[] = {
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *env = getenv("PMUTOP_SYSFS_ROOT");
	*root = env && *env ? env : "/";
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': *root = optarg; break;
		case 'h': fputs(usage, stdout); *status = 0; return -1;
		default: *status = 2; return -1;
		}
	}
	return optind;
}

int cmd_encode(int argc, char **argv)
{
	const char *root;
	int status;
	int first = cmd_options(argc, argv,
				"usage: pmutop encode [--sysfs-root DIR] EVENT...\n"
				"Print the perf_event_attr type and config words each EVENT encodes to:\n"
				"EVENT<TAB>type=N<TAB>config=0x..<TAB>config1=0x..<TAB>config2=0x..\n",
				&root, &status);
	if (first < 0)
		return status;
	if (first >= argc) {
		fprintf(stderr, "pmutop encode: no event given (usage: pmutop encode [--sysfs-root DIR] EVENT...)\n");
		return 2;
	}
	struct machine *m = machine_discover(root);
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
