"""``/team``: a server's Basic teams (``cog``); the league package adds the Advanced commands.

The extension is ``bot.team.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
