/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_http.c - libFuzzer target for the exporter's request handling: each input is
 * sent as it is, over TCP, to a live exporter (libmicrohttpd and pmutop's handler) that
 * serves the simulated Tegra410, and the answer read to its end. Whatever the bytes, the
 * exporter answers or closes, never crashes, and goes on serving. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/diag.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "outputs/exporter.h"
#include "engine/output.h"
#include "sources/sources.h"
#include "sim/simulator.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int port;

static void setup(void)
{
	diag_set_quiet(true);
	static struct machine *m;
	static struct profile *ps[1];
	static struct session *s;
	static struct output *o;
	m = machine_discover(PMUTOP_SRCDIR "/profiles/machines/tegra410");
	int nerr;
	ps[0] = profile_load(PMUTOP_SRCDIR "/profiles/tegra410.ini", &nerr);
	s = session_new(m, ps, 1);
	struct sim_options so = { .model_path = NULL, .seed = 1 };
	session_add_source(s, source_sim_new(m, &so));
	session_start(s, 1000000000ull);
	struct exporter_options eo = { .listen = "127.0.0.1:0" };
	char *err = NULL;
	o = exporter_output_new(&eo, &err);
	if (!o) {
		fprintf(stderr, "fuzz_http: %s\n", err);
		abort();
	}
	o->ops->frame(o, session_sample(s, 2000000000ull)); /* /metrics has values */
	port = exporter_port(o);
	/* the session and the exporter live as long as the fuzzer; statics keep them
	 * reachable so LeakSanitizer does not call them leaks */
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (!port)
		setup();
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		fprintf(stderr, "fuzz_http: the exporter stopped accepting\n");
		abort();
	}
	for (size_t done = 0; done < size;) {
		ssize_t n = send(fd, data + done, size - done, MSG_NOSIGNAL);
		if (n <= 0)
			break; /* it closed on us: an answer to bad bytes */
		done += (size_t)n;
	}
	shutdown(fd, SHUT_WR);
	char buf[65536];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	while (poll(&p, 1, 2000) > 0) /* until it closes; a hang of 2 s is a finding too */
		if (recv(fd, buf, sizeof(buf), 0) <= 0)
			break;
	close(fd);
	return 0;
}
