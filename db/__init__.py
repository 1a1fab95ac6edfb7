"""db package (filled in by later issues)."""
