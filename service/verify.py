"""Auditable dice: check a finished match's every roll against its revealed seed.

A match's dice are ``HashDice(seed, offset=n)``: result ``n`` is SHA-256(seed, n) mod 6, with
``seed = secret + "+" + entropy`` (``engine.dice.commit``). The bot publishes ``sha256(secret)``
(the commitment) before the coaches add their entropy (with the challenge, or the league's
schedule), and the seed when the match ends. ``verify(record)`` then re-does what the store
did, with no database and no Discord:

1. ``sha256(part of the seed before "+") == commitment`` (the secret is the one promised);
2. the match is created again with ``HashDice(seed)``, exactly as ``service.match_rules.create_match``
   does, and the dice-off must draw the dice the creation row recorded;
3. every command row is applied again with ``HashDice(seed, offset=state.dice_drawn)``, as
   ``service.match_rules.submit`` does; an undo row returns to the state of the version it names, as
   ``service.match_rules.rebuild`` does; each row's dice and events must equal the recorded ones;
4. the final state must equal the stored one.

A record alone only proves itself consistent: whoever wrote the file also wrote its commitment.
What the coaches can trust is the commitment the bot *posted* in Discord before their entropy
existed, so ``verify(record, posted=..., posted_entropy=...)`` also checks

0. the posted commitment (all 64 hex digits, or at least the first 16 as a league's fixture list
   shows them) is the SHA-256 of the seed's secret, the secret has the form the bot draws (64
   lowercase hex digits, ``secrets.token_hex(32)`` in ``db.seeds.draw_committed``: a chosen
   secret could be guessed from its commitment), and the seed's entropy, if the coach copied it
   from the match's first post, is that one.

Whatever the mode, the entropy must have its form (``engine.valid_entropy``: letters, digits,
'-', parts joined by '.'), and a row after the match ended (its final whistle, or an abandon
row) is refused, as is a command-less row other than an abandon or a restore. A record is
anybody's file, so what is read is bounded (``MAX_RECORD_BYTES``, ``MAX_LOG_ROWS``, per-row
dice, events and command sizes) and every value a verdict quotes is cut (``MAX_QUOTE``).

The first difference is reported precisely (row, command, expected against recorded). A
record is plain JSON (``record_to_json``), so a commissioner can export a disputed match and
check it himself with ``elfball verify --file``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import (
    Catalogue,
    Command,
    DEFAULT_LANGUAGE,
    ElfballError,
    HashDice,
    MAX_PLAYERS,
    MalformedInputError,
    MatchState,
    Phase,
    PlayerEntry,
    RuleOptions,
    TeamEntry,
    TeamRoster,
    apply,
    command_from_dict,
    commitment_of,
    committed_part,
    entropy_part,
    new_match,
    position_by_id,
    team_list,
    valid_entropy,
    validate_options,
)

from .jsonfile import read_json
from .refusals import render_refusal
from .shape import shape_errors

__all__ = [
    "RECORD_FORMAT",
    "MatchRecord",
    "Mismatch",
    "Verdict",
    "verify",
    "record_from_json",
    "read_record",
    "quoted",
    "posted_commitment",
    "posted_entropy",
    "entropy_has_form",
    "secret_is_drawn",
    "MAX_RECORD_BYTES",
    "MAX_LOG_ROWS",
    "load_record",
    "latest_finished_match",
    "commitment_text",
    "reveal_text",
]

#: The ``format`` field of an exported record.
RECORD_FORMAT = "elfball-match-record/1"
#: The log row name of an undo (``db.matches.UNDO``; repeated so this module needs no database).
UNDO = "undo"
#: The command words of row 0's dice-off in a mismatch (said again in the reader's language).
DICE_OFF = "create: the dice-off"
#: The log rows that carry no engine command (``db.models.EventKind``; repeated, as ``UNDO``).
ABANDON, RESTORE = "abandon", "restore"

# A record is anybody's file: a real one is far below each of these (an 878-row league match
# is under 1 MB), and nothing beyond them is read, replayed or printed.
#: The size of a record file.
MAX_RECORD_BYTES = 16 * 2**20
#: Log rows of one match.
MAX_LOG_ROWS = 20_000
#: Dice, and events, of one log row (or one potion step).
MAX_ROW_DICE = MAX_ROW_EVENTS = 2_000
#: A log row's command, as JSON (a move's path is a few dozen hexes).
MAX_COMMAND_CHARS = 4_000
#: Post-match potion reports, and steps in one.
MAX_POTION_REPORTS = MAX_POTION_STEPS = 100
#: Characters of any one value a verdict quotes (a command, an event, a name).
MAX_QUOTE = 160

#: The secret the bot draws: ``secrets.token_hex(32)``.
DRAWN_SECRET = re.compile(r"[0-9a-f]{64}")
#: A commitment as copied from Discord: its hex digits, all 64 or at least the first 16.
POSTED_COMMITMENT = re.compile(r"[0-9a-f]{16,64}")


def _text(language: str) -> Catalogue:
    return Catalogue("service", "text", language)


def quoted(value: Any, most: int = MAX_QUOTE) -> str:
    """``value`` as text, cut to ``most`` characters with how long it was (a record is anybody's
    file: a path of two million hexes must not become a 12 MB line)."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), default=str)
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters)"


