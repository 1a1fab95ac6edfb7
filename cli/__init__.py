"""The ``elfball`` command line: one sub-command per module, each with ``register(subparsers)``."""
