"""Short rule summaries for /rules, in the bot's words (docs/rules.md has the reasoning).

The Basic rules, the Advanced rules' team support, potions and the wizard, and one topic per
ability, named as printed (``Lead Pass``), from the ability catalogue (engine/data/abilities.json).
"""

from __future__ import annotations

from engine.abilities import ABILITIES, Ability, basic_of

__all__ = ["TOPICS", "ability_topic"]

BASICS: dict[str, str] = {
    "Challenge dice": "Roll as many dice as the attribute. Bull's-eye = success; star = success and roll another die; "
    "blank = nothing; X = flop, which cancels a success. More flops than successes = flopped. "
    "Successes needed are never below 1.",
    "Momentum": "Extra successes on your own challenges go on the track (max 6). Spend a counter to re-roll one of your dice "
    "(not on a flopped roll) or to force the opponent to re-roll a die of your choice during your action. Counters reset "
    "when your action ends, unless a Shift in Momentum hands them all to the opponent.",
    "Shift in Momentum": "Your action ends and the opponent takes your counters: a failed Pick-up, a Throw none of your players "
    "catches (a throw to an empty hex always shifts), a failed Dash, or any flopped challenge.",
    "Jog": "1 Jog per hex. Pick-up, Throw, Tackle and Shove cost 1, but with 0 Jog left you may still make one of them free, "
    "which ends your normal action. Disengage, Impact, Catch, Intercept and Dash cost nothing.",
    "Facing": "The hex a player faces and the one on each side are his front hexes; the other three are his rear. "
    "Only standing players count for the facing modifiers.",
    "Disengage": "Leaving a hex next to a standing opponent who faces you: Dodge, needs the best such opponent's Tackle - 2, "
    "-1 per team-mate facing you, +1 per extra opponent facing you. Fail: Down in your hex. Flop: Dazed and a SiM.",
    "Pick-up": "Moving onto the ball forces a Pick-up: Skill, needs 1, -1 per team-mate and +1 per opponent facing you. "
    "Any failure bounces the ball one hex and is a SiM.",
    "Throw": "Up to 6 hexes with other activity, 7-18 only if you do nothing else that action. Skill, needs 1, "
    "+2 beyond half the range (4-6 short, 10-18 long), -1/+1 for team-mates/opponents facing you. Exactly: wobbly "
    "(the receiver must Catch unless next to you). More: perfect spiral (caught). Fewer: lands D6 hexes away. "
    "A white line stops the ball, so no pass crosses the centre line.",
    "Interception": "After the throw roll, the opponent may send one standing player whose hex the passing string touches: "
    "Skill, needs 2. Success: he has the ball (a SiM for the thrower). Flop: he is Down.",
    "Catch": "Skill, needs 2, -1/+1 for team-mates/opponents facing the catcher. A loose ball may be let drop. "
    "A failure bounces the ball one hex.",
    "Tackle": "Once per action, a standing adjacent opponent. Less Might than him: an Impact first. Tackle dice, needs his "
    "Dodge - 2 (+1 if he has no ball, -1 from his rear, -1 per team-mate facing him, +1 per other opponent facing you). "
    "Exactly: Slide Tackle (both Down). +1 Solid Hit, +2 Punishing Hit (Injury at 6 dice), +3 Crippling Hit (Injury). "
    "Only successes beyond +3 earn Momentum.",
    "Shove": "Might, needs his Might - 2 with the tackle modifiers. Success pushes him one hex straight back if it is free; "
    "into the outer line or a goal hex, the referee acts; onto the ball, it scatters.",
    "Dash": "Once per action, after your normal action: spend counters as dice, needs 1. Success: one more challenge, or one "
    "hex and a challenge. Flop: Dazed + SiM. No success: Down + SiM.",
    "Standing up": "Down: 5 - Grit Jog; Dazed: 8 - Grit. -1 per team-mate and +1 per opponent adjacent and facing you.",
    "Injury": "Grit dice (6 for a Punishing Hit): flop, 0 or 1 = out for the game; 2 = Recovery; 3 = off for the Test; "
    "4 = Dazed; 5+ = Down.",
    "Referee": "Entering the outer white line: off for the Test (with the ball: ejected, and the ball goes to the centre). "
    "Entering a goal hex without the ball: off for the Test. No Monster in the face-off.",
    "Face-off": "Might roll-off: most net successes wins, ties rolled again, a flop is Down. The winner moves up to 2 hexes "
    "in the circle then Shoves or Tackles, or steps onto the ball for a Pick-up; a weaker winner gets 1 Momentum per Might "
    "point of difference.",
    "Set-up": "One face-off player facing the ball (never a Monster), one guardian, up to 2 per rover circle, at most 6, "
    "never on a line hex. The loser of the dice-off (later: the scorer) sets up first.",
    "Replacement": "Instead of an action, with fewer than 6 on the field: a Bench player onto an empty hex within 3 of one of "
    "your stairways. He may pick up the ball there and is your last-moved player.",
    "Goal": "A player holding the ball ends an action of his team in the opponent's goal hex. The first goal wins the Test; "
    "the match goes to the agreed goals (1-3).",
    "Turns": "Teams alternate; pick any player except the one who took your previous action (unless he is your only one on "
    "the field).",
}

