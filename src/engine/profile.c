/* profile.c - load a profile INI file with inih and check it.
 *
 * base/iniread.c counts lines and shows us section headers first; errors then name the
 * file, line and (for formulae) the column. Every error is reported, not just the first. */
#include "engine/profile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/iniread.h"
#include "base/sysfs.h"
#include "base/util.h"

enum section_kind { SEC_NONE, SEC_PROFILE, SEC_GROUP, SEC_METRIC, SEC_PANE, SEC_BAD };

struct loader {
	struct ini_reader in; /* the file, its line and the errors so far */
	const char *path;
	struct profile *p;
	enum section_kind kind;
	int index;      /* of the current group/metric/pane */
	int gcap, mcap, pcap;
	char *pending_default; /* filter.X's default= while the filter is parsed */
};

#define lerror(L, ...) ini_error(&(L)->in, __VA_ARGS__)

static bool is_separator(char c, bool commas)
{
	return isspace((unsigned char)c) || (commas && c == ',');
}

/* Split on white space (and commas, if asked) into a NULL-terminated, malloc'd vector. */
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

/* Words of a list written with blanks or commas ("a b", "a,b"). */
static char **split_words(const char *s, int *count)
{
	return split_fields(s, count, true);
}

static void free_words(char **v)
{
	if (!v)
		return;
	for (char **w = v; *w; w++)
		free(*w);
	free(v);
}

static void append_words(char ***list, int *n, const char *value)
{
	int m;
	char **w = split_words(value, &m);
	*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + m + 1));
	for (int i = 0; i < m; i++)
		(*list)[(*n)++] = w[i];
	(*list)[*n] = NULL;
	free(w);
}

static void set_string(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

static bool parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*out = false;
	else
		return false;
	return true;
}

/* Column (1-based) where value starts in the raw line. */
static int value_column(const struct loader *L)
{
	return ini_value_column(&L->in);
}

const char *filter_type_name(enum filter_type t)
{
	static const char *const names[] = { "flag", "mask", "int", "hex", "bdf", "enum", "event" };
	return names[t];
}

static bool parse_filter_type(const char *s, enum filter_type *t)
{
	for (int i = 0; i <= FILTER_EVENT; i++) {
		if (!strcmp(s, filter_type_name((enum filter_type)i))) {
			*t = (enum filter_type)i;
			return true;
		}
	}
	return false;
}

bool filter_in_use(const struct prof_group *g, int f, const uint64_t *values, const bool *set)
{
	const char *term = g->filters[f].term;
	for (int x = 0; x < g->nfilters; x++) {
		const struct prof_filter *en = &g->filters[x];
		if (en->type != FILTER_ENUM || x == f)
			continue;
		bool owned = false, used = false;
		for (int c = 0; c < en->nchoices; c++)
			for (char **u = en->choices[c].uses; u && *u; u++)
				if (!strcmp(*u, term)) {
					owned = true;
					used |= set[x] && values[x] == (uint64_t)c;
				}
		if (owned && !used)
			return false;
	}
	return true;
}

bool filter_applies(const struct prof_group *g, const struct prof_filter *f, int e)
{
	if (!f->events)
		return true;
	for (char **p = f->events; *p; p++)
		if (!strcmp(*p, g->events[e].name) || !strcmp(*p, g->events[e].terms))
			return true;
	return false;
}

