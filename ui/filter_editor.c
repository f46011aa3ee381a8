/* SPDX-License-Identifier: GPL-2.0-only */
/* filter_editor.c - F4/f: every filter of the focused row's instances (a root complex row
 * shows PCIe and PCIe-TGT: both groups' filters), typed: flags as
 * check boxes, masks as one toggle per bit, enums cycle through their choices, BDF/hex/
 * int as text. The editor reads the instance from the frame and asks the engine only
 * for what a frame does not carry (field widths, the values set). Applying goes through
 * session_set_filter(), which checks values and the group's constraints and reopens only
 * that instance; a refusal shows the reason and leaves every filter as it was. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "engine/session.h"
#include "mode.h"
#include "tui.h"

struct fe_item {
	int inst;        /* the session instance the filter is of */
	const char *pmu; /* its PMU, for messages; NULL for an aggregate */
	const struct prof_filter *f;
	int width; /* bits of the PMU's field; 0: this PMU lacks the term */
	bool set;
	uint64_t value;
	bool old_set;
	uint64_t old_value;
};

struct filter_editor {
	int ninst;
	int insts[8];  /* the row's instances with filters */
	bool groups;   /* more than one: items say their group */
	char name[64]; /* the row's instance name */
	int n;
	struct fe_item *items;
	int row;   /* n = the Apply line */
	int bit;   /* cursor within a mask */
	bool editing;
	char text[48];
	char error[240];
	/* the devices behind the row's root ports (its detail lines), for a BDF filter */
	int ndev;
	uint64_t dev_bdf[32];
	const char *dev_name[32];
	int dev_next;
	char note[160]; /* what the last key did, when it is not an error */
};

/* " 0002:81:00.0 3D controller (GPU)" -> (bus << 8) | (device << 3) | function */
static bool detail_bdf(const char *line, uint64_t *bdf)
{
	unsigned seg, bus, dev, fn;
	if (line[0] != ' ' || sscanf(line + 1, "%x:%x:%x.%x", &seg, &bus, &dev, &fn) != 4 || bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	*bdf = (bus << 8) | (dev << 3) | fn;
	return true;
}

struct filter_editor *filter_editor_new(struct tui *t, const int *insts, int ninsts, char **why)
{
	*why = NULL;
	struct filter_editor *fe = xcalloc(1, sizeof(*fe));
	for (int k = 0; k < ninsts && fe->ninst < (int)ARRAY_SIZE(fe->insts); k++) {
		int inst = insts[k];
		const struct instance_info *info = &t->f->iinfo[inst];
		const struct prof_group *g = info->group;
		if (!g->nfilters)
			continue;
		if (t->f->inst[inst].error && !info->nmembers) {
			if (!*why)
				*why = xasprintf("%s: %s", info->name, t->f->inst[inst].error);
			continue;
		}
		str_copy(fe->name, sizeof(fe->name), info->name);
		fe->insts[fe->ninst++] = inst;
		int ref = info->nmembers ? info->members[0] : inst; /* an aggregate: its members' filters */
		fe->items = xrealloc(fe->items, sizeof(*fe->items) * (size_t)(fe->n + g->nfilters));
		for (int i = 0; i < g->nfilters; i++) {
			struct fe_item *it = &fe->items[fe->n++];
			memset(it, 0, sizeof(*it));
			it->inst = inst;
			it->pmu = t->f->iinfo[ref].pmu;
			it->f = &g->filters[i];
			it->width = session_filter_width(t->engine, ref, i);
			it->set = it->old_set = session_filter(t->engine, inst, i, &it->value);
			it->old_value = it->value;
		}
	}
	if (!fe->ninst) {
		if (!*why)
			*why = xasprintf("%s has no filters", ninsts ? t->f->iinfo[insts[0]].group->name : "this row");
		free(fe->items);
		free(fe);
		return NULL;
	}
	free(*why); /* some instance has filters: the editor opens */
	*why = NULL;
	fe->groups = fe->ninst > 1;
	const struct instance_info *info = &t->f->iinfo[insts[0]];
	for (int d = 0; d < info->ndetails && fe->ndev < (int)ARRAY_SIZE(fe->dev_bdf); d++)
		if (detail_bdf(info->details[d], &fe->dev_bdf[fe->ndev]))
			fe->dev_name[fe->ndev++] = info->details[d] + 1;
	return fe;
}

static void filter_editor_free(struct filter_editor *fe)
{
	if (!fe)
		return;
	free(fe->items);
	free(fe);
}

static int mask_width(const struct fe_item *it)
{
	int w = it->width ? it->width : 8;
	return w > 16 ? 16 : w;
}

static void item_text_only(const struct filter_editor *fe, int i, char *buf, size_t len);

/* An item's line; with several groups, which one it is of. */
static void item_text(const struct tui *t, const struct filter_editor *fe, int i, char *buf, size_t len)
{
	const struct fe_item *it = &fe->items[i];
	if (it->width && it->f->type == FILTER_EVENT) { /* which event a counter watches, by name */
		const char *name = it->set ? session_event_name(t->engine, it->inst, it->value) : NULL;
		if (!it->set)
			snprintf(buf, len, "    %-16s < (profile's) >  %s", it->f->term, it->f->title);
		else if (name)
			snprintf(buf, len, "    %-16s < %s >  %s", it->f->term, name, it->f->title);
		else
			snprintf(buf, len, "    %-16s < 0x%llx >  %s", it->f->term, (unsigned long long)it->value, it->f->title);
	} else {
		item_text_only(fe, i, buf, len);
	}
	if (fe->groups) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "  [%s]", t->f->iinfo[fe->items[i].inst].group->name);
	}
}

