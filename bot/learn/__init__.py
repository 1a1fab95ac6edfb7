"""``/learn``: lessons that teach Elfball by playing, in the member's private thread (``cog``),
with their opening lines, verdicts, buttons and progress list (``posts``).

The extension is ``bot.learn.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
