/* SPDX-License-Identifier: GPL-2.0-only */
/* rules.h - Prometheus recording rules for a session's metrics. */
#ifndef PMUTOP_RULES_H
#define PMUTOP_RULES_H

#include <stdbool.h>

struct session;

/* The recording rules of the session's metrics over window ("1m"), on stdout; the exit
 * status. */
int print_rules(struct session *s, const char *window, bool per_cpu);

#endif
