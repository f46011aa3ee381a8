/* SPDX-License-Identifier: GPL-2.0-only */
/* recorder.c - frames into a recording, off the refresh path.
 *
 * On the refresh thread frame() only copies what a replay needs (each counter's state,
 * raw count and times; the frame's times and host meters; its session events; each
 * instance's filter string) into a job and queues it. The writer thread owns the store:
 * one transaction per sample into the tail, every STORE_CHUNK samples a zstd chunk, a new
 * file when the rotation time comes (with the state a replay needs at its start), the
 * oldest files removed beyond --keep. A failure (disk full, file gone) stops the
 * recording and says why; the monitor keeps running. */
#include "record/recorder.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "base/cpulist.h"
#include "base/util.h"
#include "config.h"
#include "profile/metric_select.h"
#include "engine/session.h"
#include "machine/snapshot.h"
#include "engine/output.h"
#include "machine/encode.h"
#include "record/rec_tasks.h"
#include "record/store.h"

#define MAX_QUEUE 600 /* ten minutes at 1 s: beyond it the disk cannot keep up */

enum job_kind { JOB_START, JOB_SAMPLE, JOB_STOP };

struct job {
	enum job_kind kind;
	struct job *next;
	/* START */
	char *path;
	bool force;
	/* SAMPLE */
	struct rec_sample sample;
	int nev;
	struct store_event *ev;
	const char **filters; /* per instance, interned in the session (live as long as it) */
	uint64_t prev_time_ns; /* the frame before: where a new file's first interval starts */
	char *who_end; /* how the command counted ended, with the frame that first says it */
	struct rec_tasks tasks; /* the top tasks the frame carried (record/rec_tasks.h) */
	struct rec_tasks cgroups; /* and its cgroups */
};

struct row {
	int n;
	char **v;
};

struct recorder {
	struct session *s;
	struct recorder_options opt;
	int ncounters, ninstances;
	int session_counters; /* the session's, for a new file's page size (read by the thread) */
	/* what every file holds besides samples, built once on the refresh thread */
	int nmeta, nrows_counters, nrows_instances;
	struct row *meta, *rows_counters, *rows_instances;
	bool statics_built;
	bool told_end; /* the command's end has gone to the writer */
	/* the queue */
	pthread_t thread;
	bool thread_running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_cond_t drained; /* a job left the queue, or the recording stopped */
	struct job *head, *tail;
	int queued;
	/* shared status (under lock) */
	bool active;
	char *file;   /* the file being written */
	char *error;  /* why the recording stopped */
	uint64_t samples;
	/* the writer's own */
	struct store *st;
	bool statics_written;
	uint64_t file_wall0;
	struct rec_sample held[STORE_CHUNK];
	bool held_ready; /* allocated (the first sample written) */
	int nheld;
	char *base; /* rotation: the path without .pmrec */
	bool retry; /* rotation: a file failed; the next one is tried at the next boundary */
};

static void row_free(struct row *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
}

static void add_row(struct row **rows, int *n, int nv, ...)
{
	*rows = xrealloc(*rows, sizeof(**rows) * (size_t)(*n + 1));
	struct row *r = &(*rows)[(*n)++];
	r->n = nv;
	r->v = xcalloc((size_t)nv, sizeof(char *));
	va_list ap;
	va_start(ap, nv);
	for (int i = 0; i < nv; i++) {
		const char *s = va_arg(ap, const char *);
		r->v[i] = s ? xstrdup(s) : NULL;
	}
	va_end(ap);
}

/* The profile file as it was loaded, or what can be said of it. */
static char *profile_text(const struct profile *p)
{
	char *t = read_text_file(p->path, 4 << 20);
	return t ? t : xasprintf("; %s could not be read back when recording started\n", p->path);
}

