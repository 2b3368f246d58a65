"""The web map of a big store in headless Chromium: load, long tasks, zoom and pan.

Starts `paperatlas serve --read-only --workers 1` of this checkout (and of --baseline-src,
one after the other) on --db, opens /map in headless Chromium (Selenium; the flags of
tests/browserkit.py) and measures, in the page:

- load: seconds from asking for /map to the map drawn (window.atlasMap exists), the
  points the page holds, the JSON's size, and the server's RSS after it answered;
- long tasks (PerformanceObserver 'longtask', > 50 ms: the browser not answering input)
  during the load and during the interaction: count, longest, total;
- a draw of the overview (ms, median of 5);
- zoom: the view zoomed 8x on the biggest broad topic's centre, then the seconds until
  the view's papers have come (atlasMap.detail) and the draw after it (ms, median of 5);
- pan: a drag of 20 mouse moves of 25 px (real input events through ActionChains), the frame
  draws they caused (ms: median, max);
- filter: --filter-word typed into the filter box (key events) at the overview; on a sampled
  map the seconds until the server's matches have come (atlasMap.found), how many it found
  and drew, the points highlighted, the draws while typing and long tasks, the note shown.

Screenshots (PNG, 1200x800 scaled to 900 px wide) of the overview and the zoomed view go to --shots.

    .venv/bin/python benchmarks/web_map_browser.py --db /tmp/addspeed/n1m2.db
        [--baseline-src /tmp/base14] [--shots docs/bench/img] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from web_load import (  # noqa: E402
    SRC,
    Watchdog,
    cli_command,
    free_port,
    process_memory,
    stop_server,
    wait_healthy,
)

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--window-size=1200,800",
)

# installed before the page's own scripts run: long tasks and each draw's time
OBSERVE = """
window.__long = [];
new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push(e.duration)))
  .observe({type: 'longtask', buffered: true});
"""
TIME_DRAWS = """
const m = window.atlasMap;
if (!m.__timed) {
  m.__timed = true; window.__draws = [];
  const draw = m.draw.bind(m);
  m.draw = function () { const t = performance.now(); draw(); window.__draws.push(performance.now() - t); };
}
"""


def long_tasks(driver) -> dict:
    durations = driver.execute_script("const d = window.__long || []; window.__long = []; return d;")
    return {
        "count": len(durations),
        "max_ms": round(max(durations, default=0)),
        "total_ms": round(sum(durations)),
    }


def median(values: list[float]) -> float:
    v = sorted(values)
    return round(v[len(v) // 2], 1) if v else 0.0


def draw_ms(driver, times: int = 5) -> float:
    return median(
        driver.execute_script(
            f"const m = window.atlasMap, out = []; for (let i = 0; i < {times}; i++) "
            "{ const t = performance.now(); m.paint ? m.paint() : m.draw(); out.push(performance.now() - t); } "
            "return out;"
        )
    )


def shot(driver, path: Path) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    img = Image.open(path)
    img.thumbnail((900, 900))
    img.convert("P", palette=Image.Palette.ADAPTIVE, colors=128).save(path, optimize=True)


def filter_step(driver, args, label: str) -> dict:
    """Type --filter-word into the map's filter box (real key events), then wait for a
    sampled map's answer from the server (atlasMap.found): seconds, papers found and
    drawn, the highlighted points, the draws while typing, long tasks, the note shown."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.atlasMap.fit(); window.__draws = [];")
    long_tasks(driver)
    box = driver.find_element("css selector", ".atlas-filter")
    t0 = time.time()
    box.send_keys(args.filter_word)
    typed = time.time() - t0
    lod = driver.execute_script("return !!window.atlasMap.lod && !!window.atlasMap.matchUrl")
    out: dict = {"word": args.filter_word, "typing_s": round(typed, 2)}
    if lod:
        try:
            WebDriverWait(driver, 120, poll_frequency=0.05).until(
                lambda d: d.execute_script("const f = window.atlasMap.found; return !!(f && f.points)")
            )
            out["answer_s"] = round(time.time() - t0, 2)
            out["found"], out["complete"], out["found_drawn"] = driver.execute_script(
                "const f = window.atlasMap.found; return [f.found, f.complete, f.points.length]"
            )
        except Exception as exc:  # no answer: say so
            out["answer_s"] = f"none in 120 s ({type(exc).__name__})"
    time.sleep(0.5)
    draws = driver.execute_script("return window.__draws")
    out["draws"] = {"count": len(draws), "median_ms": median(draws), "max_ms": round(max(draws, default=0))}
    out["highlighted"] = driver.execute_script(
        "const m = window.atlasMap; let n = 0; if (m.match) for (const v of m.match) n += v; return n"
    )
    out["points_held"] = driver.execute_script("return window.atlasMap.points.length")
    out["draw_filtered_ms"] = draw_ms(driver)
    out["long_tasks"] = long_tasks(driver)
    out["note"] = driver.execute_script(
        "const n = document.querySelector('.atlas-lod'); return n ? n.textContent : null"
    )
    if args.shots:
        shot(driver, args.shots / f"{args.prefix}-{args.tag(label)}-filter.png")
    return out


