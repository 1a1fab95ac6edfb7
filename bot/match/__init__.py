"""``/match``: challenges and their answers, following a match and ending it (``cog``).

The extension is ``bot.match.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
