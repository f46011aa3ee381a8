/* SPDX-License-Identifier: GPL-2.0-only */
/* httpguard.c - a deadline for every request a client sends (see httpguard.h). */
#include "outputs/httpguard.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "base/util.h"

struct watched {
	struct watched *prev, *next; /* oldest first */
	int fd;
	uint64_t deadline_ns; /* UINT64_MAX: shut down, the library closes it */
	bool busy;            /* its request is in and being answered */
	struct sockaddr_storage addr;
};

struct http_guard {
	const struct mhd_api *m;
	uint64_t timeout_ns;
	unsigned clients, per_address;
	pthread_mutex_t lock; /* the list: the HTTP thread adds and removes, refreshes reap */
	struct watched head;  /* a ring of the open connections */
};

struct http_guard *http_guard_new(const struct mhd_api *m, uint64_t timeout_ns, unsigned clients, unsigned per_address)
{
	struct http_guard *g = xcalloc(1, sizeof(*g));
	g->m = m;
	g->timeout_ns = timeout_ns;
	g->clients = clients;
	g->per_address = per_address;
	pthread_mutex_init(&g->lock, NULL);
	g->head.next = g->head.prev = &g->head;
	return g;
}

void http_guard_free(struct http_guard *g)
{
	if (!g)
		return;
	for (struct watched *w = g->head.next, *n; w != &g->head; w = n) { /* after the daemon stopped */
		n = w->next;
		free(w);
	}
	pthread_mutex_destroy(&g->lock);
	free(g);
}

static void unlink_watched(struct watched *w)
{
	w->prev->next = w->next;
	w->next->prev = w->prev;
}

static void append(struct http_guard *g, struct watched *w)
{
	w->prev = g->head.prev;
	w->next = &g->head;
	g->head.prev->next = w;
	g->head.prev = w;
}

static bool same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return true;
}

/* Past a limit with newcomer w: the oldest connection that is not being answered (of
 * w's address, for the per-address limit) gives way. Under the lock. */
static void make_room(struct http_guard *g, struct watched *w)
{
	unsigned all = 0, mine = 0;
	for (struct watched *o = g->head.next; o != &g->head; o = o->next) {
		if (o->deadline_ns == UINT64_MAX)
			continue; /* going already */
		all++;
		mine += same_address(&o->addr, &w->addr);
	}
	bool per_address = mine > g->per_address;
	if (!per_address && all <= g->clients)
		return;
	for (struct watched *o = g->head.next; o != &g->head; o = o->next) {
		if (o == w || o->busy || o->deadline_ns == UINT64_MAX || (per_address && !same_address(&o->addr, &w->addr)))
			continue;
		if (o->fd >= 0)
			shutdown(o->fd, SHUT_RDWR);
		o->deadline_ns = UINT64_MAX;
		return;
	}
}

void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		       enum MHD_ConnectionNotificationCode code)
{
	struct http_guard *g = cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = g->m->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct watched *w = xcalloc(1, sizeof(*w));
		w->fd = info ? info->connect_fd : -1;
		w->deadline_ns = clock_monotonic_ns() + g->timeout_ns;
		const union MHD_ConnectionInfo *ai = g->m->get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		if (ai && ai->client_addr)
			memcpy(&w->addr, ai->client_addr,
			       ai->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
		pthread_mutex_lock(&g->lock);
		append(g, w);
		make_room(g, w);
		pthread_mutex_unlock(&g->lock);
		*socket_context = w;
		http_guard_reap(g); /* a new client wants a slot: free those past their time */
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
		/* the library closes the socket after this: a shutdown never reaches a reused fd */
		struct watched *w = *socket_context;
		pthread_mutex_lock(&g->lock);
		unlink_watched(w);
		pthread_mutex_unlock(&g->lock);
		free(w);
		*socket_context = NULL;
	}
}

void http_guard_answered(struct http_guard *g, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info = g->m->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct watched *w = info ? info->socket_context : NULL;
	if (!w)
		return;
	pthread_mutex_lock(&g->lock);
	if (w->deadline_ns != UINT64_MAX)
		w->deadline_ns = clock_monotonic_ns() + g->timeout_ns;
	w->busy = true;
	pthread_mutex_unlock(&g->lock);
}

void http_guard_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct http_guard *g = cls;
	(void)con_cls;
	(void)toe;
	const union MHD_ConnectionInfo *info = g->m->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct watched *w = info ? info->socket_context : NULL;
	if (!w)
		return;
	pthread_mutex_lock(&g->lock);
	w->busy = false; /* idle now, waiting for its next request */
	pthread_mutex_unlock(&g->lock);
}

int http_guard_reap(struct http_guard *g)
{
	uint64_t now = clock_monotonic_ns();
	int n = 0;
	pthread_mutex_lock(&g->lock);
	for (struct watched *w = g->head.next; w != &g->head; w = w->next) { /* a few hundred at most */
		if (w->deadline_ns > now || w->deadline_ns == UINT64_MAX)
			continue;
		if (w->fd >= 0 && shutdown(w->fd, SHUT_RDWR) == 0)
			n++;
		w->deadline_ns = UINT64_MAX; /* once: the library closes it */
	}
	pthread_mutex_unlock(&g->lock);
	return n;
}

void *http_guard_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct http_guard *g = cls;
	const char *query = strchr(uri, '?');
	int params = query ? 1 : 0;
	for (const char *p = query; p && *p; p++)
		params += *p == '&';
	if (params <= GUARD_MAX_PARAMS)
		return NULL;
	static const char body[] = "too many query parameters: /metrics reads none\n";
	char answer[256];
	int n = snprintf(answer, sizeof(answer),
			 "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n%s",
			 sizeof(body) - 1, body);
	const union MHD_ConnectionInfo *info = g->m->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (info && info->connect_fd >= 0) {
		if (send(info->connect_fd, answer, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			/* a full socket buffer: the client is not reading; it is shut down all the same */
		}
		shutdown(info->connect_fd, SHUT_RDWR);
	}
	return NULL;
}
