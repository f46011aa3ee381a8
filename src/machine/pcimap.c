/* SPDX-License-Identifier: GPL-2.0-only */
/* pcimap.c - PCIe root complex numbers from the NVIDIA DVSEC in root ports' config space. */
#include "machine/pcimap.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "base/util.h"

#define PCI_EXT_CAP_START 0x100
#define PCI_EXT_CAP_DVSEC 0x23
#define NVIDIA_VENDOR 0x10de
#define NVIDIA_DVSEC_RC_MAP 4

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads n bytes of config space at off into out; false past its end. */
typedef bool (*cfg_reader)(void *ctx, size_t off, unsigned char *out, size_t n);

/* Walk the extended capability list for the RC map DVSEC; copies its first DVSEC_LEN
 * bytes to dvsec and returns its offset, or -1. Reads only the headers it visits: a
 * config space read from sysfs costs a trap per dword in a VM (the whole 4 KiB of one
 * device took 14 ms here). */
#define DVSEC_LEN 0x11
static int walk_for_dvsec(cfg_reader rd, void *ctx, unsigned char dvsec[DVSEC_LEN])
{
	size_t off = PCI_EXT_CAP_START;
	for (int hops = 0; hops < 64 && off >= PCI_EXT_CAP_START; hops++) {
		unsigned char h[12];
		if (!rd(ctx, off, h, 4))
			return -1;
		uint32_t hdr = le32(h);
		if (hdr == 0 || hdr == 0xffffffff)
			return -1;
		if ((hdr & 0xffff) == PCI_EXT_CAP_DVSEC && rd(ctx, off, dvsec, DVSEC_LEN)) {
			uint32_t h1 = le32(dvsec + 4), h2 = le32(dvsec + 8);
			if ((h1 & 0xffff) == NVIDIA_VENDOR && (h2 & 0xffff) == NVIDIA_DVSEC_RC_MAP)
				return (int)off;
		}
		size_t next = (hdr >> 20) & 0xffc;
		if (next <= off) /* the list only goes forward; anything else is a loop */
			return -1;
		off = next;
	}
	return -1;
}

struct image {
	const unsigned char *cfg;
	size_t len;
};

static bool read_image(void *ctx, size_t off, unsigned char *out, size_t n)
{
	const struct image *im = ctx;
	if (off > im->len || n > im->len - off)
		return false;
	memcpy(out, im->cfg + off, n);
	return true;
}

static bool read_file(void *ctx, size_t off, unsigned char *out, size_t n)
{
	/* 64 or 256 bytes unless root: then nothing past 0x100, no DVSEC */
	return pread(*(int *)ctx, out, n, (off_t)off) == (ssize_t)n;
}

int pci_find_nvidia_dvsec(const unsigned char *cfg, size_t len)
{
	unsigned char dvsec[DVSEC_LEN];
	return walk_for_dvsec(read_image, &(struct image){ cfg, len }, dvsec);
}

