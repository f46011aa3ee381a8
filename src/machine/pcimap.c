/* pcimap.c - PCIe root complex numbers from the NVIDIA DVSEC in root ports' config space. */
#include "machine/pcimap.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int pci_find_nvidia_dvsec(const unsigned char *cfg, size_t len)
{
	size_t off = PCI_EXT_CAP_START;
	for (int hops = 0; hops < 64 && off >= PCI_EXT_CAP_START && off + 0x11 <= len; hops++) {
		uint32_t hdr = le32(cfg + off);
		if (hdr == 0 || hdr == 0xffffffff)
			return -1;
		if ((hdr & 0xffff) == PCI_EXT_CAP_DVSEC && off + 0x11 <= len) {
			uint32_t h1 = le32(cfg + off + 4), h2 = le32(cfg + off + 8);
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
		{ 0x120000, 0xff0000, "processing accelerator" },
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

/* Devices behind a root port: the PCI function directories nested below it. */
static void add_devices(struct pci_port *p, const char *dir, int depth)
{
	char **names;
	int n = list_dir(dir, &names);
	for (int i = 0; i < n && depth < 4; i++) {
		if (!is_bdf(names[i]))
			continue;
		char *sub = path_join(dir, names[i]);
		char *cls = sysfs_read_attr(sub, "class");
		unsigned c = cls ? (unsigned)strtoul(cls, NULL, 16) : 0;
		p->devices = xrealloc(p->devices, sizeof(char *) * (size_t)(p->ndevices + 1));
		p->devices[p->ndevices++] = xasprintf("%s %s", names[i], class_name(c));
		free(cls);
		add_devices(p, sub, depth + 1);
		free(sub);
	}
	free_names(names, n);
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

struct pci_map *pci_map_read(const char *root)
{
	struct pci_map *m = xcalloc(1, sizeof(*m));
	char *dir = path_join(root, "sys/bus/pci/devices");
	char **names;
	int n = list_dir(dir, &names);
	for (int i = 0; i < n; i++) {
		char *dev = path_join(dir, names[i]);
		char *cfgpath = path_join(dev, "config");
		unsigned char buf[4096];
		FILE *f = fopen(cfgpath, "rb"); /* 64 or 256 bytes unless root: then no DVSEC */
		size_t len = f ? fread(buf, 1, sizeof(buf), f) : 0;
		if (f)
			fclose(f);
		int off = pci_find_nvidia_dvsec(buf, len);
		if (off >= 0) {
			m->ports = xrealloc(m->ports, sizeof(struct pci_port) * (size_t)(m->n + 1));
			struct pci_port *p = &m->ports[m->n++];
			memset(p, 0, sizeof(*p));
			snprintf(p->bdf, sizeof(p->bdf), "%s", names[i]);
			p->bus = buf[off + 0xc];
			p->segment = buf[off + 0xd];
			p->rp = buf[off + 0xe];
			p->rc = buf[off + 0xf];
			p->socket = buf[off + 0x10];
			add_devices(p, dev, 0);
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
