/* commands.h - the sub-commands: pmutop encode, pmutop list. */
#ifndef PMUTOP_COMMANDS_H
#define PMUTOP_COMMANDS_H

int cmd_encode(int argc, char **argv);
int cmd_list(int argc, char **argv);

#endif
