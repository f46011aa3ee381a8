/* SPDX-License-Identifier: GPL-2.0-only */
/* settings.c - the setup screen's choices in ~/.config/pmutop/pmutoprc (or
 * $XDG_CONFIG_HOME/pmutop/pmutoprc): one "key=value" per line, unknown keys ignored so
 * an older pmutop reads a newer file. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "tui.h"
#include "base/util.h"

void settings_defaults(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->colour = TRI_AUTO;
	s->chars = CHARS_AUTO;
	s->bars = BAR_BLOCKS;
	s->sparklines = SPARK_SWEEP;
	s->mouse = TRI_AUTO;
}

char *settings_default_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg)
		return xasprintf("%s/pmutop/pmutoprc", xdg);
	const char *home = getenv("HOME");
	return home && *home ? xasprintf("%s/.config/pmutop/pmutoprc", home) : NULL;
}

static const char *const tri_names[] = { "auto", "on", "off" };
static const char *const chars_names[] = { "auto", "utf-8", "ascii" };
static const char *const bar_names[] = { "blocks", "pipes", "hashes" };
static const char *const spark_names[] = { "sweep", "scroll", "off" };

static int lookup(const char *const *names, int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

void settings_load(struct settings *s, const char *path)
{
	if (!path)
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[512];
	int lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char *l = trim(line);
		if (!*l || *l == '#')
			continue;
		char *eq = strchr(l, '=');
		if (!eq) {
			diag_warn("%s:%d: ignoring '%s' (want key=value)", path, lineno, l);
			continue;
		}
		*eq = '\0';
		char *k = trim(l), *v = trim(eq + 1);
		int i;
		if (!strcmp(k, "colour") && (i = lookup(tri_names, 3, v)) >= 0)
			s->colour = (enum tristate)i;
		else if (!strcmp(k, "charset") && (i = lookup(chars_names, 3, v)) >= 0)
			s->chars = (enum charset)i;
		else if (!strcmp(k, "bars") && (i = lookup(bar_names, 3, v)) >= 0)
			s->bars = (enum bar_style)i;
		else if (!strcmp(k, "sparklines") && !strcmp(v, "on")) /* written by earlier versions */
			s->sparklines = SPARK_SWEEP;
		else if (!strcmp(k, "sparklines") && (i = lookup(spark_names, 3, v)) >= 0)
			s->sparklines = (enum spark_style)i;
		else if (!strcmp(k, "mouse") && (i = lookup(tri_names, 3, v)) >= 0)
			s->mouse = (enum tristate)i;
		else if (!strcmp(k, "hide_pane"))
			settings_set_hidden(s, v, true);
		else if (!strcmp(k, "show_pane")) {
			char *key = xasprintf("show:%s", v);
			settings_set_hidden(s, key, true);
			free(key);
		} else if (!strcmp(k, "hide_metric") || !strcmp(k, "count_group")) {
			char *key = xasprintf("%s:%s", k[0] == 'h' ? "metric" : "count", v);
			settings_set_hidden(s, key, true);
			free(key);
		}
		else
			diag_warn("%s:%d: ignoring unknown setting %s=%s", path, lineno, k, v);
	}
	fclose(f);
}

/* The file's directory and, at most, the one above it (~/.config/pmutop: .config and
 * pmutop): never a missing $HOME or anything above it. 0 or an errno. */
static int make_config_dir(const char *path)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/');
	int err = 0;
	if (slash && slash != d) {
		*slash = '\0';
		if (mkdir(d, 0700) < 0 && errno == ENOENT) { /* its parent too (.config), no further */
			char *up = strrchr(d, '/');
			if (up && up != d) {
				*up = '\0';
				err = mkdir(d, 0700) < 0 && errno != EEXIST ? errno : 0;
				*up = '/';
			}
			if (!err && mkdir(d, 0700) < 0 && errno != EEXIST)
				err = errno;
		} else if (errno != EEXIST && errno) {
			err = errno;
		}
	}
	free(d);
	return err;
}

bool settings_save(const struct settings *s, const char *path, char *why, size_t len)
{
	snprintf(why, len, "%s", path ? "" : "no $HOME nor $XDG_CONFIG_HOME to save in");
	if (!path)
		return false;
	errno = 0;
	int err = make_config_dir(path);
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno ? errno : err ? err : EIO));
		free(tmp);
		return false;
	}
	fprintf(f, "# pmutop settings, written by its setup screen (F2)\n");
	fprintf(f, "colour=%s\ncharset=%s\nbars=%s\nsparklines=%s\nmouse=%s\n", tri_names[s->colour],
		chars_names[s->chars], bar_names[s->bars], spark_names[s->sparklines], tri_names[s->mouse]);
	for (int i = 0; i < s->nhidden; i++) {
		if (str_has_prefix(s->hidden[i], "metric:"))
			fprintf(f, "hide_metric=%s\n", s->hidden[i] + 7);
		else if (str_has_prefix(s->hidden[i], "show:"))
			fprintf(f, "show_pane=%s\n", s->hidden[i] + 5);
		else if (str_has_prefix(s->hidden[i], "count:"))
			fprintf(f, "count_group=%s\n", s->hidden[i] + 6);
		else
			fprintf(f, "hide_pane=%s\n", s->hidden[i]);
	}
	bool ok = fclose(f) == 0 && rename(tmp, path) == 0; /* never a half-written file */
	if (!ok) {
		snprintf(why, len, "%s: %s", path, strerror(errno ? errno : EIO));
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

bool settings_is_hidden(const struct settings *s, const char *key)
{
	for (int i = 0; i < s->nhidden; i++)
		if (!strcmp(s->hidden[i], key))
			return true;
	return false;
}

void settings_set_hidden(struct settings *s, const char *key, bool hidden)
{
	for (int i = 0; i < s->nhidden; i++) {
		if (!strcmp(s->hidden[i], key)) {
			if (!hidden) {
				free(s->hidden[i]);
				s->hidden[i] = s->hidden[--s->nhidden];
			}
			return;
		}
	}
	if (hidden) {
		s->hidden = xrealloc(s->hidden, sizeof(char *) * (size_t)(s->nhidden + 1));
		s->hidden[s->nhidden++] = xstrdup(key);
	}
}

void settings_free(struct settings *s)
{
	for (int i = 0; i < s->nhidden; i++)
		free(s->hidden[i]);
	free(s->hidden);
	s->hidden = NULL;
	s->nhidden = 0;
}

/* The settings file's entries kept under prefix ("count:", "show:"), comma-separated
 * (malloc'd), or NULL: read before the session binds, which needs to know them. */
static char *saved_list(const char *prefix)
{
	struct settings s;
	settings_defaults(&s);
	char *path = settings_default_path();
	diag_set_quiet(true); /* the monitor says what is wrong with the file when it loads it */
	settings_load(&s, path);
	diag_set_quiet(false);
	free(path);
	char *out = NULL;
	size_t skip = strlen(prefix);
	for (int i = 0; i < s.nhidden; i++) {
		if (!str_has_prefix(s.hidden[i], prefix))
			continue;
		char *more = xasprintf("%s%s%s", out ? out : "", out ? "," : "", s.hidden[i] + skip);
		free(out);
		out = more;
	}
	settings_free(&s);
	return out;
}

char *ui_counted_groups(void)
{
	return saved_list("count:");
}

char *ui_shown_panes(void)
{
	return saved_list("show:");
}