/* Everything but samples, from the first frame (refresh thread). */
static void build_statics(struct recorder *r, const struct frame *f)
{
	struct session *s = r->s;
	char host[256] = "", num[64];
	gethostname(host, sizeof(host) - 1);
	struct utsname u;
	uname(&u);
	char *snap = machine_snapshot(s->machine);
	add_row(&r->meta, &r->nmeta, 2, "format", STORE_FORMAT);
	snprintf(num, sizeof(num), "%d", STORE_VERSION);
	add_row(&r->meta, &r->nmeta, 2, "version", num);
	add_row(&r->meta, &r->nmeta, 2, "pmutop_version", PACKAGE_VERSION);
	add_row(&r->meta, &r->nmeta, 2, "host", host);
	add_row(&r->meta, &r->nmeta, 2, "kernel", u.release);
	add_row(&r->meta, &r->nmeta, 2, "source", f->source);
	add_row(&r->meta, &r->nmeta, 2, "command", r->opt.command ? r->opt.command : "");
	if (f->who) /* whose core events: "'make' (pid 42)" (engine/target.h) */
		add_row(&r->meta, &r->nmeta, 2, "who", f->who);
	if (r->s->some_cpus) { /* -C: a replay binds those CPUs alone, as the run did */
		char cpus[4096];
		cpulist_format(&r->s->only_cpus, cpus, sizeof(cpus));
		add_row(&r->meta, &r->nmeta, 2, "cpus", cpus);
	}
	if (r->s->cpu_sums) { /* per-CPU groups in their socket rows: a replay binds them so */
		snprintf(num, sizeof(num), "%d", r->s->cpu_rows_max);
		add_row(&r->meta, &r->nmeta, 2, "cpu_rows_max", num);
	}
	snprintf(num, sizeof(num), "%d", f->ncounters);
	add_row(&r->meta, &r->nmeta, 2, "ncounters", num);
	snprintf(num, sizeof(num), "%d", f->ninstances);
	add_row(&r->meta, &r->nmeta, 2, "ninstances", num);
	add_row(&r->meta, &r->nmeta, 2, "machine", snap);
	free(snap);
	snprintf(num, sizeof(num), "%d", s->nprofiles);
	add_row(&r->meta, &r->nmeta, 2, "profiles", num);
	for (int i = 0; i < s->nprofiles; i++) {
		char key[64];
		char *text = profile_text(s->profiles[i]);
		snprintf(key, sizeof(key), "profile.%d.name", i);
		add_row(&r->meta, &r->nmeta, 2, key, s->profiles[i]->name);
		snprintf(key, sizeof(key), "profile.%d.path", i);
		add_row(&r->meta, &r->nmeta, 2, key, s->profiles[i]->path);
		snprintf(key, sizeof(key), "profile.%d.text", i);
		add_row(&r->meta, &r->nmeta, 2, key, text);
		free(text);
		char *chosen = metrics_chosen(s->profiles[i]); /* -M's, a demo's catalogue metrics */
		snprintf(key, sizeof(key), "profile.%d.chosen", i);
		if (chosen)
			add_row(&r->meta, &r->nmeta, 2, key, chosen);
		free(chosen);
		snprintf(key, sizeof(key), "profile.%d.perf", i); /* perf's catalogue: hand metrics may be its */
		if (s->profiles[i]->perf)
			add_row(&r->meta, &r->nmeta, 2, key, "1");
	}
	for (int k = 0; k < f->ncounters; k++) {
		const struct counter_info *ci = &f->cinfo[k];
		const struct instance_info *ii = &f->iinfo[ci->instance];
		char slot[16], cpu[16], cfg[80], width[16];
		snprintf(slot, sizeof(slot), "%d", k);
		snprintf(cpu, sizeof(cpu), "%d", ci->cpu);
		snprintf(width, sizeof(width), "%d", ci->width);
		/* a modified event (":k") is another counter of the same config */
		snprintf(cfg, sizeof(cfg), "0x%llx,0x%llx,0x%llx%s%s", (unsigned long long)ci->config[0],
			 (unsigned long long)ci->config[1], (unsigned long long)ci->config[2], ci->exclude ? ":" : "",
			 encode_modifier_text(ci->exclude));
		add_row(&r->rows_counters, &r->nrows_counters, 9, slot, ii->name, ii->group->name, ii->pmu ? ii->pmu : "",
			ci->event_name, cpu, cfg, ci->kind == COUNTER_GAUGE ? "gauge" : ci->takes_turns ? "rotating" : "cumulative", width);
	}
	for (int i = 0; i < f->ninstances; i++) {
		const struct instance_info *ii = &f->iinfo[i];
		char idx[16];
		snprintf(idx, sizeof(idx), "%d", i);
		add_row(&r->rows_instances, &r->nrows_instances, 6, idx, ii->name, ii->group->name, ii->profile->name,
			f->inst[i].counting ? "1" : "0", f->inst[i].error);
	}
	r->ncounters = f->ncounters;
	r->ninstances = f->ninstances;
	r->statics_built = true;
}

static void set_error(struct recorder *r, char *why)
{
	pthread_mutex_lock(&r->lock);
	if (!r->error)
		r->error = why;
	else
		free(why);
	r->active = false;
	pthread_cond_broadcast(&r->drained);
	pthread_mutex_unlock(&r->lock);
}