static void item_text_only(const struct filter_editor *fe, int i, char *buf, size_t len)
{
	const struct fe_item *it = &fe->items[i];
	const struct prof_filter *f = it->f;
	if (!it->width) {
		snprintf(buf, len, "    %-16s not available on %s", f->term, it->pmu ? it->pmu : "this PMU");
		return;
	}
	switch (f->type) {
	case FILTER_FLAG:
		snprintf(buf, len, "[%c] %-16s %s", it->set && it->value ? 'x' : ' ', f->term, f->title);
		return;
	case FILTER_MASK: {
		size_t n = (size_t)snprintf(buf, len, "    %-16s ", f->term);
		for (int b = 0; b < mask_width(it) && n + 4 < len; b++)
			n += (size_t)snprintf(buf + n, len - n, "%c", it->set && (it->value >> b & 1) ? '1' : '.');
		snprintf(buf + n, len - n, "  %s  %s", it->set ? "" : "(all)", f->title);
		return;
	}
	case FILTER_ENUM:
		snprintf(buf, len, "    %-16s < %s >  %s", f->term, it->set ? f->choices[it->value].name : "(unset)", f->title);
		return;
	default:
		if (it->set) {
			if (f->type == FILTER_BDF)
				snprintf(buf, len, "    %-16s %02llx:%02llx.%llx (0x%llx)  %s", f->term,
					 (unsigned long long)(it->value >> 8), (unsigned long long)(it->value >> 3 & 0x1f),
					 (unsigned long long)(it->value & 7), (unsigned long long)it->value, f->title);
			else
				snprintf(buf, len, "    %-16s 0x%llx  %s", f->term, (unsigned long long)it->value, f->title);
		} else {
			snprintf(buf, len, "    %-16s (unset)  %s", f->term, f->title);
		}
	}
}


/* What the selected row takes. A filter whose range starts above 0 (Grace's root ports:
 * 6.12 would count nothing) refuses 0; elsewhere 0 or unset is the driver's default. */
