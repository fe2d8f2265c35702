"""Hand-written validators for the extended benchmark's four pydantic-written tools: the floor.

What a careful programmer writes by hand for a hot path, for JSON-decoded arguments: one
exact-type test per value, required members fetched with `.get`, optional ones counted
against `len(args)`, bounds inline, the declared patterns compiled once with `re`. They
answer valid / invalid only, and are looser than the generated validators in ways a hand
writer takes for granted: an integer must be an `int` (no `1.0`), a non-finite float is
not looked for, and the patterns are Python's (`\\d`, `\\s` with Python's meanings). So on
valid calls they are a floor for pure Python, not a peer: they are timed on valid calls
only (benchmarks/extended.py), and must give every benchmark call its verdict first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
_SKU = re.compile(r"^[A-Z]{3}-\d{4}$")
_IATA = re.compile(r"^[A-Z]{3}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_START = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")
_CURRENCIES = frozenset({"EUR", "USD", "GBP"})
_CABINS = frozenset({"economy", "premium_economy", "business", "first"})
_STATUSES = frozenset({"open", "in_progress", "resolved", "closed"})
_PRIORITIES = frozenset({"low", "normal", "high", "urgent"})
_ROLES = frozenset({"required", "optional"})
_FREQUENCIES = frozenset({"daily", "weekly", "monthly"})


def _customer(c: Any) -> bool:
    if type(c) is not dict:
        return False
    name, email = c.get("name"), c.get("email")
    if not (type(name) is str and 1 <= len(name) <= 80):
        return False
    if not (type(email) is str and len(email) <= 254 and _EMAIL.match(email)):
        return False
    n = 2
    if "vat_id" in c:
        n += 1
        v = c["vat_id"]
        if v is not None and not (type(v) is str and len(v) <= 14):
            return False
    return len(c) == n


def _line(e: Any) -> bool:
    if type(e) is not dict:
        return False
    sku, q = e.get("sku"), e.get("quantity")
    price: Any = e.get("unit_price")
    if not (type(sku) is str and _SKU.match(sku)):
        return False
    if not (type(q) is int and 1 <= q <= 1000):
        return False
    if not (type(price) in (int, float) and price >= 0):
        return False
    n = 3
    if "description" in e:
        n += 1
        d = e["description"]
        if d is not None and not (type(d) is str and len(d) <= 200):
            return False
    return len(e) == n


def create_invoice(a: Any) -> bool:
    if type(a) is not dict or not _customer(a.get("customer")):
        return False
    lines = a.get("lines")
    if not (type(lines) is list and 1 <= len(lines) <= 50):
        return False
    for e in lines:
        if not _line(e):
            return False
    n = 2
    if "currency" in a:
        n += 1
        c = a["currency"]
        if not (type(c) is str and c in _CURRENCIES):
            return False
    if "due_in_days" in a:
        n += 1
        d = a["due_in_days"]
        if d is not None and not (type(d) is int and 0 <= d <= 365):
            return False
    if "notes" in a:
        n += 1
        t = a["notes"]
        if t is not None and not (type(t) is str and len(t) <= 500):
            return False
    return len(a) == n


def search_flights(a: Any) -> bool:
    if type(a) is not dict:
        return False
    o, d, day = a.get("origin"), a.get("destination"), a.get("depart_date")
    if not (type(o) is str and len(o) == 3 and _IATA.match(o)):
        return False
    if not (type(d) is str and len(d) == 3 and _IATA.match(d)):
        return False
    if not (type(day) is str and _DATE.match(day)):
        return False
    n = 3
    if "passengers" in a:
        n += 1
        p = a["passengers"]
        if not (type(p) is int and 1 <= p <= 9):
            return False
    if "cabin" in a:
        n += 1
        c = a["cabin"]
        if not (type(c) is str and c in _CABINS):
            return False
    if "max_price" in a:
        n += 1
        m = a["max_price"]
        if m is not None and not (type(m) in (int, float) and m > 0):
            return False
    if "nonstop" in a:
        n += 1
        if type(a["nonstop"]) is not bool:
            return False
    if "airlines" in a:
        n += 1
        w = a["airlines"]
        if w is not None:
            if not (type(w) is list and len(w) <= 5):
                return False
            for e in w:
                if type(e) is not str:
                    return False
    return len(a) == n


def update_ticket(a: Any) -> bool:
    if type(a) is not dict:
        return False
    t = a.get("ticket_id")
    if not (type(t) is int and t >= 1):
        return False
    n = 1
    if "status" in a:
        n += 1
        s = a["status"]
        if s is not None and not (type(s) is str and s in _STATUSES):
            return False
    if "priority" in a:
        n += 1
        p = a["priority"]
        if p is not None and not (type(p) is str and p in _PRIORITIES):
            return False
    if "assignee" in a:
        n += 1
        who = a["assignee"]
        if who is not None:
            if type(who) is not dict:
                return False
            u = who.get("user_id")
            if not (type(u) is int and u >= 1):
                return False
            k = 1
            if "team" in who:
                k += 1
                team = who["team"]
                if team is not None and not (type(team) is str and len(team) <= 40):
                    return False
            if len(who) != k:
                return False
    if "tags" in a:
        n += 1
        tags = a["tags"]
        if tags is not None:
            if not (type(tags) is list and len(tags) <= 10):
                return False
            for e in tags:
                if type(e) is not str:
                    return False
    if "comment" in a:
        n += 1
        c = a["comment"]
        if c is not None and not (type(c) is str and 1 <= len(c) <= 2000):
            return False
    return len(a) == n


def _attendee(e: Any) -> bool:
    if type(e) is not dict:
        return False
    email = e.get("email")
    if not (type(email) is str and _EMAIL.match(email)):
        return False
    n = 1
    if "name" in e:
        n += 1
        name = e["name"]
        if name is not None and type(name) is not str:
            return False
    if "role" in e:
        n += 1
        r = e["role"]
        if not (type(r) is str and r in _ROLES):
            return False
    return len(e) == n


def schedule_meeting(a: Any) -> bool:
    if type(a) is not dict:
        return False
    title, start, minutes = a.get("title"), a.get("start"), a.get("duration_minutes")
    if not (type(title) is str and 1 <= len(title) <= 120):
        return False
    if not (type(start) is str and _START.match(start)):
        return False
    if not (type(minutes) is int and 15 <= minutes <= 480 and minutes % 15 == 0):
        return False
    people = a.get("attendees")
    if not (type(people) is list and 1 <= len(people) <= 20):
        return False
    for e in people:
        if not _attendee(e):
            return False
    n = 4
    if "location" in a:
        n += 1
        loc = a["location"]
        if loc is not None:
            if type(loc) is not dict:
                return False
            room = loc.get("room")
            if not (type(room) is str and 1 <= len(room) <= 60):
                return False
            k = 1
            if "building" in loc:
                k += 1
                b = loc["building"]
                if b is not None and type(b) is not str:
                    return False
            if len(loc) != k:
                return False
    if "recurrence" in a:
        n += 1
        rec = a["recurrence"]
        if rec is not None:
            if type(rec) is not dict or len(rec) != 2:
                return False
            f, count = rec.get("frequency"), rec.get("count")
            if not (type(f) is str and f in _FREQUENCIES):
                return False
            if not (type(count) is int and 1 <= count <= 52):
                return False
    return len(a) == n


VALIDATORS: dict[str, Callable[[Any], bool]] = {
    "create_invoice": create_invoice,
    "search_flights": search_flights,
    "update_ticket": update_ticket,
    "schedule_meeting": schedule_meeting,
}