static bool has_error(struct recorder *r)
{
	pthread_mutex_lock(&r->lock);
	bool e = r->error != NULL;
	pthread_mutex_unlock(&r->lock);
	return e;
}

/* ---- the writer thread ---- */

static void fold_held(struct recorder *r, char **err)
{
	if (r->st && r->nheld && store_fold(r->st, r->held, r->nheld, r->ncounters, err) == 0)
		r->nheld = 0;
}

/* Finish the file. At a rotation a file that cannot be finished (its directory made
 * read-only: SQLite cannot make its journal) is said and left with what its chunks hold,
 * and the next file is tried as after any failure; at the end the failure is the run's. */
static void close_file(struct recorder *r, bool rotating)
{
	char *err = NULL;
	if (!r->st)
		return;
	fold_held(r, &err);
	if (!err)
		store_finish(r->st, &err);
	store_close(r->st);
	r->st = NULL;
	r->nheld = 0;
	if (err && rotating) {
		fprintf(stderr, "pmutop: recording %s: not finished: %s; its last samples are lost, the rest replays\n",
			r->file ? r->file : "?", err);
		free(err);
	} else if (err) {
		set_error(r, err);
	}
}

/* Meta, counters, instances and the filters in force into a fresh file. */
static int write_statics(struct recorder *r, uint64_t start_ns, const char **filters, char **err)
{
	char num[32];
	int rc = store_exec(r->st, "BEGIN", err);
	for (int i = 0; i < r->nmeta && rc == 0; i++)
		rc = store_put_meta(r->st, r->meta[i].v[0], r->meta[i].v[1], err);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)start_ns);
	if (rc == 0)
		rc = store_put_meta(r->st, "start_ns", num, err);
	for (int i = 0; i < r->nrows_counters && rc == 0; i++)
		rc = store_put_row(r->st,
				   "INSERT INTO counters(slot, instance, grp, pmu, event, cpu, config, kind, width)"
				   " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)", 9, (const char *const *)r->rows_counters[i].v, err);
	for (int i = 0; i < r->nrows_instances && rc == 0; i++)
		rc = store_put_row(r->st, "INSERT INTO instances(idx, name, grp, profile, opened, error) VALUES(?1,?2,?3,?4,?5,?6)",
				   6, (const char *const *)r->rows_instances[i].v, err);
	/* a file that starts mid-run (rotation) replays from the filters then in force */
	for (int i = 0; filters && i < r->ninstances && rc == 0; i++) {
		if (!filters[i] || !*filters[i])
			continue;
		char idx[16];
		snprintf(idx, sizeof(idx), "%d", i);
		const char *v[5] = { "state", idx, r->rows_instances[i].v[1], "*", filters[i] };
		rc = store_put_row(r->st, "INSERT INTO events(seq, kind, instance, instance_name, term, value) VALUES(0,?1,?2,?3,?4,?5)",
				   5, v, err);
	}
	if (rc == 0)
		return store_exec(r->st, "COMMIT", err);
	char *e2 = NULL;
	store_exec(r->st, "ROLLBACK", &e2);
	free(e2);
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rotation: NAME-YYYYmmdd-HHMMSS.pmrec beside NAME, the oldest beyond keep removed. */
static char *rotated_name(struct recorder *r, uint64_t wall_ns)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	localtime_r(&t, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	return xasprintf("%s-%s.pmrec", r->base, stamp);
}

static void prune(struct recorder *r)
{
	if (r->opt.keep <= 0)
		return;
	const char *slash = strrchr(r->base, '/');
	char *dir = slash ? xstrndup(r->base, (size_t)(slash - r->base)) : xstrdup(".");
	const char *stem = slash ? slash + 1 : r->base;
	char **names;
	int n = list_dir(dir, &names), k = 0;
	char **mine = xcalloc((size_t)(n > 0 ? n : 1), sizeof(char *));
	for (int i = 0; i < n; i++) /* only files this recording named */
		if (!strncmp(names[i], stem, strlen(stem)) && names[i][strlen(stem)] == '-' &&
		    str_has_suffix(names[i], ".pmrec") && strlen(names[i]) == strlen(stem) + 22)
			mine[k++] = names[i];
	qsort(mine, (size_t)k, sizeof(char *), cmp_str); /* the time stamp sorts them */
	for (int i = 0; i + r->opt.keep < k; i++) {
		char *p = xasprintf("%s/%s", dir, mine[i]);
		unlink(p);
		free(p);
	}
	free(mine);
	free_names(names, n);
	free(dir);
}

