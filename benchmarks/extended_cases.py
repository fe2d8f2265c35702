"""The calls of the extended-mode benchmark: four per pydantic-written tool.

*typical* and *full* are valid (the fields a model usually sends; every field), *one* has
exactly one issue, *several* has issues of every kind at several depths (missing,
unexpected, type, bounds, patterns, enum refs, inside nested models and lists of models).
Each invalid call carries the exact message `docs/spec/extended.md` prescribes for it (E4 visit, E5
branch choice, E7 lines, grouped by kind as in `docs/spec/validation.md` §5), worked out by hand from
the checked-in declarations: ours must give exactly that before it is timed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parent / "extended_schemas"
KINDS = ("typical", "full", "one", "several")
VALID_KINDS = ("typical", "full")


@dataclass(frozen=True)
class ExtendedCase:
    tool: str
    kind: str  # one of KINDS
    args: dict[str, Any]
    message: str | None  # what extended mode must answer: None for a valid call

    @property
    def valid(self) -> bool:
        return self.kind in VALID_KINDS


def load_declarations() -> dict[str, dict[str, Any]]:
    """Tool name -> its `parameters` schema, from benchmarks/extended_schemas/."""
    tools: dict[str, dict[str, Any]] = {}
    for file in sorted(SCHEMAS.glob("*.json")):
        function = json.loads(file.read_text(encoding="utf-8"))["function"]
        tools[function["name"]] = function["parameters"]
    return tools


def _message(tool: str, *lines: str) -> str:
    header = "issue" if len(lines) == 1 else "issues"
    return "\n".join((f"{tool} failed due to the following {header}:", *lines))


def _invalid(path: str, expected: str) -> str:
    return f"The parameter `{path}` is invalid: expected {expected}"


def _type(path: str, expected: str, provided: str) -> str:
    return f"The parameter `{path}` type is expected as `{expected}` but provided as `{provided}`"


def _missing(path: str) -> str:
    return f"The required parameter `{path}` is missing"


def _unexpected(path: str) -> str:
    return f"An unexpected parameter `{path}` was provided"


_EMAIL = r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"
_SKU = r"^[A-Z]{3}-\d{4}$"

CASES: tuple[ExtendedCase, ...] = (
    # ---------- create_invoice ----------
    ExtendedCase(
        "create_invoice",
        "typical",
        {
            "customer": {"name": "Acme Widgets GmbH", "email": "billing@acme-widgets.example"},
            "lines": [{"sku": "WID-0042", "quantity": 12, "unit_price": 4.5}],
            "currency": "EUR",
        },
        None,
    ),
    ExtendedCase(
        "create_invoice",
        "full",
        {
            "customer": {
                "name": "Acme Widgets GmbH",
                "email": "billing@acme-widgets.example",
                "vat_id": "DE123456789",
            },
            "lines": [
                {"sku": "WID-0042", "quantity": 12, "unit_price": 4.5, "description": "Blue widget, large"},
                {"sku": "SRV-0007", "quantity": 3, "unit_price": 120.0, "description": None},
                {"sku": "SHP-0001", "quantity": 1, "unit_price": 0},
            ],
            "currency": "USD",
            "due_in_days": 30,
            "notes": "Deliver to the loading dock at the back of building C.",
        },
        None,
    ),
    ExtendedCase(
        "create_invoice",
        "one",
        {
            "customer": {"name": "Acme Widgets GmbH", "email": "billing@acme-widgets.example"},
            "lines": [{"sku": "WID-0042", "quantity": 0, "unit_price": 4.5}],
            "currency": "EUR",
        },
        _message("create_invoice", _invalid("lines[0].quantity", "a number greater than or equal to 1")),
    ),
    ExtendedCase(
        "create_invoice",
        "several",
        {
            "customer": {"name": "Acme Widgets GmbH", "phone": "+49 30 1234567"},
            "lines": [
                {"sku": "wid-42", "quantity": 12, "unit_price": 4.5},
                {"sku": "SRV-0007", "quantity": 3, "unit_price": "120.00"},
            ],
            "currency": "JPY",
            "due_in_days": 400,
            "priority": "high",
        },
        _message(
            "create_invoice",
            _missing("customer.email"),
            _unexpected("customer.phone"),
            _unexpected("priority"),
            _type("lines[1].unit_price", "number", "string"),
            _invalid("lines[0].sku", f"a string matching the pattern {_SKU}"),
            _invalid("currency", 'one of "EUR", "USD", "GBP"'),
            _invalid("due_in_days", "a number less than or equal to 365"),
        ),
    ),
    # ---------- search_flights ----------
    ExtendedCase(
        "search_flights",
        "typical",
        {"origin": "FRA", "destination": "JFK", "depart_date": "2026-03-14"},
        None,
    ),
    ExtendedCase(
        "search_flights",
        "full",
        {
            "origin": "FRA",
            "destination": "JFK",
            "depart_date": "2026-03-14",
            "passengers": 2,
            "cabin": "business",
            "max_price": 1200.0,
            "nonstop": True,
            "airlines": ["LH", "UA"],
        },
        None,
    ),
    ExtendedCase(
        "search_flights",
        "one",
        {"origin": "fra", "destination": "JFK", "depart_date": "2026-03-14"},
        _message("search_flights", _invalid("origin", "a string matching the pattern ^[A-Z]{3}$")),
    ),
    ExtendedCase(
        "search_flights",
        "several",
        {
            "origin": "FRA",
            "depart_date": "2026-03-14",
            "passengers": 0,
            "cabin": "coach",
            "max_price": 0,
            "nonstop": "yes",
            "airlines": ["LH", "UA", "AA", "DL", "AF", "KL"],
            "return_date": "2026-03-21",
        },
        _message(
            "search_flights",
            _missing("destination"),
            _unexpected("return_date"),
            _type("nonstop", "boolean", "string"),
            _invalid("passengers", "a number greater than or equal to 1"),
            _invalid("cabin", 'one of "economy", "premium_economy", "business", "first"'),
            _invalid("max_price", "a number greater than 0"),
            _invalid("airlines", "at most 5 items"),
        ),
    ),
    # ---------- update_ticket ----------
    ExtendedCase(
        "update_ticket",
        "typical",
        {"ticket_id": 4711, "status": "resolved", "comment": "Fixed by restarting the billing worker."},
        None,
    ),
    ExtendedCase(
        "update_ticket",
        "full",
        {
            "ticket_id": 4711,
            "status": "in_progress",
            "priority": "high",
            "assignee": {"user_id": 17, "team": "billing"},
            "tags": ["outage", "eu-west"],
            "comment": "Taken over from the night shift; waiting for the database team.",
        },
        None,
    ),
    ExtendedCase(
        "update_ticket",
        "one",
        {"ticket_id": 4711, "status": "done", "comment": "Fixed by restarting the billing worker."},
        _message("update_ticket", _invalid("status", 'one of "open", "in_progress", "resolved", "closed"')),
    ),
    ExtendedCase(
        "update_ticket",
        "several",
        {
            "ticket_id": "4711",
            "priority": 3,
            "assignee": {"team": "billing and customer success, EMEA region"},
            "tags": ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11"],
            "comment": "",
            "due": "tomorrow",
        },
        _message(
            "update_ticket",
            _missing("assignee.user_id"),
            _unexpected("due"),
            _type("ticket_id", "integer", "string"),
            _type("priority", "string | null", "number"),
            _invalid("assignee.team", "at most 40 characters"),
            _invalid("tags", "at most 10 items"),
            _invalid("comment", "at least 1 character"),
        ),
    ),
    # ---------- schedule_meeting ----------
    ExtendedCase(
        "schedule_meeting",
        "typical",
        {
            "title": "Quarterly planning",
            "start": "2026-04-02T10:00",
            "duration_minutes": 60,
            "attendees": [{"email": "ana@example.com"}, {"email": "li@example.com", "role": "optional"}],
        },
        None,
    ),
    ExtendedCase(
        "schedule_meeting",
        "full",
        {
            "title": "Quarterly planning",
            "start": "2026-04-02T10:00",
            "duration_minutes": 90,
            "attendees": [
                {"email": "ana@example.com", "name": "Ana Souza", "role": "required"},
                {"email": "li@example.com", "name": "Li Wei", "role": "optional"},
                {"email": "sam@example.com", "name": None},
            ],
            "location": {"room": "4.12 Everest", "building": "HQ North"},
            "recurrence": {"frequency": "weekly", "count": 6},
        },
        None,
    ),
    ExtendedCase(
        "schedule_meeting",
        "one",
        {
            "title": "Quarterly planning",
            "start": "2026-04-02T10:00",
            "duration_minutes": 50,
            "attendees": [{"email": "ana@example.com"}, {"email": "li@example.com", "role": "optional"}],
        },
        _message("schedule_meeting", _invalid("duration_minutes", "a multiple of 15")),
    ),
    ExtendedCase(
        "schedule_meeting",
        "several",
        {
            "title": "",
            "duration_minutes": 7,
            "attendees": [
                {"email": "ana at example.com"},
                {"email": "li@example.com", "role": "chair"},
                {"name": "Bo"},
            ],
            "location": {"room": "4.12 Everest", "floor": 4},
            "recurrence": {"frequency": "yearly", "count": 100},
        },
        _message(
            "schedule_meeting",
            _missing("start"),
            _missing("attendees[2].email"),
            _unexpected("location.floor"),
            _invalid("title", "at least 1 character"),
            _invalid("duration_minutes", "a number greater than or equal to 15"),
            _invalid("duration_minutes", "a multiple of 15"),
            _invalid("attendees[0].email", f"a string matching the pattern {_EMAIL}"),
            _invalid("attendees[1].role", 'one of "required", "optional"'),
            _invalid("recurrence.frequency", 'one of "daily", "weekly", "monthly"'),
            _invalid("recurrence.count", "a number less than or equal to 52"),
        ),
    ),
)
