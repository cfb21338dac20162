"""The keys of fio's JSON the import reads, and which repeated keys leave a figure unclear.

fio's JSON is not always strict JSON: a short --percentile_list prints "0.000000" once per entry that
rounds to it, in one object. A repeated key is refused only where the import reads from it.
"""

PERCENTILES = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "p99_9": 99.9}
# Every key the import reads a figure, a name or an option from: twice in one object, which one holds the
# figure is unclear, so that is refused. fio itself repeats other keys: a short --percentile_list prints
# "0.000000" once per entry that rounds to it.
READ_KEYS = frozenset({
    "fio version", "time", "timestamp", "jobs", "global options", "job options", "jobname", "error",
    "read", "write", "io_bytes", "io_kbytes", "bw", "bw_bytes", "iops", "runtime", "total_ios",
    "clat_ns", "lat_ns", "clat", "lat", "N", "mean", "max", "bins", "percentile",
    "name", "rw", "readwrite", "bs", "blocksize", "bsrange", "bssplit", "blocksize_range", "kb_base",
    "iodepth", "numjobs", "rwmixread", "rwmixwrite", "size",
})


def duplicate_unclear(key, values):
    """Whether a key fio's JSON holds twice leaves a figure the import reads unclear: one of READ_KEYS,
    or a percentile the import reads given two different values."""
    if key in READ_KEYS:
        return True
    try:
        percent = float(key)
    except ValueError:
        return False
    read = any(abs(percent - wanted) < 1e-6 for wanted in PERCENTILES.values())
    return read and any(value != values[0] for value in values)
