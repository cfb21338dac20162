"""fio: its JSON output, its normal (text) output and its bandwidth logs, each a tool module, with their helpers."""
