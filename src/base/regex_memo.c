/* SPDX-License-Identifier: GPL-2.0-only */
/* regex_memo.c - perf's catalogue repeats its mapfile expressions in every file's head
 * and in every group's when/unless (the lines above a CPU's, of its vendor and family):
 * Sapphire Rapids' start-up compiled the same few dozen expressions thousands of times,
 * a fifth of its instructions. Each distinct pattern is compiled once here, in an
 * open-addressed table that doubles when half full, freed at exit. */
#include "base/regex_memo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct memo_entry {
	char *pattern; /* NULL: an empty slot */
	regex_t *re;   /* NULL: it does not compile (heap: a regex_t is not promised to move) */
};

static struct memo_entry *table;
static size_t capacity, used;

static struct memo_entry *slot_of(struct memo_entry *t, size_t cap, const char *pattern)
{
	size_t i = (size_t)str_hash(pattern) & (cap - 1);
	while (t[i].pattern && strcmp(t[i].pattern, pattern))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void memo_free(void)
{
	for (size_t i = 0; i < capacity; i++)
		if (table[i].pattern) {
			if (table[i].re)
				regfree(table[i].re);
			free(table[i].re);
			free(table[i].pattern);
		}
	free(table);
	table = NULL;
	capacity = used = 0;
}

static void grow(void)
{
	size_t cap = capacity ? capacity * 2 : 64;
	struct memo_entry *t = xcalloc(cap, sizeof(*t));
	for (size_t i = 0; i < capacity; i++)
		if (table[i].pattern)
			*slot_of(t, cap, table[i].pattern) = table[i];
	if (!table)
		atexit(memo_free);
	free(table);
	table = t;
	capacity = cap;
}

/* The most a pattern may cost: glibc's regcomp expands each counted repetition into
 * copies (((.?){30}){30}){30} is 54 000 nodes: 26 s and 5 GB at {20}, a stack overflow
 * at {30}); perf's CPU model expressions cost under 100. */
#define REGEX_MAX_LEN 512
#define REGEX_MAX_NODES 4096
#define REGEX_MAX_DEPTH 16
#define REGEX_MAX_BOUND 255

/* A bracket expression from its '[': past its ']' ("[]a]", "[^]a]", "[[:alpha:]]"). */
static const char *past_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *end = strchr(p + 2, p[1]);
			p = end && end[1] == ']' ? end + 1 : p;
		}
	return *p ? p + 1 : p;
}

/* A counted repetition "{m}", "{m,}" or "{m,n}" at p: the copies it makes (n, or m + 1
 * open-ended), or -1 if it is not one; *end past it. */
static double bound_at(const char *p, const char **end)
{
	char *e;
	long m = strtol(p + 1, &e, 10), n = m;
	if (e == p + 1 || m < 0)
		return -1;
	if (*e == ',') {
		const char *f = e + 1;
		n = *f == '}' ? m + 1 : strtol(f, &e, 10);
		if (*f == '}')
			e = (char *)f;
	}
	if (*e != '}')
		return -1;
	*end = e + 1;
	return (double)(n > m ? n : m);
}

const char *regex_refusal(const char *pattern)
{
	if (strlen(pattern) > REGEX_MAX_LEN)
		return "longer than 512 characters";
	double sum[REGEX_MAX_DEPTH + 1] = { 0 }, last = 0; /* the nodes of each open group; of the last atom */
	int depth = 0;
	for (const char *p = pattern; *p;) {
		const char *next = p + 1;
		double k = 0;
		if (*p == '\\' && p[1]) {
			next = p + 2, last = 1, sum[depth] += 1;
		} else if (*p == '[') {
			next = past_bracket(p), last = 1, sum[depth] += 1;
		} else if (*p == '(') {
			if (++depth > REGEX_MAX_DEPTH)
				return "groups nested more than 16 deep";
			sum[depth] = 0, last = 0;
		} else if (*p == ')' && depth > 0) {
			last = sum[depth--];
			sum[depth] += last;
		} else if (*p == '*' || *p == '+' || *p == '?') {
			k = 2;
		} else if (*p == '{' && (k = bound_at(p, &next)) < 0) {
			k = 0, next = p + 1, last = 1, sum[depth] += 1; /* a plain brace */
		} else if (*p != '|' && *p != '{') {
			last = 1, sum[depth] += 1;
		}
		if (k > REGEX_MAX_BOUND)
			return "a repetition count over 255";
		if (k > 0) { /* the atom before it, k copies in all */
			sum[depth] += last * (k - 1);
			last *= k;
		}
		if (sum[depth] > REGEX_MAX_NODES)
			return "repetitions that expand past 4096 copies (nested counts multiply)";
		p = next;
	}
	return NULL;
}

const regex_t *regex_memo(const char *pattern)
{
	if (regex_refusal(pattern))
		return NULL;
	if (2 * (used + 1) > capacity)
		grow();
	struct memo_entry *e = slot_of(table, capacity, pattern);
	if (!e->pattern) {
		e->pattern = xstrdup(pattern);
		e->re = xcalloc(1, sizeof(*e->re));
		if (regcomp(e->re, pattern, REG_EXTENDED) != 0) {
			free(e->re);
			e->re = NULL;
		}
		used++;
	}
	return e->re;
}
