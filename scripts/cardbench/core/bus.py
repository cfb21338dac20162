"""What the path between card and computer allows: bus and link ceilings, in MB/s (10^6 bytes/s)."""

import re

# Highest transfer rate of each SD bus. A card file says "SD Express" without its version (SD 7.0 and 7.1 run
# PCIe Gen3 x1, 985 MB/s; SD 8.0 Gen3 x2 or Gen4 x1 or x2): without a link a session negotiated, the fastest SD
# Express, SD 8.0's PCIe Gen4 x2 (3938 MB/s), so that only what no SD bus carries is refused.
BUS_CEILING_MB_S = {"Default/High Speed": 25, "UHS-I": 104, "UHS-II": 312, "UHS-III": 624, "SD Express": 3938}
# The version a bus ceiling assumes, named where a figure is checked against it.
BUS_ASSUMED = {"SD Express": "SD 8.0, PCIe Gen4 x2, assumed: the card's SD Express version is not stated"}
# Usable rate of one PCIe lane per generation.
PCIE_LANE_MB_S = {1: 250, 2: 500, 3: 985, 4: 1969}
# The next faster bus, for a card whose bus was guessed too low.
FASTER_BUS = {"Default/High Speed": "UHS-I", "UHS-I": "UHS-II", "UHS-II": "UHS-III", "UHS-III": "SD Express"}


def pcie_link_mb_s(link):
    """(MB/s ceiling, description) of a link like 'PCIe Gen3 x1', or None."""
    if not isinstance(link, str):
        return None
    match = re.search(r"Gen\s*([1-4]).{0,40}?x\s*([0-9]{1,2})", link, re.IGNORECASE)
    if not match:
        return None
    generation, lanes = int(match.group(1)), int(match.group(2))
    if not 1 <= lanes <= 16:
        return None
    return PCIE_LANE_MB_S[generation] * lanes, f"PCIe Gen{generation} x{lanes} link ceiling"
