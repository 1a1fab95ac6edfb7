"""Migration revisions, oldest first by their numbers."""
