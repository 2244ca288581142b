"""Bots that take empty chairs. Every bot decides from its seat's view alone."""
