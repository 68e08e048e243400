"""HABApp, unchanged from PyPI, against `rental-twin serve --clock manual` (Scenarios/07-device-offline-mid-stay.json).

Usage: habapp_check.py http://127.0.0.1:PORT TOKEN [HABAPP_EXECUTABLE]

HABApp connects with the admin token (openHAB's `oh.` format), waits for start level and uptime
(/rest/systeminfo), loads Items, Things, links and transformations, and opens openHAB's `/ws`
WebSocket. A HABApp rule written here hears the heating setpoint change (ItemStateChangedEvent over
/ws) and commands the heating switch OFF (ItemCommandEvent over /ws); the twin applies it.
Prints each thing it checked; exits non-zero on the first failure.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

base = sys.argv[1].rstrip("/")
token = sys.argv[2]
habapp = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(sys.executable), "habapp")


def call(method, path, body=None, auth=True):
    headers = {"Content-Type": "text/plain"}
    if auth:
        headers["X-OPENHAB-TOKEN"] = token
    request = urllib.request.Request(base + path, data=None if body is None else body.encode(), method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


def check(condition, what):
    if not condition:
        print(f"habapp: FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"habapp: ok: {what}")


RULE = '''
import HABApp
from HABApp.openhab.items import NumberItem, SwitchItem
from HABApp.openhab.events import ItemStateChangedEventFilter


class SetpointWatcher(HABApp.Rule):
    """Turns the heating off when the setpoint is set to 24 degrees."""

    def __init__(self):
        super().__init__()
        self.setpoint = NumberItem.get_item("kiez_heating_setpoint")
        self.switch = SwitchItem.get_item("kiez_heating_switch")
        self.setpoint.listen_event(self.changed, ItemStateChangedEventFilter())
        print("RULE-LOADED", flush=True)

    def changed(self, event):
        print(f"RULE-HEARD {event.name} {event.value}", flush=True)
        if event.value == 24:
            self.switch.oh_send_command("OFF")
            print("RULE-COMMANDED OFF", flush=True)


SetpointWatcher()
'''

with tempfile.TemporaryDirectory(prefix="habapp-") as folder:
    for sub in ("rules", "log", "params", "config", "lib"):
        os.makedirs(os.path.join(folder, sub))
    with open(os.path.join(folder, "rules", "setpoint.py"), "w") as f:
        f.write(RULE)
    config = f"""directories:
  logging: {folder}/log
  rules: {folder}/rules
  params: {folder}/params
  config: {folder}/config
  lib: {folder}/lib
mqtt:
  connection:
    host: ''
openhab:
  connection:
    url: {base}
    user: '{token}'
    password: ''
  ping:
    enabled: false
"""
    with open(os.path.join(folder, "config.yml"), "w") as f:
        f.write(config)

    # HABApp waits while openHAB's uptime is under 60 s; the twin reports itself settled (60 s at the
    # scenario's start), so HABApp starts at once on the manual clock, without moving it.
    info = json.loads(call("GET", "/rest/systeminfo"))["systemInfo"]
    check(info["startLevel"] == 100 and info["uptime"] >= 60, f"/rest/systeminfo says start level {info['startLevel']}, uptime {info['uptime']} s")

    log_path = os.path.join(folder, "habapp.out")
    with open(log_path, "w") as log:
        process = subprocess.Popen([habapp, "--config", folder], stdout=log, stderr=subprocess.STDOUT)
    try:
        def wait_for(marker, seconds, what):
            deadline = time.time() + seconds
            while time.time() < deadline:
                if process.poll() is not None:
                    break
                with open(log_path) as f:
                    text = f.read()
                if marker in text:
                    print(f"habapp: ok: {what}")
                    return text
                time.sleep(0.2)
            with open(log_path) as f:
                print(f.read()[-4000:], file=sys.stderr)
            check(False, what)

        wait_for("RULE-LOADED", 120, "HABApp connects, loads the Items and runs the rule file")
        time.sleep(1)  # let the WebSocket subscription settle
        hablog = os.path.join(folder, "log", "HABApp.log")
        text = open(hablog).read() if os.path.exists(hablog) else ""
        check("Connected" in text and "version" in text, "HABApp logs its connection to the twin's openHAB")
        problems = [line for line in text.splitlines() if "WARNING" in line or "ERROR" in line]
        for line in problems:
            print(f"habapp:   HABApp.log: {line}")
        check(not any("unit" in line.lower() for line in problems), "HABApp does not warn about Items without unit metadata")
        check(not any("ERROR" in line for line in problems), "HABApp logs no error while starting against the twin")
        # Earlier checks may have switched the heating off: switch it on over REST first.
        call("POST", "/rest/items/kiez_heating_switch", "ON")
        call("POST", "/twin/advance", "PT1M", auth=False)
        check(call("GET", "/rest/items/kiez_heating_switch/state") == "ON", "the heating switch is ON before the rule acts")
        call("POST", "/rest/items/kiez_heating_setpoint", "24")
        call("POST", "/twin/advance", "PT1M", auth=False)
        wait_for("RULE-HEARD kiez_heating_setpoint 24", 60, "the rule hears the setpoint change over /ws")
        wait_for("RULE-COMMANDED OFF", 30, "the rule sends its command")
        state = "ON"
        for _ in range(100):
            call("POST", "/twin/advance", "PT1M", auth=False)
            state = call("GET", "/rest/items/kiez_heating_switch/state")
            if state == "OFF":
                break
            time.sleep(0.2)
        check(state == "OFF", "the twin applied HABApp's command over /ws: the heating switch is OFF")
        text = open(hablog).read()
        check("ERROR" not in text, "HABApp logged no error during the exchange")
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
