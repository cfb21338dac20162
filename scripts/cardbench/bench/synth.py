"""Synthetic card files for the build benchmark: realistic in shape and size, deterministic.

Card number i always comes out the same for the same seed, whatever the count, so a benchmark can
add "one more card" (number N) to a set of N. Every card has two sessions of a CrystalDiskMark-style
suite with 10 runs per subtest (the cdm_fio.sh set in MiB/s, as the seed card from the microSD
Express review, or the CrystalDiskMark 8 default set in MB/s) and a third session on the raw device
with repeated dd runs, a dd block-size sweep and flashbench --open-au sweeps. Figures stay below the
card's bus ceiling so every file passes `cardbench validate`.
"""

import json
import random
from pathlib import Path

from ..core.units import MIB_BYTES, MIB_PER_S_IN_MB_PER_S, mib_from_bytes

DEFAULT_SEED = 2024

BRANDS = ["SanDisk", "Samsung", "Lexar", "Kingston", "PNY", "ADATA", "Kioxia", "Transcend", "Verbatim",
          "Silicon Power", "Integral", "Netac", "Gigastone", "TeamGroup", "Patriot", "Kodak", "Sony", "Delkin",
          "ProGrade", "Toshiba"]
MODELS = ["Extreme", "Extreme PRO", "Ultra", "EVO Plus", "PRO Plus", "Canvas Go! Plus", "Canvas Select Plus",
          "Play", "Premier", "Premier Extreme", "High Endurance", "Max Endurance", "Elite", "Industrial",
          "Tough", "Gold", "Silver Plus", "Professional 1066x", "Endurance", "Express"]
CAPACITIES_GB = [16, 32, 64, 128, 256, 512, 1000]

# bus: (weight, sequential read MB/s range, sequential write MB/s range, markings to pick from, ceiling MB/s)
BUSES = {
    "Default/High Speed": (5, (16, 22), (8, 16), [["C10"], ["C4"], ["C6"]], 25),
    "UHS-I": (65, (75, 92), (20, 85), [["C10", "U1"], ["C10", "U3", "V30", "A1"], ["C10", "U3", "V30", "A2"]], 104),
    "UHS-II": (10, (220, 280), (90, 250), [["C10", "U3", "V60"], ["C10", "U3", "V90"]], 312),
    "SD Express": (20, (600, 860), (300, 700), [["E600"], ["E450"], ["E150"]], 985),
}
HEADROOM = 0.97  # figures stay this far below the bus ceiling (the validator rejects more)

# cdm_fio.sh: subtest and its share of sequential read/write speed (the seed card's proportions).
CDM_FIO_SH = [("SEQ1G Q1T1", 1.0, 1.0), ("SEQ512K Q1T1", 0.68, 0.74), ("SEQ32M Q32T1", 1.0, 1.0),
              ("RND4K Q1T1", 0.045, 0.31), ("RND4K Q32T1", 0.6, 0.79), ("RND4K Q8T8", 0.59, 0.8)]
CDM8 = [("SEQ1M Q8T1", 1.0, 1.0), ("SEQ1M Q1T1", 0.93, 0.95), ("RND4K Q32T1", 0.12, 0.05),
        ("RND4K Q1T1", 0.11, 0.035)]
UNIT_FACTOR = {"MB/s": 1.0, "MiB/s": 1 / MIB_PER_S_IN_MB_PER_S}  # MB/s × factor = the figure in that unit
SWEEP_SIZES = [4096 << k for k in range(11)]  # 4 KiB … 4 MiB


def slug_for(index):
    return f"synthetic-card-{index:05d}"


def _ramp(size, top, rng):
    """Throughput at a block size: small writes are slow, from 1 MiB on near the top speed."""
    share = min(1.0, mib_from_bytes(size) ** 0.45)
    return round(max(0.1, top * share * rng.uniform(0.93, 1.0)), 2)


def _runs(rng, mean, unit, count, throttle, ceiling):
    """`count` runs around `mean` MB/s, below the bus ceiling; a throttled session sags after the first runs."""
    out = []
    for r in range(count):
        sag = rng.uniform(0.45, 0.8) if throttle and r >= 4 and rng.random() < 0.6 else 1.0
        value = min(max(0.2, mean * sag * rng.gauss(1.0, 0.025)), ceiling * HEADROOM) * UNIT_FACTOR[unit]
        out.append(max(1, int(value)) if unit == "MiB/s" else round(value, 1))
    return out


