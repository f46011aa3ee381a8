/* SPDX-License-Identifier: GPL-2.0-only */
/* libs.c - SQLite and zstd loaded on first use (see libs.h). */
#include "record/libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "config.h"

struct record_libs record_libs;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *load_error; /* NULL once loaded */

static void *open_lib(const char *soname, const char *fallback, const char *package)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (lib)
		return lib;
	char *why = xstrdup(dlerror()); /* the build's own SONAME's reason, not the fallback's */
	lib = dlopen(fallback, RTLD_NOW | RTLD_LOCAL);
	if (!lib && !load_error)
		load_error = xasprintf("recording needs %s (%s): install it (Debian: %s)", soname, why, package);
	free(why);
	return lib;
}

#ifdef PMUTOP_LINKED_LIBS
/* The static build links both in: the table is their addresses, nothing to load. */
static void load(void)
{
#define RECORD_LIB_LINK(f) record_libs.f = f;
	RECORD_LIB_FUNCTIONS(RECORD_LIB_LINK)
#undef RECORD_LIB_LINK
	(void)open_lib;
}
#else
static void load(void)
{
	void *sqlite = open_lib(SQLITE_SONAME, "libsqlite3.so", "libsqlite3-0");
	void *zstd = open_lib(ZSTD_SONAME, "libzstd.so", "libzstd1");
	if (load_error)
		return;
#define RECORD_LIB_ENTRY(f) { #f, offsetof(struct record_libs, f) },
	static const struct {
		const char *name;
		size_t off;
	} fns[] = { RECORD_LIB_FUNCTIONS(RECORD_LIB_ENTRY) };
#undef RECORD_LIB_ENTRY
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		void *f = dlsym(strncmp(fns[i].name, "ZSTD_", 5) ? sqlite : zstd, fns[i].name);
		if (!f) {
			load_error = xasprintf("%s lacks %s, which recording needs", strncmp(fns[i].name, "ZSTD_", 5) ? SQLITE_SONAME : ZSTD_SONAME,
					       fns[i].name);
			return;
		}
		memcpy((char *)&record_libs + fns[i].off, &f, sizeof(f)); /* POSIX: a data pointer holds a function's */
	}
}
#endif

int record_libs_load(char **err)
{
	pthread_once(&once, load);
	if (load_error && err)
		*err = xstrdup(load_error);
	return load_error ? -1 : 0;
}
