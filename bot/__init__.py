"""The Discord bot: slash commands and panels over the shared match service (no rules, no dice here)."""

from bot.app import ElfballBot, main

__all__ = ["ElfballBot", "main"]
