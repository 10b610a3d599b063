"""A fake OpenAI-compatible chat server for scripts/wasm-parity.sh: real HTTP on 127.0.0.1,
OpenAI's streamed wire format (server-sent events, `usage` in a last chunk, `data: [DONE]`).

Every POST body is appended, as received, to the log file (one per line, in arrival order), so
two senders' requests can be compared byte for byte. The answer is made from the request, the
same for the same request: a summary request (a `<note path=...>` user message) gets a short
structured summary quoting the note's first words, and, for about half of the notes (by a hash
of the path), a bullet with a person and an amount the note does not hold, which the fact
check finds and asks again about; the corrective request (a `<summary>` and `<facts>` user
message) gets the summary back without that bullet. A note whose path contains `refuse-me`
gets HTTP 429 with an OpenAI error body. An image request (content parts with an `image_url`)
gets a one-line description; `POST .../audio/transcriptions` (multipart) gets `{"text": ...}`
(with two speakers' segments when the form asks `diarize`)
and is logged as `POST <path> form sha256=<hash> bytes=<n>` (the form with its boundary made
canonical: its body is not text). Any other path is 404.

    python3 tests/fake/openai_chat.py LOG_FILE PORT_FILE
prints nothing; writes the port it listens on to PORT_FILE once it listens.
"""

import hashlib
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

INVENTED = "- Dana Whitfield approved a budget of 9,731 euros for this."


def summary_of(user: str) -> str:
    path = re.search(r'<note path="([^"]*)">', user)
    path = path.group(1) if path else "?"
    body = user.split(">", 1)[1] if ">" in user else user
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", body)[:12]
    quoted = " ".join(words) if words else "nothing in words"
    lines = [
        "### Key points",
        f"- The note opens with: {quoted}.",
        "- It is kept in the vault as a Markdown note.",
    ]
    if int(hashlib.sha256(path.encode()).hexdigest(), 16) % 2 == 0:
        lines.append(INVENTED)
    return "\n".join(lines)


def correction_of(user: str) -> str:
    inner = user.split("<summary>\n", 1)[1].split("\n</summary>", 1)[0]
    kept = [line for line in inner.split("\n") if line != INVENTED]
    return "<summary>\n" + "\n".join(kept) + "\n</summary>"


def chunk(payload: dict) -> bytes:
    return f"data: {json.dumps(payload)}\n\n".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):  # noqa: N802 (no model listing: the window is unknown)
        self.send_error(404)

    def do_POST(self):  # noqa: N802
        length = int(self.headers.get("content-length", "0"))
        raw = self.rfile.read(length)
        if self.path.endswith("/audio/transcriptions"):
            # The form with its random boundary made canonical, as a hash: two senders'
            # forms compare byte for byte without binary bytes in the log.
            boundary = re.search(r"boundary=([^;\s]+)", self.headers.get("content-type", ""))
            form = raw.replace(boundary.group(1).encode(), b"BOUNDARY") if boundary else raw
            with open(self.server.log_path, "ab") as log:
                log.write(f"POST {self.path} form sha256={hashlib.sha256(form).hexdigest()} bytes={len(form)}\n".encode())
            answer = {"text": "We agreed to ship the release on Friday."}
            if b'name="diarize"' in raw:
                # Fireworks' verbose_json with speakers: rendered as turns by both senders.
                answer["segments"] = [
                    {"start": 0.0, "end": 2.5, "text": "We agreed to ship", "speaker_id": "SPEAKER_01"},
                    {"start": 2.5, "end": 4.0, "text": "the release on Friday.", "speaker_id": "SPEAKER_00"},
                ]
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if not self.path.endswith("/chat/completions"):
            self.send_error(404)
            return
        with open(self.server.log_path, "ab") as log:
            log.write(raw + b"\n")
        request = json.loads(raw)
        user = request["messages"][-1]["content"]
        if isinstance(user, list):
            user = "image: a photo of a whiteboard with three boxes and arrows."
        if "refuse-me" in user:
            body = json.dumps({"error": {"message": "rate limited, try later", "type": "rate_limit"}}).encode()
            self.send_response(429)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if user.startswith("image: "):
            answer = user[len("image: ") :]
        elif user.startswith("<summary>"):
            answer = correction_of(user)
        else:
            answer = summary_of(user)
        head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": request["model"]}
        pieces = [answer[i : i + 40] for i in range(0, len(answer), 40)]
        out = b": keep-alive\n\n"
        out += chunk({**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]})
        for piece in pieces:
            out += chunk({**head, "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
        out += chunk({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        out += chunk({**head, "choices": [], "usage": {"prompt_tokens": len(raw) // 4, "completion_tokens": len(answer) // 4, "total_tokens": (len(raw) + len(answer)) // 4}})
        out += b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def main():
    log_path, port_file = sys.argv[1], sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.log_path = log_path
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os

    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
