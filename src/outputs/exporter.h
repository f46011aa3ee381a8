/* SPDX-License-Identifier: GPL-2.0-only */
/* exporter.h - /metrics for Prometheus: an output of the run loop whose HTTP side
 * (libmicrohttpd, its own thread) serves what the last frame left, so a scrape never
 * waits for a refresh and a refresh never waits for a client. */
#ifndef PMUTOP_EXPORTER_H
#define PMUTOP_EXPORTER_H

#include <stdbool.h>
#include <stddef.h>

struct output;

struct exporter_options {
	const char *listen; /* "127.0.0.1:9741", "localhost:9741", "[::1]:9741", ":9741" (all
			     * addresses), port 0: any free */
	bool per_cpu;       /* per-CPU series too (else per-socket sums of per-CPU groups) */
	const char *limits; /* "CLIENTS,PER_ADDRESS,SECONDS" (--http-limits), NULL: the defaults */
	bool cgroups;       /* the frames' cgroups' series (outputs/prom_cgroups.h) */
};

/* What clients may hold: connections in all, from one address, and the seconds a request
 * may take to arrive (after which the connection is closed, however slowly it trickles). */
#define EXPORTER_DEFAULT_LIMITS "256,64,5"

#define EXPORTER_DEFAULT_LISTEN "127.0.0.1:9741"

/* NULL with *err when the address cannot be bound. Says the URL on stderr. */
/* Are --listen and --http-limits (either NULL) well formed? -1 with *err saying what
 * is expected: a usage error, found before anything starts. */
int exporter_check_options(const char *listen, const char *limits, char **err);
struct output *exporter_output_new(const struct exporter_options *o, char **err);
/* The port it listens on (after binding port 0). */
int exporter_port(struct output *o);
/* Where it serves, the port as bound ("http://127.0.0.1:41234/metrics"); *every_address
 * when it listens on all the machine's addresses. */
const char *exporter_url(struct output *o, bool *every_address);
/* The exposition as a scrape gets it (Prometheus text 0.0.4, or OpenMetrics 1.0.0). */
char *exporter_render(struct output *o, bool openmetrics, size_t *len);
/* Has it had a frame (a scrape before the first is answered 503)? */
bool exporter_has_frame(struct output *o);

#endif
