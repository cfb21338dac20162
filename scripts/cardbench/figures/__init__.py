"""The figures of every card: statistics over its runs, headline figures, class checks, suites, the
paths it was read through, findings. Pure arithmetic on validated card data; nothing here formats a page."""