ADVANCED: dict[str, str] = {
    "Abilities": "Every full 5 XP a player may learn one ability (kept for later if you like), never twice the same. "
    "General abilities (Jog ... Grit) are open to all, Type abilities to that Type only (any Samhaino may take Fear). "
    "An Advanced ability needs the Basic one of its attribute or Type first. /rules and an ability's name tells what it does.",
    "Experience": "1 XP to every player of a team still on the field when it scores (not the Impcrusher). On a concession, "
    "1 XP to each player of the other team who is not in the Infirmary.",
    "Team support": "Bought with the team (Advanced rules): Bribed Referee (5 points, max 1), Cheerleaders (5 each, max 4), "
    "Zlurpee Kegs (5 each, max 2), Magic Potions (5 each, max 3), Hired Gun Wizard (20, max 1).",
    "Bribed Referee": "A Monster may take the face-off, and your players without the ball may end an action in a goal hex. "
    "Before your first action after such a face-off, and each turn you have a player in a goal hex, roll a die: on a flop "
    "the offender is ejected, your turn is lost (a SiM) and the bribe is void for the game.",
    "Cheerleaders": "Each one, once per Test, at the beginning of an action: +1 Momentum counter (/cheer).",
    "Zlurpee Kegs": "Each one, once per Test: +1 success on an Injury roll that is neither flopped nor at 0 successes. "
    "You are asked after the roll (use or keep).",
    "Magic Potions": "For one of your players who is not on the field (before setting up, during a Test, or after the last "
    "goal), one per player per game (/potion). Two dice: from death or a seizure, through a cure, to one or two General "
    "abilities for the game or +1 to an attribute. You choose the abilities or attribute when asked.",
    "Hired Gun Wizard": "Skill 5, never on the field, one spell per match instead of your action (/spell). System Shock "
    "(an opponent; needs his Might - 1, +2 if he has the ball): Down, Dazed or an Injury roll. Inferno (a hex and its six "
    "neighbours, no casting roll): each player there rolls Dodge, needs 2. Transformation (needs 2): a giant frog "
    "(7/2/4/6/0/2) until the end of the Test. A flopped cast sends one of your Bench players to Recovery and is a SiM.",
}


OPTIONS: dict[str, str] = {
    "Options": "Chosen when a match or a league is created (profile and rules on /match challenge, /league create, "
    "/league settings): goals=1-3; timed (a 52-card deck, a card each time the face-off loser ends his turn; at the end "
    "the leader wins, level is a draw); double (two players a turn unless the first causes a SiM); star2; "
    "simple_faceoff; no-optional_teams (no Orcs, Ratmen); extras=none/samhaino-horror/impcrusher; and the French "
    "variants (fr_...). Profiles: standard, beginner (simplified face-off + star = 2), fr-0.0.6, tournament.",
    "French variants": "fr_challenges_free, fr_shove_limit (half Jog), fr_failed_shove_pace, fr_dash (a hex, or one "
    "challenge with +1 die), fr_stand_up (one a turn, none after a SiM), fr_failed_disengage_sim, fr_catch_sim, "
    "fr_injury_table, fr_scorer_xp (2 XP), fr_slippery (all opponents), fr_rally (never Down), fr_pummel (up to 3 dice "
    "fewer, as many successes off the Injury), fr_plough (a counter, no Jog), fr_timed_any_turn, fr_double_momentum.",
    "Tournament": "French tournament rules: 120-150 team points, at most 2 potions, simplified face-off and star = 2, "
    "first goal wins; an event deck (a card as each turn begins: J-A +1 Momentum, Joker +3, 2-10 no event) and 40 turns "
    "at most stand in for the 75 minutes. Points: 100 a win + cards left / 5; on a draw or loss 1 per no-event card "
    "drawn; 2 per opposing player sent off, in Recovery or in the Infirmary at the end.",
}


def _group(a: Ability) -> str:
    if a.general:
        return f"{a.group.title()} (General)"
    return f"{a.group.replace('-', ' ').title()} type"


def ability_topic(a: Ability) -> str:
    """``Skill (General), Advanced (needs Agile): summary``."""
    level = "Basic" if a.basic else f"Advanced (needs {basic_of(a.group).name})"
    return f"{_group(a)}, {level}. {a.summary}"


TOPICS: dict[str, str] = {**BASICS, **ADVANCED, **OPTIONS, **{a.name: ability_topic(a) for a in ABILITIES.values()}}
