"""service/verify.py against what was posted (issue #30): the commitment and entropy a coach
copies, the secret's and the entropy's form, and a match that ends where its record ends."""

from __future__ import annotations

import copy

import pytest
from support.records import ENTROPY, POSTED, SECRET, played_record

from service.verify import posted_commitment, posted_entropy, record_from_json, verify


@pytest.fixture(scope="module")
def abandoned():
    return played_record(f"{SECRET}+{ENTROPY}", abandon=True)


def test_a_commitment_and_an_entropy_as_a_coach_copies_them():
    assert posted_commitment(POSTED) == POSTED
    assert posted_commitment(f"  sha256 `{POSTED.upper()}` ") == POSTED
    assert posted_commitment(POSTED[:16]) == POSTED[:16]
    for bad in ("", POSTED[:15], POSTED + "a", "g" * 64, f"sha256 {POSTED} extra"):
        assert posted_commitment(bad) is None, bad
    assert posted_entropy(f"`{ENTROPY}`") == ENTROPY
    for bad in ("", "c1..a2", ".c1", "c1.", "c1+a2", "c 1", "é1"):
        assert posted_entropy(bad) is None, bad


def test_an_abandoned_match_verifies_and_nothing_may_follow_its_abandon(abandoned):
    assert abandoned.log[-1]["kind"] == "abandon"
    verdict = verify(abandoned, posted=POSTED, posted_entropy=ENTROPY)
    assert verdict.ok and verdict.against_posted, verdict.summary()
    data = copy.deepcopy(abandoned.to_json())
    end = len(data["log"]) - 1
    data["log"].append(dict(data["log"][end], seq=end + 1, kind="restore", events=[{"kind": "restored"}]))
    verdict = verify(record_from_json(data))
    assert not verdict.ok and verdict.mismatch.key == "verify.mismatch.after_end"
    assert verdict.summary("fr") == (f"NON vérifié : la ligne {end + 1} vient après la fin de la partie à la ligne {end} "
                                     f"({end + 2} lignes en tout) : rien ne se joue une fois la partie finie")


def test_entropy_out_of_form_fails_and_a_seed_without_entropy_says_so(abandoned):
    data = copy.deepcopy(abandoned.to_json())
    data["seed"] = f"{SECRET}+c1..a2"
    verdict = verify(record_from_json(data))
    assert not verdict.ok and "is not entropy as the bot joins it" in verdict.summary()
    alone = played_record(SECRET)  # a match from before coaches added entropy
    verdict = verify(alone, posted=POSTED)
    assert verdict.ok and verdict.summary().endswith(
        "This seed has no entropy: the bot knew every die when it posted the commitment (a match from before coaches "
        "added entropy, or in the console).")
    assert not verify(alone, posted=POSTED, posted_entropy=ENTROPY).ok
