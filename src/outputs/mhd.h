/* SPDX-License-Identifier: GPL-2.0-only */
/* mhd.h - libmicrohttpd, loaded when an exporter starts rather than with pmutop: it
 * brings a TLS stack (GnuTLS, nettle, p11-kit...) whose pages made up a third of the
 * monitor's resident memory in every run, serving or not. */
#ifndef PMUTOP_MHD_H
#define PMUTOP_MHD_H

#include <microhttpd.h>

struct mhd_api {
	struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
					    void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...);
	void (*stop_daemon)(struct MHD_Daemon *d);
	const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *d, enum MHD_DaemonInfoType type, ...);
	struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
	enum MHD_Result (*add_response_header)(struct MHD_Response *r, const char *header, const char *content);
	enum MHD_Result (*queue_response)(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r);
	void (*destroy_response)(struct MHD_Response *r);
	const char *(*lookup_connection_value)(struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key);
	const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *c, enum MHD_ConnectionInfoType type, ...);
};

/* The library's functions, loaded on first use (and kept); NULL with *err if it is not
 * installed. */
const struct mhd_api *mhd_load(char **err);

#endif
