"""Where Debian's lammps-examples puts LAMMPS' own example scripts, and the live tests' skip rule."""
import os
import shutil
import sys

EXAMPLES = "/usr/share/lammps/examples"


def skip_unless_installed(need_lmp=True):
    """Exit 77 (CTest: skipped) when lammps-examples, or with need_lmp Debian's lmp, is not installed."""
    if not os.path.isdir(EXAMPLES) or (need_lmp and shutil.which("lmp") is None):
        what = f"lmp and {EXAMPLES}" if need_lmp else EXAMPLES
        print(f"skipped: needs {what} (DTCRIT_WITH_LAMMPS=1 tools/setup.sh)")
        sys.exit(77)
