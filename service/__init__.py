"""The match service shared by the Discord bot and the local console: load, apply, persist, render."""
