/* SPDX-License-Identifier: GPL-2.0-only */
/* commands.h - the sub-commands: pmutop encode, pmutop list. */
#ifndef PMUTOP_COMMANDS_H
#define PMUTOP_COMMANDS_H

int cmd_encode(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
/* pmutop serve and pmutop rules (argv[0] says which) */
int cmd_serve(int argc, char **argv);

/* The sub-commands' options: --sysfs-root DIR (default $PMUTOP_SYSFS_ROOT, then /),
 * --demo[=NAME] (a bundled machine's tree) and --help (prints usage). *root is malloc'd.
 * Returns the index of the first operand, or -1 with *status set (0 after --help, 2 on a
 * bad option, said as "pmutop NAME: ..."). */
int cmd_options(int argc, char **argv, const char *name, const char *usage, char **root, int *status);
/* A bad option of getopt_long (run with opterr = 0), said once, on one line. */
void cmd_bad_option(const char *cmd, int c, char **argv);

#endif
