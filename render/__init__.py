"""render package (filled in by later issues)."""