/* The file being written failed (a full disk, a refused file). A rotated recording says
 * so and tries again with a new file at the next boundary, as a service should; any
 * other stops, with the reason. */
static void file_failed(struct recorder *r, char *why)
{
	if (r->st) {
		store_close(r->st);
		r->st = NULL;
	}
	if (!r->opt.rotate_ns) {
		set_error(r, why);
		return;
	}
	fprintf(stderr, "pmutop: recording failed: %s; trying a new file at the next rotation\n", why);
	free(why);
	r->retry = true;
}

/* Create the file; its static part goes in with the first sample (it needs its time). */
static bool open_file(struct recorder *r, const char *path, bool force, uint64_t wall_ns)
{
	char *err = NULL;
	r->st = store_create(path, force, r->session_counters, &err);
	r->statics_written = false;
	r->file_wall0 = wall_ns;
	if (!r->st) {
		file_failed(r, err);
		return false;
	}
	r->retry = false;
	pthread_mutex_lock(&r->lock);
	free(r->file);
	r->file = xstrdup(path);
	pthread_mutex_unlock(&r->lock);
	r->file_wall0 = wall_ns;
	prune(r);
	return true;
}

static void write_sample(struct recorder *r, struct job *j)
{
	char *err = NULL;
	bool due = !r->retry || j->sample.wall_ns >= r->file_wall0 + r->opt.rotate_ns;
	if (!r->st && r->base && due && !has_error(r)) { /* the first file of a rotated recording, or the next after one failed */
		char *name = rotated_name(r, j->sample.wall_ns);
		open_file(r, name, r->opt.force, j->sample.wall_ns);
		free(name);
	} else if (r->st && r->opt.rotate_ns && j->sample.wall_ns >= r->file_wall0 + r->opt.rotate_ns) {
		close_file(r, true);
		char *name = rotated_name(r, j->sample.wall_ns);
		open_file(r, name, false, j->sample.wall_ns);
		free(name);
	}
	if (!r->st)
		return;
	if (!r->statics_written) { /* a file begun mid-run starts from the filters then in force */
		if (write_statics(r, j->prev_time_ns, j->sample.seq > 1 ? j->filters : NULL, &err) < 0) {
			file_failed(r, err);
			return;
		}
		r->statics_written = true;
	}
	if (store_append(r->st, &j->sample, r->ncounters, j->ev, j->nev, &err) < 0 ||
	    rec_tasks_write(r->st, j->sample.seq, &j->tasks, &err) < 0 ||
	    rec_tasks_write(r->st, j->sample.seq, &j->cgroups, &err) < 0 ||
	    (j->who_end && store_put_meta(r->st, "who_end", j->who_end, &err) < 0)) {
		file_failed(r, err);
		return;
	}
	if (!r->held_ready) { /* a chunk's samples: kept only while a file is written (an idle
			       * recorder, the monitor's 'w' not pressed, holds none) */
		for (int i = 0; i < STORE_CHUNK; i++)
			rec_sample_alloc(&r->held[i], r->session_counters);
		r->held_ready = true;
	}
	rec_sample_copy(&r->held[r->nheld++], &j->sample, r->ncounters);
	if (r->nheld == STORE_CHUNK) {
		fold_held(r, &err);
		if (err)
			file_failed(r, err);
	}
	pthread_mutex_lock(&r->lock);
	r->samples++;
	pthread_mutex_unlock(&r->lock);
}

static void job_free(struct job *j)
{
	free(j->path);
	rec_sample_free(&j->sample);
	for (int i = 0; i < j->nev; i++) {
		free((char *)j->ev[i].instance_name);
		free((char *)j->ev[i].term);
		free((char *)j->ev[i].value);
	}
	free(j->ev);
	free(j->filters);
	free(j->who_end);
	rec_tasks_free(&j->tasks);
	rec_tasks_free(&j->cgroups);
	free(j);
}

