"""``/ladder``: the server's coach ratings and one coach's rated matches (``cog``).

The extension is ``bot.ladder.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
