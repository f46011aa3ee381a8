/* instance.c - making the instances binding and blending add to a session. */
#include "engine/instance.h"

#include <string.h>

#include "base/util.h"
#include "engine/state.h"

struct instance *instance_add(struct session *s, int *cap)
{
	grow_array(&s->inst, cap, s->ninstances + 1, sizeof(struct instance));
	struct instance *inst = &s->inst[s->ninstances++];
	memset(inst, 0, sizeof(*inst));
	inst->socket = -1;
	inst->parent = -1;
	inst->locked_filter = -1;
	return inst;
}

void instance_add_label(struct instance *inst, const char *key, const char *value)
{
	for (int i = 0; i < inst->nlabels; i++)
		if (!strcmp(inst->labels[i].key, key))
			return;
	inst->labels = xrealloc(inst->labels, sizeof(*inst->labels) * (size_t)(inst->nlabels + 1));
	struct label *l = &inst->labels[inst->nlabels++];
	str_copy(l->key, sizeof(l->key), key);
	str_copy(l->value, sizeof(l->value), value);
}

void instance_alloc_arrays(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	inst->present = xcalloc((size_t)g->nevents, sizeof(bool));
	inst->event_str = xcalloc((size_t)g->nevents, sizeof(char *));
	inst->event_na = xcalloc((size_t)g->nevents, sizeof(char *));
	inst->scale = xcalloc((size_t)g->nevents, sizeof(double));
	inst->filter_set = xcalloc((size_t)g->nfilters + 1, sizeof(bool));
	inst->filter_value = xcalloc((size_t)g->nfilters + 1, sizeof(uint64_t));
	inst->vars = xcalloc((size_t)group_nvars(g), sizeof(double));
	inst->event_state = xcalloc((size_t)g->nevents, sizeof(enum value_state));
	inst->event_coverage = xcalloc((size_t)g->nevents, sizeof(double));
	for (int f = 0; f < g->nfilters; f++) {
		inst->filter_set[f] = g->filters[f].has_default;
		inst->filter_value[f] = g->filters[f].def;
	}
}
