"""Tool output as people paste it: lines, numbers, terminal residue, quoting, logged shell commands, JSON."""
