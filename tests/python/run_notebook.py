"""Executes a notebook with `jupyter nbconvert --execute` and checks that its outputs hold SVG.

    python3 run_notebook.py NOTEBOOK.ipynb OUT_DIR
"""
import json
import os
import subprocess
import sys

notebook, out_dir = sys.argv[1], sys.argv[2]
os.makedirs(out_dir, exist_ok=True)
name = "executed.ipynb"
subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--output-dir", out_dir,
                "--output", name, "--ExecutePreprocessor.timeout=120", notebook], check=True)
nb = json.load(open(os.path.join(out_dir, name)))
svgs, errors = 0, []
for cell in nb["cells"]:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            errors.append(out.get("ename"))
        data = out.get("data", {})
        svg = data.get("image/svg+xml")
        if svg is not None and "<svg" in "".join(svg):
            svgs += 1
if errors:
    sys.exit(f"{notebook}: cells raised {errors}")
if svgs < 2:
    sys.exit(f"{notebook}: {svgs} SVG outputs; the notebook draws at least two layouts")
print(f"{notebook}: executed, {svgs} SVG outputs")
