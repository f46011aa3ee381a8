/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_encode.c - `pmutop encode EVENT...`: the perf_event_attr fields an event becomes. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "base/util.h"
#include "profile/catalog.h"
#include "base/diag.h"
#include "machine/encode.h"
#include "machine/discover.h"
#include "machine/pmu.h"

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
