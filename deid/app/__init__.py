"""The user-facing shells: the command line and the review service."""