static const char *row_hint(const struct filter_editor *fe)
{
	static char buf[160];
	const struct prof_filter *f = fe->row < fe->n ? fe->items[fe->row].f : NULL;
	if (f && f->type == FILTER_EVENT)
		return "Left/Right step through the block's event_list; Enter types a name or number.";
	if (f && fe->ndev && f->type == FILTER_BDF)
		return "p picks a device behind the root ports (again: the next one).";
	if (f && f->type == FILTER_MASK && f->range && f->range[0] >= '1' && f->range[0] <= '9') {
		snprintf(buf, sizeof(buf), "%s takes %s: 0 is refused (the driver would count nothing).", f->term, f->range);
		return buf;
	}
	return "A mask with no bit set, or an unset value, means the driver's default (all).";
}

static void filter_editor_draw(struct tui *t)
{
	struct filter_editor *fe = t->mode_data;
	char title[160];
	const struct instance_info *i0 = &t->f->iinfo[fe->insts[0]];
	size_t tn = fe->groups ? (size_t)snprintf(title, sizeof(title), "Filters: %s (", fe->name)
			       : (size_t)snprintf(title, sizeof(title), "Filters: %s %s (", i0->group->name, fe->name);
	for (int k = 0; k < fe->ninst && tn < sizeof(title); k++) {
		const struct instance_info *in = &t->f->iinfo[fe->insts[k]];
		tn += (size_t)snprintf(title + tn, sizeof(title) - tn, "%s%s%s%s", k ? ", " : "", fe->groups ? in->group->name : "",
				       fe->groups ? " " : "", in->pmu ? in->pmu : "aggregate");
	}
	if (tn < sizeof(title))
		snprintf(title + tn, sizeof(title) - tn, ")");
	if (fe->groups && (int)strlen(title) > term_cols - 8) { /* the groups say enough when PMU names do not fit */
		tn = (size_t)snprintf(title, sizeof(title), "Filters: %s (", fe->name);
		for (int k = 0; k < fe->ninst && tn < sizeof(title); k++)
			tn += (size_t)snprintf(title + tn, sizeof(title) - tn, "%s%s", k ? ", " : "",
					       t->f->iinfo[fe->insts[k]].group->name);
		if (tn < sizeof(title))
			snprintf(title + tn, sizeof(title) - tn, ")");
	}
	int iy, ix, iw, ih;
	crt_box(90, fe->n + 10, title, &iy, &ix, &iw, &ih);
	char line[200];
	for (int i = 0; i < fe->n && i < ih - 5; i++) {
		item_text(t, fe, i, line, sizeof(line));
		bool focus = fe->row == i;
		crt_put(iy + i, ix, iw, focus ? R_FOCUS : R_DIALOG, line);
		const struct fe_item *it = &fe->items[i];
		if (focus && it->width && it->f->type == FILTER_MASK) /* bit cursor */
			crt_put(iy + i, ix + 21 + fe->bit, 1, R_INPUT, it->set && (it->value >> fe->bit & 1) ? "1" : ".");
	}
	int y = iy + fe->n + 1;
	crt_put(y, ix, iw, fe->row == fe->n ? R_FOCUS : R_DIALOG, "  [ Apply ]   (a applies, Esc cancels, d resets one)");
	if (fe->editing) {
		static const char *const how[] = { [FILTER_BDF] = "; BDF as 27:01.1 or 0x2709",
						   [FILTER_EVENT] = "; an event's name or number",
						   [FILTER_MASK] = "; 0x.. or 0b..", [FILTER_HEX] = "; 0x.." };
		enum filter_type ft = fe->items[fe->row].f->type;
		snprintf(line, sizeof(line), "  %s = %s_   (Enter sets, Esc cancels%s)", fe->items[fe->row].f->term, fe->text,
			 (size_t)ft < sizeof(how) / sizeof(how[0]) && how[ft] ? how[ft] : "");
		crt_put(y + 1, ix, iw, R_INPUT, line);
	}
	/* below the edit line to the box's bottom, broken at blanks: reasons can be long and
	 * the box is narrower than its text at 80 columns */
	int room = iy + ih - (y + 2);
	if (fe->error[0])
		crt_put_wrapped(y + 2, ix, iw, room, R_ERROR, fe->error);
	else if (fe->note[0])
		crt_put_wrapped(y + 2, ix, iw, room, R_DIALOG, fe->note);
	else
		crt_put_wrapped(y + 2, ix, iw, room, R_DIALOG, row_hint(fe));
}

