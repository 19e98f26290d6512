"""`rubble`: the command line. Each verb parses its arguments and calls one capability; nothing imports this package."""
from .main import build_parser, main

__all__ = ["build_parser", "main"]
