"""What the Python module's suites share: the CLI under test and a fresh
folder per test."""

import os
import pathlib
import tempfile
import unittest

CLI = os.environ.get("T2N_TEST_CLI", "t2n")


class FolderTest(unittest.TestCase):
    """self.dir: an empty folder of this test's own, removed afterwards."""

    def setUp(self):
        self._dir = tempfile.TemporaryDirectory(prefix="t2n-python-")
        self.dir = pathlib.Path(self._dir.name)

    def tearDown(self):
        self._dir.cleanup()