def card_data(index, seed=DEFAULT_SEED):
    """The card dict of synthetic card number `index`."""
    rng = random.Random(f"{seed}:{index}")
    bus = rng.choices(list(BUSES), weights=[b[0] for b in BUSES.values()])[0]
    _, read_range, write_range, markings, ceiling = BUSES[bus]
    read, write = rng.uniform(*read_range), rng.uniform(*write_range)
    capacity = rng.choice(CAPACITIES_GB)
    form = "microSD" if rng.random() < 0.7 else "SD"
    slug = slug_for(index)
    card = {
        "schema_version": 1, "slug": slug, "brand": rng.choice(BRANDS),
        "model": f"{rng.choice(MODELS)} {index}", "capacity_gb": capacity, "form_factor": form,
        "family": "SDHC" if capacity <= 32 else "SDXC", "bus": bus, "markings": rng.choice(markings),
        "claimed": {"read_mb_s": int(read * 1.05) + 1, "write_mb_s": int(write * 1.1) + 1},
        "source": {"name": "cardbench synthetic benchmark set", "date": "2025-06-01",
                   "license_note": "generated figures for build benchmarks"},
        "notes": "Generated card for build benchmarks; the figures are plausible, not measured.",
    }
    suite, unit, tool = (CDM_FIO_SH, "MiB/s", "cdm_fio.sh") if rng.random() < 0.6 else (CDM8, "MB/s", "CrystalDiskMark")
    sessions = []
    for number, (sid, label, throttle) in enumerate((("active-cooling", "Active cooling", False),
                                                       ("passive-cooling", "Passive cooling", True))):
        results = []
        for test, read_share, write_share in suite:
            for op, top, share in (("read", read, read_share), ("write", write, write_share)):
                entry = {"test": test, "op": op, "unit": unit,
                         "runs": _runs(rng, top * share, unit, 10, throttle, ceiling)}
                if unit == "MiB/s":
                    entry["size"] = "1GiB"
                results.append(entry)
        sessions.append({
            "id": f"2025-05-{17 + number:02d}-{sid}", "label": label, "date": f"2025-05-{17 + number:02d}",
            "host": "Fedora 42",
            "reader": "M.2 adapter, PCIe Gen3 x1" if bus == "SD Express" else "USB 3.2 card reader",
            "conditions": label.lower(), "target": "exFAT filesystem", "compare": not throttle,
            "tools": [{"name": tool, "version": "8.0.6" if tool == "CrystalDiskMark" else "gist revision d5cd2f3"}],
            "results": results,
        })
    dd = [{"op": op, "block_size": "4M", "count": 256, "flags": ["direct"], "target": "device", "unit": "MB/s",
           "runs": _runs(rng, top * 0.97, "MB/s", 5, False, ceiling),
           "command": f"dd {'if=/dev/sdX of=/dev/null iflag' if op == 'read' else 'if=/dev/zero of=/dev/sdX oflag'}"
                      "=direct bs=4M count=256"}
          for op, top in (("read", read), ("write", write))]
    sweep = {"op": "write", "flags": ["direct"], "target": "device", "unit": "MB/s",
             "points": [{"block_size_bytes": size, "value": _ramp(size, write, rng)} for size in SWEEP_SIZES]}
    erase = rng.choice([4, 8, 16]) * MIB_BYTES
    open_au = [{"mode": mode, "open_au": n, "erase_size_bytes": erase, "block_size_bytes": 4096, "unit": "MB/s",
                "points": [{"block_size_bytes": size, "value": _ramp(size, write * (1.0 if n < 5 else 0.4), rng)}
                           for size in reversed(SWEEP_SIZES) if size <= erase],
                "command": f"flashbench -c 32 /dev/sdX -b 4096 -e {erase} --open-au-nr={n}"
                           + (" --random" if mode == "random" else "")}
               for mode in ("sequential", "random") for n in (1, 5)]
    sessions.append({
        "id": "2025-05-20-device", "label": "dd and flashbench on the device", "date": "2025-05-20",
        "host": "Debian 12", "reader": sessions[0]["reader"], "target": "raw device",
        "tools": [{"name": "dd", "version": "coreutils 9.1"}, {"name": "flashbench"}],
        "dd": dd, "dd_sweeps": [sweep], "flashbench_open_au": open_au,
    })
    card["sessions"] = sessions
    return card


# --- YAML text, written directly (PyYAML's emitter would dominate generating 10,000 files) ---

def _scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid double-quoted YAML scalar


def _flow_numbers(values):
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _emit(value, indent, out):
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict):
                out.append(f"{pad}{key}:\n")
                _emit(item, indent + 2, out)
            elif isinstance(item, list) and item and not _flow_numbers(item):
                out.append(f"{pad}{key}:\n")
                _emit(item, indent, out)
            elif isinstance(item, list):
                out.append(f"{pad}{key}: [{', '.join(_scalar(v) for v in item)}]\n")
            else:
                out.append(f"{pad}{key}: {_scalar(item)}\n")
    else:
        for item in value:
            if isinstance(item, dict):
                lines = []
                _emit(item, indent + 2, lines)
                lines[0] = f"{pad}- " + lines[0][indent + 2:]
                out.extend(lines)
            else:
                out.append(f"{pad}- {_scalar(item)}\n")


def card_text(card):
    out = ["# yaml-language-server: $schema=../schema/card.schema.json\n"]
    _emit(card, 0, out)
    return "".join(out)


def write_cards(cards_dir, count, seed=DEFAULT_SEED, start=0):
    """Write cards number start … start+count-1 into cards_dir; returns their paths."""
    cards_dir = Path(cards_dir)
    cards_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(start, start + count):
        path = cards_dir / f"{slug_for(index)}.yaml"
        path.write_text(card_text(card_data(index, seed)), encoding="utf-8")
        paths.append(path)
    return paths


__all__ = ["card_data", "card_text", "write_cards", "slug_for", "DEFAULT_SEED"]
