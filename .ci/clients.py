"""Real clients against `rental-twin serve --clock manual`: python-openhab, pyowm (through the proxy form),
and openapi-spec-validator on the booking API's /openapi.json.

Usage: clients.py http://127.0.0.1:PORT   (the server must serve Scenarios/07-device-offline-mid-stay.json)
Exits non-zero on the first mismatch.
"""
import json
import sys
import urllib.request

from openapi_spec_validator import validate
from openhab import OpenHAB
from pyowm import OWM
from pyowm.utils.config import get_default_config_for_proxy

base = sys.argv[1].rstrip("/")


def twin(path, body=None):
    request = urllib.request.Request(base + path, data=None if body is None else body.encode(), method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def check(condition, what):
    if not condition:
        print(f"clients: FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"clients: ok: {what}")


# python-openhab: read Items, send commands, see the twin's states.
openhab = OpenHAB(base + "/rest", timeout=30)
items = openhab.fetch_all_items()
check("kiez_heating_setpoint" in items and "kiez_heating_switch" in items, f"python-openhab reads {len(items)} Items")
switch = openhab.get_item("kiez_heating_switch")
check(switch.state == "ON", f"the heating switch is {switch.state}")
switch.off()
twin("/twin/advance", "PT1M")
check(openhab.get_item("kiez_heating_switch").state == "OFF", "python-openhab switched the heating OFF and reads it back")
setpoint = openhab.get_item("kiez_heating_setpoint")
setpoint.command(23.5)
twin("/twin/advance", "PT1M")
state = openhab.get_item("kiez_heating_setpoint").state
value = state[0] if isinstance(state, tuple) else state
check(abs(float(value) - 23.5) < 1e-9, f"the setpoint reads {state} after a command of 23.5")

# pyowm through the proxy form: its requests go to http://api.openweathermap.org, the twin answers.
clock = twin("/twin/clock")
config = get_default_config_for_proxy(base, base)
config["connection"]["use_ssl"] = False  # a plain-HTTP proxy request the twin answers itself
weather = OWM("rental-twin-key", config).weather_manager()
observation = weather.weather_at_place("Berlin,DE")
check(observation.weather.reference_time() == clock["unixMillis"] // 1000,
      f"pyowm's current weather is at the twin's virtual time {clock['local']}")
check(abs(observation.weather.temperature("celsius")["temp"] - 2) < 1e-9, "pyowm reads the scenario's 2 °C in Berlin")
forecast = weather.forecast_at_place("Berlin,DE", "3h").forecast
times = [w.reference_time() for w in forecast.weathers]
check(len(times) == 40 and times[0] > clock["unixMillis"] // 1000 and times == sorted(times),
      "pyowm reads 40 forecast steps after the virtual time")
one_call = weather.one_call(lat=52.52, lon=13.405)  # standard units (K), which pyowm converts
check(one_call.current.reference_time() == clock["unixMillis"] // 1000 and abs(one_call.current.temperature("celsius")["temp"] - 2) < 1e-9,
      "pyowm's One Call 3.0 reads the current 2 °C at the twin's virtual time")
check(len(one_call.forecast_hourly) == 48 and len(one_call.forecast_daily) == 8 and one_call.timezone == "Europe/Berlin",
      "pyowm's One Call 3.0 reads 48 hours and 8 days in Europe/Berlin")

# The booking API's OpenAPI document, checked by a validator no one here wrote; then one booking through it.
with urllib.request.urlopen(base + "/openapi.json", timeout=30) as response:
    document = json.loads(response.read())
validate(document)  # raises on any violation of the OpenAPI 3.1 schema
check(document["openapi"] == "3.1.0" and len(document["paths"]) >= 20, f"openapi-spec-validator accepts /openapi.json ({len(document['paths'])} paths)")
listings = json.loads(urllib.request.urlopen(base + "/api/listings?city=Berlin", timeout=30).read())
check([listing["id"] for listing in listings] == ["kiez"], "the booking API lists the listing in Berlin")
