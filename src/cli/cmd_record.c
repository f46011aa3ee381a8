/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_record.c - `pmutop record`: record without a screen (a systemd unit, nohup), and
 * `pmutop record --info FILE`: what a recording holds. The recording options are this
 * command's; everything else is the main command's (profiles, filters, --demo, -d). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "base/textbuf.h"
#include "base/timetext.h"
#include "record/info.h"

static const char record_usage[] =
	"usage: pmutop record -o FILE [-d SECS] [--duration D] [--rotate D [--keep N]]\n"
	"                     [--force] [OPTIONS]\n"
	"       pmutop record --info FILE\n"
	"Record frames to FILE (SQLite + zstd), no screen; replay with pmutop -r FILE.\n"
	"  -o FILE          the recording (with --rotate: FILE-YYYYmmdd-HHMMSS.pmrec)\n"
	"  --duration D     stop after D (90s, 5m, 1h, 2d); default: until SIGINT/SIGTERM\n"
	"  --rotate D       start a new file every D; --keep N keeps the newest N\n"
	"  --force          replace FILE if it is a pmutop recording\n"
	"  --info FILE      print host, kernel, version, profiles, span, samples, size\n"
	"Other OPTIONS as for pmutop (-P, -f, -d, --demo, --sim, --sysfs-root, ...).\n";

static int info(const char *path)
{
	struct textbuf out = { 0 };
	char *err = NULL;
	int status = record_info(path, &out, &err);
	if (status < 0) {
		char *safe = str_escape_controls(err ? err : "?");
		fprintf(stderr, "pmutop record --info: %s\n", safe);
		free(safe);
		free(err);
		status = 1;
	} else {
		fwrite(out.data, 1, out.len, stdout);
	}
	textbuf_free(&out);
	return status;
}

int cmd_record(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--info"))
		return info(argv[2]);
	/* our options out, the rest to the main command's parser */
	char **rest = xcalloc((size_t)argc + 2, sizeof(char *));
	int nrest = 0;
	rest[nrest++] = (char *)"pmutop";
	const char *file = NULL;
	uint64_t duration = 0, rotate = 0;
	long keep = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(record_usage, stdout);
			free(rest);
			return 0;
		} else if (!strcmp(a, "--info")) {
			fprintf(stderr, "pmutop record: --info FILE stands alone\n");
			free(rest);
			return 2;
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
			file = argv[++i];
		} else if (!strcmp(a, "--duration") && has) {
			if (!parse_duration(argv[++i], &duration)) {
				fprintf(stderr, "pmutop record: --duration %s: want %s, more than 0\n", argv[i], DURATION_GRAMMAR);
				free(rest);
				return 2;
			}
		} else if (!strcmp(a, "--rotate") && has) {
			if (!parse_duration(argv[++i], &rotate) || rotate < 60000000000ull) {
				fprintf(stderr, "pmutop record: --rotate %s: want a period of a minute or more (1h, 1h30m)\n", argv[i]);
				free(rest);
				return 2;
			}
		} else if (!strcmp(a, "--keep") && has) {
			char *end;
			keep = strtol(argv[++i], &end, 10);
			if (*end || keep < 1 || keep > 100000) {
				fprintf(stderr, "pmutop record: --keep %s: want a number of files\n", argv[i]);
				free(rest);
				return 2;
			}
		} else if (!strcmp(a, "-b") || !strcmp(a, "-w") || !strcmp(a, "-r") || !strcmp(a, "--format")) {
			fprintf(stderr, "pmutop record: %s is not for recording (see pmutop record --help)\n", a);
			free(rest);
			return 2;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	if (!file) {
		fprintf(stderr, "pmutop record: which file? -o FILE (see pmutop record --help)\n");
		free(rest);
		return 2;
	}
	if (keep && !rotate) {
		fprintf(stderr, "pmutop record: --keep goes with --rotate\n");
		free(rest);
		return 2;
	}
	struct options o = { .delay = 1.0, .iterations = -1, .seed = 1, .batch = true, .record_only = true };
	o.command = command_line(argc, argv);
	int r = parse_args(nrest, rest, &o);
	free(rest);
	if (r == 0 && duration && o.iterations > 0) {
		fprintf(stderr, "pmutop record: -n and --duration both say when to stop: one of them\n");
		r = 2;
	}
	if (r == 0) {
		o.record = file;
		o.rotate_ns = rotate;
		o.keep = (int)keep;
		if (duration) {
			long n = (long)((double)duration / (o.delay * 1e9) + 0.5);
			o.iterations = n ? n : 1;
		}
		r = pmutop_run(&o);
	}
	free(o.profiles);
	free(o.filters);
	free(o.command);
	return r;
}
