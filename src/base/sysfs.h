/* SPDX-License-Identifier: GPL-2.0-only */
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
/* path (relative to dirfd, or AT_FDCWD) opened for reading if it is a regular file; a
 * FIFO, a device or a socket is refused (said once as a warning) without blocking: -1. */
int open_regular_at(int dirfd, const char *path);
/* Why a read of a file below the root failed, from its errno (EINVAL: refused as not a
 * regular file). */
const char *sysfs_read_error(int err);
/* The same for a sysfs attribute or a regular file, where a short read is the end. */
char *read_attr_file(const char *path, size_t limit);

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
/* The same with what each entry is, as its directory entry says (DIR_KIND_ASK where it
 * does not: links, file systems without d_type); *kinds is freed with free(). */
enum dir_kind { DIR_KIND_FILE, DIR_KIND_DIR, DIR_KIND_OTHER, DIR_KIND_ASK };
int list_dir_kinds(const char *path, char ***names, enum dir_kind **kinds);
/* Reading a directory's files by its descriptor (discovery reads thousands: each
 * path walked from the root again cost more than the read): dir_open gives one (-1 on
 * failure; close() it), list_dir_at lists it, read_attr_at reads NAME in it as
 * read_attr_file does. */
int dir_open(const char *path);
int list_dir_at(int dirfd, char ***names, enum dir_kind **kinds);
char *read_attr_at(int dirfd, const char *name, size_t limit);
/* kind, or where it is DIR_KIND_ASK what stat says of NAME in dirfd: a stat per file
 * saved where the directory said. */
enum dir_kind dir_entry_kind_at(int dirfd, const char *name, enum dir_kind kind);
void free_names(char **names, int n);

#endif