/* A value as session_set_filter() reads it: an enum's choice by name, else a number. */
static void value_text(const struct prof_filter *f, uint64_t v, char *buf, size_t len)
{
	if (f->type == FILTER_ENUM && v < (uint64_t)f->nchoices)
		str_copy(buf, len, f->choices[v].name);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

/* Apply every change; on a refusal, put back what was already applied. */
static bool apply(struct tui *t)
{
	struct filter_editor *fe = t->mode_data;
	int order[64], n = 0;
	/* clear before set, so that exclusive pairs can be swapped in one go */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < fe->n && n < 64; i++) {
			struct fe_item *it = &fe->items[i];
			bool changed = it->set != it->old_set || (it->set && it->value != it->old_value);
			bool clearing = !it->set || !it->value;
			if (changed && clearing == (pass == 0))
				order[n++] = i;
		}
	for (int k = 0; k < n; k++) {
		struct fe_item *it = &fe->items[order[k]];
		char val[64], *err = NULL;
		value_text(it->f, it->value, val, sizeof(val));
		if (session_set_filter(t->engine, it->inst, it->f->term, it->set ? val : NULL, &err) < 0) {
			snprintf(fe->error, sizeof(fe->error), "refused: %s", err);
			free(err);
			for (int j = k - 1; j >= 0; j--) {
				struct fe_item *o = &fe->items[order[j]];
				value_text(o->f, o->old_value, val, sizeof(val));
				if (session_set_filter(t->engine, o->inst, o->f->term, o->old_set ? val : NULL, &err) < 0)
					free(err);
			}
			return false;
		}
	}
	char msg[256];
	size_t mn = fe->groups ? (size_t)snprintf(msg, sizeof(msg), "%s:", fe->name)
			       : (size_t)snprintf(msg, sizeof(msg), "%s %s:", t->f->iinfo[fe->insts[0]].group->name, fe->name);
	for (int k = 0; k < fe->ninst && mn < sizeof(msg); k++) {
		char *now = session_instance_filters(t->engine, fe->insts[k]); /* no frame has them yet */
		mn += (size_t)snprintf(msg + mn, sizeof(msg) - mn, " %s%s%s", fe->groups ? t->f->iinfo[fe->insts[k]].group->name : "",
				       fe->groups ? " " : "", *now ? now : fe->groups ? "all" : "filters cleared (all)");
		free(now);
	}
	tui_message(t, false, "%s", n ? msg : "no change");
	return true;
}

/* An event typed by name (from the PMU's list, any case) or number. */
static bool parse_event(struct tui *t, const struct fe_item *it, const char *text, uint64_t *v, char **err)
{
	uint64_t n, next;
	/* from the smallest number upwards, once round the list */
	bool more = session_event_step(t->engine, it->inst, UINT64_MAX, 1, &n);
	while (more) {
		const char *name = session_event_name(t->engine, it->inst, n);
		if (name && !strcasecmp(name, text)) {
			*v = n;
			return true;
		}
		more = session_event_step(t->engine, it->inst, n, 1, &next) && next > n;
		n = next;
	}
	if (parse_u64(text, v))
		return true;
	*err = xasprintf("'%s' is not an event of this block's list (a name or a number)", text);
	return false;
}

static void close_editor(struct tui *t)
{
	ui_mode_leave(t);
}

static void filter_editor_release(void *data)
{
	filter_editor_free(data);
}

