/* SPDX-License-Identifier: GPL-2.0-only */
/* testutil.h - helpers for the Check suites: scratch sysfs trees, files, the demo tree. */
#ifndef PMUTOP_TESTUTIL_H
#define PMUTOP_TESTUTIL_H

#include <check.h>
#include <stdbool.h>

/* A fresh temporary directory, removed and freed at exit: the caller must not free it. */
char *tmp_dir(void);
void tmp_cleanup(void);
/* Write text to root/rel, making directories. */
void put_file(const char *root, const char *rel, const char *text);
/* Directory of the bundled Tegra410 demo machine (holds sys/ and model.ini). */
const char *demo_tegra410(void);
/* Path under the source tree's tests/ directory. */
char *test_path(const char *rel);
char *src_path(const char *rel);
struct profile;
/* A profile from text (written to a scratch file and loaded); the test fails with the
 * loader's last message if it does not load. */
struct profile *profile_from_text(const char *text);
struct session;
struct frame_value;
/* The value of metric for the instance named inst in the session's newest frame; the
 * test fails if there is none. */
const struct frame_value *value_of(const struct session *s, const char *metric, const char *inst);
/* Index of the instance of group named name; the test fails if there is none. */
int instance_index(const struct session *s, const char *group, const char *name);
/* Add a test, or report it skipped ("SKIP: name: why", counted by build.sh) when it
 * cannot run here (no perf, not root): a skip is never a pass. */
void add_test_if(TCase *tc, const TTest *test, bool runnable, const char *why);
/* Run a suite and return the process exit status (77 if every test was skipped). */
int run_suite(Suite *s);

#endif
