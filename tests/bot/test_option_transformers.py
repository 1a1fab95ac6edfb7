"""The play commands' option transformers read a hex exactly as the command's builder does (the
same value, the same refusal), and the presses reach the cogs whatever the bot class."""

from __future__ import annotations

import pytest

from bot.common.presses import DescribeHandler, PanelHandler
from bot.common.transformers import HexOption
from bot.play.cog import Play
from bot.trust.cog import Trust
from service import typed
from service.vocabulary import ElfballError, standard_field


async def test_a_hex_option_reads_as_the_builder_reads():
    option = HexOption("throw", suggest=lambda interaction, value: None)  # type: ignore[arg-type,return-value]  # never asked here
    assert await option.transform(None, "k12") == standard_field().parse("K12")  # type: ignore[arg-type]  # no interaction needed
    for bad in ("Z99", "   ", "K12 K13"):
        with pytest.raises(ElfballError) as option_refused:
            await option.transform(None, bad)  # type: ignore[arg-type]  # no interaction needed
        with pytest.raises(ElfballError) as builder_refused:
            typed.hex_option(bad, "throw")
        assert str(option_refused.value) == str(builder_refused.value)


def test_the_play_and_trust_cogs_answer_presses():
    assert issubclass(Play, PanelHandler) and issubclass(Trust, DescribeHandler)
