"""Headless Chromium for the page tests: a page's DOM as Chromium builds
it, its console lines, optionally a screenshot, and what JavaScript
evaluated in it says of the rendered page."""
import os
import shutil
import subprocess

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def dump_dom(page, profile, screenshot=None):
    """(DOM text, console lines) of page; profile is a scratch folder."""
    base = [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir=" + profile,
            "--enable-logging=stderr", "--v=0", "--window-size=1280,1400"]
    url = "file://" + os.path.abspath(page)
    dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, timeout=120)
    console = [line for line in dom.stderr.decode(errors="replace").splitlines() if ":CONSOLE" in line]
    if screenshot:
        subprocess.run(base + ["--screenshot=" + screenshot, url], capture_output=True, timeout=120)
    return dom.stdout.decode(errors="replace"), console


def evaluate(page, profile, expressions, screenshot=None):
    """The values of JavaScript expressions evaluated in page as headless
    Chromium renders it, over the DevTools protocol on a pipe (no network,
    no package beyond Python's own). The page's Content-Security-Policy
    forbids its own scripts, not the browser's: this is how a test asks
    what CSS shows (a :target filter, say) that a DOM dump cannot. With
    screenshot, the viewport as the expressions left it goes there (PNG)."""
    import base64
    import json
    import time
    r3, w3 = os.pipe()  # commands, Chromium's fd 3
    r4, w4 = os.pipe()  # answers, Chromium's fd 4

    def fds():
        os.dup2(r3, 3)
        os.dup2(w4, 4)

    proc = subprocess.Popen([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                             "--user-data-dir=" + profile, "--window-size=1280,1400", "--remote-debugging-pipe",
                             "about:blank"], pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(r3)
    os.close(w4)
    out, answers, buf, ids = os.fdopen(w3, "wb", buffering=0), os.fdopen(r4, "rb", buffering=0), [b""], [0]

    def call(method, params=None, session=None):
        ids[0] += 1
        msg = {"id": ids[0], "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        out.write(json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in buf[0]:
                more = answers.read(65536)
                if not more:
                    raise RuntimeError("chromium closed the DevTools pipe")
                buf[0] += more
            line, buf[0] = buf[0].split(b"\0", 1)
            m = json.loads(line)
            if m.get("id") == ids[0]:
                return m

    def value(expression, session):
        r = call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        return r.get("result", {}).get("result", {}).get("value")

    try:
        targets = call("Target.getTargets")["result"]["targetInfos"]
        target = [t for t in targets if t["type"] == "page"][0]["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        url = "file://" + os.path.abspath(page)
        call("Page.navigate", {"url": url}, session)
        for _ in range(600):
            if value("location.href.startsWith('file:') && document.readyState", session) == "complete":
                break
            time.sleep(0.05)
        values = [value(e, session) for e in expressions]
        if screenshot:
            shot = call("Page.captureScreenshot", {"format": "png"}, session)
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(shot["result"]["data"]))
        return values
    finally:
        proc.kill()
        proc.wait()
