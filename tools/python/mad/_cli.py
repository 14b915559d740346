"""The `mad` command that `pip install .` puts on the PATH (pyproject.toml's console script):
it runs the command-line executable built with the module and shipped inside the package
(mad/_bin/mad), so a pip user has `mad score`, `mad eval` and `mad bench` too."""

import os
import sys


def executable():
    """Where the packaged `mad` executable is (it may be absent, e.g. a module-only copy)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "mad")


def main(argv=None):
    """Replaces this process with the executable, passing `argv` (default: sys.argv[1:])."""
    path = executable()
    if not os.access(path, os.X_OK):
        sys.stderr.write("mad: error: the command-line executable is not part of this "
                         "installation (looked for %s); install the package with "
                         "`pip install .` from the source tree to get it\n" % path)
        return 1
    args = sys.argv[1:] if argv is None else list(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["mad"] + args)
