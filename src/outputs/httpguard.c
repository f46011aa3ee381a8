/* httpguard.c - a deadline for every request a client sends (see httpguard.h). */
#include "outputs/httpguard.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "base/util.h"

struct watched {
	struct watched *prev, *next;
	int fd;
	uint64_t deadline_ns;
};

struct http_guard {
	const struct mhd_api *m;
	uint64_t timeout_ns;
	pthread_mutex_t lock; /* the list: the HTTP thread adds and removes, refreshes reap */
	struct watched head;  /* a ring of the open connections */
};

struct http_guard *http_guard_new(const struct mhd_api *m, uint64_t timeout_ns)
{
	struct http_guard *g = xcalloc(1, sizeof(*g));
	g->m = m;
	g->timeout_ns = timeout_ns;
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

void http_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		       enum MHD_ConnectionNotificationCode code)
{
	struct http_guard *g = cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = g->m->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct watched *w = xcalloc(1, sizeof(*w));
		w->fd = info ? info->connect_fd : -1;
		w->deadline_ns = clock_monotonic_ns() + g->timeout_ns;
		pthread_mutex_lock(&g->lock);
		append(g, w);
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
	w->deadline_ns = clock_monotonic_ns() + g->timeout_ns;
	pthread_mutex_unlock(&g->lock);
}

int http_guard_reap(struct http_guard *g)
{
	uint64_t now = clock_monotonic_ns();
	int n = 0;
	pthread_mutex_lock(&g->lock);
	for (struct watched *w = g->head.next; w != &g->head; w = w->next) { /* a few hundred at most */
		if (w->deadline_ns > now)
			continue;
		if (w->fd >= 0 && shutdown(w->fd, SHUT_RDWR) == 0)
			n++;
		w->deadline_ns = UINT64_MAX; /* once: the library closes it */
	}
	pthread_mutex_unlock(&g->lock);
	return n;
}
