"""Shared pieces of the Python module's tests (run by CTest: tests/python/CMakeLists.txt)."""
import json
import os
import subprocess

import pytest

SOURCE = os.environ.get("LANESCOPE_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("LANESCOPE_CLI", "lanescope-cli")
# The sanitizer build (Debug, ASan): the same tests over fewer cases, as its CLI starts ten times slower.
SANITIZED = bool(os.environ.get("LANESCOPE_SANITIZED"))


def run_cli(*args):
    """The lanescope-cli binary (a separate process): (exit status, stdout, stderr)."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    return json.loads(out)


def cli_message(*args):
    """The CLI's error message, without its program-name prefix."""
    rc, out, err = run_cli(*args)
    assert rc != 0
    lines = [l for l in err.strip().splitlines() if l != "Run with --help for more information."]
    text = "\n".join(lines)
    for prefix in ("lanescope-cli: error: ", "lanescope-cli: "):
        if text.startswith(prefix):
            return rc, text[len(prefix):]
    return rc, text


@pytest.fixture(scope="session")
def cli():
    return run_cli
