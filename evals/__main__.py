"""Entry point of `python -m evals`."""

from evals.cli import main

raise SystemExit(main())
