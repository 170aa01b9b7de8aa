"""docs/python.md's Python examples run as written and print what their comments say."""
import contextlib
import io
import os
import re

from conftest import SOURCE


def test_python_md_examples_run():
    text = open(os.path.join(SOURCE, "docs", "python.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    ns = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/python.md", "exec"), ns)
        for line in block.splitlines():
            m = re.match(r"\s*print\(.*\)\s+#\s+(.*)$", line)
            if not m or m.group(1).startswith(("the ", "a ")):
                continue  # a comment in words, not the printed value
            expected = m.group(1).split(" ...")[0]
            expected = expected.split(": ")[0] if not expected.startswith("[") else expected
            assert expected in out.getvalue(), (line, out.getvalue()[:400])
