"""Short rule summaries for /rules, in the bot's words (docs/rules.md has the reasoning)."""

from __future__ import annotations

TOPICS: dict[str, str] = {
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
