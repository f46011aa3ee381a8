/* SPDX-License-Identifier: GPL-2.0-only */
/* cpulist.c - sets of CPU numbers as the kernel prints them. */
#include "base/cpulist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The kernel numbers at most 8192 CPUs (the largest NR_CPUS, x86's MAXSMP; arm64's is
 * 4096): a list past it (a malicious "0-4294967295", a recording claiming 65 536) is
 * refused. */
#define CPU_MAX 8192

bool cpulist_contains(const struct cpulist *l, int cpu)
{
	int lo = 0, hi = l->n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (l->cpu[mid] == cpu)
			return true;
		if (l->cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

void cpulist_add(struct cpulist *l, int cpu)
{
	/* lists are parsed in ascending order: appending is the common case, and the capacity
	 * doubles, so "0-65535" costs linear time, not a realloc and a search per CPU */
	bool append = !l->n || l->cpu[l->n - 1] < cpu;
	if (!append && cpulist_contains(l, cpu))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->cpu = xrealloc(l->cpu, sizeof(int) * (size_t)l->cap);
	}
	int i = l->n;
	while (i > 0 && l->cpu[i - 1] > cpu) {
		l->cpu[i] = l->cpu[i - 1];
		i--;
	}
	l->cpu[i] = cpu;
	l->n++;
}

static bool parse_cpu(const char **p, long *v)
{
	if (!isdigit((unsigned char)**p))
		return false;
	char *end;
	*v = strtol(*p, &end, 10);
	*p = end;
	return *v >= 0 && *v < CPU_MAX;
}

bool cpulist_parse(const char *text, struct cpulist *out)
{
	out->n = out->cap = 0;
	out->cpu = NULL;
	const char *p = text;
	while (*p == ' ')
		p++;
	if (*p == '\n' || *p == '\0')
		return true; /* an empty mask is legal (e.g. all CPUs offline) */
	for (;;) {
		long a, b;
		if (!parse_cpu(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_cpu(&p, &b) || b < a)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			cpulist_add(out, (int)c);
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == '\n' || *p == ' ')
			p++;
		if (*p)
			goto bad;
		return true;
	}
bad:
	cpulist_free(out);
	return false;
}

void cpulist_explain(const char *text, char *buf, size_t len)
{
	for (const char *p = text; *p; p++) {
		if (!isdigit((unsigned char)*p))
			continue;
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (v >= CPU_MAX || end - p > 18) {
			snprintf(buf, len, "CPU %.*s is past %d, the last the kernel numbers (NR_CPUS is at most %d)",
				 (int)(end - p > 20 ? 20 : end - p), p, CPU_MAX - 1, CPU_MAX);
			return;
		}
		p = end - 1;
	}
	snprintf(buf, len, "malformed CPU list");
}

void cpulist_free(struct cpulist *l)
{
	free(l->cpu);
	l->cpu = NULL;
	l->n = l->cap = 0;
}

int cpulist_intersect(struct cpulist *l, const struct cpulist *keep)
{
	int kept = 0;
	for (int i = 0; i < l->n; i++)
		if (cpulist_contains(keep, l->cpu[i]))
			l->cpu[kept++] = l->cpu[i];
	int dropped = l->n - kept;
	l->n = kept;
	return dropped;
}

void cpulist_copy(struct cpulist *dst, const struct cpulist *src)
{
	dst->n = dst->cap = src->n;
	dst->cpu = src->n ? xmalloc(sizeof(int) * (size_t)src->n) : NULL;
	if (src->n)
		memcpy(dst->cpu, src->cpu, sizeof(int) * (size_t)src->n);
}

void cpulist_format(const struct cpulist *l, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < l->n && off < len;) {
		int j = i;
		while (j + 1 < l->n && l->cpu[j + 1] == l->cpu[j] + 1)
			j++;
		int w = j > i ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", l->cpu[i], l->cpu[j])
			      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", l->cpu[i]);
		if (w < 0)
			break;
		off += (size_t)w;
		i = j + 1;
	}
}
