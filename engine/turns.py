"""Turn sequence, actions, Replacements, goals and Tests (pp. 4, 8 and 2).

Teams alternate; a team picks any player but the one who took its previous action, unless he
is its only player on the field. Momentum "always return[s] to zero at the beginning of your
opponent's action unless a Shift in Momentum occurs in which case your opponent gains all of
your remaining Momentum counters". A goal is scored when a player of the acting team holds the
ball in the opponent's goal hex at the end of one of its actions (G36).
"""

from __future__ import annotations

from . import clock
from .abilities import enrage
from .context import Ctx
from .events import (
    ActionEnded,
    ActionStarted,
    GoalScored,
    MatchEnded,
    MomentumReset,
    MomentumShifted,
    Recovered,
    SecondAction,
    TestLost,
    TestStarted,
    TurnPassed,
)
from .field import Field, Side, other_side
from .options import variant
from .setup import MAX_ON_FIELD, can_face_off
from .state import ActionState, Location, MatchState, Phase, Player, Status
from .support import bribed_referee, experience, impcrusher
from .support.wizard import restore_frogs

__all__ = [
    "eligible_actors",
    "replacement_possible",
    "begin_turn",
    "start_action",
    "end_action",
    "end_turn",
    "start_test",
    "end_match",
]


def eligible_actors(state: MatchState, side: Side) -> list[Player]:
    on = state.on_field(side)
    fresh = [p for p in on if p.id not in state.turn_actors]  # double movement: never twice a turn
    if len(on) == 1:
        return fresh  # "If a team has only one player on the field, then he may perform an action in consecutive turns."
    return [p for p in fresh if p.id != state.last_moved.get(side)]


def replacement_possible(state: MatchState, ctx_field: Field, side: Side) -> bool:
    if len(state.on_field(side)) >= MAX_ON_FIELD:
        return False
    if not any(p.location is Location.BENCH for p in state.team_players(side)):
        return False
    occupied = state.occupancy()
    return any(h not in occupied for h in ctx_field.replacement_hexes(side))


def begin_turn(ctx: Ctx, side: Side, *, passes: int = 0) -> None:
    st = ctx.state
    st.phase, st.turn_side, st.action = Phase.TURN, side, None
    st.once = []
    carrier = st.carrier()
    st.turn_actors, st.turn_stood, st.turn_after_sim = [], False, st.after_sim
    st.turn_carrier = carrier.id if carrier is not None and carrier.side == side else None
    if bribed_referee.check(ctx, side):
        # "your team loses the ability to perform anything this turn (this counts as a SiM)"
        _shift_or_reset(ctx, side, True, "the referee has had enough")
        if not _time_up(ctx, side):
            begin_turn(ctx, other_side(side))
        return
    if eligible_actors(st, side) or replacement_possible(st, ctx.field, side):
        clock.turn_started(ctx, side)
        return
    ctx.emit(TurnPassed(side, "no player on the field and no Replacement possible"))
    if _time_up(ctx, side):
        return
    if passes >= 1:
        # Neither team can do anything: the referee restarts the Test (not in the book; see
        # docs/rules.md, "Turn sequence").
        st.last_scorer = None
        start_test(ctx, first=st.first_setup_side or "west", restart=True)
        return
    begin_turn(ctx, other_side(side), passes=passes + 1)


def start_action(ctx: Ctx, p: Player) -> None:
    st = ctx.state
    side = p.side
    if st.momentum_side != side and (st.momentum or st.momentum_side):
        if st.momentum:
            ctx.emit(MomentumReset(st.momentum_side))
        st.momentum, st.momentum_side = 0, None
    st.phase = Phase.ACTION
    st.after_sim = False  # the out-of-sequence window (React, Taunt) closes when he starts
    st.committed_actor = None  # a Quickling's commitment is kept by starting his action
    st.once = []
    st.action = ActionState(player=p.id, jog_left=p.jog)
    ctx.emit(ActionStarted(p.id, p.jog))
    enrage.on_start_action(ctx, p)


