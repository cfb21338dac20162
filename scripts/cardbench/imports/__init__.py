"""Importing results people already have: a tool's output file becomes a session on a card."""
