/* SPDX-License-Identifier: GPL-2.0-only */
/* testutil.c - helpers for the Check suites. */
#include "testutil.h"

#include "profile/profile.h"
#include "engine/session.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"

static char *dirs[64];
static int ndirs;

char *tmp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *t = xasprintf("%s/pmutop-test-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(t))
		ck_abort_msg("mkdtemp failed");
	if (!ndirs)
		atexit(tmp_cleanup); /* Check runs each test in a child process */
	ck_assert_msg(ndirs < 64, "too many temporary directories in one test");
	dirs[ndirs++] = t;
	return t;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	chmod(path, 0700);
	return remove(path);
}

void tmp_cleanup(void)
{
	for (int i = 0; i < ndirs; i++) {
		nftw(dirs[i], rm_one, 16, FTW_DEPTH | FTW_PHYS);
		free(dirs[i]);
	}
	ndirs = 0;
}

void put_file(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	free(path);
}

const char *demo_tegra410(void)
{
	return TOP_SRCDIR "/profiles/machines/tegra410";
}

char *test_path(const char *rel)
{
	return xasprintf("%s/%s", TEST_SRCDIR, rel);
}

char *src_path(const char *rel)
{
	return xasprintf("%s/%s", TOP_SRCDIR, rel);
}

static int nskipped;

void add_test_if(TCase *tc, const TTest *test, bool runnable, const char *why)
{
	if (runnable) {
		tcase_add_test(tc, test);
		return;
	}
	printf("SKIP: %s: %s\n", test->name, why);
	fflush(stdout);
	nskipped++;
}

int run_suite(Suite *s)
{
	diag_set_quiet(true);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr), ran = srunner_ntests_run(sr);
	srunner_free(sr);
	tmp_cleanup();
	if (failed)
		return 1;
	return ran == 0 && nskipped ? 77 : 0; /* 77: automake's "skipped" */
}

const struct frame_value *value_of(const struct session *s, const char *metric, const char *inst)
{
	const struct frame *f = session_frame(s);
	for (int k = 0; k < f->nvalues; k++)
		if (!strcmp(f->vinfo[k].m->name, metric) && !strcmp(f->iinfo[f->vinfo[k].instance].name, inst))
			return &f->values[k];
	ck_abort_msg("no value %s %s", metric, inst);
	return NULL;
}

int instance_index(const struct session *s, const char *group, const char *name)
{
	for (int i = 0; i < s->ninstances; i++)
		if (!strcmp(s->inst[i].group->name, group) && !strcmp(s->inst[i].name, name))
			return i;
	ck_abort_msg("no instance %s %s", group, name);
	return -1;
}

struct profile *profile_from_text(const char *text)
{
	char *dir = tmp_dir();
	put_file(dir, "p.ini", text);
	char *path = xasprintf("%s/p.ini", dir);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "profile: %s", diag_count() ? diag_message(diag_count() - 1, NULL) : "");
	free(path);
	return p;
}
