"""A minimal W3C WebDriver client over HTTP, from Python's standard library.

Why not Python's `selenium`: the end-to-end test needs eight endpoints (new
session, navigate, execute sync and async, timeouts, window size,
screenshot, delete session). Speaking them with urllib + json costs about
a hundred lines and needs no PyPI download, no virtual environment and no
selenium release that must match WebKitWebDriver's: `make e2e` stays
runnable offline once the Debian packages are there, and what is sent to
the driver is visible here.

Every call has a time limit; a WebDriver error becomes a WebDriverError
carrying the driver's own error code and message.
"""
import base64
import json
import urllib.error
import urllib.request


class WebDriverError(Exception):
    """A failed WebDriver call: the endpoint, the driver's error code and message."""


class Session:
    """One browser session on a WebDriver server (`with Session(...) as s:` deletes it on exit)."""

    def __init__(self, driver_url, capabilities, timeout=60):
        self.driver_url = driver_url.rstrip("/")
        self.timeout = timeout
        value = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session_id = value["sessionId"]
        self.capabilities = value.get("capabilities", {})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _call(self, method, path, body=None, timeout=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.driver_url + path, data=data, method=method,
            headers={"Content-Type": "application/json; charset=utf-8"})
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                payload = json.loads(response.read().decode("utf-8") or "{}")
        except urllib.error.HTTPError as error:
            try:
                value = json.loads(error.read().decode("utf-8")).get("value", {})
            except (ValueError, AttributeError):
                value = {}
            raise WebDriverError(
                f"{method} {path}: {value.get('error', error.code)}: {value.get('message', error.reason)}"
            ) from None
        except OSError as error:
            raise WebDriverError(f"{method} {path}: {error}") from None
        return payload.get("value")

    def _session(self, method, path, body=None, timeout=None):
        return self._call(method, f"/session/{self.session_id}{path}", body, timeout)

    def set_timeouts(self, page_load_ms, script_ms):
        """Bounds navigation (`page load`) and scripts (`script`), in milliseconds."""
        self._session("POST", "/timeouts", {"pageLoad": page_load_ms, "script": script_ms})

    def set_window_size(self, width, height):
        self._session("POST", "/window/rect", {"width": width, "height": height})

    def navigate(self, url):
        """Opens `url` and returns once the page's load event has fired (page load strategy 'normal')."""
        self._session("POST", "/url", {"url": url})

    def execute(self, script, *args):
        """Runs `script` as a function body in the page; returns what it returns."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def execute_async(self, script, *args):
        """Runs `script`; the page calls `arguments[arguments.length - 1](value)` to answer."""
        return self._session("POST", "/execute/async", {"script": script, "args": list(args)})

    def screenshot_png(self):
        """The viewport as PNG bytes."""
        return base64.b64decode(self._session("GET", "/screenshot"))

    def close(self):
        """Deletes the session (the driver closes the browser); errors are ignored."""
        if self.session_id is None:
            return
        try:
            self._session("DELETE", "", timeout=30)
        except WebDriverError:
            pass
        self.session_id = None


def status(driver_url, timeout=5):
    """The driver's /status `ready` flag; False when it does not answer."""
    try:
        with urllib.request.urlopen(driver_url.rstrip("/") + "/status", timeout=timeout) as response:
            return bool(json.loads(response.read().decode("utf-8")).get("value", {}).get("ready"))
    except (OSError, ValueError):
        return False
