/* commands.h - the sub-commands: pmutop encode, pmutop list. */
#ifndef PMUTOP_COMMANDS_H
#define PMUTOP_COMMANDS_H

int cmd_encode(int argc, char **argv);
int cmd_list(int argc, char **argv);

/* The sub-commands' options: --sysfs-root DIR (default $PMUTOP_SYSFS_ROOT, then /) and
 * --help (prints usage). Returns the index of the first operand, or -1 with *status set
 * (0 after --help, 2 on a bad option). */
int cmd_options(int argc, char **argv, const char *usage, const char **root, int *status);

#endif
