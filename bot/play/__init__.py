"""Playing a match: the set-up and play commands (``cog``), the decision panel's items and the
posts that carry them (``items``, ``panels``), their autocomplete, and the match poster.

The extension is ``bot.play.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
