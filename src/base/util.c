/* SPDX-License-Identifier: GPL-2.0-only */
/* util.c - allocation that never returns NULL, small string helpers. */
#include "base/util.h"

#include "base/heap.h"

#include <ctype.h>
#include <locale.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("pmutop: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	heap_note_growth();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	heap_note_growth();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	heap_note_growth();
	return p;
}

void *xrealloc_used(void *p, size_t used, size_t n)
{
	if (!p || used < HEAP_POPULATE_MIN || used > n) /* below it heap_populate does nothing */
		return xrealloc(p, n);
	void *q = xmalloc(n);
	heap_populate(q, used);
	memcpy(q, p, used);
	free(p);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void str_copy(char *dst, size_t size, const char *src)
{
	if (!size)
		return;
	size_t n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *xstrcat_n(const char *const *parts, int n)
{
	size_t len = 0, at = 0;
	for (int i = 0; i < n; i++)
		len += strlen(parts[i]);
	char *s = xmalloc(len + 1);
	for (int i = 0; i < n; i++) {
		size_t k = strlen(parts[i]);
		memcpy(s + at, parts[i], k);
		at += k;
	}
	s[at] = '\0';
	return s;
}

void grow_array(void *array_ptr, int *cap, int need, size_t elem)
{
	void **array = array_ptr;
	if (need <= *cap)
		return;
	int ncap = *cap ? *cap : 4;
	while (ncap < need)
		ncap *= 2;
	*array = xrealloc_used(*array, (size_t)*cap * elem, (size_t)ncap * elem);
	char *grown = (char *)*array + (size_t)*cap * elem;
	heap_populate(grown, (size_t)(ncap - *cap) * elem); /* written whole next: one call, not a fault a page */
	memset(grown, 0, (size_t)(ncap - *cap) * elem);
	*cap = ncap;
}

void chomp(char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

char *chomp_text(char *s)
{
	if (s)
		chomp(s);
	return s;
}

char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	/* perf's rule: 0x is hex, anything else decimal (010 is ten, 08 is eight) */
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (hex && !isxdigit((unsigned char)s[2]))
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
	if (errno || *end || end == s)
		return false;
	*out = v;
	return true;
}

/* One C locale for every number pmutop reads or writes: profiles, sysfs and models mean
 * the same thing whatever LC_NUMERIC the monitor runs under. */
static locale_t c_locale(void)
{
	static locale_t loc;
	if (!loc)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

bool parse_double(const char *s, double *out)
{
	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	char *end;
	double v = strtod_l(s, &end, c_locale());
	if (end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

double strtod_c(const char *s, char **end)
{
	return strtod_l(s, end, c_locale());
}

int vsnprintf_c(char *buf, size_t len, const char *fmt, va_list ap)
{
	locale_t old = uselocale(c_locale());
	int n = vsnprintf(buf, len, fmt, ap);
	uselocale(old);
	return n;
}

int snprintf_c(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf_c(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 64 || m > 64)
		return 99;
	int row[65];
	for (size_t j = 0; j <= m; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= n; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= m; j++) {
			int up = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[m];
}

uint64_t clock_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool is_separator(char c, bool commas)
{
	return isspace((unsigned char)c) || (commas && c == ',');
}

static char **split_fields(const char *s, int *count, bool commas)
{
	int n = 0, cap = 0;
	char **v = NULL;
	const char *p = s;
	for (;;) {
		while (is_separator(*p, commas))
			p++;
		if (!*p)
			break;
		const char *q = p;
		while (*q && !is_separator(*q, commas))
			q++;
		grow_array(&v, &cap, n + 2, sizeof(char *));
		v[n++] = xstrndup(p, (size_t)(q - p));
		p = q;
	}
	grow_array(&v, &cap, n + 1, sizeof(char *));
	v[n] = NULL;
	if (count)
		*count = n;
	return v;
}

char **str_split(const char *s, int *count)
{
	return split_fields(s, count, true);
}

char **str_split_blanks(const char *s, int *count)
{
	return split_fields(s, count, false);
}

void str_split_free(char **v)
{
	if (!v)
		return;
	for (char **w = v; *w; w++)
		free(*w);
	free(v);
}

static bool is_control(unsigned char c)
{
	return (c < 0x20 && c != '\n') || c == 0x7f;
}

char *str_escape_controls(const char *s)
{
	size_t n = 0;
	for (const char *p = s; *p; p++)
		n += is_control((unsigned char)*p) ? 4 : 1;
	char *out = xmalloc(n + 1), *o = out;
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (is_control(c)) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = "0123456789abcdef"[c >> 4];
			*o++ = "0123456789abcdef"[c & 15];
		} else {
			*o++ = (char)c;
		}
	}
	*o = '\0';
	return out;
}

/* (util.h): readlink, not argv[0], which a shell or a symlink may have named otherwise */
bool exe_dir(char *dir)
{
	ssize_t n = readlink("/proc/self/exe", dir, PATH_MAX - 1);
	if (n <= 0)
		return false;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}
