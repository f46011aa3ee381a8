/* SPDX-License-Identifier: GPL-2.0-only */
/* mhd.c - libmicrohttpd loaded on demand (see mhd.h). */
#include "outputs/mhd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/util.h"
#include "config.h"

static struct mhd_api api;
static bool loaded;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Each function by name into its slot; false if one is missing. */
static bool resolve(void *lib)
{
	static const struct {
		const char *name;
		size_t off;
	} fns[] = {
		{ "MHD_start_daemon", offsetof(struct mhd_api, start_daemon) },
		{ "MHD_stop_daemon", offsetof(struct mhd_api, stop_daemon) },
		{ "MHD_get_daemon_info", offsetof(struct mhd_api, get_daemon_info) },
		{ "MHD_create_response_from_buffer", offsetof(struct mhd_api, create_response_from_buffer) },
		{ "MHD_add_response_header", offsetof(struct mhd_api, add_response_header) },
		{ "MHD_queue_response", offsetof(struct mhd_api, queue_response) },
		{ "MHD_destroy_response", offsetof(struct mhd_api, destroy_response) },
		{ "MHD_lookup_connection_value", offsetof(struct mhd_api, lookup_connection_value) },
		{ "MHD_get_connection_info", offsetof(struct mhd_api, get_connection_info) },
	};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		void *f = dlsym(lib, fns[i].name);
		if (!f)
			return false;
		memcpy((char *)&api + fns[i].off, &f, sizeof(f)); /* POSIX: a data pointer holds a function's */
	}
	return true;
}

#ifdef PMUTOP_LINKED_LIBS
/* The static build links libmicrohttpd in (built without TLS): its addresses. */
const struct mhd_api *mhd_load(char **err)
{
	*err = NULL;
	(void)resolve;
	api = (struct mhd_api){ MHD_start_daemon, MHD_stop_daemon, MHD_get_daemon_info, MHD_create_response_from_buffer,
				MHD_add_response_header, MHD_queue_response, MHD_destroy_response,
				MHD_lookup_connection_value, MHD_get_connection_info };
	(void)loaded;
	(void)lock;
	return &api;
}
#else
const struct mhd_api *mhd_load(char **err)
{
	*err = NULL;
	pthread_mutex_lock(&lock);
	if (!loaded) {
		/* the SONAME of the libmicrohttpd pmutop was built against, then any */
		void *lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			lib = dlopen("libmicrohttpd.so", RTLD_NOW | RTLD_LOCAL);
		if (!lib)
			*err = xasprintf("cannot load libmicrohttpd (%s): install it (Debian: libmicrohttpd12)", dlerror());
		else if (!resolve(lib))
			*err = xasprintf("libmicrohttpd lacks a function pmutop needs: %s", dlerror());
		loaded = !*err;
	}
	pthread_mutex_unlock(&lock);
	return loaded ? &api : NULL;
}
#endif
