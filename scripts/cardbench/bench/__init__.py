"""Build, aggregation and page-weight benchmark on synthetic cards."""