def measure(label: str, src: Path, args) -> dict:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import WebDriverWait

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [
        *cli_command(src),
        "serve",
        "--db",
        str(args.db),
        "--port",
        str(port),
        "--workers",
        "1",
        "--read-only",
    ]
    print(f"\n== {label} ({src}); load {os.getloadavg()[0]:.1f}", flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dog = Watchdog(proc, args.max_rss_gb * 1024, args.max_seconds)
    out: dict = {"label": label}
    driver = None
    try:
        wait_healthy(proc, base, pause=0.3)
        if proc.poll() is not None:
            out["failed"] = dog.why or "server exited"
            return out
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in FLAGS:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_page_load_timeout(args.max_seconds)
        driver.set_script_timeout(args.max_seconds)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVE})
        t0 = time.time()
        driver.get(base + "/map" + (f"?list={args.list}" if args.list else ""))
        try:
            WebDriverWait(driver, args.max_seconds, poll_frequency=0.1).until(
                lambda d: (
                    d.execute_script("return !!(window.atlasMap && window.atlasMap.width)")
                    or proc.poll() is not None
                )
            )
        except Exception as exc:  # a timeout or a dead page: say which
            out["failed"] = dog.why or f"map not drawn: {type(exc).__name__}"
            return out
        if proc.poll() is not None:
            out["failed"] = dog.why or "server exited"
            return out
        out["load_s"] = round(time.time() - t0, 1)
        out["points_held"] = driver.execute_script("return window.atlasMap.points.length")
        out["papers"] = driver.execute_script(
            "const m = window.atlasMap; return m.lod ? m.lod.papers : m.points.length"
        )
        out["map_json_kb"] = driver.execute_script(
            "const e = performance.getEntriesByType('resource').find(r => r.name.includes('/api/map'));"
            "return e ? Math.round(e.encodedBodySize / 1024) : null"
        )
        out["server_rss_mb"], out["server_peak_mb"] = process_memory(proc.pid)
        out["long_tasks_load"] = long_tasks(driver)
        out["draw_overview_ms"] = draw_ms(driver)
        if args.shots:
            shot(driver, args.shots / f"{args.prefix}-{args.tag(label)}-overview.png")
        print(f"  load {out['load_s']} s, {out['points_held']:,} points held; {out}", flush=True)
        # zoom 8x on the biggest broad topic, then wait for the view's papers
        driver.execute_script(TIME_DRAWS)
        long_tasks(driver)
        t1 = time.time()
        driver.execute_script(
            "const m = window.atlasMap, t = m.broad.slice().sort((a, b) => b.size - a.size)[0];"
            "m.zoomTo(t.x - 0.03, t.y - 0.03, t.x + 0.03, t.y + 0.03);"
        )
        lod = driver.execute_script("return !!window.atlasMap.lod")
        if lod:
            WebDriverWait(driver, 120, poll_frequency=0.05).until(
                lambda d: d.execute_script(
                    "return !!(window.atlasMap.detail && window.atlasMap.detail.points)"
                )
            )
        out["zoom_k"] = round(driver.execute_script("return window.atlasMap.view.k"), 1)
        out["zoom_detail_s"] = round(time.time() - t1, 2) if lod else None
        out["points_after_zoom"] = driver.execute_script("return window.atlasMap.points.length")
        out["draw_zoomed_ms"] = draw_ms(driver)
        out["long_tasks_zoom"] = long_tasks(driver)
        if args.shots:
            shot(driver, args.shots / f"{args.prefix}-{args.tag(label)}-zoomed.png")
        # pan: real drags on the canvas
        canvas = driver.find_element("css selector", ".atlas-canvas")
        driver.execute_script("window.__draws = []")
        t2 = time.time()
        chain = ActionChains(driver)
        chain.move_to_element_with_offset(canvas, -250, 0).click_and_hold()
        for _ in range(20):
            chain.move_by_offset(25, 0)
        chain.release().perform()
        out["pan_s"] = round(time.time() - t2, 2)
        draws = driver.execute_script("return window.__draws")
        out["pan_draws"] = {
            "count": len(draws),
            "median_ms": median(draws),
            "max_ms": round(max(draws, default=0)),
        }
        time.sleep(1.0)  # the view's papers after the pan, if any
        out["long_tasks_pan"] = long_tasks(driver)
        out["filter"] = filter_step(driver, args, label)
        out["server_rss_end_mb"], out["server_peak_end_mb"] = process_memory(proc.pid)
        print(f"  {out}", flush=True)
        return out
    finally:
        if driver is not None:
            driver.quit()
        if proc.poll() is None:
            stop_server(proc)
        out["watchdog"] = dog.why
        out["watchdog_peak_mb"] = round(dog.peak)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--baseline-src", type=Path)
    ap.add_argument("--list", help="the list whose map to open (default: the whole store's)")
    ap.add_argument("--shots", type=Path, help="folder for the screenshots")
    ap.add_argument("--prefix", default="map", help="screenshot file names' start")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--max-rss-gb", type=float, default=8.0, help="kill a server past this RSS")
    ap.add_argument("--max-seconds", type=float, default=300.0)
    ap.add_argument("--only-baseline", action="store_true")
    ap.add_argument("--filter-word", default="graph", help="typed into the map's filter box")
    args = ap.parse_args()
    args.tag = lambda label: "new" if label == "this code" else "base"
    runs = [] if args.only_baseline else [("this code", SRC)]
    if args.baseline_src:
        runs.append((f"baseline {args.baseline_src}", args.baseline_src.resolve() / "src"))
    results = [measure(label, src, args) for label, src in runs]
    for r in results:
        print(json.dumps(r))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