static void edit_key(struct tui *t, struct filter_editor *fe, int key)
{
	struct fe_item *it = &fe->items[fe->row];
	size_t n = strlen(fe->text);
	if (key == 27) {
		fe->editing = false;
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		char *err = NULL;
		uint64_t v;
		if (!fe->text[0]) {
			it->set = false;
			fe->editing = false;
		} else if (it->f->type == FILTER_EVENT ? parse_event(t, it, fe->text, &v, &err)
							: filter_parse_value(it->f, fe->text, &v, &err)) {
			it->set = true;
			it->value = v;
			fe->editing = false;
			fe->error[0] = '\0';
		} else {
			snprintf(fe->error, sizeof(fe->error), "%s: %s", it->f->term, err);
			free(err);
		}
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && n) {
		fe->text[n - 1] = '\0';
	} else if (key < 256 && isprint(key) && n + 1 < sizeof(fe->text)) {
		fe->text[n] = (char)key;
		fe->text[n + 1] = '\0';
	}
}

static void filter_editor_key(struct tui *t, int key)
{
	struct filter_editor *fe = t->mode_data;
	if (fe->editing) {
		edit_key(t, fe, key);
		return;
	}
	struct fe_item *it = fe->row < fe->n ? &fe->items[fe->row] : NULL;
	switch (key) {
	case KEY_UP: if (fe->row > 0) fe->row--; fe->bit = 0; break;
	case KEY_DOWN: case '\t': if (fe->row < fe->n) fe->row++; fe->bit = 0; break;
	case KEY_LEFT: case KEY_RIGHT:
		if (it && it->width && it->f->type == FILTER_EVENT) { /* step through the event list */
			uint64_t next;
			if (session_event_step(t->engine, it->inst, it->value, key == KEY_RIGHT ? 1 : -1, &next)) {
				it->value = next;
				it->set = true;
			}
		} else if (key == KEY_LEFT && fe->bit > 0) {
			fe->bit--;
		} else if (key == KEY_RIGHT && it && it->f->type == FILTER_MASK && fe->bit < mask_width(it) - 1) {
			fe->bit++;
		}
		break;
	case 27: case 'q': close_editor(t); tui_message(t, false, "filters unchanged"); return;
	case 'a': case KEY_F(10):
		if (apply(t))
			close_editor(t);
		return;
	case 'p': /* a BDF filter: the next device behind the row's root ports */
		if (it && it->f->type == FILTER_BDF && fe->ndev) {
			int k = fe->dev_next++ % fe->ndev;
			it->set = true;
			it->value = fe->dev_bdf[k];
			fe->error[0] = '\0';
			snprintf(fe->note, sizeof(fe->note), "picked %s", fe->dev_name[k]);
		}
		break;
	case 'd': case KEY_DC:
		if (it) {
			it->set = it->f->has_default;
			it->value = it->f->def;
		}
		break;
	case ' ': case '\r': case '\n': case KEY_ENTER:
		if (!it) {
			if (apply(t))
				close_editor(t);
			return;
		}
		if (!it->width) {
			snprintf(fe->error, sizeof(fe->error), "%s has no '%s' filter (its format/ lacks it)",
				 it->pmu ? it->pmu : "this PMU", it->f->term);
			break;
		}
		fe->error[0] = '\0';
		if (it->f->type == FILTER_FLAG) {
			bool on = it->set && it->value;
			it->set = !on;
			it->value = !on;
		} else if (it->f->type == FILTER_EVENT) {
			fe->editing = true;
			fe->text[0] = '\0';
		} else if (it->f->type == FILTER_ENUM) { /* the next choice some event accepts */
			uint64_t v = it->set ? it->value : (uint64_t)it->f->nchoices - 1;
			for (int k = 0; k < it->f->nchoices; k++) {
				v = (v + 1) % (uint64_t)it->f->nchoices;
				if (session_choice_offered(t->engine, it->inst, (int)(it->f - t->f->iinfo[it->inst].group->filters),
							   (int)v))
					break;
			}
			it->value = v;
			it->set = true;
		} else if (it->f->type == FILTER_MASK) {
			it->value = it->set ? it->value ^ (1ull << fe->bit) : 1ull << fe->bit;
			it->set = it->value != 0;
		} else {
			fe->editing = true;
			fe->text[0] = '\0';
		}
		break;
	default: break;
	}
}

const struct ui_mode filter_mode = { "filter editor", filter_editor_draw, filter_editor_key, filter_editor_release };
