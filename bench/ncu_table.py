#!/usr/bin/env python3
"""Nsight Compute's raw CSV (`ncu --csv --page raw --metrics ...`) on stdin
as one line per kernel: duration, DRAM and SM throughput (% of peak),
registers per thread, achieved occupancy, grid and block sizes."""
import csv
import sys

TIME = "gpu__time_duration.sum"
COLUMNS = [
    ("dram%", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("sm%", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("regs", "launch__registers_per_thread"),
    ("occ%", "sm__warps_active.avg.pct_of_peak_sustained_active"),
]


def main():
    rows = list(csv.reader(line for line in sys.stdin if line.startswith('"')))
    if len(rows) < 2:
        sys.exit("ncu_table.py: no ncu rows on stdin")
    head, units, body = rows[0], rows[1], rows[2:]
    col = {h: i for i, h in enumerate(head)}

    def get(r, k):
        return r[col[k]] if k in col and col[k] < len(r) else "-"

    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}.get(units[col[TIME]] if TIME in col else "", 1.0)
    print(f"{'kernel':44s} {'us':>9s} " + " ".join(f"{n:>6s}" for n, _ in COLUMNS) + "  grid/block")
    total = 0.0
    for r in body:
        t = get(r, TIME).replace(",", "")
        us = float(t) * scale if t not in ("-", "") else 0.0
        total += us
        values = " ".join(f"{get(r, k):>6s}" for _, k in COLUMNS)
        print(f"{get(r, 'Kernel Name')[:44]:44s} {us:9.1f} {values}  {get(r, 'launch__grid_size')}/{get(r, 'launch__block_size')}")
    print(f"{'total':44s} {total:9.1f}")


if __name__ == "__main__":
    main()
