"""``/preferences``, the board in words and the dice checked (``cog``).

The extension is ``bot.trust.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