def _shift_or_reset(ctx: Ctx, side: Side, sim: bool, reason: str | None = None) -> None:
    st = ctx.state
    # React, Taunt and Quickling answer "when his team earns a Shift in Momentum".
    st.after_sim = sim
    if sim:
        st.momentum_side = other_side(side)
        ctx.emit(MomentumShifted(other_side(side), st.momentum, reason or ctx.sim_reason or "Shift in Momentum"))
    else:
        if st.momentum:
            ctx.emit(MomentumReset(st.momentum_side))
        st.momentum, st.momentum_side = 0, None


def _scoring(ctx: Ctx, side: Side) -> bool:
    st = ctx.state
    carrier = st.carrier()
    goal = ctx.field.goals[other_side(side)]
    return carrier is not None and carrier.side == side and carrier.on_field and carrier.hex == goal


def _goal_check(ctx: Ctx, side: Side) -> bool:
    st = ctx.state
    carrier = st.carrier()
    if _scoring(ctx, side):
        assert carrier is not None
        st.teams[side].score += 1
        ctx.emit(GoalScored(side, carrier.id, (st.teams["west"].score, st.teams["east"].score)))
        experience.goal(ctx, side)
        st.last_scorer = side
        st.momentum, st.momentum_side = 0, None
        st.action = None
        if st.options.goals_to_win and st.teams[side].score >= st.options.goals_to_win:
            end_match(ctx, side, "goal")
        else:
            st.phase = Phase.TEST_OVER
        return True
    return False


def end_action(ctx: Ctx) -> None:
    """Finish the acting player's action (or a Replacement turn) and pass the turn."""
    st = ctx.state
    side = st.turn_side
    assert side is not None
    acted = st.action is not None
    if st.action is not None:
        ctx.emit(ActionEnded(st.action.player, ctx.sim))
        st.turn_actors.append(st.action.player)
    if acted and _second_player(ctx, side):
        # Double player movement: "You do not choose the second player to be moved until the
        # first has completed his action."
        st.phase, st.action, st.once = Phase.TURN, None, []
        ctx.emit(SecondAction(side, st.turn_actors[0]))
        return
    end_turn(ctx, side, action_ended=acted)


def _second_player(ctx: Ctx, side: Side) -> bool:
    """OP2: "two players may be moved instead of just one each team turn unless the first
    player suffers a Shift in Momentum" (and not after a goal, which ends the Test)."""
    st = ctx.state
    return (
        st.options.double and len(st.turn_actors) == 1 and not ctx.sim and st.phase is Phase.ACTION
        and not _scoring(ctx, side) and bool(eligible_actors(st, side))
    )


def _marker(state: MatchState) -> str:
    """OP2: "The player marked with the last moved marker is always the player holding the ball
    at the start of the turn (if he was one of the two players to move) otherwise the first
    player moved receives the last moved marker"; with one player a turn, that player."""
    if state.turn_carrier in state.turn_actors:
        return state.turn_carrier
    return state.turn_actors[0]


def _time_up(ctx: Ctx, side: Side) -> bool:
    """Count the finished turn; end the game if its deck or turn limit ran out."""
    why = clock.turn_finished(ctx, side)
    if why is None or ctx.state.phase is Phase.MATCH_OVER:
        return False
    end_match(ctx, clock.result(ctx.state), why)
    return True


def end_turn(ctx: Ctx, side: Side, *, action_ended: bool = False) -> None:
    """Pass the turn. Goals are checked only after an action: "a player holding the ball must
    end his action in the opponent's goal circle hex", and a Replacement is made "instead of
    taking an action"."""
    st = ctx.state
    st.action = None
    # Enrage looks back one turn: who was hit (Impact, Tackle, Shove...) on the turn now ending.
    st.provoked, st.targeted = st.targeted, []
    if action_ended and st.turn_actors:
        st.last_moved[side] = _marker(st)
    if action_ended:
        if _goal_check(ctx, side):
            if st.phase is not Phase.MATCH_OVER:
                # "after each turn where the Impcrusher was the player taking the action": a
                # scoring turn too, since a ban keeps him out of the Tests to come (edition 2).
                if st.options.edition >= 2:
                    for actor in st.turn_actors:
                        impcrusher.after_action(ctx, st.players[actor])
                _time_up(ctx, side)
            return
        for actor in st.turn_actors:
            impcrusher.after_action(ctx, st.players[actor])
    _shift_or_reset(ctx, side, ctx.sim)
    if _time_up(ctx, side):
        return
    begin_turn(ctx, other_side(side))


