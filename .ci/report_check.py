#!/usr/bin/env python3
"""Opens report pages (index.html of `rental-twin run/suite --report`) in headless Chromium, as a person
would, and checks them: no console error or uncaught exception, no failed load, no broken link (every
`#id` exists, every relative file exists, nothing points at the network), the load within a time limit,
and what the DOM shows (the verdict, texts that must be visible on the first screen).

Drives Chromium over its DevTools protocol on a pipe (--remote-debugging-pipe): no port, no network,
standard library only.

    python3 .ci/report_check.py [--screenshot OUT.png] [--max-load-seconds S] 'PAGE|VERDICT|TEXT|TEXT…' …

VERDICT is the text of the page's #verdict element (PASS, FAIL, or a suite's "N passed, 0 failed"), or
`~` and a regular expression it must match;
each TEXT must appear inside the first screen (1200×900) of the page. --screenshot saves the first
page's first screen as PNG (the README's screenshot is made this way). Exit 0 when every page holds,
1 otherwise; one line per check.
"""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

WIDTH, HEIGHT = 1200, 900


class Browser:
    """Headless Chromium with the DevTools protocol on fds 3 (to it) and 4 (from it)."""

    def __init__(self):
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not binary:
            sys.exit("report_check: no chromium on PATH (Debian: apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="report-check-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def wire():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--remote-debugging-pipe", f"--user-data-dir={self.profile}", f"--window-size={WIDTH},{HEIGHT}", "about:blank"]
        self.process = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.next_id

    def read(self, timeout):
        """The next message, or None after `timeout` seconds."""
        import select
        deadline = time.monotonic() + timeout  # wall-clock: a test's own time limit
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()  # wall-clock: a test's own time limit
            if left <= 0:
                return None
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=30):
        wanted = self.send(method, params, session)
        deadline = time.monotonic() + timeout  # wall-clock: a test's own time limit
        while time.monotonic() < deadline:  # wall-clock: a test's own time limit
            message = self.read(deadline - time.monotonic())  # wall-clock: a test's own time limit
            if message is None:
                break
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)
        raise RuntimeError(f"{method}: no answer within {timeout} s")

    def wait_for(self, method, session, timeout):
        deadline = time.monotonic() + timeout  # wall-clock: a test's own time limit
        for index, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(index)
        while time.monotonic() < deadline:  # wall-clock: a test's own time limit
            message = self.read(deadline - time.monotonic())  # wall-clock: a test's own time limit
            if message is None:
                break
            if message.get("method") == method and message.get("sessionId") == session:
                return message
            self.events.append(message)
        return None

    def close(self):
        try:
            self.send("Browser.close")
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# Runs in the page: the verdict, the links, and where the wanted texts are.
INSPECT = r"""
(function(texts){
  var verdict = document.getElementById("verdict");
  var links = Array.prototype.map.call(document.querySelectorAll("a[href]"), function(a){ return a.getAttribute("href"); });
  var missingAnchors = links.filter(function(h){ return h.charAt(0) === "#" && h.length > 1 && !document.getElementById(decodeURIComponent(h.slice(1))); });
  var body = document.body.innerText;
  var firstScreen = texts.map(function(t){
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), node;
    while ((node = walker.nextNode())) {
      if (node.nodeValue.indexOf(t) >= 0) {
        var r = node.parentElement.getBoundingClientRect();
        return {text: t, found: true, top: r.top, visible: r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0};
      }
    }
    return {text: t, found: false, inBody: body.indexOf(t) >= 0};
  });
  return JSON.stringify({verdict: verdict ? verdict.textContent : null, links: links, missingAnchors: missingAnchors,
                         firstScreen: firstScreen, rows: document.querySelectorAll("tr").length,
                         scripts: Array.prototype.map.call(document.querySelectorAll("script[src],link[href],img[src]"), function(e){ return e.outerHTML.slice(0, 80); })});
})
"""


