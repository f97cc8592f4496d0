"""`cici report` in a real browser: Debian's headless Chromium, driven by
chromedriver through selenium, renders the page of the committed
counterfactual sample (with two hand-made inspect logs); every figure's
SVG has a non-zero size, bars, its title and both axis labels, the page
loads nothing, and a screenshot is saved (to $REPORT_SCREENSHOT when set,
else into the test's temporary folder)."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cici():
    return os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))


def log(model, leaks, right):
    samples = [{"scores": {"leakage": {"value": l}, "utility": {"value": u}}}
               for l, u in zip(leaks, right)]
    return {"eval": {"model": model, "task": "cici"}, "samples": samples}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    logs = out / "logs"
    logs.mkdir()
    (logs / "a.json").write_text(json.dumps(log("mockllm/a", [1, 0, 0, 0], ["C", "C", "I", "C"])))
    (logs / "b.json").write_text(json.dumps(log("mockllm/b", [1, 1, 0], ["I", "C", "I"])))
    subprocess.run(
        [cici(), "report", str(ROOT / "generated" / "counterfactuals"), "--out", str(out / "report.html"),
         "--json", str(out / "report.json"), "--logs", str(logs)],
        check=True, capture_output=True,
    )
    return out / "report.html", json.loads((out / "report.json").read_text())


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert binary and driver_path, "apt-get install -y chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1000,1200"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def figures(report):
    return [f for fam in report["families"] for f in fam["figures"]] + report["models"]


def test_every_plot_renders_with_its_axis_labels(report, browser, tmp_path):
    page, data = report
    browser.get(page.as_uri())
    figs = figures(data)
    assert len(figs) >= 30
    assert {f["id"] for f in figs} >= {"models.leakage", "models.utility"}
    for f in figs:
        svg = browser.execute_script(
            "const s = document.getElementById(arguments[0]).querySelector('svg');"
            "const r = s.getBoundingClientRect();"
            "return {w: r.width, h: r.height, rects: s.querySelectorAll('rect').length,"
            " texts: Array.from(s.querySelectorAll('text')).map(t => t.textContent.trim())};",
            "fig-" + f["id"],
        )
        assert svg["w"] > 100 and svg["h"] > 100, (f["id"], svg)
        # The background and at least one bar.
        assert svg["rects"] >= 2, f["id"]
        for key in ("title", "x_label", "y_label"):
            assert f[key] in svg["texts"], (f["id"], key)
        for category in f["categories"]:
            assert category in svg["texts"], (f["id"], category)
    # Nothing was fetched: the page is the only resource.
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert resources == []
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1000, min(height + 200, 30000))
    shot = pathlib.Path(os.environ.get("REPORT_SCREENSHOT", tmp_path / "report.png"))
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10000
