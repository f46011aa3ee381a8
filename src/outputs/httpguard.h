/* SPDX-License-Identifier: GPL-2.0-only */
/* httpguard.h - the exporter's bound on how long a client may take to send a request.
 *
 * libmicrohttpd's own timeout is an idle one: a client sending a header byte a second
 * never trips it, and enough of them hold every connection (slowloris). The guard knows
 * each connection from its start (MHD_OPTION_NOTIFY_CONNECTION) and restarts its clock
 * when a request is answered; a connection whose request is not in by the deadline has
 * its socket shut down, which the library then closes as a client gone. Reaping happens
 * when a connection starts (when slots are wanted) and at every refresh.
 *
 * The guard also keeps the limits of connections, all and from one address, itself (the
 * library's would refuse the newcomer): when a new connection goes past one, the oldest
 * connection of that kind that is not being answered - idle, or still trickling its
 * request - gives way to it, as nginx and HAProxy do. A local user holding every slot
 * from 127.0.0.1, the address Prometheus scrapes from, then cannot take /metrics away: a
 * scraper's request is in as soon as it connects, and it is answered. */
#ifndef PMUTOP_HTTPGUARD_H
#define PMUTOP_HTTPGUARD_H

#include <stdint.h>

#include "outputs/mhd.h"

struct http_guard;

/* The library should allow a few more connections than clients (GUARD_HEADROOM): the
 * guard must see a newcomer to let it in. */
#define GUARD_HEADROOM 16
struct http_guard *http_guard_new(const struct mhd_api *m, uint64_t timeout_ns, unsigned clients, unsigned per_address);
void http_guard_free(struct http_guard *g);
/* The MHD_OPTION_NOTIFY_CONNECTION callback (cls: the guard). */
void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		       enum MHD_ConnectionNotificationCode code);
/* A request of c is in and being answered: c does not give way until it is done, and
 * its next request must be in within the timeout from now. */
void http_guard_answered(struct http_guard *g, struct MHD_Connection *c);
/* The MHD_OPTION_NOTIFY_COMPLETED callback (cls: the guard): c's answer is done. */
void http_guard_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe);
/* The MHD_OPTION_URI_LOG_CALLBACK (cls: the guard), called before the library parses the
 * query. libmicrohttpd 0.9.75 keeps each query parameter in the connection's pool: past
 * about 400 the pool is full, the 431 it means to send cannot be built, and the client
 * waits for the deadline with no answer. /metrics reads none: past GUARD_MAX_PARAMS the
 * guard answers 400 itself on the socket, which nothing has been written to yet, and
 * shuts it down; the library then closes it. Returns the request's context: NULL. */
#define GUARD_MAX_PARAMS 64
void *http_guard_uri(void *cls, const char *uri, struct MHD_Connection *c);
/* Shut down the connections past their deadline; how many. */
int http_guard_reap(struct http_guard *g);

#endif
