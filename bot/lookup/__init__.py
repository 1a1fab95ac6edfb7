"""``/roll``, ``/odds`` and ``/rules`` (``cog``) over the rule topics (``rules_topics``).

The extension is ``bot.lookup.cog`` (``app.EXTENSIONS``): importing this package loads no cog.
"""
