"""One module per challenge of the rulebook, all built on ``base.resolve``."""
