"""The guard: which device a run may write, read from sysfs, the loop driver and /proc before anything is opened."""
