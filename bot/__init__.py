"""bot package (filled in by later issues)."""
