/* SPDX-License-Identifier: GPL-2.0-only */
/* proctasks.h - the processes of /proc as top and htop read them: who (PID, command,
 * user), how many threads, and the CPU time each has used. */
#ifndef PMUTOP_PROCTASKS_H
#define PMUTOP_PROCTASKS_H

#include <stdint.h>

struct task_sample {
	int pid;          /* a thread's row: its TID */
	int tgid;         /* the process it is of (its own PID for a process's row) */
	char comm[32];    /* /proc/PID/stat's, as top shows it (the kernel cuts it at 15) */
	unsigned uid;     /* the real user (status' Uid) */
	char user[32];    /* its name where the lister knows it, else "" (etc/passwd says) */
	int threads;
	uint64_t cpu_ns;  /* user + system time used so far */
	const char *label; /* a row that is not a process (a cgroup): its name, kept by the
			    * lister for its life; NULL for a task (comm names it) */
};

/* Every process below root (/ or a fake tree holding proc/), n returned, *out malloc'd
 * (NULL for none). A process that ends while being read is left out; a file that is not
 * a regular file (a FIFO in a fake tree) is never waited on. */
int proc_tasks_read(const char *root, struct task_sample **out);
/* Every thread of every process (htop's H, perf's --per-thread): a row each, pid its TID,
 * tgid its process, threads the process's count, the CPU time the thread's own. */
int proc_threads_read(const char *root, struct task_sample **out);
/* The cgroup process pid is in, in the hierarchy perf counts by (/proc/PID/cgroup's line
 * of a v1 hierarchy with perf_event, else cgroup2's "0::" line), its control bytes
 * escaped, into buf; "" where it cannot be read (the task ended). */
void proc_task_cgroup(const char *root, int pid, char *buf, int len);
/* A user's name from root's etc/passwd, or the number: "root", "1000". */
void proc_user_name(const char *root, unsigned uid, char *buf, int len);

#endif
