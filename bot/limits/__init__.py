"""``/limits``: a server's cooldowns and caps (``cog``).

The extension is ``bot.limits.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
