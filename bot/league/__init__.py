"""``/league`` and the Advanced ``/team`` commands, and the post-match panels (``cog``).

The extension is ``bot.league.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