static const char *class_name(unsigned cls)
{
	static const struct {
		unsigned code, mask;
		const char *name;
	} classes[] = {
		{ 0x010802, 0xffffff, "NVMe controller" }, { 0x010000, 0xff0000, "storage controller" },
		{ 0x020000, 0xffff00, "Ethernet controller" }, { 0x020700, 0xffff00, "InfiniBand controller" },
		{ 0x020000, 0xff0000, "network controller" }, { 0x030200, 0xffff00, "3D controller (GPU)" },
		{ 0x030000, 0xff0000, "display controller" }, { 0x060400, 0xffff00, "PCI bridge" },
		{ 0x080000, 0xff0000, "system peripheral" },	  { 0x120000, 0xff0000, "processing accelerator" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if ((cls & classes[i].mask) == classes[i].code)
			return classes[i].name;
	return "device";
}

static bool is_bdf(const char *s)
{
	unsigned a, b, c, d;
	char tail;
	return sscanf(s, "%x:%x:%x.%x%c", &a, &b, &c, &d, &tail) == 4;
}

struct strings {
	int n;
	char **v;
};

static void push(struct strings *l, char *str)
{
	l->v = xrealloc(l->v, sizeof(char *) * (size_t)(l->n + 1));
	l->v[l->n++] = str;
}

static char *describe_function(const char *dir, const char *bdf, int depth)
{
	char *cls = sysfs_read_attr(dir, "class");
	unsigned c = cls ? (unsigned)strtoul(cls, NULL, 16) : 0;
	free(cls);
	return xasprintf("%*s%s %s", depth, "", bdf, class_name(c));
}

/* The PCI functions nested below dir (behind a bridge), four levels deep at most,
 * indented by their depth below the first if indent. */
static void add_nested(struct strings *l, const char *dir, int depth, bool indent)
{
	char **names;
	int n = list_dir(dir, &names);
	for (int i = 0; i < n && depth < 4; i++) {
		if (!is_bdf(names[i]))
			continue;
		char *sub = path_join(dir, names[i]);
		push(l, describe_function(sub, names[i], indent ? depth + 1 : 0));
		add_nested(l, sub, depth + 1, indent);
		free(sub);
	}
	free_names(names, n);
}

/* Devices behind a root port. */
static void add_devices(struct pci_port *p, const char *dir)
{
	struct strings l = { p->ndevices, p->devices };
	add_nested(&l, dir, 0, false);
	p->ndevices = l.n;
	p->devices = l.v;
}

int pci_bus_devices(const char *root, unsigned segment, unsigned bus, char ***out)
{
	struct strings l = { 0, NULL };
	char prefix[16];
	snprintf(prefix, sizeof(prefix), "%04x:%02x:", segment, bus);
	char *dir = path_join(root, "sys/bus/pci/devices");
	char **names;
	int n = list_dir(dir, &names);
	for (int i = 0; i < n; i++) {
		if (!is_bdf(names[i]) || strncmp(names[i], prefix, strlen(prefix)))
			continue;
		char *dev = path_join(dir, names[i]);
		push(&l, describe_function(dev, names[i], 0));
		add_nested(&l, dev, 0, true);
		free(dev);
	}
	free_names(names, n);
	free(dir);
	*out = l.v;
	return l.n;
}

static int cmp_ports(const void *a, const void *b)
{
	const struct pci_port *x = a, *y = b;
	if (x->socket != y->socket)
		return x->socket - y->socket;
	if (x->rc != y->rc)
		return x->rc - y->rc;
	return x->rp - y->rp;
}

/* The DVSEC lives in root ports, which are PCI-to-PCI bridges: other functions (GPUs,
 * NICs, NVMe) are not read at all. A tree without 'class' files is read throughout. */
static bool is_root_port(const char *dev)
{
	char *cls = sysfs_read_attr(dev, "class");
	bool maybe = !cls || (strtoul(cls, NULL, 16) >> 8) == 0x0604;
	free(cls);
	return maybe;
}

struct pci_map *pci_map_read(const char *root)
{
	struct pci_map *m = xcalloc(1, sizeof(*m));
	char *dir = path_join(root, "sys/bus/pci/devices");
	char **names;
	int n = list_dir(dir, &names);
	for (int i = 0; i < n; i++) {
		char *dev = path_join(dir, names[i]);
		char *cfgpath = path_join(dev, "config");
		unsigned char d[DVSEC_LEN];
		int fd = is_root_port(dev) ? open_regular_at(AT_FDCWD, cfgpath) : -1;
		int off = fd >= 0 ? walk_for_dvsec(read_file, &fd, d) : -1;
		if (fd >= 0)
			close(fd);
		if (off >= 0) {
			m->ports = xrealloc(m->ports, sizeof(struct pci_port) * (size_t)(m->n + 1));
			struct pci_port *p = &m->ports[m->n++];
			memset(p, 0, sizeof(*p));
			str_copy(p->bdf, sizeof(p->bdf), names[i]);
			p->bus = d[0xc];
			p->segment = d[0xd];
			p->rp = d[0xe];
			p->rc = d[0xf];
			p->socket = d[0x10];
			add_devices(p, dev);
		}
		free(cfgpath);
		free(dev);
	}
	free_names(names, n);
	free(dir);
	if (m->n)
		qsort(m->ports, (size_t)m->n, sizeof(*m->ports), cmp_ports);
	return m;
}

void pci_map_free(struct pci_map *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		for (int j = 0; j < m->ports[i].ndevices; j++)
			free(m->ports[i].devices[j]);
		free(m->ports[i].devices);
	}
	free(m->ports);
	free(m);
}

void pci_rc_label(const struct pci_map *m, int socket, int rc, char *buf, size_t len)
{
	for (int i = 0; m && i < m->n; i++) {
		const struct pci_port *p = &m->ports[i];
		if (p->socket == socket && p->rc == rc) {
			/* lspci's segment:bus of the RC's first root port */
			snprintf(buf, len, "RC%d (%04x:%02x)", rc, p->segment, p->bus);
			return;
		}
	}
	snprintf(buf, len, "RC%d", rc);
}