def _copied(text: str) -> str:
    """What a coach pasted, without the decoration around it: spaces, backticks, "sha256"."""
    text = text.strip().strip("`").strip()
    if text.lower().startswith("sha256"):
        text = text[6:].lstrip(" :`").rstrip("`")
    return text.strip()


def posted_commitment(text: str) -> str | None:
    """The commitment a coach copied from Discord, in lowercase hex (all 64 digits, or the first
    16 or more); None if ``text`` is not one."""
    hexes = _copied(text[:200]).lower()
    return hexes if POSTED_COMMITMENT.fullmatch(hexes) else None


def entropy_has_form(entropy: str) -> bool:
    """Entropy as the bot joins it: ``engine.valid_entropy`` (letters, digits, '.', '-'), in
    non-empty parts joined by '.'."""
    return valid_entropy(entropy) and all(entropy.split("."))


def posted_entropy(text: str) -> str | None:
    """The entropy a coach copied from the match's first post; None if ``text`` has not its form."""
    entropy = _copied(text[:400])
    return entropy if entropy_has_form(entropy) else None


def secret_is_drawn(seed: str) -> bool:
    """Whether the seed's secret has the form the bot draws (64 lowercase hex digits). Every
    secret the bot ever drew has it, before entropy existed too; a console or test match may
    have chosen another, which only checks for consistency."""
    return bool(DRAWN_SECRET.fullmatch(committed_part(seed)))


@dataclass(frozen=True)
class MatchRecord:
    """What verification needs: the revealed seed, the commitment, the log and the final state.

    ``log`` rows are dicts with ``seq``, ``kind``, ``command``, ``actor_side``, ``dice`` and
    ``events``, as ``match_events`` stores them; row 0 is the creation (both team entries and
    the options). ``info``: who played, for the reader (not checked).
    """

    match_id: int | None
    seed: str
    commitment: str
    log: list[dict[str, Any]]
    final_state: dict[str, Any]
    info: dict[str, Any] = field(default_factory=dict)
    #: A league match's post-match potion dice, per report: ``side``, ``commitment``, ``seed``
    #: (None until both teams are done with potions) and ``steps`` (``command``, ``offset``:
    #: the dice position it started at, ``dice``, ``events``).
    potions: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {"format": RECORD_FORMAT, "match_id": self.match_id, "info": self.info, "seed": self.seed,
               "seed_commitment": self.commitment, "final_state": self.final_state, "log": self.log}
        if self.potions:
            out["potions"] = self.potions
        return out


