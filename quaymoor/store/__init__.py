"""Storage: the archive of finished and ended games."""
