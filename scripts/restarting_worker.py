"""Run a worker process over numbered items, restarting it after each item that kills it.

Triton aborts the whole process on some layouts it refuses; scripts/triton-layouts.py and
scripts/gluon-roundtrip.py therefore compute each item in a worker that appends one JSON line per
item to OUT, and the parent starts a new worker after the item that killed one, recording it.
"""
import json
import subprocess


def run_restarting(out_path, total, worker_argv, describe):
    """worker_argv + [START, out_path] appends items START.. to out_path; describe(i) is the record
    (a dict) of item i, to which the parent adds the error when the worker dies on it."""
    while True:
        done = sum(1 for _ in open(out_path))
        if done >= total:
            return
        rc = subprocess.call(worker_argv + [str(done), out_path])
        done_after = sum(1 for _ in open(out_path))
        if done_after < total:  # the worker died on item `done_after`
            rec = describe(done_after)
            rec["error"] = f"Triton aborted (exit status {rc})"
            with open(out_path, "a") as out:
                out.write(json.dumps(rec) + "\n")