def read_record(path: str | Path) -> MatchRecord:
    """The record in file ``path``, its size checked before it is read (``MalformedInputError``
    or ``ValueError``, naming what is wrong)."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0  # read_json says why it cannot be read
    if size > MAX_RECORD_BYTES:
        raise MalformedInputError(f"record {quoted(str(path), 80)} is {size / 2**20:.0f} MB: a match record is at most "
                                  f"{MAX_RECORD_BYTES // 2**20} MB (a long league match is under 1 MB)")
    return record_from_json(read_json(path, "record"))


def record_from_json(data: Any) -> MatchRecord:
    """A record back from ``MatchRecord.to_json()`` (e.g. an exported file); ``ValueError`` if it
    is not one, naming the first key whose type is wrong (a file is anybody's)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"not an Elfball match record (a JSON {type(data).__name__}, not an object)")
    if data.get("format") != RECORD_FORMAT:
        raise ValueError(f"not an Elfball match record (format {str(data.get('format'))[:60]!r}, expected {RECORD_FORMAT!r})")
    try:
        _check_record(data)
        return MatchRecord(data.get("match_id"), str(data["seed"]), str(data["seed_commitment"]),
                           [dict(r) for r in data["log"]], dict(data["final_state"]), dict(data.get("info") or {}),
                           [dict(p) for p in data.get("potions") or []])
    except KeyError as exc:
        raise ValueError(f"the match record is incomplete: no {exc}") from None


def _check_dice(need: Any, dice: Any, at: str) -> None:
    need(isinstance(dice, list) and len(dice) <= MAX_ROW_DICE, f"{at}.dice", f"a list of at most {MAX_ROW_DICE} dice")
    for n, die in enumerate(dice):
        need(isinstance(die, list) and len(die) == 2 and die[0] in ("face", "d6")
             and (isinstance(die[1], str) if die[0] == "face" else type(die[1]) is int),
             f"{at}.dice[{n}]", '["face", "X"] or ["d6", 5]')


def _check_record(data: Mapping[str, Any]) -> None:
    """The types of a record's fields: what ``verify`` reads without asking again."""
    def need(ok: bool, where: str, what: str) -> None:
        if not ok:
            raise ValueError(f"the match record's {where} should be {what}")

    match_id = data.get("match_id")
    need(match_id is None or (type(match_id) is int and 0 < match_id < 2**31), "match_id", "a match number")
    for key in ("seed", "seed_commitment"):
        need(isinstance(data[key], str) and len(data[key]) <= 256, key, "text")
    need(isinstance(data["final_state"], dict), "final_state", "an object")
    info = data.get("info")
    need(info is None or (isinstance(info, dict) and all(isinstance(info.get(k, ""), (str, int)) for k in
                                                         ("west", "east", "status"))), "info", "an object of names")
    need(isinstance(data["log"], list), "log", "a list of rows")
    need(len(data["log"]) <= MAX_LOG_ROWS, "log",
         f"at most {MAX_LOG_ROWS:,} rows (a whole match is a few hundred), not {len(data['log']):,}")
    for i, row in enumerate(data["log"]):
        at = f"log[{i}]"
        need(isinstance(row, dict), at, "an object")
        need(type(row.get("seq")) is int, f"{at}.seq", "a whole number")
        need(row.get("kind") is None or isinstance(row.get("kind"), str), f"{at}.kind", "text")
        command = row.get("command")
        need(command is None or (isinstance(command, dict) and isinstance(command.get("name", ""), str)),
             f"{at}.command", "an object with a name, or null")
        need(command is None or len(json.dumps(command)) <= MAX_COMMAND_CHARS, f"{at}.command",
             f"at most {MAX_COMMAND_CHARS:,} characters of JSON (a move's path is a few dozen hexes)")
        need(row.get("actor_side") in (None, "west", "east"), f"{at}.actor_side", "west, east or null")
        _check_dice(need, row.get("dice") or [], at)
        events = row.get("events") or []
        need(isinstance(events, list) and len(events) <= MAX_ROW_EVENTS and all(isinstance(e, dict) for e in events),
             f"{at}.events", f"a list of at most {MAX_ROW_EVENTS} objects")
    potions = data.get("potions") or []
    need(isinstance(potions, list) and len(potions) <= MAX_POTION_REPORTS, "potions",
         f"a list of at most {MAX_POTION_REPORTS} reports")
    for i, report in enumerate(potions):
        at = f"potions[{i}]"
        need(isinstance(report, dict), at, "an object")
        need(report.get("side") in ("west", "east"), f"{at}.side", "west or east")
        need(isinstance(report.get("commitment"), str) and len(report["commitment"]) <= 64, f"{at}.commitment", "text")
        need(report.get("seed") is None or (isinstance(report["seed"], str) and len(report["seed"]) <= 256),
             f"{at}.seed", "text or null")
        need(isinstance(report.get("steps"), list) and len(report["steps"]) <= MAX_POTION_STEPS, f"{at}.steps",
             f"a list of at most {MAX_POTION_STEPS} steps")
        for n, step in enumerate(report["steps"]):
            need(isinstance(step, dict) and type(step.get("offset")) is int and 0 <= step["offset"] < 10**9,
                 f"{at}.steps[{n}].offset", "a dice position")
            _check_dice(need, step.get("dice"), f"{at}.steps[{n}]")


@dataclass(frozen=True)
class Mismatch:
    """The first place where the record and its replay part ways."""

    row: int | None  # the log row (seq); None for the seed and the final state
    command: str  # the row's command in words ("" when there is none)
    what: str  # "commitment", "log", "dice", "refused", "events" or "state"
    expected: Any  # what the seed and the rules give
    recorded: Any  # what the record says
    #: The sentence: a service catalogue key (``verify.mismatch.*``) and its values, said in the
    #: reader's language by ``message_in``; a ``reason`` value is an engine refusal.
    key: str
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.message_in(DEFAULT_LANGUAGE)

    def message_in(self, language: str) -> str:
        tx = _text(language)
        values = dict(self.values)
        if values.get("command") == DICE_OFF:
            values["command"] = tx.t("verify.dice_off")
        if "reason" in values:
            values["reason"] = render_refusal(values["reason"], language)
        if self.key == "verify.mismatch.die":
            values["expected"], values["recorded"] = _die(values["expected"], tx), _die(values["recorded"], tx)
        # Every value comes from anybody's file: none is quoted whole.
        return tx.t(self.key, **{k: v if type(v) is int else quoted(str(v)) for k, v in values.items()})


@dataclass(frozen=True)
class Verdict:
    ok: bool
    rows: int  # log rows checked
    dice: int  # dice re-derived from the seed and compared
    mismatch: Mismatch | None = None
    #: The commitment copied from Discord that the seed was checked against ("": none, so the
    #: record was only checked against itself).
    posted: str = ""
    #: The seed's entropy ("": none), and whether it was compared with the one copied from Discord.
    entropy: str = ""
    entropy_posted: bool = False
    #: Whether the secret has the form the bot draws (64 lowercase hex digits).
    drawn: bool = True

    @property
    def against_posted(self) -> bool:
        """Verified against what was posted in Discord, not only against itself."""
        return self.ok and bool(self.posted)

    def summary(self, language: str = DEFAULT_LANGUAGE) -> str:
        """The verdict in a sentence or three, in ``language``. Only a record checked against the
        posted commitment reads "Verified"; one checked against itself says that is all it shows."""
        tx = _text(language)
        if not self.ok:
            assert self.mismatch is not None
            return tx.t("verify.failed", reason=self.mismatch.message_in(language))
        if not self.posted:
            text = tx.t("verify.ok_self", dice=self.dice, rows=self.rows)
            return text if self.drawn else f"{text} {tx.t('verify.note.secret_chosen')}"
        whole = len(self.posted) == 64
        lines = [tx.t("verify.ok_posted" if whole else "verify.ok_posted_prefix", commitment=self.posted,
                      digits=len(self.posted), dice=self.dice, rows=self.rows)]
        if self.entropy_posted:
            lines.append(tx.t("verify.note.entropy_posted", entropy=self.entropy))
        elif self.entropy:
            lines.append(tx.t("verify.note.entropy_unchecked", entropy=self.entropy))
        else:
            lines.append(tx.t("verify.note.no_entropy"))
        return " ".join(lines)


def _sha256(seed: str) -> str:
    return commitment_of(seed)


def _norm(value: Any) -> Any:
    """The JSON form of ``value`` (tuples as lists), as the database stores it."""
    return json.loads(json.dumps(value))


def command_words(command: Mapping[str, Any] | None, side: str | None = None) -> str:
    """``tackle target=e3 (west)``: a log row's command, short and exact."""
    if not command:
        return ""
    args = " ".join(f"{k}={quoted(v, 60)}" for k, v in command.items() if k != "name" and v not in (None, False, [], ()))
    return quoted(f"{command.get('name', '?')}{' ' + args if args else ''}", 100) + (f" ({side})" if side else "")


def _die(entry: Sequence[Any], tx: Catalogue) -> str:
    kind, value = entry
    return tx.t("verify.die.face" if kind == "face" else "verify.die.d6", value=value)


def _dice_mismatch(row: int, words: str, expected: list[Any], recorded: list[Any]) -> Mismatch:
    for i, (a, b) in enumerate(zip(expected, recorded)):
        if list(a) != list(b):
            return Mismatch(row, words, "dice", expected, recorded, "verify.mismatch.die",
                            {"row": row, "command": words, "n": i + 1, "expected": a, "recorded": b})
    return Mismatch(row, words, "dice", expected, recorded, "verify.mismatch.dice_count",
                    {"row": row, "command": words, "expected": len(expected), "recorded": len(recorded)})


def _events_mismatch(row: int, words: str, expected: list[Any], recorded: list[Any]) -> Mismatch | None:
    if expected == recorded:
        return None
    for i, (a, b) in enumerate(zip(expected, recorded)):
        if a != b:
            return Mismatch(row, words, "events", a, b, "verify.mismatch.event",
                            {"row": row, "command": words, "n": i + 1, "expected": a, "recorded": b})
    return Mismatch(row, words, "events", expected, recorded, "verify.mismatch.event_count",
                    {"row": row, "command": words, "expected": len(expected), "recorded": len(recorded)})


def _entry(data: Mapping[str, Any]) -> TeamEntry:
    """``db.matches.entry_from_json`` without the database package: the roster, the names and,
    under the Advanced rules, each player's career (abilities, attributes) and the support."""
    roster = data["roster"]
    entries = tuple((position_by_id(p["position"]), p["count"]) for p in roster["players"])
    # A record is anybody's file: a count of 10^20 would build that many players.
    if any(type(n) is not int or not 0 <= n <= MAX_PLAYERS for _, n in entries) or \
            sum(n for _, n in entries) > MAX_PLAYERS:
        raise MalformedInputError(f"a team of {MAX_PLAYERS} players at most, not {[n for _, n in entries]}"[:120])
    careers = tuple(None if c is None else PlayerEntry(tuple(c.get("abilities", ())),
                                                       None if c.get("attributes") is None else tuple(c["attributes"]))
                    for c in data.get("players", ()))
    entry = TeamEntry(data["name"], TeamRoster(team=team_list(roster["team"]), entries=entries),
                      tuple(data.get("player_names", ())), careers,
                      tuple((str(item), int(n)) for item, n in data.get("support", ())))
    problems = shape_errors(entry.player_names, tuple[str, ...], "player_names") + \
        shape_errors(entry.players, tuple[PlayerEntry | None, ...], "players")
    if len(entry.player_names) > MAX_PLAYERS or len(entry.players) > MAX_PLAYERS or problems:
        raise MalformedInputError(f"malformed team entry: {'; '.join(problems) or 'too many players'}")
    return entry


def _command(data: Mapping[str, Any]) -> Command:
    """A log row's command, refused (``MalformedInputError``) unless its fields have their types."""
    try:
        cmd = command_from_dict(dict(data))
    except (KeyError, TypeError, ValueError) as exc:  # a hex or a direction that is not one
        raise MalformedInputError(f"malformed {str(data.get('name'))[:40]} command: {exc}") from None
    problems = shape_errors(cmd, where=str(data.get("name"))[:40])
    if problems:
        raise MalformedInputError(f"malformed command: {'; '.join(problems)}")
    return cmd


def _state_difference(expected: dict[str, Any], recorded: dict[str, Any]) -> str:
    keys = sorted(k for k in set(expected) | set(recorded) if expected.get(k) != recorded.get(k))
    return ", ".join(keys) or "?"


def verify(record: MatchRecord, *, posted: str | None = None, posted_entropy: str | None = None) -> Verdict:
    """Check every roll of ``record`` against its seed; the first difference is the verdict.

    ``posted``: the commitment a coach copied from Discord (``posted_commitment``'s form: 16 to
    64 lowercase hex digits); without it the record is only checked against itself.
    ``posted_entropy``: the entropy he copied from the match's first post, checked too."""
    dice_checked = 0
    rows_checked = 0
    entropy = entropy_part(record.seed)
    drawn = secret_is_drawn(record.seed)

    def fail(m: Mismatch) -> Verdict:
        return Verdict(False, rows_checked, dice_checked, m, posted or "", entropy, posted_entropy is not None, drawn)

    digest = _sha256(record.seed)
    if posted is not None:
        if not POSTED_COMMITMENT.fullmatch(posted):
            raise ValueError(f"a posted commitment is 16 to 64 lowercase hex digits, not {quoted(posted, 80)}")
        if not digest.startswith(posted):
            return fail(Mismatch(None, "", "commitment", digest, posted, "verify.mismatch.posted_commitment",
                                 {"digest": digest, "posted": posted}))
        if not drawn:
            return fail(Mismatch(None, "", "commitment", "64 hex digits", committed_part(record.seed),
                                 "verify.mismatch.secret_form", {"secret": committed_part(record.seed)}))
    if entropy and not entropy_has_form(entropy):
        return fail(Mismatch(None, "", "entropy", "letters, digits, '-' in parts joined by '.'", entropy,
                             "verify.mismatch.entropy_form", {"entropy": entropy}))
    if posted_entropy is not None and posted_entropy != entropy:
        return fail(Mismatch(None, "", "entropy", posted_entropy, entropy, "verify.mismatch.posted_entropy",
                             {"entropy": entropy or "—", "posted": posted_entropy}))
    if digest != record.commitment.strip().lower():
        return fail(Mismatch(None, "", "commitment", digest, record.commitment, "verify.mismatch.commitment",
                             {"digest": digest, "commitment": record.commitment}))
    log = record.log
    if not log or log[0].get("kind") != "create" or not log[0].get("command"):
        return fail(Mismatch(0, "", "log", "a creation row", log[0] if log else None, "verify.mismatch.no_creation"))
    for i, row in enumerate(log):
        if row.get("seq") != i:
            return fail(Mismatch(row.get("seq"), "", "log", i, row.get("seq"), "verify.mismatch.jump",
                                 {"before": i - 1, "row": row.get("seq")}))
    created = log[0]["command"]
    try:
        options = validate_options(RuleOptions.from_dict(created["options"]))
        problems = shape_errors(options, where="options")
        if problems:
            raise MalformedInputError("; ".join(problems))
        result = new_match(_entry(created["west"]), _entry(created["east"]), HashDice(record.seed), options=options)
    # The creation row is parsed here, from a file anybody could have written.
    except (ElfballError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return fail(Mismatch(0, "create", "refused", None, created, "verify.mismatch.create_refused", {"reason": exc}))
    expected_dice, recorded_dice = _norm(result.dice), _norm(log[0].get("dice") or [])
    if expected_dice != recorded_dice:
        return fail(_dice_mismatch(0, DICE_OFF, expected_dice, recorded_dice))
    dice_checked += len(expected_dice)
    bad = _events_mismatch(0, "create", _norm([e.to_dict() for e in result.events]), _norm(log[0].get("events") or []))
    if bad:
        return fail(bad)
    rows_checked = 1
    state: MatchState = result.state
    states = [state]
    ended: int | None = None  # the row where the match ended (its final whistle, or an abandon)
    for row in log[1:]:
        seq, command, side = row["seq"], row.get("command"), row.get("actor_side")
        words = command_words(command, side)
        if ended is not None:  # nothing is played, undone or logged once a match is over
            return fail(Mismatch(seq, words, "log", f"no row after row {ended}", row.get("kind"),
                                 "verify.mismatch.after_end", {"row": seq, "end": ended, "rows": len(log)}))
        if command is None:  # abandon / restore rows carry no engine command, and no dice
            if row.get("kind") not in (ABANDON, RESTORE) or row.get("dice"):
                return fail(Mismatch(seq, "", "log", "an abandon or a restore row", row.get("kind"),
                                     "verify.mismatch.no_command", {"row": seq, "kind": str(row.get("kind"))}))
            if row.get("kind") == ABANDON:
                ended = seq
        elif command.get("name") == UNDO:
            target = command.get("to_version")
            if not isinstance(target, int) or not 0 <= target < len(states) or row.get("dice"):
                return fail(Mismatch(seq, words, "log", f"a version below {len(states)} and no dice", command,
                                     "verify.mismatch.undo", {"row": seq, "command": words}))
            state = states[target]
        else:
            try:
                result = apply(state, _command(command), HashDice(record.seed, offset=state.dice_drawn),
                               by=side)  # type: ignore[arg-type]  # a stored or finished side is 'west' or 'east'
            except ElfballError as exc:
                return fail(Mismatch(seq, words, "refused", None, command, "verify.mismatch.refused",
                                     {"row": seq, "command": words, "reason": exc}))
            expected_dice, recorded_dice = _norm(result.dice), _norm(row.get("dice") or [])
            if expected_dice != recorded_dice:
                return fail(_dice_mismatch(seq, words, expected_dice, recorded_dice))
            dice_checked += len(expected_dice)
            bad = _events_mismatch(seq, words, _norm([e.to_dict() for e in result.events]), _norm(row.get("events") or []))
            if bad:
                return fail(bad)
            state = result.state
            if state.phase is Phase.MATCH_OVER:
                ended = seq
        states.append(state)
        rows_checked += 1
    final, stored = _norm(state.to_dict()), _norm(record.final_state)
    if final != stored:
        return fail(Mismatch(None, "", "state", final, stored, "verify.mismatch.state",
                             {"keys": quoted(_state_difference(final, stored))}))
    for report in record.potions:
        if report.get("seed") is None:
            continue  # a team may still drink: its potion dice stay secret for now
        bad, checked = _potion_mismatch(report, record.final_state.get("dice_drawn"))
        if bad is not None:
            return fail(bad)
        dice_checked += checked
    return Verdict(True, rows_checked, dice_checked, None, posted or "", entropy, posted_entropy is not None, drawn)


def _potion_mismatch(report: Mapping[str, Any], start: Any) -> tuple[Mismatch | None, int]:
    """A post-match report's potion dice against its revealed seed: the seed matches the
    commitment made with the schedule, each step's dice are the seed's from the position it
    started at, the first starts where the match's dice ended (``start``) and each next one
    where the one before ended (no roll taken again). The first difference, and how many dice
    were checked."""
    where = f"potions ({report['side']})"
    seed = str(report["seed"])
    digest = _sha256(seed)
    if digest != str(report["commitment"]).strip().lower():
        return Mismatch(None, where, "commitment", digest, report["commitment"], "verify.mismatch.commitment",
                        {"digest": digest, "commitment": report["commitment"]}), 0
    checked, expected_offset = 0, start if type(start) is int else None
    for n, step in enumerate(report["steps"]):
        offset, recorded = step["offset"], _norm(step.get("dice") or [])
        if expected_offset is not None and offset != expected_offset:
            return Mismatch(n, where, "dice", expected_offset, offset, "verify.mismatch.potion_offset",
                            {"step": n + 1, "expected": expected_offset, "recorded": offset}), checked
        source = HashDice(seed, offset=offset)
        for kind, _ in recorded:
            source.face() if kind == "face" else source.d6()
        expected = _norm(source.record_json())
        if expected != recorded:
            return _dice_mismatch(n, where, expected, recorded), checked
        checked += len(recorded)
        expected_offset = offset + len(recorded)
    return None, checked


# --- from the database ---------------------------------------------------------------------------
def load_record(*, session: Any, match_id: int) -> MatchRecord:
    """A finished or abandoned match's record from the store; an active match is refused
    (``InvalidInputError``): its seed is secret until it ends; so is one abandoned after its dice
    key was lost (``match_dice_unverifiable``): its seed was never revealed."""
    from db import leagues
    from db import matches as store
    from db.errors import InvalidInputError

    m = store.get_match(session=session, match_id=match_id)
    if store.dice_unverifiable(m):  # abandoned after the dice key was lost: no seed, ever
        raise InvalidInputError("match_dice_unverifiable", match=match_id)
    if m.active or m.seed is None:
        raise InvalidInputError("seed_secret_while_playing", match=match_id)
    if (m.options or {}).get("lesson") is not None:  # a lesson states its dice: nothing to check
        raise InvalidInputError("lesson_dice_stated", match=match_id)
    rows = store.match_events(session=session, match_id=match_id)
    log = [{"seq": r.seq, "kind": r.kind, "command": r.command, "actor_side": r.actor_side, "dice": r.dice,
            "events": r.events} for r in rows]
    info = {"west": m.west_team_name, "east": m.east_team_name, "west_coach_id": m.west_coach_id,
            "east_coach_id": m.east_coach_id, "status": m.status, "guild_id": m.guild_id, "channel_id": m.channel_id,
            "created_at": m.created_at.isoformat(), "ended_at": m.updated_at.isoformat()}
    return MatchRecord(m.id, m.seed, m.seed_commitment, log, m.state, info,
                       leagues.potion_records(session=session, match_id=match_id))


def latest_finished_match(*, session: Any, guild_id: int, channel_id: int) -> int | None:
    """The id of this channel's most recent finished or abandoned match, if any."""
    from sqlmodel import col, select

    from db.models import Match, MatchStatus

    query = (select(Match.id).where(Match.guild_id == guild_id, Match.channel_id == channel_id,
                                    Match.status != MatchStatus.ACTIVE.value)
             .order_by(col(Match.id).desc()).limit(1))
    return session.exec(query).first()


# --- what the channel is told ----------------------------------------------------------------------
def commitment_text(commitment: str, *, entropy: str = "", language: str = "en") -> str:
    """The line posted when a match starts (with the coaches' ``entropy``, if they added any)."""
    tx = Catalogue("service", "text", language)
    if entropy:
        return tx.t("verify.commitment_entropy", commitment=commitment, entropy=entropy)
    return tx.t("verify.commitment", commitment=commitment)


def reveal_text(match_id: int, seed: str | None, *, language: str = "en") -> str:
    """The line posted when a match ends."""
    if not seed:
        return ""
    key = "verify.reveal_entropy" if entropy_part(seed) else "verify.reveal"
    return Catalogue("service", "text", language).t(key, seed=seed, match_id=match_id)

