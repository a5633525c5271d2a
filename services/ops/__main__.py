import sys

from services.ops.cli import main

sys.exit(main())