def start_test(ctx: Ctx, *, first: Side, restart: bool = False) -> None:
    """Everyone leaves the field; the ball goes on the centre dot; ``first`` sets up first."""
    st = ctx.state
    if not restart:
        st.test += 1
    for p in st.players.values():
        if p.location in (Location.FIELD, Location.SENT_OFF):
            p.location, p.hex, p.facing, p.status = Location.BENCH, None, None, Status.STANDING
    st.ball.carrier, st.ball.hex = None, ctx.field.ball_spot
    st.momentum, st.momentum_side = 0, None
    st.last_moved = {"west": None, "east": None}
    st.after_sim, st.committed_actor, st.targeted, st.provoked = False, None, [], []
    st.turn_actors, st.turn_carrier, st.turn_stood, st.turn_after_sim = [], None, False, False
    st.referee_benched = []  # "for the rest of the Test": the sanction ends here
    for team in st.teams.values():
        # Cheerleaders and Zlurpee Kegs are "once per Test" each; an unchecked face-off lapses.
        for item in ("cheerleaders", "kegs", "bribe_faceoff_check"):
            team.used.pop(item, None)
    restore_frogs(ctx)  # "turned into a giant frog until the end of the Test"
    st.action, st.turn_side, st.faceoff_winner = None, None, None
    st.phase, st.setup_side, st.first_setup_side = Phase.SETUP, first, first
    ctx.emit(TestStarted(st.test, first))
    check_faceoff_possible(ctx)


def check_faceoff_possible(ctx: Ctx) -> None:
    """"If you cannot set up a player for the face-off, your team loses the game. If neither
    team can ... the game ends in a tie." (p. 3)"""
    st = ctx.state
    west, east = can_face_off(st, "west"), can_face_off(st, "east")
    if west and east:
        return
    winner: Side = "west" if west else "east"
    if not west and not east:
        end_match(ctx, "draw", "neither team can set up a face-off player")
    elif variant(st, "fr_faceoff_test") and st.options.goals_to_win:
        _lose_test(ctx, other_side(winner))
    else:
        end_match(ctx, winner, "the other team cannot set up a face-off player")


def _lose_test(ctx: Ctx, loser: Side) -> None:
    """French 0.0.6: "Si vous ne pouvez pas placer un joueur pour la Mise en jeu vous perdez le
    Test": the other team gains the goal, and the next Test starts unless that wins the game
    (it ends the recursion: the score only grows). A game without a goal limit (timed) ends as
    in English instead, since no card would ever leave the deck."""
    st = ctx.state
    winner = other_side(loser)
    st.teams[winner].score += 1
    ctx.emit(TestLost(loser, (st.teams["west"].score, st.teams["east"].score)))
    st.last_scorer = winner
    if st.teams[winner].score >= st.options.goals_to_win:
        end_match(ctx, winner, "the other team cannot set up a face-off player")
        return
    # The lost Test has started and will have no face-off: its Recovery players come back now
    # ("after the next Test has started", G53), as they would have once its face-off was decided.
    for p in st.players.values():
        if p.location is Location.RECOVERY:
            p.location = Location.BENCH
            ctx.emit(Recovered(p.id))
    start_test(ctx, first=winner)


def end_match(ctx: Ctx, winner: str, reason: str) -> None:
    st = ctx.state
    st.phase, st.winner, st.end_reason = Phase.MATCH_OVER, winner, reason
    st.action, st.setup_side = None, None
    # Nobody acts any more: no React/Taunt window, no Quickling waiting to take his action.
    st.after_sim, st.committed_actor = False, None
    restore_frogs(ctx)
    ctx.emit(MatchEnded(winner, reason))
