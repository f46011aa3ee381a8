/* SPDX-License-Identifier: GPL-2.0-only */
/* rules.h - Prometheus recording rules for a session's metrics. */
#ifndef PMUTOP_RULES_H
#define PMUTOP_RULES_H

#include <stdbool.h>

struct frame;
struct machine;

/* The recording rules of the metrics a session's frames carry over window ("1m"), on
 * stdout (its first frame: what the slots are; the machine: its PMUs and literals); the
 * exit status. cgroups: and the cgroups' (serve --cgroups, -G). */
int print_rules(const struct frame *f, const struct machine *m, const char *window, bool cgroups);

#endif
