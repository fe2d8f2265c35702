"""A scripted model API on 127.0.0.1 for the SDK tests: standard library only, bounded.

Each POST is recorded (path and JSON body) and answered by the next step of a script, a
function of the request body that returns the JSON reply. Past the script's end the server
answers 500 (the clients are built with `max_retries=0`, so a loop cannot run away); every
connection has a socket timeout and the server thread is joined with a deadline. Helpers for
the documented response shapes of each API are here too. No tests here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

Step = Callable[[dict[str, Any]], dict[str, Any]]
TIMEOUT = 10.0  # seconds, for every socket and for the server thread to stop


@dataclass(frozen=True)
class Recorded:
    path: str
    body: dict[str, Any]


@dataclass
class ScriptedAPI:
    """`with ScriptedAPI([step, ...]) as api:` serves `api.url` until the block ends."""

    steps: list[Step]
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        api = self

        class Handler(BaseHTTPRequestHandler):
            timeout = TIMEOUT

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                with api._lock:
                    api.requests.append(Recorded(self.path, body))
                    index = len(api.requests) - 1
                if index < len(api.steps):
                    status, reply = 200, api.steps[index](body)
                else:
                    status, reply = 500, {"error": {"message": f"script of {len(api.steps)} steps exhausted"}}
                data = json.dumps(reply).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05})

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> ScriptedAPI:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(TIMEOUT)

    def bodies(self, path: str) -> list[dict[str, Any]]:
        assert {r.path for r in self.requests} == {path}, [r.path for r in self.requests]
        return [r.body for r in self.requests]


# Documented response shapes (platform.openai.com / docs.anthropic.com API references).


def chat_completion(message: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion",
        "created": 1741570283,
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99},
        "system_fingerprint": "fp_fc9f1d7035",
    }


def chat_tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    message = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        ],
    }
    return chat_completion(message, "tool_calls")


def chat_text(text: str) -> dict[str, Any]:
    return chat_completion({"role": "assistant", "content": text, "refusal": None}, "stop")


def response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "resp_67ccd3a9da748190baa7f1570fe91ac604becb25c45c1d41",
        "object": "response",
        "created_at": 1741476777,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": "gpt-4o-2024-08-06",
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": 328,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": 52,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 380,
        },
        "user": None,
        "metadata": {},
    }


def function_call_item(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_67ca09c6bedc8190a7abfec07b1a1332096610f474011cc0",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }


def output_text(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_67ccd3acc8d48190a77525dc6de64b4104becb25c45c1d41",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def anthropic_message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 91},
    }


def tool_use(block_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": block_id, "name": name, "input": arguments}
