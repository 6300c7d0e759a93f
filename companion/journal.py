"""The game journal: append-only JSON lines, one event per line, fsync'd per event.

A power cut must never lose an acknowledged event nor leave a file that cannot
be resumed, so:

* every record is written with one ``write`` of ``json + "\\n"`` on an
  ``O_APPEND`` descriptor, then ``fsync``'d before :meth:`Journal.append`
  returns; a new journal file is created and its directory ``fsync``'d, so
  the file itself survives the cut too;
* on :meth:`Journal.open`, a *torn last line* (no trailing newline, or a last
  line that is not valid JSON, e.g. the zero bytes a filesystem may leave) is
  an append that never returned: it is reported in :attr:`Journal.note` (one
  line) and truncated away before anything new is written; every complete
  line before it is kept;
* a damaged line anywhere else is a :class:`JournalError` naming the line and
  what to do, never a silent loss.

**Undo is journaled as a record** ``{"event": "undo"}`` appended like any
other, rather than by rewriting the file: the journal stays strictly
append-only (nothing acknowledged is ever rewritten, so no rename dance and no
window where the old file is gone), and the log keeps the history of what was
taken back. Replaying an undo record drops the last action and its
consequences, exactly as :meth:`companion.game.Game.undo` does.

Resuming (:meth:`Journal.game`) folds the kept events through the rules; if
the cut fell between an action and its consequences (a move recorded, the
treasure it found not yet), the missing consequences are derived and appended,
so the resumed :class:`~companion.game.GameState` is the one the game had.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.board import InvalidStateError
from companion.errors import CompanionError
from companion.events import Event, GameStarted, event_from_json
from companion.game import Game, apply, next_consequence, undo_point

JOURNAL_NAME = "game.jsonl"
UNDO = "undo"


class JournalError(CompanionError, ValueError):
    """The journal cannot be read or written as a game (a damaged line, a second game in one file)."""


def _fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (the file's own fsync does not cover its name)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def encode(record: dict[str, Any]) -> bytes:
    """One journal line: compact JSON and a newline (non-ASCII treasure names kept readable)."""
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Journal:
    """An open journal file: its records (events and undo marks) and an append handle.

    ``note`` is the one-line report of a torn last line dropped on open, or ``None``.
    Use as a context manager, or call :meth:`close` (idempotent).
    """

    def __init__(self, path: Path, records: list[tuple[int, dict[str, Any]]], note: str | None, fd: int | None):
        self.path = path
        self._records = records  # (line number, JSON object)
        self.note = note
        self._fd = fd

    # ---- opening

    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: bool = False) -> Journal:
        """Open (creating unless ``readonly``) a journal: a ``*.jsonl`` file, or a state directory's ``game.jsonl``.

        Reads every complete line; drops and reports a torn last line (truncating
        it away unless ``readonly``); raises :class:`JournalError` for a damaged
        line before the last.
        """
        path = Path(path)
        if path.is_dir() or path.suffix != ".jsonl":
            path = path / JOURNAL_NAME
        if not path.exists():
            if readonly:
                raise JournalError(f"no journal at {path}")
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True)
                _fsync_dir(path.parent.parent)
            new = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            os.fsync(new)
            _fsync_dir(path.parent)
            return cls(path, [], None, new)
        data = path.read_bytes()
        records, keep, note = _parse(path, data)
        fd: int | None = None
        if not readonly:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            if keep < len(data):
                os.ftruncate(fd, keep)
                os.fsync(fd)
        return cls(path, records, note, fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._fd is None else "open"
        return f"<Journal {str(self.path)!r} {len(self._records)} records, {state}>"

    # ---- reading

    @property
    def records(self) -> list[dict[str, Any]]:
        """The JSON objects of the file in order, undo records included."""
        return [r for _, r in self._records]

    def _numbered_events(self) -> list[tuple[int, Event]]:
        out: list[tuple[int, Event]] = []
        for line, record in self._records:
            if record.get("event") == UNDO:
                try:
                    del out[undo_point([e for _, e in out]) :]
                except CompanionError as exc:
                    raise JournalError(f"{self.path} line {line}: {exc}") from None
                continue
            try:
                event = event_from_json(record)
            except (InvalidStateError, CompanionError) as exc:
                raise JournalError(f"{self.path} line {line}: {exc}; {_ADVICE}") from None
            if isinstance(event, GameStarted) and out:
                raise JournalError(f"{self.path} line {line}: a second game starts in one journal; {_ADVICE}")
            out.append((line, event))
        return out

    def events(self) -> list[Event]:
        """The game's events after applying the undo records."""
        return [e for _, e in self._numbered_events()]

    def game(self) -> Game:
        """Resume: fold the events (naming the line of any that breaks the rules), settle, journal onward."""
        numbered = self._numbered_events()
        if not numbered:
            raise JournalError(f"{self.path} holds no game yet")
        state = None
        for line, event in numbered:
            try:
                state = apply(state, event)
            except (CompanionError, InvalidStateError) as exc:
                raise JournalError(f"{self.path} line {line} does not follow the rules: {exc}; {_ADVICE}") from None
        assert state is not None
        missing: list[Event] = []
        while (follow := next_consequence(state)) is not None:
            state = apply(state, follow)
            missing.append(follow)
        if missing and self._fd is not None:
            self.record(missing)
        return Game([e for _, e in numbered] + missing, listener=self.record if self._fd is not None else None)

    # ---- writing

    def append(self, record: Event | dict[str, Any]) -> None:
        """Write one record durably (returns after ``fsync``)."""
        if self._fd is None:
            raise JournalError(f"journal {self.path} is not open for writing")
        obj = record.to_json() if isinstance(record, Event) else record
        if obj.get("event") == "start" and self._records:
            raise JournalError(f"{self.path} already holds a game; start a new game in a new journal")
        data = encode(obj)
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        os.fsync(self._fd)
        self._records.append((len(self._records) + 1, obj))

    def append_undo(self) -> None:
        undo_point(self.events())  # refuse (UsageError) before writing when there is nothing to undo
        self.append({"event": UNDO})

    def record(self, events: Sequence[Event] | None) -> None:
        """:class:`~companion.game.Game` listener: journal new events, or an undo for ``None``."""
        if events is None:
            self.append_undo()
            return
        for event in events:
            self.append(event)


_ADVICE = (
    "the journal is damaged there: move the file aside to start a new game, "
    "or delete that line and everything after it to resume from just before it"
)


def _parse(path: Path, data: bytes) -> tuple[list[tuple[int, dict[str, Any]]], int, str | None]:
    """Records of complete lines, the byte length to keep, and the note about a dropped torn tail."""
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline
    keep = len(data) - len(torn)
    records: list[tuple[int, dict[str, Any]]] = []
    note_line = 0
    for number, raw in enumerate(lines, start=1):
        try:
            obj = json.loads(raw.decode("utf-8"))
            if not isinstance(obj, dict) or not isinstance(obj.get("event"), str):
                raise ValueError("not an event object")
        except ValueError as exc:
            if number == len(lines) and not torn:  # the last line: a cut mid-write that left garbage
                torn = raw + b"\n"
                keep -= len(torn)
                note_line = number
                break
            raise JournalError(f"{path} line {number} is damaged ({exc}); {_ADVICE}") from None
        records.append((number, obj))
    note = None
    if torn:
        number = note_line or len(lines) + 1
        note = (
            f"journal {path}: dropped an incomplete last record at line {number} ({len(torn)} bytes, "
            f"cut off mid-write); resuming from the {len(records)} records before it"
        )
    return records, keep, note
