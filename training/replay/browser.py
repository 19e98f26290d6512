"""Headless Chromium for the replay viewer: screenshots (`python -m training.replay.examples`) and the browser
test. Playwright's own browser download is not used: it drives the system's Chromium (Debian's `chromium`)."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def chromium_path() -> str | None:
    """The system Chromium's executable, or None."""
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


def missing() -> str | None:
    """Why a browser cannot run here (None when it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ModuleNotFoundError:
        return "playwright is not installed (pip install -e '.[replay]')"
    if chromium_path() is None:
        return "no system Chromium (apt-get install -y chromium)"
    return None


@contextmanager
def page(width: int = 1300, height: int = 900):
    """A Playwright page in headless system Chromium; console errors and page errors collect in `page.errors`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"])
        try:
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.errors = []
            tab.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: tab.errors.append(str(e)))
            yield tab
        finally:
            browser.close()


def open_viewer(tab, html: Path) -> None:
    """Load a viewer page from disk and wait until its pictures are decoded and the first step is drawn."""
    tab.goto(Path(html).resolve().as_uri())
    tab.wait_for_selector("body[data-ready='1']", timeout=30_000)


def screenshot(html: Path, out: Path, steps: int = 0, view_key: str | None = None) -> Path:
    """A PNG of the viewer after pressing → `steps` times (and `view_key`, e.g. '1', if given)."""
    with page() as tab:
        open_viewer(tab, html)
        for _ in range(steps):
            tab.keyboard.press("ArrowRight")
        if view_key:
            tab.keyboard.press(view_key)
        tab.screenshot(path=str(out), full_page=True)
        if tab.errors:
            raise RuntimeError(f"{html}: the page logged errors: {tab.errors}")
    return Path(out)
