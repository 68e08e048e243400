"""Load on `rental-twin serve`: N keep-alive clients (threads), each sending M requests one after another.

Not a test: it prints figures. Every request goes through the simulation (`kernel.submit`).
Usage:
  swift build -c release
  .build/release/rental-twin serve Scenarios/07-device-offline-mid-stay.json --clock manual --port 8080 &
  python3 .ci/serve_load.py http://127.0.0.1:8080 [clients=50] [requests=1000]
Exits 1 if any request is lost or answered with another status than 200.
"""
import http.client
import sys
import threading
import time
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
clients = int(sys.argv[2]) if len(sys.argv) > 2 else 50
per_client = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
paths = ["/rest/items/kiez_heating_setpoint", "/rest/items/kiez_heating_temperature/state",
         "/data/2.5/weather?q=Berlin&appid=rental-twin-key", "/twin/clock",
         "/api/listings?city=Berlin", "/api/listings/kiez/devices/heating"]
latencies, failures, lock = [], [], threading.Lock()


def client(index):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    mine, bad = [], 0
    for i in range(per_client):
        started = time.perf_counter()
        try:
            connection.request("GET", paths[(index + i) % len(paths)])
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                bad += 1
        except Exception:  # a lost request
            bad += 1
            connection.close()
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        mine.append(time.perf_counter() - started)
    with lock:
        latencies.extend(mine)
        failures.append(bad)


threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
start = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.perf_counter() - start
latencies.sort()
total = clients * per_client
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print(f"{clients} clients x {per_client} requests = {total} in {elapsed:.2f} s: {total / elapsed:.0f} requests/s; "
      f"latency p50 {p(0.50):.2f} ms, p99 {p(0.99):.2f} ms, max {latencies[-1] * 1000:.2f} ms; failed {sum(failures)}")
sys.exit(1 if sum(failures) else 0)
