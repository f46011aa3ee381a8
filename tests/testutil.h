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
/* Run a suite and return the process exit status. */
int run_suite(Suite *s);

#endif
