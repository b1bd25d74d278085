"""The lobby's part of the JSON API: its operations and their shapes."""
