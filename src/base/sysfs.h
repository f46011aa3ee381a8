/* sysfs.h - every file pmutop reads from /sys or /proc goes through one root. */
#ifndef PMUTOP_SYSFS_H
#define PMUTOP_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* root + "/" + rel, without doubling slashes. */
char *path_join(const char *root, const char *rel);

/* Read a small text file whole (at most limit bytes). Returns a malloc'd string or NULL
 * with errno set. */
char *read_text_file(const char *path, size_t limit);

/* Read and chomp one attribute file; NULL if unreadable. */
char *sysfs_read_attr(const char *dir, const char *name);

bool is_dir(const char *path);
bool is_regular_file(const char *path);

/* Open a file a user named (a profile, a model) for reading, if it is a regular file of
 * at most USER_FILE_MAX bytes: a device (/dev/zero), a FIFO or a directory would have
 * the reader spin or grow for ever. NULL with *why ("a character device, not a regular
 * file") set to a static string, or errno's. */
#define USER_FILE_MAX (4u << 20)
FILE *open_user_file(const char *path, const char **why);

/* Sorted list of the entries of a directory (no . and ..); returns count, -1 if it cannot
 * be opened. Free with free_names(). */
int list_dir(const char *path, char ***names);
void free_names(char **names, int n);

#endif