def check_page(browser, spec, screenshot, max_load):
    parts = spec.split("|")
    path, verdict, texts = parts[0], parts[1] if len(parts) > 1 else None, parts[2:]
    problems = []
    url = "file://" + os.path.abspath(path)
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(f"{domain}.enable", session=session)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
                 session=session)
    started = time.monotonic()  # wall-clock: how long the page takes to open (the issue's ≤ 2 s)
    browser.call("Page.navigate", {"url": url}, session=session)
    loaded = browser.wait_for("Page.loadEventFired", session, 60)
    seconds = time.monotonic() - started  # wall-clock: as above
    if loaded is None:
        problems.append("the page did not finish loading within 60 s")
    elif seconds > max_load:
        problems.append(f"the page took {seconds:.2f} s to load (limit {max_load} s)")
    result = browser.call("Runtime.evaluate", {"expression": INSPECT + "(" + json.dumps(texts) + ")", "returnByValue": True},
                          session=session)
    # Everything the page logged or threw while it loaded and ran.
    while True:
        message = browser.read(0.3)
        if message is None:
            break
        browser.events.append(message)
    for event in browser.events:
        if event.get("sessionId") != session:
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            problems.append("uncaught exception: " + params["exceptionDetails"].get("text", "") + " "
                            + str(params["exceptionDetails"].get("exception", {}).get("description", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
            problems.append("console " + params["type"] + ": " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
            problems.append("log " + params["entry"]["level"] + ": " + params["entry"].get("text", "") + " " + params["entry"].get("url", ""))
        elif method == "Network.loadingFailed":
            problems.append("load failed: " + params.get("errorText", ""))
        elif method == "Network.requestWillBeSent":
            request_url = params["request"]["url"]
            if not request_url.startswith(("file://", "about:", "data:")):
                problems.append("the page asked the network for " + request_url)
    browser.events = [e for e in browser.events if e.get("sessionId") != session]
    info = json.loads(result["result"]["value"])
    shown = (info["verdict"] or "").strip()
    if verdict is not None and not (re.search(verdict[1:], shown) if verdict.startswith("~") else shown == verdict):
        problems.append(f"verdict shows {info['verdict']!r}, expected {verdict!r}")
    for anchor in info["missingAnchors"]:
        problems.append(f"broken link {anchor}: no element has that id")
    base = os.path.dirname(os.path.abspath(path))
    for href in info["links"]:
        if href.startswith("#"):
            continue
        if "://" in href or href.startswith("//"):
            problems.append(f"link to the network: {href}")
            continue
        from urllib.parse import unquote
        target_path = os.path.normpath(os.path.join(base, unquote(href.split("#")[0])))
        if not os.path.exists(target_path):
            problems.append(f"broken link {href}: {target_path} does not exist")
    for extra in info["scripts"]:
        problems.append(f"the page loads an outside resource: {extra}")
    for seen in info["firstScreen"]:
        if not seen["found"]:
            problems.append(f"{seen['text']!r} is not on the page")
        elif not seen["visible"]:
            problems.append(f"{seen['text']!r} is on the page but not on the first screen (top {seen['top']:.0f} px)")
    if screenshot:
        shot = browser.call("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 1}},
                            session=session)
        with open(screenshot, "wb") as out:
            out.write(base64.b64decode(shot["data"]))
    browser.call("Target.closeTarget", {"targetId": target})
    label = f"{path}: {len(info['links'])} link(s), {info['rows']} table row(s), loaded in {seconds:.2f} s"
    return label, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", help="PAGE|VERDICT|TEXT|… for each page")
    parser.add_argument("--screenshot", help="save the first page's first screen here (PNG)")
    parser.add_argument("--max-load-seconds", type=float, default=2.0)
    options = parser.parse_args()
    browser = Browser()
    failed = 0
    try:
        for index, spec in enumerate(options.pages):
            label, problems = check_page(browser, spec, options.screenshot if index == 0 else None, options.max_load_seconds)
            print(("ok      " if not problems else "FAILED  ") + label)
            for problem in problems:
                print("    " + problem)
            failed += bool(problems)
    finally:
        browser.close()
    print(f"report_check: {len(options.pages) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
