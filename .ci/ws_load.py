"""Load: N WebSocket clients on `/ws` receive every event of a simulated day at `--clock manual`.

Usage: ws_load.py http://127.0.0.1:PORT [CLIENTS=500] [STEP=PT1H]
Loopback only. Opens CLIENTS connections, advances the clock one day in STEP steps, and waits until
every client has the same number of events as the first; prints the figures. Bounded: gives up after 300 s.
"""
import asyncio
import json
import sys
import time
import urllib.request

import websockets

base = sys.argv[1].rstrip("/")
clients = int(sys.argv[2]) if len(sys.argv) > 2 else 500
step = sys.argv[3] if len(sys.argv) > 3 else "PT1H"
assert base.startswith("http://127.0.0.1:"), "loopback only"
ws_url = "ws" + base[4:] + "/ws"


def advance(duration):
    request = urllib.request.Request(base + "/twin/advance", data=duration.encode(), method="POST")
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


async def main():
    counts = [0] * clients
    closed = [None] * clients
    done = asyncio.Event()

    async def listen(index, ws):
        try:
            async for _ in ws:
                counts[index] += 1
        except websockets.ConnectionClosed as error:
            closed[index] = error.rcvd.code if error.rcvd else None
        closed[index] = closed[index] or "closed"

    started = time.monotonic()
    sockets = []
    for index in range(clients):
        sockets.append(await websockets.connect(ws_url, max_size=None, ping_interval=5, open_timeout=60))
    connected = time.monotonic()
    tasks = [asyncio.create_task(listen(i, ws)) for i, ws in enumerate(sockets)]
    steps = {"PT1H": 24, "PT6H": 4, "P1D": 1}[step]
    advance_started = time.monotonic()
    for _ in range(steps):
        await asyncio.to_thread(advance, step)
    advanced = time.monotonic()
    # Wait until every client has as many events as the most any client has, and that number stops growing.
    deadline = time.monotonic() + 300
    last = -1
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        top = max(counts)
        if top == last and all(c == top for c in counts):
            break
        last = top
    finished = time.monotonic()
    top = max(counts)
    complete = sum(1 for c in counts if c == top)
    print(f"ws-load: {clients} clients connected in {connected - started:.2f} s")
    print(f"ws-load: one simulated day advanced in {steps} x {step} in {advanced - advance_started:.2f} s")
    print(f"ws-load: {complete}/{clients} clients received all {top} events; min {min(counts)}; "
          f"{sum(counts)} messages delivered in {finished - advance_started:.2f} s "
          f"({sum(counts) / max(finished - advance_started, 1e-9):,.0f} messages/s)")
    print(f"ws-load: closed early: {sum(1 for c in closed if c is not None)}")
    for ws in sockets:
        await ws.close()
    for task in tasks:
        task.cancel()
    return complete == clients and top > 0


sys.exit(0 if asyncio.run(main()) else 1)
