"""Tool declarations as pydantic writes them: the benchmark set of extended mode.

Four ordinary tool-argument models, written the way an agent developer writes them for
pydantic or openai-agents: `Optional[X] = None` fields (pydantic: `anyOf [X, {"type":
"null"}]` with a `default`), enum classes (a `$ref` into `$defs`, also inside `Optional`),
nested models and lists of models (`$ref`), bounds from `Field(ge=, le=, gt=, multiple_of=,
min_length=, max_length=)` and a few `pattern`s. Undeclared keys are forbidden
(`extra="forbid"`, so every model says `"additionalProperties": false`) and validation is
strict (`strict=True`: no "3" for an int), which is also how the pydantic peer runs them.

One exception, which pydantic forces on anyone validating JSON-decoded arguments in
strict mode: a strict enum field accepts only enum *instances* from Python input, never
the string a model sends, so enum fields are annotated `Strict(False)`. That accepts
exactly the enum's values (and changes nothing in the JSON Schema).

`python -m benchmarks.pydantic_tools` rewrites `benchmarks/extended_schemas/*.json` (one
OpenAI function declaration per tool, `model_json_schema()` as its `parameters`); the
benchmark refuses to run when the checked-in files differ from what the models give.
Needs the `bench` extra (pydantic).
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict

SCHEMAS = Path(__file__).resolve().parent / "extended_schemas"
Lax = Strict(False)  # see the module docstring: enum fields only


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ---------- create_invoice: nested model, list of models, enum ref, bounds, patterns ----------


class Currency(str, Enum):
    EUR = "EUR"
    USD = "USD"
    GBP = "GBP"


class Customer(_Args):
    name: str = Field(min_length=1, max_length=80, description="Legal name of the customer")
    email: str = Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    vat_id: str | None = Field(default=None, max_length=14, description="EU VAT number, if any")


class InvoiceLine(_Args):
    sku: str = Field(pattern=r"^[A-Z]{3}-\d{4}$", description="Stock-keeping unit, e.g. ABC-0042")
    quantity: int = Field(ge=1, le=1000)
    unit_price: float = Field(ge=0, description="Price of one unit, in the invoice currency")
    description: str | None = Field(default=None, max_length=200)


class CreateInvoice(_Args):
    """Create a draft invoice for a customer."""

    customer: Customer
    lines: list[InvoiceLine] = Field(min_length=1, max_length=50)
    currency: Annotated[Currency, Lax] = Currency.EUR
    due_in_days: int | None = Field(default=None, ge=0, le=365)
    notes: str | None = Field(default=None, max_length=500)


# ---------- search_flights: string bounds, patterns, nullable numbers and lists ----------


class Cabin(str, Enum):
    ECONOMY = "economy"
    PREMIUM = "premium_economy"
    BUSINESS = "business"
    FIRST = "first"


class SearchFlights(_Args):
    """Search one-way flights between two airports."""

    origin: str = Field(min_length=3, max_length=3, pattern=r"^[A-Z]{3}$", description="IATA code")
    destination: str = Field(min_length=3, max_length=3, pattern=r"^[A-Z]{3}$", description="IATA code")
    depart_date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD")
    passengers: int = Field(default=1, ge=1, le=9)
    cabin: Annotated[Cabin, Lax] = Cabin.ECONOMY
    max_price: float | None = Field(default=None, gt=0)
    nonstop: bool = False
    airlines: list[str] | None = Field(default=None, max_length=5)


# ---------- update_ticket: Optional enum refs, an optional nested model ----------


class Status(str, Enum):
    OPEN = "open"
    IN_PROGRESS = "in_progress"
    RESOLVED = "resolved"
    CLOSED = "closed"


class Priority(str, Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Assignee(_Args):
    user_id: int = Field(ge=1)
    team: str | None = Field(default=None, max_length=40)


class UpdateTicket(_Args):
    """Change the fields of a support ticket; fields left out stay as they are."""

    ticket_id: int = Field(ge=1)
    status: Annotated[Status, Lax] | None = None
    priority: Annotated[Priority, Lax] | None = None
    assignee: Assignee | None = None
    tags: list[str] | None = Field(default=None, max_length=10)
    comment: str | None = Field(default=None, min_length=1, max_length=2000)


# ---------- schedule_meeting: list of models with enum refs, multipleOf, nested optionals ----------


class Role(str, Enum):
    REQUIRED = "required"
    OPTIONAL = "optional"


class Frequency(str, Enum):
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class Attendee(_Args):
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    name: str | None = None
    role: Annotated[Role, Lax] = Role.REQUIRED


class Location(_Args):
    room: str = Field(min_length=1, max_length=60)
    building: str | None = None


class Recurrence(_Args):
    frequency: Annotated[Frequency, Lax]
    count: int = Field(ge=1, le=52, description="How many occurrences in all")


class ScheduleMeeting(_Args):
    """Put a meeting in the calendars of its attendees."""

    title: str = Field(min_length=1, max_length=120)
    start: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$", description="Local time, YYYY-MM-DDTHH:MM")
    duration_minutes: int = Field(ge=15, le=480, multiple_of=15)
    attendees: list[Attendee] = Field(min_length=1, max_length=20)
    location: Location | None = None
    recurrence: Recurrence | None = None


# Tool name -> its argument model, in file order.
MODELS: dict[str, type[BaseModel]] = {
    "create_invoice": CreateInvoice,
    "search_flights": SearchFlights,
    "update_ticket": UpdateTicket,
    "schedule_meeting": ScheduleMeeting,
}


def declaration(tool: str) -> dict[str, Any]:
    """The OpenAI function declaration openai-agents / a pydantic user writes for the model."""
    model = MODELS[tool]
    return {
        "type": "function",
        "function": {
            "name": tool,
            "description": (model.__doc__ or "").strip(),
            "parameters": model.model_json_schema(),
        },
    }


def file_text(tool: str) -> str:
    return json.dumps(declaration(tool), indent=2, ensure_ascii=False) + "\n"


def stale() -> list[str]:
    """The declaration files that differ from what the models give now (or are missing)."""
    found = []
    for tool in MODELS:
        path = SCHEMAS / f"{tool}.json"
        if not path.is_file() or path.read_text(encoding="utf-8") != file_text(tool):
            found.append(path.name)
    expected = {f"{tool}.json" for tool in MODELS}
    found.extend(sorted(p.name for p in SCHEMAS.glob("*.json") if p.name not in expected))
    return found


def main() -> None:
    SCHEMAS.mkdir(exist_ok=True)
    for path in SCHEMAS.glob("*.json"):
        if path.stem not in MODELS:
            path.unlink()
    for tool in MODELS:
        (SCHEMAS / f"{tool}.json").write_text(file_text(tool), encoding="utf-8")
    print(f"{SCHEMAS}: {len(MODELS)} declarations written", file=sys.stderr)


if __name__ == "__main__":
    main()
