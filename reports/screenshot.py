"""The dossier screenshot docs/reports.md shows: a sample hand's dossier at its finding's
step, in headless Chromium at 1280x800 (selenium; the test extra).

    python -m reports.screenshot                      # docs/img/dossier.png from PS-900000000201
    python -m reports.screenshot --hand PS-900000000207 --out /tmp/side-pot.png

The samples are audited into a temporary store under the default edition; the page is
the one ``tda-audit explain HAND --format html`` writes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--hide-scrollbars")


def dossier_screenshot(hand: str, out: Path, width: int = 1280, height: int = 800) -> Path:
    """Audit the samples, write ``hand``'s dossier and save it at its first finding's step as ``out``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from auditor.pipeline import audit
    from replay.editions import DEFAULT_EDITION
    from reports.dossier import build

    tmp = Path(tempfile.mkdtemp(prefix="tda-dossier-"))
    try:
        db = str(tmp / "samples.duckdb")
        audit([str(ROOT / "sample_histories")], db=db, edition_name=DEFAULT_EDITION)
        page, _ = build(db, DEFAULT_EDITION, hand)
        path = tmp / "dossier.html"
        path.write_text(page, encoding="utf-8")
        opts = webdriver.ChromeOptions()
        opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        for f in FLAGS:
            opts.add_argument(f)
        opts.add_argument(f"--user-data-dir={tmp / 'profile'}")
        os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium fetch a driver
        driver = webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))
        try:
            # the page's viewport exactly width x height (a window's size includes its frame)
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            driver.get(path.as_uri())
            link = driver.find_elements("css selector", "#finding-list a")
            if link:
                link[0].click()  # the step of the action in dispute, its rule beside the table
            out.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(out))
        finally:
            driver.quit()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hand", default="PS-900000000201", help="a sample hand id (default: the underraise)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "dossier.png"), help="PNG to write")
    a = ap.parse_args()
    print(dossier_screenshot(a.hand, Path(a.out)))


if __name__ == "__main__":
    main()
