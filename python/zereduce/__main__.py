"""python -m zereduce --list [-v]: the devices, as ze_reduce --list [-v] lists them (the same text, made by the
same code): backend, kind, description, capabilities, whether kernels execute, and the strategies allowed."""
import argparse

from . import _zereduce

parser = argparse.ArgumentParser(prog="python -m zereduce", description=__doc__)
parser.add_argument("--list", action="store_true", help="list every device (the default)")
parser.add_argument("-v", "--verbose", action="store_true", help="every op and type, not a summary")
arguments = parser.parse_args()
print(_zereduce.devices_text(arguments.verbose), end="")
