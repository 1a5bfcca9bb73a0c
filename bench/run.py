"""`make bench`: run every benchmark script `bench/*_bench.py` in turn; each prints its figures."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("*_bench.py"))
    if not scripts:
        print("no benchmarks yet")
        return 0
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nbenchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
