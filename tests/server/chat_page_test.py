"""The chat page at / (issue 15 item 8), driven in headless Chromium through WebDriver as a person would
use it: the page shows the served model's name, a typed message streams an answer onto the page, which
equals the answer the official openai client gets for the same conversation (greedy), a second turn
carries the first, the tokens-per-second line appears, and Stop ends a long answer early (the server
counts it cancelled). Also: the page needs no API key but its requests do (a wrong key shows the
server's error), and its security headers.

    python3 tests/server/chat_page_test.py --mlxcel build/mlxcel --model MODEL.gguf
(Chromium and chromedriver: scripts/install-deps.sh --browser)
"""
import argparse
import http.client
import os
import re
import sys
import time

import openai
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checks import check, expect, launch, metric, summary

KEY = "page-test-key"


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        o.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    server_bin = os.path.join(os.path.dirname(a.mlxcel), "mlxcel-server")
    try:
        proc, port, lines = launch([server_bin, "-m", a.model, "--port", "0", "--slots", "4", "--api-key", KEY])
    except AssertionError as e:
        print(f"FAIL  server start: {e}")
        return 1
    base = f"http://127.0.0.1:{port}"
    model_id = os.path.basename(a.model)
    client = openai.OpenAI(base_url=base + "/v1", api_key=KEY, max_retries=0, timeout=300)
    d = None
    try:
        @check("GET / is the page: HTML, no key needed, a content security policy")
        def _():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/")
            r = c.getresponse()
            body = r.read().decode()
            expect(r.status == 200, f"status {r.status}")
            expect(r.getheader("Content-Type", "").startswith("text/html"), f"type {r.getheader('Content-Type')}")
            csp = r.getheader("Content-Security-Policy", "")
            expect("default-src 'none'" in csp and "connect-src 'self'" in csp, f"CSP {csp!r}")
            expect('id="send"' in body and "/v1/chat/completions" in body, "not the chat page")

        d = browser()
        wait = WebDriverWait(d, 300, poll_frequency=0.05)
        el = lambda i: d.find_element(By.ID, i)  # noqa: E731

        def assistant_texts():  # exactly as put on the page (textContent: no trimming of whitespace)
            return d.execute_script("return Array.from(document.querySelectorAll('#log .msg.assistant'), e => e.textContent)")

        def ask(text, temperature="0", max_tokens="24"):
            for field, value in (("temperature", temperature), ("max-tokens", max_tokens)):
                el(field).clear()
                el(field).send_keys(value)
            n = len(assistant_texts())
            el("input").send_keys(text)
            el("send").click()
            wait.until(lambda _: len(assistant_texts()) == n + 1)
            return n

        @check("without the key the page says why: the server's 401 message in place of the model name")
        def _():
            d.get(base + "/")
            wait.until(lambda _: el("model").text not in ("", "connecting\u2026"))
            expect("API key" in el("model").text, f"model field {el('model').text!r}")

        @check("with the key: the model's name, then a typed message streams the greedy answer onto the page")
        def _():
            el("key").send_keys(KEY)
            el("temperature").click()  # the key field's change event fires when it loses focus
            wait.until(lambda _: el("model").text == model_id)
            n = ask("Say hello in one short sentence.")
            wait.until(lambda _: "tok/s" in el("status").text or "failed" in el("status").text)
            got = assistant_texts()[n]
            want = client.chat.completions.create(model=model_id, temperature=0, max_tokens=24, messages=[
                {"role": "user", "content": "Say hello in one short sentence."}]).choices[0].message.content
            expect(got == want, f"page {got!r} != API {want!r}")
            expect(re.search(r"^\d+ tokens, [\d.]+ tok/s \((stop|length)\)$", el("status").text), f"status {el('status').text!r}")

        @check("a second turn is sent with the first (the page keeps the conversation)")
        def _():
            first_q, first_a = "Say hello in one short sentence.", assistant_texts()[0]
            n = ask("Now say goodbye.")
            wait.until(lambda _: "tok/s" in el("status").text or "failed" in el("status").text)
            want = client.chat.completions.create(model=model_id, temperature=0, max_tokens=24, messages=[
                {"role": "user", "content": first_q}, {"role": "assistant", "content": first_a},
                {"role": "user", "content": "Now say goodbye."}]).choices[0].message.content
            expect(assistant_texts()[n] == want, f"page {assistant_texts()[n]!r} != API {want!r}")

        @check("Stop ends a long answer early; the server counts it cancelled")
        def _():
            def cancelled():
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                c.request("GET", "/metrics")
                return metric(c.getresponse().read().decode(), 'mlxcel_generations_total{reason="cancelled"}') or 0
            before = cancelled()
            el("clear").click()
            n = ask("Write a very long story about a lighthouse keeper.", temperature="0.8", max_tokens="2000")
            wait.until(lambda _: len(assistant_texts()[n]) > 20)
            el("stop").click()
            wait.until(lambda _: el("status").text.startswith("stopped"))
            expect(el("send").get_attribute("disabled") is None and el("stop").get_attribute("disabled") is not None,
                   "Send and Stop were not reset")
            deadline = time.time() + 30
            while cancelled() <= before and time.time() < deadline:
                time.sleep(0.2)
            expect(cancelled() == before + 1, f"cancelled {before} -> {cancelled()}")
            expect(len(assistant_texts()[n]) > 20, "the partial answer was not kept on the page")
    finally:
        if d:
            d.quit()
        proc.terminate()
        proc.wait(timeout=60)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
