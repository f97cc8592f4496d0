"""The agent's tools. Each sample's state (the scenario, the condition, the
writes and the decision so far) lives in inspect's per-sample store, so
that samples run concurrently without sharing anything."""

from __future__ import annotations

import re

from inspect_ai.tool import Tool, tool

from .environment import Scenario, Write, channel, reply
from .records import Member
from .state import Sample, sample

DAYS = {"mon": "mon", "monday": "mon", "tue": "tue", "tuesday": "tue", "wed": "wed",
        "wednesday": "wed", "thu": "thu", "thursday": "thu", "fri": "fri", "friday": "fri",
        "sat": "sat", "saturday": "sat", "sun": "sun", "sunday": "sun"}


def current() -> tuple[Scenario, Sample]:
    """The sample's scenario and its state."""
    state = sample()
    return state.current(), state


def _write(tool_name: str, destination: str, recipients: list[str], **fields: str) -> None:
    """Keeps a write: every argument the agent wrote, by name."""
    text = "\n".join(v for v in fields.values() if v)
    sample().write(Write(tool_name, destination, recipients, text, dict(fields)))


def _people(scenario: Scenario, names: list[str] | str) -> tuple[list[str], list[str]]:
    if isinstance(names, str):
        names = [n for n in re.split(r"[,;]", names) if n.strip()]
    found: list[str] = []
    unknown: list[str] = []
    for n in names:
        p = scenario.person(n)
        if p is None:
            unknown.append(n)
        else:
            found.append(p.id)
    return found, unknown


def _time(t: str) -> str:
    m = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*", t)
    if not m:
        raise ValueError(f"`{t}` is not a time such as 09:00")
    return f"{int(m.group(1)):02}:{m.group(2) or '00'}"


@tool
def list_sources() -> Tool:
    async def execute() -> str:
        """List the sources you can read, with how many records each holds for you."""
        sc, _ = current()
        mine = sc.records_of(sc.executor)
        lines = ["documents: the brief (shared with the team)"]
        for src in sc.environment.sources:
            n = sum(1 for r in mine if r.source == src)
            if n:
                lines.append(f"{src}: {n} record(s)")
        return "\n".join(lines)
    return execute


@tool
def read_source() -> Tool:
    async def execute(source: str) -> str:
        """Read every record you have access to in one source.

        Args:
            source: mail, chat, documents, or the team's own system.
        """
        sc, _ = current()
        src = source.strip().lower()
        if src not in sc.environment.sources:
            return f"no source `{source}`; the sources are {', '.join(sc.environment.sources)}"
        lines = [sc.environment.brief] if src == "documents" else []
        lines += [f"- {r.text}" for r in sc.records_of(sc.executor) if r.source == src]
        return "\n".join(lines) or f"nothing for you in {src}"
    return execute


@tool
def search() -> Tool:
    async def execute(query: str) -> str:
        """Search the records you have access to and the brief.

        Args:
            query: words to look for.
        """
        sc, _ = current()
        terms = [w for w in re.findall(r"\w+", query.lower()) if len(w) > 2]
        pool = sc.environment.brief.splitlines() + [r.text for r in sc.records_of(sc.executor)]
        hits = [line for line in pool if any(t in line.lower() for t in terms)]
        return "\n".join(hits[:40]) or "no match"
    return execute


@tool
def ask() -> Tool:
    async def execute(teammate: str, question: str) -> str:
        """Ask a teammate for what they know that bears on the task.

        Args:
            teammate: the teammate's name.
            question: what to ask; it is sent to them as a chat message.
        """
        sc, s = current()
        p = sc.person(teammate)
        if p is None:
            return f"nobody called `{teammate}` is on the team"
        _write("ask", "chat", [p.id], question=question)
        if s.teammates == "model":
            return await _model_reply(sc, p, question, s.condition)
        return reply(sc, p, s.condition, question)
    return execute


async def _model_reply(sc: Scenario, p: Member, question: str, condition: str) -> str:
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model

    notes = reply(sc, p, condition)
    prompt = (f"You are {p.name}, {p.role}, on the team of this brief:\n\n"
              f"{sc.environment.brief}\n\nYour own notes:\n{notes}\n\n"
              "A colleague asks you something for their task. Answer briefly, as you would at work.")
    out = await get_model().generate([ChatMessageSystem(content=prompt),
                                      ChatMessageUser(content=question)])
    return f"{p.name}: {out.completion}"


