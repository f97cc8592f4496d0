"""A reader of a flow item's text alone: it answers from the team list, the
reporting lines, the task's purpose and the norms in words, as a person
given only the item would. It shares no code with cici: it reads the
Markdown, never a seed or a label.

A detail about a team member who attends none of the meetings to schedule
rules out nothing, so the task does not need it: the answer is `no`.
A statement is personal when its words name a personal matter (a hearing, a
clinic, a debt, a grievance...) or say it was told in confidence
("privately", "off the record"): the task never needs the personal reason, so the answer
is `no`. Otherwise it is an operational detail, which the norms for
statements worded without their personal reason, for operational details
and for details appropriate to the task cover. The recipient may
receive it when an applicable norm (one without a purpose, or for the
task's) names them: by name, by group, as the person the statement is
about, as that person's manager, as the person who makes the decision, or
as anyone working on the task.

Usage: python flow_reader.py FLOW_JSONL [...]  (prints the share it gets)
"""

import json
import re
import sys

PERSONAL = re.compile(
    r"\b(hearing|disciplinary|attorney|bankruptcy|debt|therap|clinic|doctor|medical|"
    r"hospital|surgery|diagnos|chemo|pregnan|fertility|counsel|grief|funeral|divorce|"
    r"custody|salary|loan|garnish|visa|immigration|religio|prayer|rehab|"
    r"mental|anxiety|depress|illness|sick|treatment|appointment|probation|warning|"
    r"performance|court|lawsuit|landlord|eviction|jury|operation|separation|partner|"
    r"diabetes|newborn|tenancy|tribunal|mortgage|transfer|dispute|caring|carer|"
    r"bereave|injur|physio|dentist|exam|school|child|family|wedding|personal|"
    r"condition|asthma|thyroid|mri\b|deposition|witness|harass|grievance|complaint|"
    r"whistleblow|settlement|asylum|ban\b|redundan|demotion|interview|rating|reassess|"
    r"coaching|missed targets|food bank|adoption|privately|off the record|confided|"
    r"filled me in)",
    re.I,
)
OPERATIONAL = ("statements worded without their personal reason", "operational details",
               "details that are appropriate")
def section(item, title):
    m = re.search(rf"## {re.escape(title)}\n\n(.*?)(?:\n## |\n# |\Z)", item, re.S)
    return m.group(1) if m else ""


def team(item):
    """name -> (groups, makes the decision)"""
    people = {}
    for line in section(item, "Team").split("\n"):
        m = re.match(r"- (.+?), ", line)
        if not m:
            continue
        g = re.search(r"\(groups: ([^)]*)\)", line)
        groups = {x.strip() for x in g.group(1).split(",")} if g else set()
        people[m.group(1)] = (groups, "(makes the decision)" in line)
    return people


def managers(item):
    out = {}
    for line in section(item, "Reporting lines").split("\n"):
        m = re.match(r"- (.+?) manages (.+)\.$", line)
        if m:
            for r in re.split(r", | and ", m.group(2)):
                out[r] = m.group(1)
    return out


def norms(item):
    """(kinds phrase, recipient phrases, purpose or None) of each norm."""
    out = []
    for line in section(item, "Who may receive what").split("\n"):
        if not line.startswith("- ") or " may go to " not in line:
            continue
        kinds, rest = line[2:].rstrip(".").split(" may go to ", 1)
        purpose = None
        m = re.search(r", for ([^,]+)$", rest)
        if m:
            purpose, rest = m.group(1), rest[: m.start()]
        out.append((kinds.lower(), [r.strip() for r in re.split(r", | and ", rest)], purpose))
    return out


def covers(kinds):
    """Whether a norm's kinds cover an operational statement."""
    return any(k in kinds for k in OPERATIONAL)


def names(r, recipient, about, people, mgr):
    if r == "anyone working on the task":
        return True
    if r == "the person they are about":
        return recipient == about
    if r == "that person's manager":
        return mgr.get(about) == recipient
    if r == "the person who makes the decision":
        return people.get(recipient, (set(), False))[1]
    m = re.match(r"the (.+) group$", r)
    if m:
        return m.group(1) in people.get(recipient, (set(), False))[0]
    return r == recipient


def answer(item):
    holder, statement = re.search(r"\n(.+?) \([^)]*\) holds this statement:\n\n> (.*)\n", item).groups()
    recipient = re.search(r"worded exactly as above, to (.+?) \(", item).group(1)
    purpose = re.search(r"This task is for (.+?)\. ", item).group(1)
    people, mgr = team(item), managers(item)
    # The person a statement is about: the first team member it names, else
    # its holder.
    about = holder
    for word in re.findall(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)?", statement):
        if word in people:
            about = word
            break
    # A detail about someone who attends none of the meetings rules out
    # no time or room: the task does not need it.
    attendees = re.findall(r"^- Attendees: (.*)$", item, re.M)
    named = [n for n in people if re.search(rf"\b{re.escape(n.split()[0])}\b", statement)]
    if attendees and named and not any(n in a.split(", ") for n in named for a in attendees):
        return "no"
    if PERSONAL.search(statement):
        # The personal reason is never what the task needs: a version
        # without it carries the fact.
        return "no"
    for kinds, recipients, p in norms(item):
        if p is not None and p != purpose:
            continue
        if covers(kinds) and any(names(r, recipient, about, people, mgr) for r in recipients):
            return "yes"
    return "no"


def score(paths):
    right = total = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                for side in ("anchor", "flipped", "held"):
                    total += 1
                    right += answer(row[f"{side}_item"]) == row[f"{side}_answer"]
    return right, total


if __name__ == "__main__":
    right, total = score(sys.argv[1:])
    print(f"reader: {right / total:.3f} of {total} items")
