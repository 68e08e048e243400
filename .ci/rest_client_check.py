"""python-openhab-rest-client, unchanged from PyPI, against `rental-twin serve --clock manual`
(Scenarios/07-device-offline-mid-stay.json). It lives in a venv of its own: it installs into the same
`openhab` package as python-openhab and would replace that package's `__init__`.

Usage: rest_client_check.py http://127.0.0.1:PORT TOKEN
Prints each call it checked; exits non-zero on the first mismatch.
"""
import sys
import urllib.request

from openhab import Items, Persistence, Sitemaps, Systeminfo, Tags, Transformations, UUID
from openhab.Client import OpenHABClient

base = sys.argv[1].rstrip("/")
token = sys.argv[2]


def check(condition, what):
    if not condition:
        print(f"rest-client: FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"rest-client: ok: {what}")


client = OpenHABClient(base, token=token)
check(client.isLoggedIn, "OpenHABClient logs in with the admin token (GET /rest)")

info = Systeminfo(client).getSystemInfo()
check(isinstance(info, dict) and info.get("systemInfo", {}).get("startLevel") == 100, f"getSystemInfo: start level {info.get('systemInfo', {}).get('startLevel')}")
uom = Systeminfo(client).getUoMInfo()
dimensions = {d["dimension"]: d["systemUnit"] for d in uom.get("uomInfo", {}).get("dimensions", [])}
check(dimensions.get("Temperature") == "°C", f"getUoMInfo: {len(dimensions)} dimensions, Temperature in {dimensions.get('Temperature')}")
uuid = UUID(client).getUUID()
check(isinstance(uuid, str) and len(uuid) == 36, f"getUUID: {uuid}")
tags = Tags(client).getTags()
check(isinstance(tags, list) and {"Location", "Equipment", "Point", "Property"} <= {t["uid"] for t in tags}, f"getTags: {len(tags)} tags")
check(Transformations(client).getTransformations() == [], "getTransformations: none")
services = Persistence(client).getServices()
check([s.get("id") for s in services] == ["twin"], f"getServices (persistence): {[s.get('id') for s in services]}")
history = Persistence(client).getItemPersistenceData("kiez_heating_setpoint", "twin")
check(isinstance(history, dict) and history.get("name") == "kiez_heating_setpoint" and isinstance(history.get("data"), list),
      f"getItemPersistenceData: {history.get('name') if isinstance(history, dict) else history}, {history.get('datapoints') if isinstance(history, dict) else ''} points")
check(Sitemaps(client).getSitemaps() == [], "getSitemaps: none")

items = Items(client)
state = items.getItemState("kiez_heating_setpoint")
check(isinstance(state, str) and state.endswith(" °C"), f"getItemState reads {state!r} (text/plain; charset=UTF-8)")
namespaces = items.getMetadataNamespaces("kiez_heating_setpoint")
check(namespaces == ["unit"], f"getMetadataNamespaces: {namespaces}")
item = items.getItem("kiez_heating_setpoint")
check(item.get("metadata", {}).get("unit", {}).get("value") == "°C", "getItem with metadata: unit °C")
items.sendCommand("kiez_heating_setpoint", "21.5")
urllib.request.urlopen(urllib.request.Request(base + "/twin/advance", data=b"PT1M", method="POST"), timeout=30).read()
check(items.getItemState("kiez_heating_setpoint") == "21.5 °C", "sendCommand 21.5, then the state reads 21.5 °C")
