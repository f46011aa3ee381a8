/* ui.h - the full-screen monitor: the only entry point src/ uses. */
#ifndef PMUTOP_UI_H
#define PMUTOP_UI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct session;
struct procstat;
struct pci_map;

struct ui_options {
	double interval_s;
	const char *title;     /* profiles in use, for the header */
	const char *machine;   /* demo machine name or host name */
	long iterations;       /* -1: until quit */
	const struct pci_map *pci; /* root complexes and their root ports, or NULL */
	bool sensors;              /* read hwmon temperatures (live machines only) */
};

/* Run the monitor on a started session until the user quits or a signal arrives.
 * Returns the exit status. The terminal is restored on every way out. */
int ui_run(struct session *s, struct procstat *cpu, const struct ui_options *opt);

/* For make bench: sample and redraw frames at 120x40 into a terminal whose output goes
 * to out (e.g. /dev/null). Returns the bytes curses wrote, or -1. */
long ui_bench_frames(struct session *s, int frames, FILE *out, uint64_t (*clock)(void *), void *clock_ctx);

#endif
