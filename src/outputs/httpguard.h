/* httpguard.h - the exporter's bound on how long a client may take to send a request.
 *
 * libmicrohttpd's own timeout is an idle one: a client sending a header byte a second
 * never trips it, and enough of them hold every connection (slowloris). The guard knows
 * each connection from its start (MHD_OPTION_NOTIFY_CONNECTION) and restarts its clock
 * when a request is answered; a connection whose request is not in by the deadline has
 * its socket shut down, which the library then closes as a client gone. Reaping happens
 * when a connection starts (when slots are wanted) and at every refresh. */
#ifndef PMUTOP_HTTPGUARD_H
#define PMUTOP_HTTPGUARD_H

#include <stdint.h>

#include "outputs/mhd.h"

struct http_guard;

struct http_guard *http_guard_new(const struct mhd_api *m, uint64_t timeout_ns);
void http_guard_free(struct http_guard *g);
/* The MHD_OPTION_NOTIFY_CONNECTION callback (cls: the guard). */
void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		       enum MHD_ConnectionNotificationCode code);
/* A request of c was answered: its next must be in within the timeout from now. */
void http_guard_answered(struct http_guard *g, struct MHD_Connection *c);
/* Shut down the connections past their deadline; how many. */
int http_guard_reap(struct http_guard *g);

#endif
