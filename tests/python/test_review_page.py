"""`cici review` in a real headless Chromium (Debian's chromium and
chromedriver, driven by selenium): every row listed, filters, verdicts by
keyboard into review.jsonl, verdicts kept across a reload, seed text shown
as text, and 2,000 rows listed quickly."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CICI = os.environ.get("CICI", str(ROOT / "target" / "release" / "cici"))
SAMPLE = ROOT / "generated" / "counterfactuals"
CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(
    not (CHROMEDRIVER and CHROMIUM),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


def rows_of(folder):
    out = []
    for kind in ("decision", "flow"):
        for split in ("train", "validation", "test"):
            path = folder / kind / f"{split}.jsonl"
            if path.exists():
                out += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return out


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def serve(folder, reviewer="alice"):
    proc = subprocess.Popen(
        [CICI, "review", str(folder), "--reviewer", reviewer],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return proc, url


@pytest.fixture
def folder(tmp_path):
    out = tmp_path / "data"
    shutil.copytree(SAMPLE, out)
    return out


def ready(driver):
    deadline = time.time() + 20
    while time.time() < deadline:
        if driver.execute_script("return document.body.dataset.ready"):
            return
        time.sleep(0.05)
    raise AssertionError("the page never finished its first render")


def listed_ids(driver):
    """Every id the list shows, scrolling it from top to bottom."""
    seen = set()
    driver.execute_script("document.getElementById('list').scrollTop = 0")
    while True:
        time.sleep(0.05)
        for el in driver.find_elements("css selector", "#spacer .row"):
            seen.add(el.get_attribute("data-id"))
        done = driver.execute_script(
            "const l = document.getElementById('list');"
            "const end = l.scrollTop + l.clientHeight >= l.scrollHeight - 1;"
            "l.scrollTop += l.clientHeight; return end;"
        )
        if done:
            return seen


def ledger(folder):
    path = folder / "review.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def press(driver, key):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_lists_filters_and_keeps_verdicts(browser, folder, tmp_path):
    from selenium.webdriver.support.ui import Select

    rows = rows_of(folder)
    proc, url = serve(folder)
    try:
        browser.get(url)
        ready(browser)
        assert listed_ids(browser) == {r["id"] for r in rows}
        browser.save_screenshot(str(tmp_path / "review.png"))

        Select(browser.find_element("id", "f-kind")).select_by_visible_text("flow")
        flows = {r["id"] for r in rows if r["kind"] == "flow"}
        assert listed_ids(browser) == flows
        assert browser.find_element("id", "shown").get_attribute("textContent") == str(len(flows))

        # The first flow row: a note, then accept with `a`; the next: reject with `r`.
        browser.execute_script("document.getElementById('list').scrollTop = 0")
        first = browser.find_element("id", "detail").get_attribute("data-id")
        browser.find_element("tag name", "body").click()
        press(browser, "n")
        press(browser, "reads well")
        from selenium.webdriver.common.keys import Keys

        press(browser, Keys.ESCAPE)
        press(browser, "a")
        deadline = time.time() + 5
        while len(ledger(folder)) < 1 and time.time() < deadline:
            time.sleep(0.05)
        # The page moves on once the server has answered.
        detail = lambda: browser.find_element("id", "detail").get_attribute("data-id")
        while detail() == first and time.time() < deadline:
            time.sleep(0.05)
        second = detail()
        assert second != first
        press(browser, "r")
        while (len(ledger(folder)) < 2 or detail() == second) and time.time() < deadline:
            time.sleep(0.05)
        press(browser, "k")
        press(browser, "k")
        assert browser.find_element("id", "detail").get_attribute("data-id") == first

        got = ledger(folder)
        assert [(g["id"], g["verdict"], g["reviewer"]) for g in got] == [
            (first, "accept", "alice"),
            (second, "reject", "alice"),
        ]
        assert got[0]["note"] == "reads well"
        assert all(len(g["hash"]) == 64 and g["time"].endswith("Z") for g in got)

        browser.refresh()
        ready(browser)
        Select(browser.find_element("id", "f-status")).select_by_visible_text("reject")
        assert listed_ids(browser) == {second}
        Select(browser.find_element("id", "f-status")).select_by_visible_text("accept")
        assert listed_ids(browser) == {first}
        assert "reads well" in browser.find_element("id", "detail").text
    finally:
        proc.terminate()
        proc.wait(5)


SIDES = ("anchor", "flipped", "held")


def recipient_line(item):
    name = re.search(r"worded exactly as above, to (.+?) \(", item).group(1)
    return next(line for line in item.split("\n") if line.startswith(f"- {name}, "))


def first_trap(traps):
    return next((t["honoured_answer"] for t in json.loads(traps or "[]") if t["honoured_answer"]), None)


# The shortcut readers the page documents (docs/guide/review.md), computed
# here apart from cici's code: each answers one side of a triplet.
READERS = {
    "groups": lambda r, s: ("yes" if re.search(r"\(groups: (?!none\))", recipient_line(r[f"{s}_item"]))
                            else "no") if r["kind"] == "flow" else None,
    "decider": lambda r, s: ("yes" if "(makes the decision)" in recipient_line(r[f"{s}_item"])
                             else "no") if r["kind"] == "flow" else None,
    "trap": lambda r, s: first_trap(r[f"{s}_traps"]) if r["kind"] == "decision" else None,
}


def passes(reader, row):
    return all(READERS[reader](row, s) == row[f"{s}_answer"] for s in SIDES)


def test_filter_by_baseline_hit(browser, folder):
    from selenium.webdriver.support.ui import Select

    # Two decision rows whose first trap is made to lead to each side's own
    # answer: the every-detail reader passes them.
    path = folder / "decision" / "train.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    planted = set()
    for row in lines[:2]:
        for s in SIDES:
            row[f"{s}_traps"] = json.dumps([{"attribute": "x", "text": "x", "honoured_answer": row[f"{s}_answer"]}])
        planted.add(row["id"])
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    rows = rows_of(folder)
    proc, url = serve(folder)
    try:
        browser.get(url)
        ready(browser)
        hit = Select(browser.find_element("id", "f-hit"))
        options = [o.text for o in hit.options]
        assert options[:3] == ["all", "any", "none"], options
        assert set(READERS) <= set(options[3:]) <= set(READERS) | {"majority", "most_named"}
        for reader in READERS:
            hit.select_by_visible_text(reader)
            want = {r["id"] for r in rows if passes(reader, r)}
            assert listed_ids(browser) == want, reader
        assert {r["id"] for r in rows if passes("trap", r)} == planted
        hit.select_by_visible_text("trap")
        detail = browser.find_element("id", "detail").text
        assert "right on all three sides: trap" in detail
        assert detail.count("✓ trap") == 3
        hit.select_by_visible_text("any")
        passed = listed_ids(browser)
        hit.select_by_visible_text("none")
        failed = listed_ids(browser)
        assert passed | failed == {r["id"] for r in rows} and not passed & failed
        assert planted <= passed
        print(f"{len(passed)} of {len(rows)} triplets passed by a shortcut reader (2 planted)")
    finally:
        proc.terminate()
        proc.wait(5)


def test_script_in_a_seed_is_shown_as_text(browser, tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    text = (ROOT / "seeds" / "ops_scheduling.cici").read_text()
    marker = "Handles childcare drop-off; often arrives late."
    assert marker in text
    hostile = "<script>window.pwned = 1</script><img src=x onerror=window.pwned=2> childcare."
    (seeds / "hostile.cici").write_text(text.replace(marker, hostile))
    out = tmp_path / "out"
    subprocess.run([CICI, "counterfactual", str(seeds), "--out", str(out)], check=True, capture_output=True)
    assert any(hostile in r["anchor_item"] for r in rows_of(out))
    proc, url = serve(out)
    try:
        browser.get(url)
        ready(browser)
        assert hostile in browser.find_element("id", "detail").text
        assert browser.execute_script("return window.pwned === undefined")
        assert browser.execute_script("return document.querySelectorAll('#detail script, #detail img').length") == 0
    finally:
        proc.terminate()
        proc.wait(5)


def test_two_thousand_rows_list_within_a_second(browser, folder):
    rows = rows_of(folder)
    big = []
    i = 0
    while len(big) < 2000:
        row = dict(rows[i % len(rows)])
        row["id"] = f"{i:032x}"
        big.append(row)
        i += 1
    # Spread over the split files, as a run spreads its rows.
    for p in list((folder / "decision").glob("*.jsonl")) + list((folder / "flow").glob("*.jsonl")):
        p.unlink()
    for n, split in enumerate(("train", "validation", "test")):
        part = big[n::3]
        (folder / "decision" / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in part))
    proc, url = serve(folder)
    try:
        browser.get(url)
        ready(browser)
        timing = browser.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [Number(document.body.dataset.ready), n.responseEnd, n.domContentLoadedEventEnd];"
        )
        ready_at, response_end, _ = timing
        print(f"2000 rows: listed {ready_at - response_end:.0f} ms after the page arrived "
              f"({ready_at:.0f} ms after navigation start)")
        assert ready_at - response_end < 1000, timing
        assert browser.find_element("id", "shown").get_attribute("textContent") == "2000"
        assert len(listed_ids(browser)) == 2000
    finally:
        proc.terminate()
        proc.wait(5)
