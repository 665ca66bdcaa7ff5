"""Formats: the API's JSON shapes, backups and CSV, used by the API and the command line."""
