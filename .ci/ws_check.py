"""The `websockets` library (PyPI, unchanged) against `rental-twin serve`'s `/ws`: conformance-style checks.

Usage: ws_check.py http://127.0.0.1:PORT TOKEN
Masked and fragmented frames, ping/pong, the close handshake, and the server's close codes for an
oversize message (1009) and a binary message (1003). Prints each check; exits non-zero on the first failure.
"""
import asyncio
import json
import sys

import websockets

base = sys.argv[1].rstrip("/")
token = sys.argv[2]
assert base.startswith("http://127.0.0.1:"), "loopback only"
url = "ws" + base[4:] + "/ws?accessToken=" + token


def check(condition, what):
    if not condition:
        print(f"websockets: FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"websockets: ok: {what}")


def heartbeat(event_id):
    return json.dumps({"type": "WebSocketEvent", "topic": "openhab/websocket/heartbeat", "payload": "PING", "eventId": event_id})


async def main():
    async with websockets.connect(url, ping_interval=None) as ws:
        check(ws.response.status_code == 101, "the handshake answers 101 (the library checked Sec-WebSocket-Accept)")
        await ws.send(heartbeat("a"))  # a client's frames are always masked
        reply = json.loads(await ws.recv())
        check(reply["payload"] == "PONG" and reply["eventId"] == "a", "a masked text frame: PING answered PONG")
        text = heartbeat("b")
        await ws.send([text[:10], text[10:25], text[25:]])  # three frames: text, continuation, continuation
        reply = json.loads(await ws.recv())
        check(reply["payload"] == "PONG" and reply["eventId"] == "b", "a message in three fragments is reassembled")
        pong = await ws.ping(b"twin")
        await asyncio.wait_for(pong, 10)
        check(True, "a ping frame is answered by a pong with its payload")
        await ws.close(code=1000, reason="done")
        check(ws.close_code == 1000, f"the close handshake completes: the server echoed code {ws.close_code}")

    for what, message, code in [("an oversize message", "x" * 70_000, 1009), ("a binary message", b"\x01\x02", 1003)]:
        async with websockets.connect(url, ping_interval=None, max_size=None) as ws:
            await ws.send(message)
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except websockets.ConnectionClosed as closed:
                received = closed.rcvd.code if closed.rcvd else None
                check(received == code, f"{what} is closed by the server with {received}")
            else:
                check(False, f"{what} was not refused")


asyncio.run(main())
