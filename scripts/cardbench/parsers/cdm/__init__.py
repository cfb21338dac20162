"""CrystalDiskMark-style results: cdm_fio.sh, CrystalDiskMark and KDiskMark, each a tool module, and the
session they share."""
