"""The site's side: summaries across runs, the page model, the data files Hugo reads, the preview."""