bool filter_parse_value(const struct prof_filter *f, const char *text, uint64_t *out, char **err)
{
	*err = NULL;
	if (f->type == FILTER_ENUM) {
		size_t len = 16;
		for (int i = 0; i < f->nchoices; i++) {
			if (!strcmp(f->choices[i].name, text)) {
				*out = (uint64_t)i;
				return true;
			}
			len += strlen(f->choices[i].name) + 2;
		}
		char *list = xcalloc(1, len);
		for (int i = 0; i < f->nchoices; i++) {
			strcat(list, i ? ", " : "");
			strcat(list, f->choices[i].name);
		}
		*err = xasprintf("'%s' is not one of %s", text, f->nchoices ? list : "(no choices)");
		free(list);
		return false;
	}
	if (f->type == FILTER_FLAG) {
		bool b;
		uint64_t n;
		if (parse_bool(text, &b)) {
			*out = b;
			return true;
		}
		if (parse_u64(text, &n) && n <= 1) { /* perf users write src_loc_cpu=0x1 */
			*out = n;
			return true;
		}
		*err = xasprintf("'%s' is not on/off (use 1, 0, on, off, yes or no)", text);
		return false;
	}
	if (f->type == FILTER_BDF) {
		unsigned dom, bus, dev, fn;
		char tail;
		if (sscanf(text, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 ||
		    sscanf(text, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3) {
			if (bus > 0xff || dev > 0x1f || fn > 7) {
				*err = xasprintf("'%s' is not a BDF (bus 00-ff, device 00-1f, function 0-7)", text);
				return false;
			}
			*out = (bus << 8) | (dev << 3) | fn;
			return true;
		}
	}
	if (f->type == FILTER_MASK && text[0] == '0' && (text[1] == 'b' || text[1] == 'B') && text[2]) {
		uint64_t v = 0;
		for (const char *p = text + 2; *p; p++) {
			if ((*p != '0' && *p != '1') || p - text > 65) {
				*err = xasprintf("'%s' is not a binary mask", text);
				return false;
			}
			v = v << 1 | (uint64_t)(*p - '0');
		}
		*out = v;
		return true;
	}
	if (!parse_u64(text, out)) {
		*err = xasprintf("'%s' is not a %s value (decimal or 0x-hex%s)", text, filter_type_name(f->type),
				 f->type == FILTER_BDF ? ", or bus:device.function like 27:01.1" : "");
		return false;
	}
	return true;
}

static struct prof_group *cur_group(struct loader *L)
{
	return &L->p->groups[L->index];
}

/* filter.TERM = TYPE [default=V] [enable=TERM] [events=E,E] [range=MIN..MAX] [accepts=ATTR]
 * [needs=F,F] [title=words...] */
static void parse_filter(struct loader *L, const char *term, const char *value)
{
	struct prof_group *g = cur_group(L);
	for (int i = 0; i < g->nfilters; i++) {
		if (!strcmp(g->filters[i].term, term)) {
			lerror(L, L->in.line, 0, "filter '%s' defined twice (first on line %d)", term, g->filters[i].line);
			return;
		}
	}
	struct prof_filter f = { .term = xstrdup(term), .line = L->in.line };
	char *copy = xstrdup(value);
	char *title = strstr(copy, "title=");
	if (title) {
		f.title = xstrdup(trim(title + 6));
		*title = '\0';
	}
	int n;
	char **w = split_words(copy, &n);
	bool ok = n >= 1 && parse_filter_type(w[0], &f.type);
	if (!ok)
		lerror(L, L->in.line, value_column(L), "filter '%s': type must be one of flag, mask, int, hex, bdf, enum, event", term);
	for (int i = 1; ok && i < n; i++) {
		if (str_has_prefix(w[i], "default=")) { /* a repeated option: the last one counts */
			free(L->pending_default);
			L->pending_default = xstrdup(w[i] + 8); /* an enum's choices come later */
			f.has_default = true;
		} else if (str_has_prefix(w[i], "enable=") && w[i][7]) {
			free(f.enable);
			f.enable = xstrdup(w[i] + 7);
		} else if (str_has_prefix(w[i], "events=") && w[i][7]) {
			char *list = xstrdup(w[i] + 7);
			for (char *c = list; *c; c++)
				if (*c == ',')
					*c = ' ';
			free_words(f.events);
			f.events = split_words(list, NULL);
			free(list);
		} else if (str_has_prefix(w[i], "range=") && w[i][6]) {
			free(f.range);
			f.range = xstrdup(w[i] + 6);
		} else if (str_has_prefix(w[i], "accepts=") && w[i][8]) {
			free(f.accepts);
			f.accepts = xstrdup(w[i] + 8);
		} else if (str_has_prefix(w[i], "needs=") && w[i][6]) {
			free_words(f.needs);
			f.needs = split_words(w[i] + 6, NULL);
		} else {
			lerror(L, L->in.line, 0, "filter '%s': unknown option '%s' (known: default=, enable=, events=, range=, accepts=, needs=, title=)",
			       term, w[i]);
			ok = false;
		}
	}
	free_words(w);
	free(copy);
	if (!f.title)
		f.title = xstrdup(term);
	g->filters = xrealloc(g->filters, sizeof(f) * (size_t)(g->nfilters + 1));
	g->filters[g->nfilters++] = f;
	if (L->pending_default) {
		struct prof_filter *nf = &g->filters[g->nfilters - 1];
		char *err;
		if (nf->type == FILTER_ENUM) {
			nf->def_name = L->pending_default; /* its choices follow: resolved at the group's end */
		} else {
			if (!filter_parse_value(nf, L->pending_default, &nf->def, &err)) {
				lerror(L, L->in.line, 0, "filter '%s': default %s", term, err);
				free(err);
			}
			free(L->pending_default);
		}
		L->pending_default = NULL;
	}
}

/* choice.FILTER.NAME = TERMS: one value of an enum filter and the terms it sets. */
static void parse_choice(struct loader *L, const char *key, const char *value)
{
	struct prof_group *g = cur_group(L);
	const char *dot = strchr(key, '.');
	struct prof_filter *f = NULL;
	for (int i = 0; dot && i < g->nfilters; i++)
		if (strlen(g->filters[i].term) == (size_t)(dot - key) && !strncmp(g->filters[i].term, key, (size_t)(dot - key)))
			f = &g->filters[i];
	if (!dot || !dot[1]) {
		lerror(L, L->in.line, 0, "choice.%s: want choice.FILTER.NAME = TERMS", key);
		return;
	}
	if (!f || f->type != FILTER_ENUM) {
		lerror(L, L->in.line, 0, "choice.%s: no enum filter '%.*s' defined above it in [group %s]", key, (int)(dot - key),
		       key, g->name);
		return;
	}
	for (int i = 0; i < f->nchoices; i++)
		if (!strcmp(f->choices[i].name, dot + 1)) {
			lerror(L, L->in.line, 0, "choice '%s' of filter '%s' defined twice (first on line %d)", dot + 1, f->term,
			       f->choices[i].line);
			return;
		}
	/* TERMS, and uses=FILTER,... naming the filters that count under this choice */
	char **uses = NULL, **needs = NULL;
	size_t cap = strlen(value) + 1, len = 0;
	char *terms = xcalloc(1, cap);
	/* blanks only: a word of terms may hold commas (tc=0xf,queue=0xffff) */
	char **w = split_fields(value, NULL, false);
	for (char **p = w; *p; p++) {
		if (str_has_prefix(*p, "uses=")) {
			char **u = split_words(*p + 5, NULL);
			free_words(uses);
			uses = u;
			continue;
		}
		if (str_has_prefix(*p, "needs=")) {
			char **u = split_words(*p + 6, NULL);
			free_words(needs);
			needs = u;
			continue;
		}
		len += (size_t)snprintf(terms + len, cap - len, "%s%s", len ? "," : "", *p);
	}
	free_words(w);
	f->choices = xrealloc(f->choices, sizeof(*f->choices) * (size_t)(f->nchoices + 1));
	f->choices[f->nchoices++] = (struct prof_choice){ xstrdup(dot + 1), terms, uses, needs, L->in.line };
}

static char *event_ident(const char *alias)
{
	char *s = xstrdup(alias);
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static void add_event(struct loader *L, const char *name, const char *terms, bool optional)
{
	struct prof_group *g = cur_group(L);
	char *ident = event_ident(name);
	for (int i = 0; i < g->nevents; i++) {
		if (!strcmp(g->events[i].name, ident)) {
			lerror(L, L->in.line, 0, "event '%s' listed twice in group '%s' (first on line %d)", ident, g->name,
			       g->events[i].line);
			free(ident);
			return;
		}
	}
	g->events = xrealloc(g->events, sizeof(*g->events) * (size_t)(g->nevents + 1));
	g->events[g->nevents++] = (struct prof_event){ .name = ident, .terms = xstrdup(terms),
						       .optional = optional, .line = L->in.line };
}

static char *attr_ident(const char *attr)
{
	char *s = xstrdup(attr);
	for (char *p = s; *p; p++)
		if (*p == '/' || *p == '-')
			*p = '.';
	return s;
}

/* A pattern or template's {name} places: closed, not nested, a name binding can hold
 * (letters, digits, '_' or a leading '@', under 64 characters), at most 8 of them. */
static void check_braces(struct loader *L, const char *key, const char *value)
{
	int n = 0;
	for (const char *p = value; *p; p++) {
		if (*p == '}') {
			lerror(L, L->in.line, value_column(L) + (int)(p - value), "%s: '}' without '{'", key);
			return;
		}
		if (*p != '{')
			continue;
		const char *q = p + 1;
		if (*q == '@')
			q++;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (*q != '}' || q == p + 1 || q - p > 64) {
			lerror(L, L->in.line, value_column(L) + (int)(q - value),
			       *q == '}' ? "%s: an empty or over-long {name}" : "%s: '{' not closed by '}' after a name", key);
			return;
		}
		if (++n > 8) {
			lerror(L, L->in.line, value_column(L) + (int)(p - value), "%s: more than 8 {names}", key);
			return;
		}
		p = q;
	}
}

/* exclusive = TERM TERM... [: the driver's message] */
static void parse_exclusive(struct loader *L, const char *value)
{
	struct prof_group *g = cur_group(L);
	char *copy = xstrdup(value);
	char *colon = strchr(copy, ':');
	char *why = NULL;
	if (colon) {
		*colon = '\0';
		why = xstrdup(trim(colon + 1));
	}
	int n;
	char **w = split_words(copy, &n);
	free(copy);
	if (n < 2) {
		lerror(L, L->in.line, value_column(L), "exclusive needs two or more filter terms");
		free_words(w);
		free(why);
		return;
	}
	g->exclusive = xrealloc(g->exclusive, sizeof(char **) * (size_t)(g->nexclusive + 1));
	g->exclusive_why = xrealloc(g->exclusive_why, sizeof(char *) * (size_t)(g->nexclusive + 1));
	g->exclusive_why[g->nexclusive] = why;
	g->exclusive[g->nexclusive++] = w;
}

static void group_key(struct loader *L, const char *name, const char *value)
{
	struct prof_group *g = cur_group(L);
	if (!strcmp(name, "pmu") || !strcmp(name, "instance") || !strcmp(name, "label"))
		check_braces(L, name, value);
	if (!strcmp(name, "pmu")) {
		set_string(&g->pmu_pattern, value);
	} else if (!strcmp(name, "instance")) {
		set_string(&g->instance, value);
	} else if (!strcmp(name, "label")) {
		set_string(&g->label, value);
	} else if (!strcmp(name, "pci_rc")) {
		set_string(&g->pci_rc, value);
	} else if (!strcmp(name, "per_bit")) {
		set_string(&g->per_bit, value);
	} else if (!strcmp(name, "title")) {
		set_string(&g->title, value);
	} else if (!strcmp(name, "events") || !strcmp(name, "optional")) {
		char **w = split_words(value, NULL);
		for (char **p = w; *p; p++)
			add_event(L, *p, *p, name[0] == 'o');
		free_words(w);
	} else if (str_has_prefix(name, "event.") && name[6]) {
		add_event(L, name + 6, value, false);
	} else if (str_has_prefix(name, "optional.") && name[9]) {
		add_event(L, name + 9, value, true);
	} else if (str_has_prefix(name, "filter.") && name[7]) {
		parse_filter(L, name + 7, value);
	} else if (str_has_prefix(name, "choice.") && name[7]) {
		parse_choice(L, name + 7, value);
	} else if (!strcmp(name, "attrs")) {
		char **w = split_words(value, NULL);
		for (char **p = w; *p; p++) {
			g->attrs = xrealloc(g->attrs, sizeof(char *) * (size_t)(g->nattrs + 1));
			g->attr_ids = xrealloc(g->attr_ids, sizeof(char *) * (size_t)(g->nattrs + 1));
			g->attrs[g->nattrs] = xstrdup(*p);
			g->attr_ids[g->nattrs++] = attr_ident(*p);
		}
		free_words(w);
	} else if (!strcmp(name, "needs")) {
		append_words(&g->needs, &g->nneeds, value);
	} else if (!strcmp(name, "lacks")) {
		append_words(&g->lacks, &g->nlacks, value);
	} else if (!strcmp(name, "when") || !strcmp(name, "unless")) {
		char ***w = !strcmp(name, "when") ? &g->when : &g->unless;
		free_words(*w);
		*w = split_words(value, NULL);
		if (!(*w)[0] || !(*w)[1])
			lerror(L, L->in.line, value_column(L), "%s wants a PMU attribute and one or more values", name);
	} else if (!strcmp(name, "alternative")) {
		if (!parse_bool(value, &g->alternative))
			lerror(L, L->in.line, value_column(L), "alternative must be yes or no");
	} else if (!strcmp(name, "notes")) {
		append_words(&g->notes, &g->nnotes, value);
	} else if (!strcmp(name, "exclusive")) {
		parse_exclusive(L, value);
	} else if (!strcmp(name, "per")) {
		if (!strcmp(value, "pmu"))
			g->split = SPLIT_PMU;
		else if (!strcmp(value, "cpu"))
			g->split = SPLIT_CPU;
		else
			lerror(L, L->in.line, value_column(L), "per must be 'pmu' or 'cpu', not '%s'", value);
	} else if (!strcmp(name, "aggregate")) {
		char **w = split_words(value, NULL);
		for (char **p = w; *p; p++) {
			if (!strcmp(*p, "all"))
				g->aggregate_all = true;
			else if (!strcmp(*p, "socket"))
				g->aggregate_socket = true;
			else
				lerror(L, L->in.line, value_column(L), "aggregate takes 'all' and/or 'socket', not '%s'", *p);
		}
		free_words(w);
	} else if (!strcmp(name, "aggregate_suffix")) {
		set_string(&g->aggregate_suffix, value);
	} else if (!strcmp(name, "grouped")) {
		if (!parse_bool(value, &g->perf_group))
			lerror(L, L->in.line, value_column(L), "grouped must be yes or no");
	} else if (!strcmp(name, "leader")) {
		set_string(&g->leader, value);
	} else {
		lerror(L, L->in.line, 0, "unknown key '%s' in [group %s] (known: pmu, instance, label, pci_rc, per_bit, title, events, "
		       "optional, event.NAME, optional.NAME, filter.TERM, choice.FILTER.NAME, attrs, notes, needs, lacks, when, unless, alternative, exclusive, per, aggregate, aggregate_suffix, grouped, leader)",
		       name, g->name);
	}
}

static struct prof_formula *form_named(struct prof_metric *m, const char *group)
{
	for (int i = 0; i < m->nforms; i++)
		if ((!group && i == 0) || (group && i > 0 && m->forms[i].group_name && !strcmp(m->forms[i].group_name, group)))
			return &m->forms[i];
	if (!group && m->nforms == 0) {
		m->forms = xcalloc(1, sizeof(*m->forms));
		m->nforms = 1;
		return &m->forms[0];
	}
	if (!m->nforms) { /* keep forms[0] for 'formula' */
		m->forms = xcalloc(1, sizeof(*m->forms));
		m->nforms = 1;
	}
	m->forms = xrealloc(m->forms, sizeof(*m->forms) * (size_t)(m->nforms + 1));
	struct prof_formula *f = &m->forms[m->nforms++];
	memset(f, 0, sizeof(*f));
	if (group)
		f->group_name = xstrdup(group);
	return f;
}

static void metric_key(struct loader *L, const char *name, const char *value)
{
	struct prof_metric *m = &L->p->metrics[L->index];
	if (!strcmp(name, "formula") || (str_has_prefix(name, "formula@") && name[8])) {
		struct prof_formula *f = form_named(m, name[7] == '@' ? name + 8 : NULL);
		if (f->text) { /* an indented continuation line */
			char *t = xasprintf("%s %s", f->text, value);
			free(f->text);
			f->text = t;
		} else {
			f->text = xstrdup(value);
			f->line = L->in.line;
			f->col = value_column(L);
		}
	} else if (!strcmp(name, "group")) {
		struct prof_formula *f = form_named(m, NULL);
		set_string(&f->group_name, value);
	} else if (!strcmp(name, "unit")) {
		set_string(&m->unit, value);
	} else if (!strcmp(name, "title")) {
		set_string(&m->title, value);
	} else if (!strcmp(name, "max")) {
		char *end;
		m->max = strtod_c(value, &end);
		if (end == value || *end || !(m->max >= 0))
			lerror(L, L->in.line, value_column(L), "max must be a non-negative number, not '%s'", value);
	} else if (!strcmp(name, "alert")) {
		char *end;
		m->alert = strtod_c(value, &end);
		m->has_alert = true;
		if (end == value || *end || isnan(m->alert))
			lerror(L, L->in.line, value_column(L), "alert must be a number (values above it are alarms), not '%s'",
			       value);
	} else {
		lerror(L, L->in.line, 0, "unknown key '%s' in [metric %s] (known: formula, formula@GROUP, group, unit, title, max, alert)", name,
		       m->name);
	}
}

static void pane_key(struct loader *L, const char *name, const char *value)
{
	struct prof_pane *pn = &L->p->panes[L->index];
	if (!strcmp(name, "title")) {
		set_string(&pn->title, value);
	} else if (!strcmp(name, "style")) {
		static const char *const styles[] = { "bars", "table", "stacked", "values" };
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(styles); i++)
			ok |= !strcmp(value, styles[i]);
		if (!ok)
			lerror(L, L->in.line, value_column(L), "style must be bars, table, stacked or values, not '%s'", value);
		set_string(&pn->style, value);
	} else if (!strcmp(name, "metrics")) {
		append_words(&pn->metrics, &pn->nmetrics, value);
		pn->metrics_line = L->in.line;
	} else if (!strcmp(name, "detail")) {
		append_words(&pn->detail, &pn->ndetail, value);
		pn->detail_line = L->in.line;
	} else if (!strcmp(name, "missing")) {
		set_string(&pn->missing, value);
	} else if (!strcmp(name, "letters")) {
		char *l = xcalloc(1, strlen(value) + 1);
		for (const char *s = value; *s; s++)
			if (*s != ' ')
				strncat(l, s, 1);
		free(pn->letters);
		pn->letters = l;
	} else {
		lerror(L, L->in.line, 0, "unknown key '%s' in [pane %s] (known: title, style, metrics, detail, letters, missing)", name,
		       pn->name);
	}
}

static void profile_key(struct loader *L, const char *name, const char *value)
{
	struct profile *p = L->p;
	if (!strcmp(name, "name")) {
		set_string(&p->name, value);
	} else if (!strcmp(name, "title")) {
		set_string(&p->title, value);
	} else if (!strcmp(name, "requires")) {
		append_words(&p->requires, &p->nrequires, value);
	} else if (!strcmp(name, "fallback")) {
		if (!parse_bool(value, &p->fallback))
			lerror(L, L->in.line, value_column(L), "fallback must be yes or no");
	} else if (!strcmp(name, "always")) {
		if (!parse_bool(value, &p->always))
			lerror(L, L->in.line, value_column(L), "always must be yes or no");
	} else {
		lerror(L, L->in.line, 0, "unknown key '%s' in [profile] (known: name, title, requires, fallback, always)", name);
	}
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *L = user;
	(void)section;
	switch (L->kind) {
	case SEC_PROFILE: profile_key(L, name, value); break;
	case SEC_GROUP: group_key(L, name, value); break;
	case SEC_METRIC: metric_key(L, name, value); break;
	case SEC_PANE: pane_key(L, name, value); break;
	case SEC_NONE: lerror(L, L->in.line, 0, "'%s' outside any section", name); break;
	case SEC_BAD: break; /* already reported at the section header */
	}
	return 1;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return false;
	return true;
}

/* Called by the reader for every "[...]" line, before inih sees it. */
static void start_section(struct loader *L, char *header)
{
	char *end = strchr(header, ']');
	if (!end) {
		L->kind = SEC_BAD;
		return; /* inih reports it */
	}
	*end = '\0';
	char *s = trim(header + 1);
	char *space = strpbrk(s, " \t");
	char *arg = NULL;
	if (space) {
		*space = '\0';
		arg = trim(space + 1);
	}
	struct profile *p = L->p;
	L->kind = SEC_BAD;
	if (!strcmp(s, "profile") && !arg) {
		L->kind = SEC_PROFILE;
		return;
	}
	if (!arg || !valid_name(arg)) {
		lerror(L, L->in.line, 0, "section [%s%s%s] needs a name of letters, digits, '_', '.', '-' "
		       "(sections: [profile], [group NAME], [metric NAME], [pane NAME])", s, arg ? " " : "", arg ? arg : "");
		return;
	}
	if (!strcmp(s, "group")) {
		for (int i = 0; i < p->ngroups; i++)
			if (!strcmp(p->groups[i].name, arg)) {
				lerror(L, L->in.line, 0, "[group %s] defined twice (first on line %d)", arg, p->groups[i].line);
				return;
			}
		grow_array(&p->groups, &L->gcap, p->ngroups + 1, sizeof(*p->groups));
		p->groups[p->ngroups] = (struct prof_group){ .name = xstrdup(arg), .line = L->in.line, .perf_group = true };
		L->index = p->ngroups++;
		L->kind = SEC_GROUP;
	} else if (!strcmp(s, "metric")) {
		for (int i = 0; i < p->nmetrics; i++)
			if (!strcmp(p->metrics[i].name, arg)) {
				lerror(L, L->in.line, 0, "[metric %s] defined twice (first on line %d)", arg, p->metrics[i].line);
				return;
			}
		grow_array(&p->metrics, &L->mcap, p->nmetrics + 1, sizeof(*p->metrics));
		p->metrics[p->nmetrics] = (struct prof_metric){ .name = xstrdup(arg), .line = L->in.line };
		L->index = p->nmetrics++;
		L->kind = SEC_METRIC;
	} else if (!strcmp(s, "pane")) {
		for (int i = 0; i < p->npanes; i++)
			if (!strcmp(p->panes[i].name, arg)) {
				lerror(L, L->in.line, 0, "[pane %s] defined twice (first on line %d)", arg, p->panes[i].line);
				return;
			}
		grow_array(&p->panes, &L->pcap, p->npanes + 1, sizeof(*p->panes));
		p->panes[p->npanes] = (struct prof_pane){ .name = xstrdup(arg), .line = L->in.line };
		L->index = p->npanes++;
		L->kind = SEC_PANE;
	} else {
		lerror(L, L->in.line, 0, "unknown section [%s] (sections: [profile], [group NAME], [metric NAME], [pane NAME])", s);
	}
}

static void on_section(void *ctx, char *header)
{
	start_section(ctx, header);
}

/* Formula names: the group's events, the builtins, the group's declared attributes. */
struct name_ctx {
	const struct prof_group *g;
};

static const char *const builtin_names[VAR_NBUILTINS] = { "elapsed_ns", "elapsed_s", "ncpus" };

int group_nvars(const struct prof_group *g)
{
	return g->nevents + VAR_NBUILTINS + g->nattrs;
}

int group_attr_slot(const struct prof_group *g, int attr_index)
{
	return g->nevents + VAR_NBUILTINS + attr_index;
}


static const char *known_name(void *ctx, int i)
{
	const struct prof_group *g = ((struct name_ctx *)ctx)->g;
	if (i < g->nevents)
		return g->events[i].name;
	i -= g->nevents;
	if (i < VAR_NBUILTINS)
		return builtin_names[i];
	i -= VAR_NBUILTINS;
	return i < g->nattrs ? g->attr_ids[i] : NULL;
}

static int resolve_name(void *ctx, const char *name)
{
	const struct prof_group *g = ((struct name_ctx *)ctx)->g;
	for (int i = 0; i < g->nevents; i++)
		if (!strcmp(g->events[i].name, name))
			return i;
	for (int i = 0; i < VAR_NBUILTINS; i++)
		if (!strcmp(builtin_names[i], name))
			return g->nevents + i;
	for (int i = 0; i < g->nattrs; i++)
		if (!strcmp(g->attr_ids[i], name))
			return group_attr_slot(g, i);
	return -1;
}

static int find_group(const struct profile *p, const char *name)
{
	for (int i = 0; i < p->ngroups; i++)
		if (!strcmp(p->groups[i].name, name))
			return i;
	return -1;
}

static int filter_index(const struct prof_group *g, const char *term)
{
	for (int j = 0; j < g->nfilters; j++)
		if (!strcmp(g->filters[j].term, term))
			return j;
	return -1;
}

static bool is_event(const struct prof_group *g, const char *name)
{
	for (int e = 0; e < g->nevents; e++)
		if (!strcmp(g->events[e].name, name) || !strcmp(g->events[e].terms, name))
			return true;
	return false;
}

/* What the keys of this round name must exist: events= and per_bit events, the filters
 * choices use or need, per_bit's mask filter; pci_rc wants two captures. */
static void check_group_names(struct loader *L, struct prof_group *g)
{
	for (int i = 0; i < g->nfilters; i++) {
		const struct prof_filter *f = &g->filters[i];
		for (char **e = f->events; e && *e; e++)
			if (!is_event(g, *e))
				lerror(L, f->line, 0, "filter '%s': events= names '%s', which is not an event of [group %s]", f->term,
				       *e, g->name);
		if (f->range && !strstr(f->range, ".."))
			lerror(L, f->line, 0, "filter '%s': range= wants MIN..MAX (numbers or PMU attributes), not '%s'", f->term,
			       f->range);
		for (char **u = f->needs; u && *u; u++)
			if (filter_index(g, *u) < 0 || !strcmp(*u, f->term))
				lerror(L, f->line, 0, "filter '%s': needs= names '%s', which is not another filter of [group %s]",
				       f->term, *u, g->name);
		for (int c = 0; c < f->nchoices; c++) {
			for (char **u = f->choices[c].uses; u && *u; u++)
				if (filter_index(g, *u) < 0)
					lerror(L, f->choices[c].line, 0, "choice '%s': uses= names '%s', which is not a filter of [group %s]",
					       f->choices[c].name, *u, g->name);
			for (char **u = f->choices[c].needs; u && *u; u++)
				if (filter_index(g, *u) < 0)
					lerror(L, f->choices[c].line, 0, "choice '%s': needs= names '%s', which is not a filter of [group %s]",
					       f->choices[c].name, *u, g->name);
		}
	}
	if (g->per_bit) {
		char **w = split_words(g->per_bit, NULL);
		int f = w[0] ? filter_index(g, w[0]) : -1;
		if (f < 0 || g->filters[f].type != FILTER_MASK)
			lerror(L, g->line, 0, "[group %s]: per_bit wants a mask filter of the group first, not '%s'", g->name,
			       w[0] ? w[0] : "");
		for (char **e = w[0] ? w + 1 : w; *e; e++)
			if (!is_event(g, *e))
				lerror(L, g->line, 0, "[group %s]: per_bit names '%s', which is not one of its events", g->name, *e);
		free_words(w);
	}
	if (g->pci_rc) {
		int n = 0;
		for (const char *p = g->pci_rc; (p = strchr(p, '{')); p++)
			n++;
		if (n != 2)
			lerror(L, g->line, 0, "[group %s]: pci_rc wants two captures, {socket} {rc}, not '%s'", g->name, g->pci_rc);
	}
}

static void check_group(struct loader *L, struct prof_group *g)
{
	check_group_names(L, g);
	if (!g->pmu_pattern)
		lerror(L, g->line, 0, "[group %s] has no 'pmu =' (the sysfs PMU name or pattern it counts on)", g->name);
	if (!g->nevents)
		lerror(L, g->line, 0, "[group %s] has no events", g->name);
	if (g->leader) {
		bool found = false;
		for (int i = 0; i < g->nevents; i++)
			found |= !strcmp(g->events[i].name, g->leader);
		if (!found)
			lerror(L, g->line, 0, "[group %s]: leader '%s' is not one of its events", g->name, g->leader);
	}
	for (int i = 0; i < g->nfilters; i++) {
		struct prof_filter *f = &g->filters[i];
		if (f->type != FILTER_ENUM)
			continue;
		if (!f->nchoices)
			lerror(L, f->line, 0, "[group %s]: enum filter '%s' has no choice.%s.NAME lines", g->name, f->term, f->term);
		char *err;
		f->has_default = true; /* an enum always has a choice: the first unless default= */
		if (f->def_name && f->nchoices && !filter_parse_value(f, f->def_name, &f->def, &err)) {
			lerror(L, f->line, 0, "filter '%s': default %s", f->term, err);
			free(err);
		}
	}
	for (int i = 0; i < g->nexclusive; i++)
		for (char **t = g->exclusive[i]; *t; t++) {
			bool found = false;
			for (int j = 0; j < g->nfilters; j++)
				found |= !strcmp(g->filters[j].term, *t);
			if (!found)
				lerror(L, g->line, 0, "[group %s]: exclusive names '%s', which is not a filter of the group", g->name, *t);
		}
}

struct input_ctx {
	struct prof_formula *f;
	int nevents;
};

static void note_input(void *ctx, int slot)
{
	struct input_ctx *ic = ctx;
	if (slot >= ic->nevents) /* builtins and attributes are always there */
		return;
	ic->f->inputs = xrealloc(ic->f->inputs, sizeof(int) * (size_t)(ic->f->ninputs + 1));
	ic->f->inputs[ic->f->ninputs++] = slot;
}

static void check_form(struct loader *L, struct prof_metric *m, struct prof_formula *f, bool primary)
{
	if (primary && !f->group_name) {
		const char *dot = strchr(m->name, '.');
		if (dot)
			f->group_name = xstrndup(m->name, (size_t)(dot - m->name));
	}
	f->group = f->group_name ? find_group(L->p, f->group_name) : -1;
	if (f->group < 0) {
		lerror(L, f->line ? f->line : m->line, 0, "[metric %s]: no group '%s' (name it with 'group =' or as GROUP.metric)",
		       m->name, f->group_name ? f->group_name : "");
		return;
	}
	for (struct prof_formula *o = m->forms; o < f; o++)
		if (o->group == f->group && o->text) {
			lerror(L, f->line, 0, "[metric %s]: two formulae for group '%s'", m->name, f->group_name);
			return;
		}
	if (!f->text) {
		lerror(L, m->line, 0, "[metric %s] has no formula%s%s", m->name, primary ? "" : " for group ",
		       primary ? "" : f->group_name);
		return;
	}
	struct name_ctx ctx = { &L->p->groups[f->group] };
	struct expr_names names = { resolve_name, known_name, &ctx };
	char *err;
	int col;
	f->expr = expr_compile(f->text, &names, &err, &col);
	if (!f->expr) {
		lerror(L, f->line, f->col + col - 1, "%s", err);
		free(err);
		return;
	}
	struct input_ctx ic = { f, L->p->groups[f->group].nevents };
	expr_foreach_var(f->expr, note_input, &ic);
}

static void check_metric(struct loader *L, struct prof_metric *m)
{
	if (!m->nforms) {
		lerror(L, m->line, 0, "[metric %s] has no formula", m->name);
	} else if (!m->forms[0].text && m->nforms > 1) {
		/* only formula@GROUP lines: drop the empty primary */
		free(m->forms[0].group_name);
		memmove(&m->forms[0], &m->forms[1], sizeof(*m->forms) * (size_t)(m->nforms - 1));
		m->nforms--;
		for (int i = 0; i < m->nforms; i++)
			check_form(L, m, &m->forms[i], false);
	} else {
		for (int i = 0; i < m->nforms; i++)
			check_form(L, m, &m->forms[i], i == 0);
	}
	if (!m->unit)
		m->unit = xstrdup("");
	if (!m->title)
		m->title = xstrdup(m->name);
}

int metric_form_index(const struct prof_metric *m, int g)
{
	for (int i = 0; i < m->nforms; i++)
		if (m->forms[i].group == g && m->forms[i].expr)
			return i;
	return -1;
}

const struct prof_formula *metric_form(const struct prof_metric *m, int g)
{
	int i = metric_form_index(m, g);
	return i < 0 ? NULL : &m->forms[i];
}

static void check_pane(struct loader *L, struct prof_pane *pn)
{
	for (int i = 0; i < pn->nmetrics + pn->ndetail; i++) {
		const char *want = i < pn->nmetrics ? pn->metrics[i] : pn->detail[i - pn->nmetrics];
		bool found = false;
		for (int j = 0; j < L->p->nmetrics && !found; j++)
			found = !strcmp(L->p->metrics[j].name, want);
		if (!found)
			lerror(L, i < pn->nmetrics ? pn->metrics_line : pn->detail_line, 0, "[pane %s]: no metric '%s'",
			       pn->name, want);
	}
	if (!pn->style)
		pn->style = xstrdup("values");
	if (!pn->title)
		pn->title = xstrdup(pn->name);
}

static struct profile *load_stream(const char *path, FILE *f, int *nerrors);

struct profile *profile_load(const char *path, int *nerrors)
{
	*nerrors = 0;
	const char *why;
	FILE *f = open_user_file(path, &why);
	if (!f) {
		diag_error("%s: cannot open profile: %s", path, why);
		*nerrors = 1;
		return NULL;
	}
	return load_stream(path, f, nerrors);
}

struct profile *profile_load_text(const char *path, const char *text, int *nerrors)
{
	*nerrors = 0;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f) { /* an empty text: fmemopen wants a size */
		f = fopen("/dev/null", "r");
		if (!f) {
			diag_error("%s: cannot read profile text: %s", path, strerror(errno));
			*nerrors = 1;
			return NULL;
		}
	}
	return load_stream(path, f, nerrors);
}

/* Takes f. */
static struct profile *load_stream(const char *path, FILE *f, int *nerrors)
{
	struct loader L = { .path = path, .in = { .path = path, .f = f, .section = on_section } };
	L.in.ctx = &L;
	L.p = xcalloc(1, sizeof(struct profile));
	L.p->path = xstrdup(path);
	ini_read(&L.in, handler, &L);
	fclose(f);
	ini_reader_free(&L.in);

	struct profile *p = L.p;
	if (!p->name) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		size_t n = strlen(base);
		p->name = str_has_suffix(base, ".ini") ? xstrndup(base, n - 4) : xstrdup(base);
	}
	if (!p->title)
		p->title = xstrdup(p->name);
	if (!p->ngroups && !p->nmetrics && !L.in.nerrors)
		lerror(&L, L.in.line ? L.in.line : 1, 0, "defines no [group] and no [metric]: it would count nothing");
	for (int i = 0; i < p->ngroups; i++)
		check_group(&L, &p->groups[i]);
	for (int i = 0; i < p->nmetrics; i++)
		check_metric(&L, &p->metrics[i]);
	for (int i = 0; i < p->npanes; i++)
		check_pane(&L, &p->panes[i]);
	*nerrors = L.in.nerrors;
	if (L.in.nerrors) {
		profile_free(p);
		return NULL;
	}
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->ngroups; i++) {
		struct prof_group *g = &p->groups[i];
		free(g->name);
		free(g->title);
		free(g->pmu_pattern);
		free(g->instance);
		free(g->label);
		free(g->pci_rc);
		free(g->per_bit);
		free(g->leader);
		free(g->aggregate_suffix);
		for (int j = 0; j < g->nevents; j++) {
			free(g->events[j].name);
			free(g->events[j].terms);
		}
		free(g->events);
		for (int j = 0; j < g->nattrs; j++) {
			free(g->attrs[j]);
			free(g->attr_ids[j]);
		}
		free(g->attrs);
		free(g->attr_ids);
		for (int j = 0; j < g->nfilters; j++) {
			free(g->filters[j].term);
			free(g->filters[j].title);
			free(g->filters[j].enable);
			free(g->filters[j].def_name);
			free(g->filters[j].accepts);
			free_words(g->filters[j].events);
			free_words(g->filters[j].needs);
			for (int c = 0; c < g->filters[j].nchoices; c++) {
				free(g->filters[j].choices[c].name);
				free(g->filters[j].choices[c].terms);
				free_words(g->filters[j].choices[c].uses);
				free_words(g->filters[j].choices[c].needs);
			}
			free(g->filters[j].range);
			free(g->filters[j].choices);
		}
		free(g->filters);
		for (int j = 0; j < g->nexclusive; j++) {
			free_words(g->exclusive[j]);
			free(g->exclusive_why[j]);
		}
		free(g->exclusive_why);
		free_words(g->notes);
		free_words(g->needs);
		free_words(g->lacks);
		free_words(g->when);
		free_words(g->unless);
		free(g->exclusive);
	}
	free(p->groups);
	for (int i = 0; i < p->nmetrics; i++) {
		struct prof_metric *m = &p->metrics[i];
		free(m->name);
		for (int j = 0; j < m->nforms; j++) {
			free(m->forms[j].group_name);
			free(m->forms[j].text);
			expr_free(m->forms[j].expr);
			free(m->forms[j].inputs);
		}
		free(m->forms);
		free(m->unit);
		free(m->title);
	}
	free(p->metrics);
	for (int i = 0; i < p->npanes; i++) {
		free(p->panes[i].name);
		free(p->panes[i].title);
		free(p->panes[i].style);
		for (int j = 0; j < p->panes[i].nmetrics; j++)
			free(p->panes[i].metrics[j]);
		free(p->panes[i].metrics);
		free_words(p->panes[i].detail);
		free(p->panes[i].missing);
		free(p->panes[i].letters);
	}
	free(p->panes);
	for (int i = 0; i < p->nrequires; i++)
		free(p->requires[i]);
	free(p->requires);
	free(p->path);
	free(p->name);
	free(p->title);
	free(p);
}
