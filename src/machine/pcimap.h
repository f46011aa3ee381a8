/* SPDX-License-Identifier: GPL-2.0-only */
/* pcimap.h - which PCIe root complex (RC) each root port belongs to, from the NVIDIA
 * Designated Vendor-Specific Extended Capability (vendor 0x10de, DVSEC ID 4) in the root
 * port's config space: bus (0xc), segment (0xd), root port (0xe), RC (0xf), socket (0x10).
 * This maps Tegra410 PMU names (..._rc_<rc>) to lspci segments. Without access to the
 * extended config space (not root), nothing is found and RCs are labelled by number. */
#ifndef PMUTOP_PCIMAP_H
#define PMUTOP_PCIMAP_H

#include <stddef.h>

struct pci_port {
	char bdf[16];  /* "0004:00:00.0" */
	int segment, bus, rp, rc, socket;
	int ndevices;
	char **devices; /* "0004:01:00.0 NVMe controller" */
};

struct pci_map {
	int n;
	struct pci_port *ports; /* sorted by socket, rc, rp */
};

struct pci_map *pci_map_read(const char *root);
void pci_map_free(struct pci_map *m);
/* The PCI functions on root bus SEGMENT:BUS below root, each "0000:16:02.0 PCI bridge",
 * followed by those behind it (indented a space per level): an Intel IIO stack's
 * devices. Returns how many; *out (and each string) is the caller's to free. */
int pci_bus_devices(const char *root, unsigned segment, unsigned bus, char ***out);
/* Find the DVSEC in a config space image; returns its offset or -1. */
int pci_find_nvidia_dvsec(const unsigned char *cfg, size_t len);
/* "RC3 (0004:00)" or "RC3" */
void pci_rc_label(const struct pci_map *m, int socket, int rc, char *buf, size_t len);

#endif
