"""``elfball teams`` and ``elfball team NAME``: the team lists, and checking a Basic lineup."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from service.reference import (
    RULE_EXTRA_PLAYERS,
    RULE_OPTIONAL_TEAMS,
    ExtraPlayer,
    RosterError,
    RosterOptions,
    TeamList,
    TeamRoster,
    TeamValidationError,
    all_team_lists,
    extra_players,
    team_list,
    validate_basic_team,
)


def _dumps(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, right: Sequence[int] = ()) -> str:
    """Plain-text columns; indexes in ``right`` are right-aligned (numbers)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        out = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _extra_line(extra: ExtraPlayer, team: TeamList | None = None) -> str:
    if team is None:
        homes = "; ".join(
            f"{team_list(tid).name}, in a {team_list(tid).position(pid).name} slot"
            for tid, pid in extra.replaces
        )
    else:
        pid = extra.replaced_position_id(team.id) or ""
        homes = f"in a {team.position(pid).name} slot"
    p = extra.position
    innate = f", innate {', '.join(a.title() for a in p.innate_abilities)}" if p.innate_abilities else ""
    return f"{p.name} ({homes}): {p.attributes} {p.type.label}{innate}; max {p.max}"


def _lineup_text(team: TeamList) -> str:
    return ", ".join(f"{n} {p.name}" for p, n in team.default_lineup)


def _run_teams(args: argparse.Namespace) -> int:
    teams = all_team_lists(include_optional=not args.no_optional_teams)
    if args.json:
        print(
            _dumps(
                {
                    "teams": [
                        {
                            "id": t.id,
                            "name": t.name,
                            "positions": len(t.positions),
                            "optional": t.optional,
                            "colours": list(t.colours),
                        }
                        for t in teams
                    ],
                    "extra_players": [
                        {"id": e.id, "name": e.name, "replaces": dict(e.replaces)} for e in extra_players()
                    ],
                }
            )
        )
        return 0
    rows = [[t.name, t.id, str(len(t.positions)), "yes" if t.optional else ""] for t in teams]
    print(format_table(["Team list", "Id", "Positions", "Optional"], rows, right=[2]))
    if any(t.optional for t in teams):
        print(f"\nOptional team lists ({RULE_OPTIONAL_TEAMS}) need both coaches' agreement.")
    print(f"Extra players ({RULE_EXTRA_PLAYERS}), if both coaches agree:")
    for extra in extra_players():
        print(f"  {_extra_line(extra)}")
    return 0


def _options(args: argparse.Namespace) -> RosterOptions:
    return RosterOptions(
        allow_optional_teams=not args.no_optional_teams, allow_extra_players=args.extra_players
    )


def _check(args: argparse.Namespace) -> int:
    try:
        roster: TeamRoster = validate_basic_team(args.name, args.check, options=_options(args))
    except RosterError as exc:
        if not args.json:
            raise
        problems = exc.problems if isinstance(exc, TeamValidationError) else (str(exc),)
        print(_dumps({"valid": False, "problems": list(problems)}))
        return 2
    if args.json:
        print(_dumps({"valid": True, **roster.as_dict()}))
    else:
        print(f"Valid Basic team. {roster}")
    return 0


def _run_team(args: argparse.Namespace) -> int:
    if args.check is not None:
        return _check(args)
    team = team_list(args.name)
    extras = extra_players(team)
    if args.json:
        print(_dumps({**team.as_dict(), "extra_players": [e.as_dict() for e in extras]}))
        return 0
    optional = f", optional ({RULE_OPTIONAL_TEAMS})" if team.optional else ""
    print(f"{team.name} ({team.id}), Team Lists p. {team.page}{optional}")
    if team.flavour:
        print(team.flavour)
    print()
    rows = [
        [f"0-{p.max}", p.name, *(str(v) for v in p.attributes.as_tuple()), p.type.label]
        for p in team.positions
    ]
    print(format_table(["Max", "Position", "J", "M", "T", "D", "S", "G", "Type"], rows, right=range(2, 8)))
    print(f"\nDefault lineup: {_lineup_text(team)}")
    print(f"Colours: {team.colours[0]} / {team.colours[1]}")
    for extra in extras:
        print(f"Extra player ({RULE_EXTRA_PLAYERS}), if both coaches agree: {_extra_line(extra, team)}")
    return 0


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-optional-teams",
        action="store_true",
        help="leave out (or refuse) the optional Orcs and Ratmen lists",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    teams = subparsers.add_parser(
        "teams", help="list every team list", description="List every Elfball team list (rulebook pp. 15-18)."
    )
    teams.add_argument("--json", action="store_true", help="machine-readable output")
    _add_options(teams)
    teams.set_defaults(func=_run_teams)

    team = subparsers.add_parser(
        "team",
        help="show one team list, or check a Basic lineup",
        description="Show a team list's positions and profiles, or check a Basic team (10 players).",
    )
    team.add_argument("name", help="team list: id, name or unique prefix (e.g. 'night elves')")
    team.add_argument(
        "--check", metavar="LINEUP", help="validate a Basic team, e.g. '6 imps, 2 hunters, 2 strikers'"
    )
    team.add_argument(
        "--extra-players",
        action="store_true",
        help="allow the Samhaino Horror and the Impcrusher (optional rules, p. 19)",
    )
    team.add_argument("--json", action="store_true", help="machine-readable output")
    _add_options(team)
    team.set_defaults(func=_run_team)
