"""`python -m training.cli ...` works as `rubble ...`."""
import sys

from .main import main

sys.exit(main())