static void *writer(void *arg)
{
	struct recorder *r = arg;
	for (;;) {
		pthread_mutex_lock(&r->lock);
		while (!r->head)
			pthread_cond_wait(&r->cond, &r->lock);
		struct job *j = r->head;
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		r->queued--;
		pthread_cond_signal(&r->drained);
		pthread_mutex_unlock(&r->lock);
		bool quit = false;
		switch (j->kind) {
		case JOB_START:
			close_file(r, false);
			free(r->base);
			r->base = NULL;
			if (r->opt.rotate_ns) { /* the first file opens with the first sample */
				r->base = xstrdup(j->path);
				if (str_has_suffix(r->base, ".pmrec"))
					r->base[strlen(r->base) - 6] = '\0';
			} else {
				open_file(r, j->path, j->force, 0);
			}
			break;
		case JOB_SAMPLE:
			write_sample(r, j);
			break;
		case JOB_STOP:
			close_file(r, false);
			quit = j->force; /* a stop that ends the thread */
			break;
		}
		job_free(j);
		if (quit)
			return NULL;
	}
}

static void enqueue(struct recorder *r, struct job *j)
{
	pthread_mutex_lock(&r->lock);
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	r->queued++;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* ---- the refresh side ---- */

int recorder_start(struct recorder *r, const char *path, bool force, char **err)
{
	*err = NULL;
	/* say at once when the file cannot be made, not when the writer thread first tries */
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0'; /* "/x" keeps "/" */
	int dir_ok = access(slash ? dir : ".", W_OK | X_OK) == 0 ? 0 : errno;
	free(dir);
	if (dir_ok) {
		*err = xasprintf("cannot record to %s: %s", path, strerror(dir_ok));
		return -1;
	}
	if (!r->opt.rotate_ns && store_may_write(path, force, err) < 0)
		return -1; /* before the first frame, not when the writer first tries */
	pthread_mutex_lock(&r->lock);
	free(r->error);
	r->error = NULL;
	r->active = true;
	r->samples = 0;
	free(r->file);
	r->file = xstrdup(path);
	pthread_mutex_unlock(&r->lock);
	struct job *j = xcalloc(1, sizeof(*j));
	j->kind = JOB_START;
	j->path = xstrdup(path);
	j->force = force;
	enqueue(r, j);
	return 0;
}

void recorder_stop(struct recorder *r)
{
	pthread_mutex_lock(&r->lock);
	r->active = false;
	pthread_mutex_unlock(&r->lock);
	struct job *j = xcalloc(1, sizeof(*j));
	j->kind = JOB_STOP;
	enqueue(r, j);
}

bool recorder_active(struct recorder *r)
{
	pthread_mutex_lock(&r->lock);
	bool a = r->active;
	pthread_mutex_unlock(&r->lock);
	return a;
}

void recorder_status(struct recorder *r, char *buf, size_t len)
{
	pthread_mutex_lock(&r->lock);
	if (r->error)
		snprintf(buf, len, "recording stopped: %s", r->error);
	else if (r->active)
		snprintf(buf, len, "REC %s (%llu sample%s)", r->file ? r->file : "", (unsigned long long)r->samples,
			 r->samples == 1 ? "" : "s");
	else
		buf[0] = '\0';
	pthread_mutex_unlock(&r->lock);
}

void recorder_default_name(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "pmutop-%Y%m%d-%H%M%S.pmrec", &tm);
}

static int rec_frame(struct output *o, const struct frame *f)
{
	struct recorder *r = o->priv;
	if (!recorder_active(r)) /* `pmutop record`: a recording that stopped ends the run */
		return r->opt.essential && has_error(r) ? -1 : 0;
	if (!r->statics_built)
		build_statics(r, f);
	pthread_mutex_lock(&r->lock);
	while (r->opt.paced && r->queued >= MAX_QUEUE && !r->error)
		pthread_cond_wait(&r->drained, &r->lock);
	bool behind = r->queued >= MAX_QUEUE;
	pthread_mutex_unlock(&r->lock);
	if (behind) {
		set_error(r, xasprintf("the disk does not keep up (%d samples waiting): stopped", MAX_QUEUE));
		recorder_stop(r);
		return 0;
	}
	struct job *j = xcalloc(1, sizeof(*j));
	j->kind = JOB_SAMPLE;
	rec_sample_alloc(&j->sample, f->ncounters);
	struct rec_sample *s = &j->sample;
	s->seq = f->seq;
	s->time_ns = f->time_ns;
	s->wall_ns = f->wall_ns;
	s->interval_ns = f->interval_ns;
	s->cpu_util = f->cpu_util;
	s->have_temp = f->have_temp;
	s->temp_c = f->cpu_temp_c;
	for (int k = 0; k < f->ncounters; k++) {
		const struct frame_counter *fc = &f->counters[k];
		s->state[k] = fc->raw_state;
		s->raw[k] = fc->raw;
		s->enabled[k] = fc->enabled;
		s->running[k] = fc->running;
	}
	j->prev_time_ns = f->time_ns - f->interval_ns;
	j->filters = xcalloc((size_t)(f->ninstances ? f->ninstances : 1), sizeof(char *));
	for (int i = 0; i < f->ninstances; i++)
		j->filters[i] = f->inst[i].filters;
	j->nev = f->nevents;
	j->ev = xcalloc((size_t)(f->nevents ? f->nevents : 1), sizeof(*j->ev));
	for (int i = 0; i < f->nevents; i++) {
		const struct session_event *e = &f->events[i];
		static const char *const kinds[] = { "filter", "pause", "resume" };
		j->ev[i] = (struct store_event){ .seq = e->seq, .kind = kinds[e->kind], .instance = e->instance,
			.instance_name = e->instance >= 0 ? xstrdup(f->iinfo[e->instance].name) : NULL,
			.term = e->term ? xstrdup(e->term) : NULL, .value = e->value ? xstrdup(e->value) : NULL };
	}
	rec_tasks_copy(&j->tasks, f, REC_TASKS);
	rec_tasks_copy(&j->cgroups, f, REC_CGROUPS);
	if (f->who_end && !r->told_end) { /* the command's exit status, kept in the file */
		j->who_end = xstrdup(f->who_end);
		r->told_end = true;
	}
	enqueue(r, j);
	return 0;
}

