#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The floor plan docs/ARCHITECTURE.md draws, checked on the tree.

Rooms stand in one order, the data's way: base, machine, profile, bind, engine, then
sources, sim (which answers the sources' interfaces), then outputs, record and ui, then
cli. A file may include its own room and the rooms below it, never one above. The
simulator is a room nobody reads into: outside src/sim/ only its public header
(sim/simulator.h) may be included. The outputs and the monitor read frames and call the
session's API, never binding's data or a source's. No .c file is over 800 lines, and no
room of src/ over 4 000 (ui/ is the monitor, one room as htop's is).

Prints each breach and a count per rule; exits 1 on any."""
import os
import re
import sys

LEVEL = {"base": 0, "machine": 1, "profile": 2, "bind": 3, "engine": 4,
         "sources": 5, "sim": 5.5, "outputs": 6, "record": 6, "ui": 6, "cli": 7}
SIM_PUBLIC = {"sim/simulator.h"}
# The outputs and the monitor read frames: of the engine they may include the frame, the
# output interface, history, the run loop and the session's API (a filter set, the values
# shown); nothing of binding's data (state.h) nor of the sources.
OUTPUT_ROOMS = {"outputs", "ui"}
OUTPUT_MAY = {"engine/frame.h", "engine/output.h", "engine/history.h", "engine/runloop.h", "engine/session.h"}
MAX_FILE_LINES = 800
MAX_ROOM_LINES = 4000
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(rel):
    """src/bind/bind.c -> bind; ui/app.c -> ui; an include "bind/state.h" -> bind."""
    parts = rel.split("/")
    if parts[0] == "src":
        parts = parts[1:]
    return parts[0] if len(parts) > 1 and parts[0] in LEVEL else None


def sources(top):
    for base in ("src", "ui"):
        for dirpath, _, names in os.walk(os.path.join(top, base)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, top), path


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    upward, private, long_files, contract = [], [], [], []
    room_lines = {}
    for rel, path in sources(top):
        room = room_of(rel)
        if room is None:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n")
        room_lines[room] = room_lines.get(room, 0) + lines
        if rel.endswith(".c") and lines > MAX_FILE_LINES:
            long_files.append(f"{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        for name in INCLUDE.findall(text):
            other = room_of(name)
            if other is None or other == room:
                continue
            if LEVEL[other] > LEVEL[room]:
                upward.append(f"{rel}: includes {name} ({room} may not read {other}, a room above it)")
            elif room in OUTPUT_ROOMS and other in ("bind", "engine", "sources") and name not in OUTPUT_MAY:
                contract.append(f"{rel}: includes {name} (an output reads frames: {', '.join(sorted(OUTPUT_MAY))})")
            elif other == "sim" and name not in SIM_PUBLIC:
                private.append(f"{rel}: includes {name} (only {', '.join(sorted(SIM_PUBLIC))} is the simulator's to share)")
    big_rooms = [f"src/{r}/: {n} lines (at most {MAX_ROOM_LINES})"
                 for r, n in sorted(room_lines.items()) if r != "ui" and n > MAX_ROOM_LINES]
    rules = [("includes of a room above", upward), ("includes of the simulator's insides", private),
             ("outputs reading more than frames", contract),
             ("source files over 800 lines", long_files), ("rooms over 4000 lines", big_rooms)]
    for title, breaches in rules:
        for b in breaches:
            print(b)
    for title, breaches in rules:
        print(f"{title}: {len(breaches)}")
    print("room lines: " + " ".join(f"{r}={n}" for r, n in sorted(room_lines.items())))
    return 1 if any(b for _, b in rules) else 0


if __name__ == "__main__":
    sys.exit(main())
