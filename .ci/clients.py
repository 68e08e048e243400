"""Real clients against `rental-twin serve --clock manual`: python-openhab and pyowm (through the proxy form).

Usage: clients.py http://127.0.0.1:PORT   (the server must serve Scenarios/07-device-offline-mid-stay.json)
Exits non-zero on the first mismatch.
"""
import json
import sys
import urllib.request

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
