/* cmd_record.c - `pmutop record`: record without a screen (a systemd unit, nohup), and
 * `pmutop record --info FILE`: what a recording holds. The recording options are this
 * command's; everything else is the main command's (profiles, filters, --demo, -d). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "record/store.h"

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
	"Other OPTIONS as for pmutop (-p, -f, -d, --demo, --sim, --sysfs-root, ...).\n";

static void print_row(void *ctx, int n, const char *const *v)
{
	(void)ctx;
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? "  " : "    ", v[i] ? v[i] : "");
	putchar('\n');
}

static void stamp(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm);
}

static int info(const char *path)
{
	char *err = NULL;
	struct store *st = store_open(path, &err);
	if (!st) {
		fprintf(stderr, "pmutop record --info: %s\n", err);
		free(err);
		return 1;
	}
	static const char *const keys[] = { "host", "kernel", "pmutop_version", "version", "source", "command", "profiles" };
	static const char *const labels[] = { "host", "kernel", "pmutop", "format version", "source", "command", "profiles" };
	printf("recording   %s\n", path);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *v = store_meta(st, keys[i]);
		printf("%-11s %s\n", labels[i], v ? v : "?");
		free(v);
	}
	char *np = store_meta(st, "profiles");
	int n = np ? atoi(np) : 0;
	free(np);
	for (int i = 0; i < n && i < 64; i++) {
		char key[64];
		snprintf(key, sizeof(key), "profile.%d.name", i);
		char *name = store_meta(st, key);
		snprintf(key, sizeof(key), "profile.%d.path", i);
		char *p = store_meta(st, key);
		printf("  %-9s %s\n", name ? name : "?", p ? p : "");
		free(name);
		free(p);
	}
	uint64_t first, last;
	store_range(st, &first, &last);
	struct rec_sample a, b;
	rec_sample_alloc(&a, store_ncounters(st));
	rec_sample_alloc(&b, store_ncounters(st));
	int status = 0;
	if (first && store_sample(st, first, &a, &err) == 0 && store_sample(st, last, &b, &err) == 0) {
		char t1[64], t2[64];
		stamp(a.wall_ns, t1, sizeof(t1));
		stamp(b.wall_ns, t2, sizeof(t2));
		printf("from        %s\nto          %s (%.0f s)\n", t1, t2, (double)(b.time_ns - a.time_ns + a.interval_ns) / 1e9);
	} else if (err) {
		printf("samples     damaged: %s\n", err);
		free(err);
		status = 1;
	}
	printf("samples     %llu\n", first ? (unsigned long long)(last - first + 1) : 0ull);
	printf("counters    %d\n", store_ncounters(st));
	uint64_t chunk_bytes, file_bytes, chunk_samples;
	store_sizes(st, &chunk_bytes, &file_bytes, &chunk_samples);
	printf("size        %llu bytes", (unsigned long long)file_bytes);
	if (chunk_samples && store_ncounters(st))
		printf(" (chunks: %.3f bytes per counter per sample)",
		       (double)chunk_bytes / (double)chunk_samples / store_ncounters(st));
	putchar('\n');
	printf("events\n");
	store_query(st, "SELECT seq, kind, instance_name, term, value FROM events ORDER BY seq, id", print_row, NULL, &err);
	free(err);
	rec_sample_free(&a);
	rec_sample_free(&b);
	store_close(st);
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
				fprintf(stderr, "pmutop record: --duration %s: want 90s, 5m, 1h, 2d\n", argv[i]);
				free(rest);
				return 2;
			}
		} else if (!strcmp(a, "--rotate") && has) {
			if (!parse_duration(argv[++i], &rotate) || rotate < 60000000000ull) {
				fprintf(stderr, "pmutop record: --rotate %s: want a period of a minute or more (1h)\n", argv[i]);
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
