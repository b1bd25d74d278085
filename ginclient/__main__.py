from __future__ import annotations

import sys

from ginclient.cli import main

sys.exit(main())