static int rec_finish(struct output *o)
{
	struct recorder *r = o->priv;
	if (!r->thread_running)
		return 0;
	struct job *j = xcalloc(1, sizeof(*j));
	j->kind = JOB_STOP;
	j->force = true; /* and end the thread */
	enqueue(r, j);
	pthread_join(r->thread, NULL);
	r->thread_running = false;
	if (r->error) {
		fprintf(stderr, "pmutop: recording %s stopped: %s\n", r->file ? r->file : "", r->error);
		return 1;
	}
	if (r->retry) { /* rotating, and the last file failed: the run did not record its end */
		fprintf(stderr, "pmutop: recording: the last file failed; nothing was recorded since\n");
		return 1;
	}
	return 0;
}

static void rec_destroy(struct output *o)
{
	struct recorder *r = o->priv;
	rec_finish(o);
	while (r->head) {
		struct job *j = r->head;
		r->head = j->next;
		job_free(j);
	}
	for (int i = 0; i < r->nmeta; i++)
		row_free(&r->meta[i]);
	for (int i = 0; i < r->nrows_counters; i++)
		row_free(&r->rows_counters[i]);
	for (int i = 0; i < r->nrows_instances; i++)
		row_free(&r->rows_instances[i]);
	free(r->meta);
	free(r->rows_counters);
	free(r->rows_instances);
	for (int i = 0; i < STORE_CHUNK; i++)
		rec_sample_free(&r->held[i]);
	free(r->file);
	free(r->error);
	free(r->base);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	pthread_cond_destroy(&r->drained);
	free(r);
	free(o);
}

/* A recording keeps the counters' raw deltas; the replay evaluates the values again. */
static bool rec_wants_details(struct output *o)
{
	(void)o;
	return false;
}

/* Recording: every counter (a replay recomputes any metric); idle, waiting for the
 * monitor's 'w': none of them. */
static const bool *rec_values_shown(struct output *o, unsigned *gen)
{
	(void)gen;
	return recorder_active(o->priv) ? NULL : OUTPUT_SHOWS_NOTHING;
}

static const struct output_ops recorder_ops = {
	.name = "recorder",
	.wants_details = rec_wants_details,
	.values_shown = rec_values_shown,
	.frame = rec_frame,
	.finish = rec_finish,
	.destroy = rec_destroy,
};

struct recorder *recorder_of(struct output *o)
{
	return o && o->ops == &recorder_ops ? o->priv : NULL;
}

struct output *recorder_output_new(struct session *s, const struct recorder_options *opt, char **err)
{
	*err = NULL;
	struct recorder *r = xcalloc(1, sizeof(*r));
	r->s = s;
	r->session_counters = s->ncounters;
	r->opt = *opt;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	pthread_cond_init(&r->drained, NULL);
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &recorder_ops;
	o->priv = r;
	if (pthread_create(&r->thread, NULL, writer, r) != 0) {
		*err = xasprintf("cannot start the recording thread: %s", strerror(errno));
		rec_destroy(o);
		return NULL;
	}
	r->thread_running = true;
	if (opt->path && recorder_start(r, opt->path, opt->force, err) < 0) {
		rec_destroy(o);
		return NULL;
	}
	return o;
}
