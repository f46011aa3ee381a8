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
 * copies ((((.?){30}){30}){30} is 54 000 nodes: 26 s and 5 GB at {20}, a stack overflow
 * at {30}), and its matcher's DFA grows with the optional copies ((.?){30}){30}: 900 of
 * them took regexec past 512 MB); a back-reference makes matching exponential. perf's CPU
 * model expressions cost under 100 nodes and have no optional part at all. */
#define REGEX_MAX_LEN 512
#define REGEX_MAX_NODES 1024
#define REGEX_MAX_OPTIONAL 64
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

/* A counted repetition "{m}", "{m,}", "{m,n}" or "{,n}" (glibc's {0,n}: `555{,5555}`
 * took 245 MB) at p: the copies it makes (n, or m + 1 open-ended), or -1 if it is not one;
 * *end past it, *least its m. */
static double bound_at(const char *p, const char **end, long *least)
{
	char *e = (char *)p + 1;
	long m = p[1] == ',' ? 0 : strtol(p + 1, &e, 10), n = m;
	if ((e == p + 1 && p[1] != ',') || m < 0)
		return -1;
	m = m > 1000000 ? 1000000 : m; /* (refused past 255 anyway: no overflow below) */
	if (*e == ',') {
		const char *f = e + 1;
		n = *f == '}' ? m + 1 : strtol(f, &e, 10);
		n = n > 1000000 ? 1000000 : n;
		if (*f == '}')
			e = (char *)f;
	}
	if (*e != '}')
		return -1;
	*end = e + 1;
	*least = m;
	return (double)(n > m ? n : m);
}

/* Each open group's nodes and optional copies, and the last atom's; whether each open
 * group's branch so far, and any finished branch of it, can match nothing (nullable), and
 * whether the last atom can. */
struct regex_cost {
	double nodes[REGEX_MAX_DEPTH + 1], optional[REGEX_MAX_DEPTH + 1];
	double last, last_optional;
	bool branch_null[REGEX_MAX_DEPTH + 1], group_null[REGEX_MAX_DEPTH + 1];
	bool has_last, last_null;
	int depth;
};

/* The last atom is done: the branch can match nothing only if it can too. */
static void fold_last(struct regex_cost *c)
{
	if (c->has_last)
		c->branch_null[c->depth] &= c->last_null;
	c->has_last = false;
}

static void cost_atom(struct regex_cost *c)
{
	fold_last(c);
	c->last = 1, c->last_optional = 0;
	c->nodes[c->depth] += 1;
	c->has_last = true, c->last_null = false;
}

/* A repetition of the last atom, k copies in all; variable: some of them optional. */
static void cost_repeat(struct regex_cost *c, double k, bool variable)
{
	c->nodes[c->depth] += c->last * (k - 1);
	c->optional[c->depth] += c->last_optional * (k - 1) + (variable ? c->last * (k > 1 ? k - 1 : 1) : 0);
	c->last *= k;
	c->last_optional = c->last_optional * k + (variable ? c->last : 0);
}

/* Distinct patterns a process compiles at most: perf's catalogue has a few dozen, a file
 * of a hundred thousand would hold a compiled expression each until exit. */
#define REGEX_MAX_PATTERNS 4096

static bool memo_full_without(const char *pattern)
{
	return used >= REGEX_MAX_PATTERNS && !slot_of(table, capacity, pattern)->pattern;
}

/* A group opens, a branch starts (|), a group closes: the nullable bookkeeping. */
static void open_group(struct regex_cost *c)
{
	fold_last(c);
	c->nodes[c->depth] = c->optional[c->depth] = 0, c->last = c->last_optional = 0;
	c->branch_null[c->depth] = true, c->group_null[c->depth] = false;
}

static void next_branch(struct regex_cost *c)
{
	fold_last(c);
	c->group_null[c->depth] |= c->branch_null[c->depth];
	c->branch_null[c->depth] = true;
}

static bool close_group(struct regex_cost *c)
{
	next_branch(c);
	return c->group_null[c->depth];
}

const char *regex_refusal(const char *pattern)
{
	if (strlen(pattern) > REGEX_MAX_LEN)
		return "longer than 512 characters";
	if (memo_full_without(pattern))
		return "one too many: 4096 distinct expressions are compiled already";
	struct regex_cost c = { 0 };
	c.branch_null[0] = true;
	for (const char *p = pattern; *p;) {
		const char *next = p + 1;
		double k = 0;
		long least = 1;
		bool variable = false;
		if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
			return "a back-reference (matching it is exponential)";
		} else if (*p == '\\' && p[1]) {
			next = p + 2, cost_atom(&c);
		} else if (*p == '[') {
			next = past_bracket(p), cost_atom(&c);
		} else if (*p == '(') {
			fold_last(&c);
			if (++c.depth > REGEX_MAX_DEPTH)
				return "groups nested more than 16 deep";
			open_group(&c);
		} else if (*p == ')' && c.depth > 0) { /* (an empty group is a node too) */
			bool null = close_group(&c);
			c.last = c.nodes[c.depth] > 0 ? c.nodes[c.depth] : 1, c.last_optional = c.optional[c.depth];
			c.nodes[c.depth] = c.last;
			c.depth--;
			c.nodes[c.depth] += c.last, c.optional[c.depth] += c.last_optional;
			c.has_last = true, c.last_null = null;
		} else if (*p == '*' || *p == '+' || *p == '?') {
			k = 2, variable = true, least = *p == '+';
		} else if (*p == '{') {
			if ((k = bound_at(p, &next, &least)) < 0)
				k = 0, next = p + 1, cost_atom(&c); /* a plain brace */
			else
				variable = k > least;
		} else if (*p == '^' || *p == '$') { /* an anchor: a node that matches nothing */
			cost_atom(&c);
			c.last_null = true;
		} else if (*p == '|') {
			next_branch(&c);
			c.nodes[c.depth]++; /* a branch: glibc's tree holds one for each, empty ones too
					     * ((|||...||){6}{3}{3}{2}: 320 MB) */
		} else {
			cost_atom(&c);
		}
		if (k > REGEX_MAX_BOUND)
			return "a repetition count over 255";
		/* a repeated group that can match nothing ((()*)(||...)){6}, (a*)+: glibc's
		 * epsilon closures grow exponentially with the copies (past minutes at six) */
		if (k > 0 && c.has_last && c.last_null && *p != '?')
			return "a repetition of something that can match nothing (compiling it is exponential)";
		if (k > 0 && c.has_last)
			c.last_null |= least == 0; /* x*, x?, x{0,n} can match nothing */
		if (k > 0)
			cost_repeat(&c, k, variable);
		if (c.nodes[c.depth] > REGEX_MAX_NODES)
			return "repetitions that expand past 1024 copies (nested counts multiply)";
		if (c.optional[c.depth] > REGEX_MAX_OPTIONAL)
			return "more than 64 optional copies (nested counts multiply)";
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