@tool
def send_mail() -> Tool:
    async def execute(to: list[str], subject: str, body: str) -> str:
        """Send an email.

        Args:
            to: the recipients' names.
            subject: the subject line.
            body: the message.
        """
        sc, _ = current()
        who, unknown = _people(sc, to)
        if unknown:
            return f"not sent: nobody called {', '.join(unknown)}"
        _write("send_mail", "mail", who, subject=subject, body=body)
        return f"sent to {', '.join(who)}"
    return execute


@tool
def post_chat() -> Tool:
    async def execute(to: list[str], text: str) -> str:
        """Post a chat message.

        Args:
            to: the names of the people in the conversation.
            text: the message.
        """
        sc, _ = current()
        who, unknown = _people(sc, to)
        if unknown:
            return f"not posted: nobody called {', '.join(unknown)}"
        who = channel(who, sc.team())
        _write("post_chat", "chat", who, text=text)
        return f"posted to {', '.join(who)}"
    return execute


@tool
def create_event() -> Tool:
    async def execute(meeting: str, day: str, start: str, end: str, room: str,
                      description: str = "") -> str:
        """Book a meeting into a room and a time; the invitation goes to its attendees.

        Args:
            meeting: the meeting's id or title.
            day: the day, e.g. Tuesday.
            start: the start time, e.g. 10:00.
            end: the end time, e.g. 11:00.
            room: the room's name.
            description: the invitation's text.
        """
        sc, _ = current()
        t = sc.target(meeting)
        if t is None or not t.attendees:
            return f"no meeting `{meeting}`"
        d = DAYS.get(day.strip().lower())
        if d is None:
            return f"`{day}` is not a day"
        try:
            slot = f"{d} {_time(start)}-{_time(end)}"
        except ValueError as e:
            return str(e)
        rooms = {k.lower(): i for i, n in zip(t.rooms, t.room_names) for k in (i, n)}
        r = rooms.get(room.strip().lower())
        if r is None:
            return f"`{room}` is not one of the meeting's rooms: {', '.join(t.room_names)}"
        sample().decide(t.id, f"{slot} @ {r}")
        _write("create_event", "calendar", list(t.attendees), description=description)
        return f"booked {t.title} on {slot} in {r}"
    return execute


@tool
def assign_ticket() -> Tool:
    async def execute(ticket: str, owner: str, collaborator: str = "", note: str = "") -> str:
        """Assign a ticket to its owner, and to a collaborator for a ticket with two seats.

        Args:
            ticket: the ticket's id or title.
            owner: the owner's name.
            collaborator: the second person's name, if the ticket needs one.
            note: a note on the ticket, which the team can read.
        """
        sc, _ = current()
        t = sc.target(ticket)
        if t is None or sc.family != "jira_allocation":
            return f"no ticket `{ticket}`"
        who, unknown = _people(sc, [owner] + ([collaborator] if collaborator.strip() else []))
        if unknown:
            return f"nobody called {', '.join(unknown)}"
        sample().decide(t.id, " + ".join(who))
        team = sc.team()
        _write("assign_ticket", "tracker", team, note=note)
        return f"{t.title} assigned to {' + '.join(who)}"
    return execute


@tool
def record_decision() -> Tool:
    async def execute(decision: str, rationale: str = "") -> str:
        """Record the final decision in the team's system, which the whole team reads.

        Args:
            decision: the decision (for an incident or a review, the outcome as the brief words it).
            rationale: why, in a sentence or two.
        """
        sc, _ = current()
        team = sc.team()
        system = sc.environment.sources[-1]
        _write("record_decision", system, team, decision=decision, rationale=rationale)
        if sc.family in ("severity_classification", "policy_decision"):
            level = re.sub(r"[\s-]+", "_", decision.strip().strip(".`").lower())
            options = sc.environment.targets[0].options
            if level not in options:
                return f"`{decision}` is not one of: {', '.join(o.replace('_', ' ') for o in options)}"
            sample().decide("level", level)
        return "recorded"
    return execute


def tools_for(family: str) -> list[Tool]:
    """The family's tool set."""
    common = [list_sources(), read_source(), search(), ask(), send_mail(), post_chat()]
    own = {"meeting_allocation": [create_event()], "jira_allocation": [assign_ticket()]}
    return common + own.get(family, []) + [record_decision()]
