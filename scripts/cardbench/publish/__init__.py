"""The site built from the figures and pages: the files Hugo reads, incremental aggregation, staging, the
files served as they are, runs.csv, and the local preview server."""
