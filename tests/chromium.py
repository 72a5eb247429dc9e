"""Headless Chromium for the page tests: a page's DOM as Chromium builds
it, its console lines, and optionally a screenshot."""
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
