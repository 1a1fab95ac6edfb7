"""``/help``: the commands and the rules explained, in the member's language (``cog``).

The extension is ``bot.help.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
