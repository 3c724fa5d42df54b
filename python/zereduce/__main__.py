"""python -m zereduce --list: the devices, as ze_reduce --list shows them (index, backend, kind, description)."""
import argparse

import zereduce

parser = argparse.ArgumentParser(prog="python -m zereduce", description=__doc__)
parser.add_argument("--list", action="store_true", help="list every device (the default)")
parser.parse_args()
for d in zereduce.devices():
    runs = "yes" if d["executes_kernels"] else "no"
    print(f"[{d['index']}] {d['backend']} {d['kind']}: {d['description']}; kernels execute: {runs}")
