"""Pages of the console: the Trung Quân's (login, per-table permission) and the public display."""
